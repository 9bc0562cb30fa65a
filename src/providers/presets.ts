// The providers a user can add in one click: hosted APIs and local OpenAI-compatible servers.
import { catalogueModels } from "./catalogue";
import type { ProviderConfig, ProviderKind } from "./types";

export interface ProviderPreset {
  id: string;
  kind: ProviderKind;
  name: string;
  /** Default base URL; undefined means the SDK's own default (or, for "custom", the user must set one). */
  baseUrl?: string;
  needsKey: boolean;
  /** Where the user gets a key. */
  keyUrl?: string;
  /** The model used for titles and summaries. */
  smallModel?: string;
  /** What the user must do for a browser page to reach this server. */
  setupHint?: string;
}

export const OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1";
export const OLLAMA_BASE_URL = "http://localhost:11434/v1";
export const LMSTUDIO_BASE_URL = "http://localhost:1234/v1";

export const PROVIDER_PRESETS: readonly ProviderPreset[] = Object.freeze([
  { id: "openai", kind: "openai", name: "OpenAI", needsKey: true, keyUrl: "https://platform.openai.com/api-keys", smallModel: "gpt-4.1-mini" },
  { id: "anthropic", kind: "anthropic", name: "Anthropic", needsKey: true, keyUrl: "https://console.anthropic.com/settings/keys", smallModel: "claude-haiku-4-5" },
  { id: "google", kind: "google", name: "Google Gemini", needsKey: true, keyUrl: "https://aistudio.google.com/apikey", smallModel: "gemini-2.5-flash-lite" },
  {
    id: "openrouter",
    kind: "openrouter",
    name: "OpenRouter",
    baseUrl: OPENROUTER_BASE_URL,
    needsKey: true,
    keyUrl: "https://openrouter.ai/keys",
    smallModel: "google/gemini-2.5-flash",
  },
  {
    id: "ollama",
    kind: "openai-compatible",
    name: "Ollama",
    baseUrl: OLLAMA_BASE_URL,
    needsKey: false,
    setupHint: "Start Ollama with OLLAMA_ORIGINS set to this page's origin (or *) so the browser may call it, e.g. OLLAMA_ORIGINS=* ollama serve.",
  },
  {
    id: "lmstudio",
    kind: "openai-compatible",
    name: "LM Studio",
    baseUrl: LMSTUDIO_BASE_URL,
    needsKey: false,
    setupHint: "In LM Studio's Developer tab, start the server and turn on \"Enable CORS\".",
  },
  {
    id: "custom",
    kind: "openai-compatible",
    name: "OpenAI-compatible",
    needsKey: false,
    setupHint: "The server must speak the OpenAI chat completions API and allow this page's origin (CORS).",
  },
]);

export function findPreset(id: string): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((preset) => preset.id === id);
}

/** The preset a config was made from: by id, else by kind and base URL (local servers). */
export function presetOf(config: Pick<ProviderConfig, "id" | "kind" | "baseUrl">): ProviderPreset | undefined {
  const byId = findPreset(config.id);
  if (byId && byId.kind === config.kind) return byId;
  const base = config.baseUrl?.replace(/\/+$/, "");
  // Hosted kinds have one preset each; local servers are told apart by their URL.
  return PROVIDER_PRESETS.find((p) => p.kind === config.kind && (p.kind !== "openai-compatible" || (p.baseUrl !== undefined && p.baseUrl === base)));
}

/** A new provider config from a preset, with the catalogue's models. */
export function configFromPreset(presetId: string, overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  const preset = findPreset(presetId);
  if (!preset) throw new Error(`Unknown provider preset "${presetId}".`);
  const id = overrides.id ?? preset.id;
  return {
    id,
    kind: preset.kind,
    name: preset.name,
    ...(preset.baseUrl !== undefined && { baseUrl: preset.baseUrl }),
    ...(preset.smallModel !== undefined && { smallModel: preset.smallModel }),
    models: catalogueModels(preset.id, id),
    ...overrides,
  };
}
