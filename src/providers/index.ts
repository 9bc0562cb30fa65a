// The providers layer's public surface: the registry, catalogue, presets, costs, settings, connection test.
export * from "./types";
export { MODEL_CATALOGUE, UNKNOWN_MODEL_LIMITS, catalogueModels, defaultModelInfo } from "./catalogue";
export {
  LMSTUDIO_BASE_URL,
  OLLAMA_BASE_URL,
  OPENROUTER_BASE_URL,
  PROVIDER_PRESETS,
  configFromPreset,
  findPreset,
  presetOf,
  type ProviderPreset,
} from "./presets";
export { calculateCost } from "./cost";
export { ANTHROPIC_MAX_SEARCHES, geminiMixesSearchWithTools, supportsWebSearch, webSearchOffer, type WebSearchOffer } from "./web-search";
export { REASONING_EFFORTS, callOptions, reasoningLevels, type CallOptions, type CallPurpose, type ReasoningEffort } from "./call-options";
export {
  ANTHROPIC_BROWSER_HEADER,
  createProviderRegistry,
  type ProviderRegistryOptions,
  type WebcodeProviderRegistry,
} from "./registry";
export {
  PROVIDER_SETTINGS_KEY,
  PROVIDER_SETTINGS_VERSION,
  REDACTED,
  loadProviderConfigs,
  loadProviderSettings,
  maskKey,
  redactConfig,
  restoreProviderConfigs,
  saveProviderConfigs,
} from "./settings";
export { CONNECTION_TIMEOUT_MS, providerOrigin, testConnection, type ConnectionResult, type TestConnectionOptions } from "./connection";
export {
  VAULT_ITERATIONS,
  WrongPassphraseError,
  holdsLockedSecret,
  isCredentialHeader,
  isKeyVault,
  mergeSecrets,
  openValue,
  openVault,
  replaceLockedSecrets,
  sealSecrets,
  sealValue,
  splitSecrets,
  type KeyVault,
  type ProviderSecrets,
} from "./key-vault";
