// The provider settings the Settings dialog edits: provider configs (with their keys, kept only in
// this origin's IndexedDB) and the default model. One way in for changes; the store is view state.
import { createStore, type StoreApi } from "zustand/vanilla";
import { Serial, UserFacingError, errorMessage } from "../../base";
import {
  WrongPassphraseError,
  holdsLockedSecret,
  loadProviderSettings,
  mergeSecrets,
  PROVIDER_SETTINGS_KEY,
  openVault,
  replaceLockedSecrets,
  saveProviderConfigs,
  splitSecrets,
  type KeyVault,
  type ModelInfo,
  type ProviderConfig,
  type ProviderSecrets,
  REASONING_EFFORTS,
  type ReasoningEffort,
} from "../../providers";
import type { ModelRef } from "../../storage";
import { reloadWhenStoredElsewhere, type SettingsStorage } from "./follow-other-tabs";

/** Settings key of the default model (a ModelRef). */
export const DEFAULT_MODEL_KEY = "defaultModel";
/** Settings key of each provider's own chosen model ({ providerId: modelId }), used as a fallback default. */
export const PROVIDER_MODELS_KEY = "providerModels";
/** Settings key of the reasoning level chosen per model ({ "providerId/modelId": level }). */
export const REASONING_KEY = "reasoningEfforts";

export interface ProviderSettingsState {
  loaded: boolean;
  configs: ProviderConfig[];
  defaultModel?: ModelRef;
  /** The model last chosen for each provider (in its form or as the default). */
  providerModels: Record<string, string>;
  /** Problems met while loading (invalid stored entries were skipped). */
  problems: string[];
  /**
   * How the keys are stored: "plain" (as typed), or sealed by a passphrase and "locked" (not
   * given yet in this page load) or "unlocked".
   */
  keys: "plain" | "locked" | "unlocked";
  /** The reasoning level chosen per model ("providerId/modelId"); absent: the provider's default. */
  reasoning: Record<string, ReasoningEffort>;
}

/** Asks the user for the passphrase (`problem`: why the last one failed); undefined = cancelled. */
export type PassphraseAsker = (problem?: string) => Promise<string | undefined>;

/** Other secrets kept under the same passphrase (the MCP servers' headers and OAuth tokens). */
export interface SealedStore {
  /** The passphrase was given in this page load: open the sealed secrets with it. */
  unlocked(passphrase: string): Promise<void>;
  /** The passphrase was set or changed (a string), or removed (undefined): store the secrets again. */
  reseal(passphrase: string | undefined): Promise<void>;
}

export const KEYS_LOCKED_MESSAGE = "The provider keys are locked by your passphrase. Enter it when asked (or in Settings → Key protection) to use them.";

export class ProviderSettings {
  readonly store: StoreApi<ProviderSettingsState> = createStore<ProviderSettingsState>(() => ({ loaded: false, configs: [], providerModels: {}, problems: [], keys: "plain", reasoning: {} }));
  private vault?: KeyVault;
  /** Kept for this page load once given, so that saving a provider seals the keys again. */
  private passphrase?: string;
  private unlocking?: Promise<void>;
  private askPassphrase?: PassphraseAsker;
  private readonly sealedStores: SealedStore[] = [];
  /** Every change reads the current settings and stores the next: one at a time, in order. */
  private readonly writes = new Serial();

  constructor(private readonly storage: SettingsStorage) {
    reloadWhenStoredElsewhere(storage, [PROVIDER_SETTINGS_KEY, DEFAULT_MODEL_KEY, PROVIDER_MODELS_KEY, REASONING_KEY], () =>
      this.writes.run(() => this.read(this.passphrase)),
    );
  }

  /**
   * Reads the stored settings (through the write queue, so a reload from another tab cannot apply
   * an older read after it). Nothing that runs inside the queue may wait for requireKeys(): the
   * passphrase dialog's unlock() queues too.
   */
  load(): Promise<void> {
    return this.writes.run(() => this.read(undefined));
  }

  /**
   * Reads the stored settings into the store at once. With the passphrase this tab unlocked with
   * (another tab stored a change), keys it still opens stay unlocked, so nothing asks again.
   */
  private async read(passphrase: string | undefined): Promise<void> {
    const problems: string[] = [];
    const { configs, vault } = await loadProviderSettings(this.storage, (problem) => problems.push(problem));
    let usable = configs;
    let keys: ProviderSettingsState["keys"] = vault ? "locked" : "plain";
    let kept: string | undefined;
    if (vault && passphrase !== undefined && this.vault && JSON.stringify(vault) === JSON.stringify(this.vault)) {
      // The keys did not change (another setting did): no need to derive the key again (600,000 rounds).
      usable = mergeSecrets(configs, this.secrets());
      keys = "unlocked";
      kept = passphrase;
    } else if (vault && passphrase !== undefined) {
      try {
        usable = mergeSecrets(configs, await openVault(vault, passphrase));
        keys = "unlocked";
        kept = passphrase;
      } catch (error) {
        // Sealed with another passphrase meanwhile: locked here too, and asked for on next use.
        if (!(error instanceof WrongPassphraseError)) throw error;
      }
    }
    const defaultModel = restoreModelRef(await this.storage.settings.get<unknown>(DEFAULT_MODEL_KEY));
    const providerModels = restoreProviderModels(await this.storage.settings.get<unknown>(PROVIDER_MODELS_KEY));
    const reasoning = restoreReasoning(await this.storage.settings.get<unknown>(REASONING_KEY));
    this.vault = vault;
    this.passphrase = kept;
    this.store.setState({ loaded: true, configs: usable, providerModels, problems, reasoning, keys, defaultModel });
  }

  /** The reasoning level chosen for a model, if any. */
  reasoningFor(ref: ModelRef): ReasoningEffort | undefined {
    return this.store.getState().reasoning[reasoningKey(ref)];
  }

  /** Remembers the reasoning level for a model (undefined: back to the provider's default). */
  setReasoning(ref: ModelRef, effort: ReasoningEffort | undefined): Promise<void> {
    return this.writes.run(async () => {
      const next = { ...this.store.getState().reasoning };
      if (effort) next[reasoningKey(ref)] = effort;
      else delete next[reasoningKey(ref)];
      await this.storage.settings.put(REASONING_KEY, next);
      this.store.setState({ reasoning: next });
    });
  }

  get configs(): ProviderConfig[] {
    return this.store.getState().configs;
  }

  /**
   * The default model: the chosen one if it still exists, else the first provider's own chosen model,
   * else that provider's first model.
   */
  get defaultModel(): ModelRef | undefined {
    const { defaultModel, configs, providerModels } = this.store.getState();
    if (defaultModel && findModel(configs, defaultModel)) return defaultModel;
    const first = configs.find((c) => c.models.length > 0);
    if (!first) return undefined;
    const own = providerModels[first.id];
    const modelId = own && first.models.some((m) => m.id === own) ? own : first.models[0]!.id;
    return { providerId: first.id, modelId };
  }

  /** The model chosen for one provider, if it still has it. */
  providerModel(providerId: string): string | undefined {
    const { configs, providerModels } = this.store.getState();
    const own = providerModels[providerId];
    return own && configs.find((c) => c.id === providerId)?.models.some((m) => m.id === own) ? own : undefined;
  }

  /** Remembers the model chosen for a provider (its fallback when it becomes the default). */
  setProviderModel(providerId: string, modelId: string | undefined): Promise<void> {
    return this.writes.run(() => this.storeProviderModel(providerId, modelId));
  }

  private async storeProviderModel(providerId: string, modelId: string | undefined): Promise<void> {
    const next = { ...this.store.getState().providerModels };
    if (modelId) next[providerId] = modelId;
    else delete next[providerId];
    await this.storage.settings.put(PROVIDER_MODELS_KEY, next);
    this.store.setState({ providerModels: next });
  }

  /** Adds or replaces a provider (by id) and saves. */
  async saveProvider(edited: ProviderConfig): Promise<void> {
    await this.requireKeys();
    await this.writes.run(() => this.storeProvider(edited));
  }

  private async storeProvider(edited: ProviderConfig): Promise<void> {
    // A form opened while locked holds stand-ins for the key it did not change: the real one now.
    const config = this.withRealSecrets(edited);
    const configs = this.configs.slice();
    const index = configs.findIndex((c) => c.id === config.id);
    if (index >= 0) configs[index] = config;
    else configs.push(config);
    await this.persist(configs);
  }

  async removeProvider(providerId: string): Promise<void> {
    await this.requireKeys();
    await this.writes.run(async () => {
      await this.persist(this.configs.filter((c) => c.id !== providerId));
      if (this.store.getState().defaultModel?.providerId === providerId) await this.storeDefaultModel(undefined);
      if (this.store.getState().providerModels[providerId]) await this.storeProviderModel(providerId, undefined);
    });
  }

  /** Sets the default model; it also becomes its provider's own chosen model. */
  setDefaultModel(ref: ModelRef | undefined): Promise<void> {
    return this.writes.run(() => this.storeDefaultModel(ref));
  }

  private async storeDefaultModel(ref: ModelRef | undefined): Promise<void> {
    if (!ref) {
      await this.storage.settings.delete(DEFAULT_MODEL_KEY);
      this.store.setState({ defaultModel: undefined });
      return;
    }
    const providerModels = { ...this.store.getState().providerModels, [ref.providerId]: ref.modelId };
    await Promise.all([
      this.storage.settings.put(DEFAULT_MODEL_KEY, { providerId: ref.providerId, modelId: ref.modelId }),
      this.storage.settings.put(PROVIDER_MODELS_KEY, providerModels),
    ]);
    this.store.setState({ defaultModel: ref, providerModels });
  }

  /** Sets a provider's small model (titles and summaries). */
  async setSmallModel(providerId: string, modelId: string | undefined): Promise<void> {
    await this.requireKeys();
    await this.writes.run(async () => {
      const config = this.configs.find((c) => c.id === providerId);
      if (!config) return;
      const next: ProviderConfig = { ...config };
      if (modelId) next.smallModel = modelId;
      else delete next.smallModel;
      await this.storeProvider(next);
    });
  }

  /** Who asks for the passphrase when a locked key is first needed (the UI registers a dialog). */
  setPassphraseAsker(asker: PassphraseAsker | undefined): void {
    this.askPassphrase = asker;
  }

  /** Keeps another store's secrets under the same passphrase (told when it is given, set, changed or removed). */
  addSealedStore(store: SealedStore): void {
    this.sealedStores.push(store);
  }

  /** Opens the vault with `passphrase`; throws WrongPassphraseError. */
  async unlock(passphrase: string): Promise<void> {
    // In the queue: a reload from another tab cannot lock the keys again right after, nor this open a stale vault.
    const opened = await this.writes.run(async () => {
      if (!this.vault || this.store.getState().keys !== "locked") return false;
      const secrets = await openVault(this.vault, passphrase);
      this.passphrase = passphrase;
      this.store.setState({ configs: mergeSecrets(this.configs, secrets), keys: "unlocked" });
      return true;
    });
    if (opened) for (const store of this.sealedStores) await store.unlocked(passphrase);
  }

  /**
   * Resolves once the keys can be used: at once unless they are locked; then the passphrase is
   * asked for (once per page load, however many requests wait). Throws when it is not given.
   */
  requireKeys(): Promise<void> {
    if (this.store.getState().keys !== "locked") return Promise.resolve();
    this.unlocking ??= this.askUntilUnlocked().finally(() => (this.unlocking = undefined));
    return this.unlocking;
  }

  private async askUntilUnlocked(): Promise<void> {
    let problem: string | undefined;
    for (;;) {
      const passphrase = await this.askPassphrase?.(problem);
      if (passphrase === undefined) throw new UserFacingError(KEYS_LOCKED_MESSAGE, "keys-locked");
      try {
        await this.unlock(passphrase);
        return;
      } catch (error) {
        if (!(error instanceof WrongPassphraseError)) throw error;
        problem = `${error.message} Try again.`;
      }
    }
  }

  /** The real secrets, by provider (after requireKeys). */
  private secrets(): ProviderSecrets {
    return splitSecrets(this.configs).secrets;
  }

  private withRealSecrets(config: ProviderConfig): ProviderConfig {
    const secrets = this.secrets();
    const real = (text: string) => (holdsLockedSecret(text) ? replaceLockedSecrets(text, secrets) : text);
    return {
      ...config,
      ...(config.apiKey !== undefined && { apiKey: real(config.apiKey) }),
      ...(config.headers && { headers: Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name, real(value)])) }),
    };
  }

  /**
   * A fetch for the provider clients: a request carrying a locked key's stand-in waits for the
   * passphrase and goes out with the real key; other requests pass through untouched.
   */
  readonly fetchWithKeys = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    let locked = false;
    headers.forEach((value) => (locked ||= holdsLockedSecret(value)));
    if (!locked) return globalThis.fetch(input, init);
    await this.requireKeys();
    const secrets = this.secrets();
    const real = new Headers();
    headers.forEach((value, name) => real.set(name, replaceLockedSecrets(value, secrets)));
    return globalThis.fetch(input, { ...init, headers: real });
  };

  /** Protects the keys with a passphrase (or changes it): they are sealed and saved at once. */
  async setPassphrase(passphrase: string): Promise<void> {
    if (passphrase.length < 8) throw new UserFacingError("Choose a passphrase of at least 8 characters.", "passphrase-short");
    await this.requireKeys();
    await this.writes.run(async () => {
      await this.saveSealed(this.configs, passphrase);
      this.passphrase = passphrase;
      this.store.setState({ keys: "unlocked" });
    });
    for (const store of this.sealedStores) await store.reseal(passphrase);
  }

  /** Stores the keys as typed again (no passphrase). */
  async removePassphrase(): Promise<void> {
    await this.requireKeys();
    await this.writes.run(async () => {
      await this.saveSealed(this.configs, undefined);
      this.passphrase = undefined;
      this.vault = undefined;
      this.store.setState({ keys: "plain" });
    });
    for (const store of this.sealedStores) await store.reseal(undefined);
  }

  private async saveSealed(configs: ProviderConfig[], passphrase: string | undefined): Promise<void> {
    try {
      await saveProviderConfigs(this.storage, configs, passphrase !== undefined ? { passphrase } : {});
    } catch (error) {
      throw new Error(`The provider settings could not be saved: ${errorMessage(error)}. Check that this site may store data, then try again.`, { cause: error });
    }
    if (passphrase !== undefined) this.vault = (await loadProviderSettings(this.storage)).vault;
  }

  private async persist(configs: ProviderConfig[]): Promise<void> {
    try {
      await saveProviderConfigs(this.storage, configs, this.passphrase !== undefined ? { passphrase: this.passphrase } : {});
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

function reasoningKey(ref: ModelRef): string {
  return `${ref.providerId}/${ref.modelId}`;
}

function restoreReasoning(value: unknown): Record<string, ReasoningEffort> {
  if (!value || typeof value !== "object") return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, ReasoningEffort] => (REASONING_EFFORTS as readonly unknown[]).includes(entry[1])),
  );
}

function restoreProviderModels(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object") return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

export function findModel(configs: readonly ProviderConfig[], ref: ModelRef): ModelInfo | undefined {
  return configs.find((c) => c.id === ref.providerId)?.models.find((m) => m.id === ref.modelId);
}

/** A provider id not used yet: the preset id, else "<preset>-2", "-3", ... */
export function uniqueProviderId(presetId: string, configs: readonly ProviderConfig[]): string {
  if (!configs.some((c) => c.id === presetId)) return presetId;
  for (let n = 2; ; n++) if (!configs.some((c) => c.id === `${presetId}-${n}`)) return `${presetId}-${n}`;
}
