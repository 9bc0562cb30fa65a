// Builds AI SDK language models from provider configs. The one place that imports provider packages;
// the agent only sees the ProviderRegistry interface. Each package loads on the first call to one of
// its models (providerPackages), so the chat starts without downloading or evaluating all four.
import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type { LanguageModel } from "ai";
import { UserFacingError } from "../base";
import type { ModelRef } from "../storage";
import { callOptions, reasoningLevels } from "./call-options";
import { MODEL_CATALOGUE } from "./catalogue";
import { OPENROUTER_BASE_URL, presetOf } from "./presets";
import type { ModelInfo, ProviderConfig, ProviderRegistry } from "./types";
import { providerPackages } from "./packages";
import { webSearchOffer } from "./web-search";

/** Anthropic refuses browser (CORS) requests unless the caller says it knows the key is exposed to the page. */
export const ANTHROPIC_BROWSER_HEADER = { "anthropic-dangerous-direct-browser-access": "true" } as const;
/** OpenRouter shows this name for requests from webcode. */
const OPENROUTER_HEADERS = { "X-Title": "webcode" } as const;

export interface ProviderRegistryOptions {
  fetch?: typeof fetch;
}

export interface WebcodeProviderRegistry extends ProviderRegistry {
  /** Every configured provider (keys included: never log these, see redactConfig). */
  configs(): ProviderConfig[];
  /** Every model of every configured provider. */
  models(): ModelInfo[];
}

type Factory = (modelId: string) => LanguageModel;

/**
 * A model whose provider package loads on its first call. The AI SDK awaits `supportedUrls` before
 * a request, which loads it; `provider` is the package's own name once loaded (before that, the name
 * it will have: only its first segment, "openai" or "anthropic", is read before a call).
 */
class DeferredModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  private loaded: LanguageModelV4 | undefined;
  private loading: Promise<LanguageModelV4> | undefined;

  constructor(
    private readonly expectedProvider: string,
    readonly modelId: string,
    private readonly create: () => Promise<LanguageModelV4>,
  ) {}

  get provider(): string {
    return this.loaded?.provider ?? this.expectedProvider;
  }

  get supportedUrls(): PromiseLike<Record<string, RegExp[]>> {
    return this.model().then((model) => model.supportedUrls);
  }

  async doGenerate(options: LanguageModelV4CallOptions) {
    return (await this.model()).doGenerate(options);
  }

  async doStream(options: LanguageModelV4CallOptions) {
    return (await this.model()).doStream(options);
  }

  private model(): Promise<LanguageModelV4> {
    this.loading ??= this.create().then(
      (model) => (this.loaded = model),
      (error: unknown) => {
        // A chunk that failed to download (offline, a new deploy) is tried again on the next call.
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }
}

/** A factory of deferred models over a provider built once, when its package has loaded. */
function deferred<P>(expectedProvider: string, build: () => Promise<P>, model: (provider: P, modelId: string) => LanguageModelV4): Factory {
  let provider: Promise<P> | undefined;
  const load = () => {
    provider ??= build().catch((error: unknown) => {
      provider = undefined;
      throw error;
    });
    return provider;
  };
  return (modelId) => new DeferredModel(expectedProvider, modelId, async () => model(await load(), modelId));
}

function needsKey(config: ProviderConfig): boolean {
  return config.kind !== "openai-compatible";
}

function missingKey(config: ProviderConfig): UserFacingError {
  return new UserFacingError(
    `No API key is set for ${config.name}. Add your key in Settings → Providers, or pick a model from another provider.`,
    "provider-missing-key",
  );
}

function buildFactory(config: ProviderConfig, fetchImpl: typeof fetch | undefined): Factory {
  const apiKey = config.apiKey?.trim() || undefined;
  if (needsKey(config) && !apiKey) {
    // The SDKs would fall back to environment variables; in webcode a key comes only from settings.
    return () => {
      throw missingKey(config);
    };
  }
  const common = { ...(fetchImpl && { fetch: fetchImpl }) };
  const baseURL = config.baseUrl?.trim() || undefined;
  switch (config.kind) {
    case "openai": {
      const settings = { ...common, apiKey, baseURL, headers: config.headers };
      const api = config.api === "chat" ? "chat" : "responses";
      return deferred(`openai.${api}`, async () => (await providerPackages.openai()).createOpenAI(settings), (provider, id) => provider[api](id));
    }
    case "anthropic": {
      const settings = { ...common, apiKey, baseURL, headers: { ...ANTHROPIC_BROWSER_HEADER, ...config.headers } };
      return deferred("anthropic.messages", async () => (await providerPackages.anthropic()).createAnthropic(settings), (provider, id) => provider(id));
    }
    case "google": {
      const settings = { ...common, apiKey, baseURL, headers: config.headers };
      return deferred("google.generative-ai", async () => (await providerPackages.google()).createGoogleGenerativeAI(settings), (provider, id) => provider(id));
    }
    case "openrouter": {
      const settings = {
        ...common,
        name: config.id,
        baseURL: baseURL ?? OPENROUTER_BASE_URL,
        apiKey,
        includeUsage: true,
        headers: { ...OPENROUTER_HEADERS, ...config.headers },
      };
      return deferred(`${config.id}.chat`, async () => (await providerPackages.compatible()).createOpenAICompatible(settings), (provider, id) => provider.chatModel(id));
    }
    case "openai-compatible": {
      if (!baseURL) {
        return () => {
          throw new UserFacingError(
            `${config.name} has no base URL. Set the server's URL (usually ending in /v1) in Settings → Providers.`,
            "provider-missing-url",
          );
        };
      }
      const settings = { ...common, name: config.id, baseURL, apiKey, includeUsage: true, headers: config.headers };
      return deferred(`${config.id}.chat`, async () => (await providerPackages.compatible()).createOpenAICompatible(settings), (provider, id) => provider.chatModel(id));
    }
  }
}

/** A registry over the given configs; `fetch` is injectable for tests and proxies. */
export function createProviderRegistry(configs: ProviderConfig[], options: ProviderRegistryOptions = {}): WebcodeProviderRegistry {
  const byId = new Map(configs.map((config) => [config.id, config]));
  const factories = new Map<string, Factory>();

  function config(providerId: string): ProviderConfig {
    const found = byId.get(providerId);
    if (!found) {
      throw new UserFacingError(
        `No provider "${providerId}" is configured. Add it in Settings → Providers, or pick another model.`,
        "provider-unknown",
      );
    }
    return found;
  }

  function modelInfo(ref: ModelRef): ModelInfo | undefined {
    const found = byId.get(ref.providerId);
    if (!found) return undefined;
    const own = found.models.find((m) => m.id === ref.modelId);
    if (own) return own;
    // A model typed by hand that the catalogue knows: use the catalogue's facts under this provider.
    const preset = presetOf(found);
    const known = MODEL_CATALOGUE.find((m) => m.id === ref.modelId && (preset === undefined || m.providerId === preset.id));
    return known ? { ...known, providerId: ref.providerId } : undefined;
  }

  return {
    languageModel(ref) {
      const found = config(ref.providerId);
      let factory = factories.get(found.id);
      if (!factory) {
        factory = buildFactory(found, options.fetch);
        factories.set(found.id, factory);
      }
      return factory(ref.modelId);
    },
    modelInfo,
    smallModel(ref) {
      const found = byId.get(ref.providerId);
      if (!found) return ref;
      // Local servers have no preset small model: they use the model itself.
      const small = found.smallModel?.trim() || presetOf(found)?.smallModel;
      return small ? { providerId: found.id, modelId: small } : ref;
    },
    providerName(providerId) {
      return byId.get(providerId)?.name ?? providerId;
    },
    reasoningLevels(ref) {
      const found = byId.get(ref.providerId);
      return found ? reasoningLevels(found, modelInfo(ref)) : [];
    },
    callOptions(ref, request) {
      const found = byId.get(ref.providerId);
      return found ? callOptions(found, modelInfo(ref), request) : { sampling: true, providerToolResults: true };
    },
    webSearch(ref) {
      const found = byId.get(ref.providerId);
      return found ? webSearchOffer(found, ref.modelId) : undefined;
    },
    configs: () => [...byId.values()],
    models: () => [...byId.values()].flatMap((c) => c.models),
  };
}

