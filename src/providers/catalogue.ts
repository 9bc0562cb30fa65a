// The default model catalogue: limits, prices (USD per million tokens) and capabilities of current
// models. Provider configs carry their own editable copy; this is where new configs start from.
import type { ModelInfo } from "./types";

type Entry = Omit<ModelInfo, "providerId">;

const REASONING = { tools: true, images: true, reasoning: true, temperature: false };
const CHAT = { tools: true, images: true, reasoning: false, temperature: true };
const THINKING = { tools: true, images: true, reasoning: true, temperature: true };

const OPENAI: Entry[] = [
  { id: "gpt-5.1", name: "GPT-5.1", context: 400_000, input: 272_000, output: 128_000, cost: { input: 1.25, output: 10, cacheRead: 0.125 }, capabilities: REASONING },
  { id: "gpt-5", name: "GPT-5", context: 400_000, input: 272_000, output: 128_000, cost: { input: 1.25, output: 10, cacheRead: 0.125 }, capabilities: REASONING },
  { id: "gpt-5-codex", name: "GPT-5 Codex", context: 400_000, input: 272_000, output: 128_000, cost: { input: 1.25, output: 10, cacheRead: 0.125 }, capabilities: REASONING },
  { id: "gpt-5-mini", name: "GPT-5 mini", context: 400_000, input: 272_000, output: 128_000, cost: { input: 0.25, output: 2, cacheRead: 0.025 }, capabilities: REASONING },
  { id: "gpt-5-nano", name: "GPT-5 nano", context: 400_000, input: 272_000, output: 128_000, cost: { input: 0.05, output: 0.4, cacheRead: 0.005 }, capabilities: REASONING },
  { id: "gpt-4.1", name: "GPT-4.1", context: 1_047_576, output: 32_768, cost: { input: 2, output: 8, cacheRead: 0.5 }, capabilities: CHAT },
  { id: "gpt-4.1-mini", name: "GPT-4.1 mini", context: 1_047_576, output: 32_768, cost: { input: 0.4, output: 1.6, cacheRead: 0.1 }, capabilities: CHAT },
  { id: "o3", name: "o3", context: 200_000, output: 100_000, cost: { input: 2, output: 8, cacheRead: 0.5 }, capabilities: REASONING },
  { id: "o4-mini", name: "o4-mini", context: 200_000, output: 100_000, cost: { input: 1.1, output: 4.4, cacheRead: 0.275 }, capabilities: REASONING },
];

const ANTHROPIC: Entry[] = [
  { id: "claude-opus-4-5", name: "Claude Opus 4.5", context: 200_000, output: 64_000, cost: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, capabilities: THINKING },
  { id: "claude-sonnet-4-5", name: "Claude Sonnet 4.5", context: 200_000, output: 64_000, cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, capabilities: THINKING },
  { id: "claude-haiku-4-5", name: "Claude Haiku 4.5", context: 200_000, output: 64_000, cost: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, capabilities: THINKING },
  { id: "claude-opus-4-1", name: "Claude Opus 4.1", context: 200_000, output: 32_000, cost: { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }, capabilities: THINKING },
  { id: "claude-sonnet-4-0", name: "Claude Sonnet 4", context: 200_000, output: 64_000, cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, capabilities: THINKING },
];

const GOOGLE: Entry[] = [
  { id: "gemini-3-pro-preview", name: "Gemini 3 Pro (preview)", context: 1_048_576, output: 65_536, cost: { input: 2, output: 12, cacheRead: 0.2 }, capabilities: THINKING },
  { id: "gemini-2.5-pro", name: "Gemini 2.5 Pro", context: 1_048_576, output: 65_536, cost: { input: 1.25, output: 10, cacheRead: 0.125 }, capabilities: THINKING },
  { id: "gemini-2.5-flash", name: "Gemini 2.5 Flash", context: 1_048_576, output: 65_536, cost: { input: 0.3, output: 2.5, cacheRead: 0.03 }, capabilities: THINKING },
  { id: "gemini-2.5-flash-lite", name: "Gemini 2.5 Flash-Lite", context: 1_048_576, output: 65_536, cost: { input: 0.1, output: 0.4, cacheRead: 0.01 }, capabilities: THINKING },
];

// OpenRouter passes through upstream prices; these are the usual ones and may drift.
const OPENROUTER: Entry[] = [
  { id: "anthropic/claude-sonnet-4.5", name: "Claude Sonnet 4.5 (OpenRouter)", context: 200_000, output: 64_000, cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, capabilities: THINKING },
  { id: "openai/gpt-5", name: "GPT-5 (OpenRouter)", context: 400_000, output: 128_000, cost: { input: 1.25, output: 10, cacheRead: 0.125 }, capabilities: REASONING },
  { id: "google/gemini-2.5-pro", name: "Gemini 2.5 Pro (OpenRouter)", context: 1_048_576, output: 65_536, cost: { input: 1.25, output: 10 }, capabilities: THINKING },
  { id: "google/gemini-2.5-flash", name: "Gemini 2.5 Flash (OpenRouter)", context: 1_048_576, output: 65_536, cost: { input: 0.3, output: 2.5 }, capabilities: THINKING },
  { id: "qwen/qwen3-coder", name: "Qwen3 Coder (OpenRouter)", context: 262_144, output: 65_536, cost: { input: 0.22, output: 0.95 }, capabilities: { tools: true, images: false, reasoning: false, temperature: true } },
  { id: "x-ai/grok-code-fast-1", name: "Grok Code Fast 1 (OpenRouter)", context: 256_000, output: 10_000, cost: { input: 0.2, output: 1.5, cacheRead: 0.02 }, capabilities: { tools: true, images: false, reasoning: true, temperature: true } },
];

function withProvider(providerId: string, entries: Entry[]): ModelInfo[] {
  return entries.map((entry) => ({ ...entry, providerId }));
}

/** Every catalogued model, with providerId set to the preset id ("openai", "anthropic", ...). */
export const MODEL_CATALOGUE: readonly ModelInfo[] = Object.freeze([
  ...withProvider("openai", OPENAI),
  ...withProvider("anthropic", ANTHROPIC),
  ...withProvider("google", GOOGLE),
  ...withProvider("openrouter", OPENROUTER),
]);

/** Catalogued models of one preset, copied and re-assigned to `providerId` (a config's own id). */
export function catalogueModels(presetId: string, providerId: string = presetId): ModelInfo[] {
  return MODEL_CATALOGUE.filter((m) => m.providerId === presetId).map((m) => ({
    ...m,
    providerId,
    cost: { ...m.cost },
    capabilities: { ...m.capabilities },
  }));
}

/** Conservative defaults for a model the catalogue does not know (local servers, new models). */
export const UNKNOWN_MODEL_LIMITS = { context: 32_768, output: 8_192 } as const;

export function defaultModelInfo(providerId: string, modelId: string): ModelInfo {
  return {
    id: modelId,
    name: modelId,
    providerId,
    context: UNKNOWN_MODEL_LIMITS.context,
    output: UNKNOWN_MODEL_LIMITS.output,
    cost: { input: 0, output: 0 },
    capabilities: { tools: true, images: false, reasoning: false, temperature: true },
  };
}
