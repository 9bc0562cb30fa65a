// What the rest of webcode knows about model providers: a registry that turns a ModelRef into an
// AI SDK language model, and a catalogue of model facts (limits, prices, capabilities).
import type { LanguageModel } from "ai";
import type { ModelRef } from "../storage";

export type ProviderKind = "openai" | "anthropic" | "google" | "openrouter" | "openai-compatible";

export interface ModelInfo {
  id: string;
  name: string;
  providerId: string;
  /** Context window in tokens. */
  context: number;
  /** Maximum output tokens. */
  output: number;
  /** Maximum input tokens when the provider states one separately. */
  input?: number;
  /** USD per million tokens. */
  cost: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  capabilities: { tools: boolean; images: boolean; reasoning: boolean; temperature: boolean };
}

export interface ProviderConfig {
  id: string;
  kind: ProviderKind;
  name: string;
  baseUrl?: string;
  apiKey?: string;
  /** For openai-compatible servers: use the chat completions protocol (default true). */
  models: ModelInfo[];
}

export interface ProviderRegistry {
  languageModel(ref: ModelRef): LanguageModel;
  modelInfo(ref: ModelRef): ModelInfo | undefined;
  /** The small model of a provider for titles and summaries (falls back to the model itself). */
  smallModel(ref: ModelRef): ModelRef;
  /** The provider's display name, for errors such as "check your API key for <provider>". */
  providerName(providerId: string): string;
}
