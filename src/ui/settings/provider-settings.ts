// The provider settings the Settings dialog edits: provider configs (with their keys, kept only in
// this origin's IndexedDB) and the default model. One way in for changes; the store is view state.
import { createStore, type StoreApi } from "zustand/vanilla";
import { errorMessage } from "../../base";
import { loadProviderConfigs, saveProviderConfigs, type ModelInfo, type ProviderConfig } from "../../providers";
import type { ModelRef, Storage } from "../../storage";

/** Settings key of the default model (a ModelRef). */
export const DEFAULT_MODEL_KEY = "defaultModel";

export interface ProviderSettingsState {
  loaded: boolean;
  configs: ProviderConfig[];
  defaultModel?: ModelRef;
  /** Problems met while loading (invalid stored entries were skipped). */
  problems: string[];
}

export class ProviderSettings {
  readonly store: StoreApi<ProviderSettingsState> = createStore<ProviderSettingsState>(() => ({ loaded: false, configs: [], problems: [] }));

  constructor(private readonly storage: Pick<Storage, "settings">) {}

  async load(): Promise<void> {
    const problems: string[] = [];
    const configs = await loadProviderConfigs(this.storage, (problem) => problems.push(problem));
    const stored = await this.storage.settings.get<unknown>(DEFAULT_MODEL_KEY);
    const defaultModel = restoreModelRef(stored);
    this.store.setState({ loaded: true, configs, problems, ...(defaultModel ? { defaultModel } : {}) });
  }

  get configs(): ProviderConfig[] {
    return this.store.getState().configs;
  }

  /** The default model: the chosen one if it still exists, else the first model of the first provider. */
  get defaultModel(): ModelRef | undefined {
    const { defaultModel, configs } = this.store.getState();
    if (defaultModel && findModel(configs, defaultModel)) return defaultModel;
    const first = configs.find((c) => c.models.length > 0);
    return first ? { providerId: first.id, modelId: first.models[0]!.id } : undefined;
  }

  /** Adds or replaces a provider (by id) and saves. */
  async saveProvider(config: ProviderConfig): Promise<void> {
    const configs = this.configs.slice();
    const index = configs.findIndex((c) => c.id === config.id);
    if (index >= 0) configs[index] = config;
    else configs.push(config);
    await this.persist(configs);
  }

  async removeProvider(providerId: string): Promise<void> {
    await this.persist(this.configs.filter((c) => c.id !== providerId));
    if (this.store.getState().defaultModel?.providerId === providerId) await this.setDefaultModel(undefined);
  }

  async setDefaultModel(ref: ModelRef | undefined): Promise<void> {
    if (ref) await this.storage.settings.put(DEFAULT_MODEL_KEY, { providerId: ref.providerId, modelId: ref.modelId });
    else await this.storage.settings.delete(DEFAULT_MODEL_KEY);
    this.store.setState({ defaultModel: ref });
  }

  /** Sets a provider's small model (titles and summaries). */
  async setSmallModel(providerId: string, modelId: string | undefined): Promise<void> {
    const config = this.configs.find((c) => c.id === providerId);
    if (!config) return;
    const next: ProviderConfig = { ...config };
    if (modelId) next.smallModel = modelId;
    else delete next.smallModel;
    await this.saveProvider(next);
  }

  private async persist(configs: ProviderConfig[]): Promise<void> {
    try {
      await saveProviderConfigs(this.storage, configs);
    } catch (error) {
      throw new Error(`The provider settings could not be saved: ${errorMessage(error)}. Check that this site may store data, then try again.`, { cause: error });
    }
    this.store.setState({ configs });
  }
}

function restoreModelRef(value: unknown): ModelRef | undefined {
  const ref = value as Partial<ModelRef> | null | undefined;
  return ref && typeof ref.providerId === "string" && typeof ref.modelId === "string" ? { providerId: ref.providerId, modelId: ref.modelId } : undefined;
}

export function findModel(configs: readonly ProviderConfig[], ref: ModelRef): ModelInfo | undefined {
  return configs.find((c) => c.id === ref.providerId)?.models.find((m) => m.id === ref.modelId);
}

/** A provider id not used yet: the preset id, else "<preset>-2", "-3", ... */
export function uniqueProviderId(presetId: string, configs: readonly ProviderConfig[]): string {
  if (!configs.some((c) => c.id === presetId)) return presetId;
  for (let n = 2; ; n++) if (!configs.some((c) => c.id === `${presetId}-${n}`)) return `${presetId}-${n}`;
}
