// A provider registry that follows the Settings: rebuilt whenever the provider configs change, so
// a key or base URL edited in Settings takes effect on the next model call without a reload.
import type { Disposable } from "../../base";
import { createProviderRegistry, type ModelInfo, type ProviderConfig, type ProviderRegistry } from "../../providers";
import type { ModelRef } from "../../storage";

/** Where the configs come from (ProviderSettings.store satisfies it). */
export interface ProviderConfigSource {
  getState(): { configs: ProviderConfig[] };
  subscribe(listener: (state: { configs: ProviderConfig[] }, previous: { configs: ProviderConfig[] }) => void): () => void;
}

export class LiveProviderRegistry implements ProviderRegistry, Disposable {
  private current: ProviderRegistry;
  private readonly unsubscribe: () => void;

  constructor(
    source: ProviderConfigSource,
    private readonly build: (configs: ProviderConfig[]) => ProviderRegistry = (configs) => createProviderRegistry(configs),
  ) {
    this.current = build(source.getState().configs);
    this.unsubscribe = source.subscribe((state, previous) => {
      if (state.configs !== previous.configs) this.current = this.build(state.configs);
    });
  }

  languageModel(ref: ModelRef): ReturnType<ProviderRegistry["languageModel"]> {
    return this.current.languageModel(ref);
  }

  modelInfo(ref: ModelRef): ModelInfo | undefined {
    return this.current.modelInfo(ref);
  }

  smallModel(ref: ModelRef): ModelRef {
    return this.current.smallModel(ref);
  }

  providerName(providerId: string): string {
    return this.current.providerName(providerId);
  }

  // The optional parts of the interface are forwarded too: without them the agent would silently
  // send no reasoning setting or provider options, and never offer web search.
  reasoningLevels(ref: ModelRef): ReturnType<NonNullable<ProviderRegistry["reasoningLevels"]>> {
    return this.current.reasoningLevels?.(ref) ?? [];
  }

  callOptions(...args: Parameters<NonNullable<ProviderRegistry["callOptions"]>>): ReturnType<NonNullable<ProviderRegistry["callOptions"]>> {
    return this.current.callOptions?.(...args) ?? { sampling: true, providerToolResults: true };
  }

  webSearch(ref: ModelRef): ReturnType<NonNullable<ProviderRegistry["webSearch"]>> {
    return this.current.webSearch?.(ref);
  }

  dispose(): void {
    this.unsubscribe();
  }
}
