// What the rest of webcode knows about model providers: a registry that turns a ModelRef into an
// AI SDK language model, and a catalogue of model facts (limits, prices, capabilities).
import type { LanguageModel } from "ai";
import type { ModelRef } from "../storage";
import type { CallOptions, CallPurpose, ReasoningEffort } from "./call-options";
import type { WebSearchOffer } from "./web-search";

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
  /** No data from a stream for this long counts as a dropped connection (default 90 s). */
  stallTimeoutMs?: number;
  /** The most a step waits on this model's silence from its last data, retries included (default 180 s). */
  stallBudgetMs?: number;
}

export interface ProviderConfig {
  id: string;
  kind: ProviderKind;
  name: string;
  baseUrl?: string;
  apiKey?: string;
  /**
   * Which OpenAI protocol to speak: "responses" (default for kind "openai") or "chat" (chat
   * completions, always used for openai-compatible servers and OpenRouter).
   */
  api?: "responses" | "chat";
  /** Extra request headers (e.g. for a proxy). */
  headers?: Record<string, string>;
  /** The model used for titles and summaries; defaults to the preset's small model when present. */
  smallModel?: string;
  /**
   * Offer the provider's own web search tool to the model (OpenAI Responses, Anthropic, Google).
   * Off unless the user turns it on: the provider bills each search.
   */
  webSearch?: boolean;
  models: ModelInfo[];
}

export interface ProviderRegistry {
  languageModel(ref: ModelRef): LanguageModel;
  modelInfo(ref: ModelRef): ModelInfo | undefined;
  /** The small model of a provider for titles and summaries (falls back to the model itself). */
  smallModel(ref: ModelRef): ModelRef;
  /** The provider's display name, for errors such as "check your API key for <provider>". */
  providerName(providerId: string): string;
  /** The reasoning levels the model takes (empty: it does not reason). Unset: none. */
  reasoningLevels?(ref: ModelRef): ReasoningEffort[];
  /** Reasoning, provider options and sampling rules of one call. Unset: none of them. */
  callOptions?(ref: ModelRef, request: { effort?: ReasoningEffort; purpose: CallPurpose; sessionId?: string }): CallOptions;
  /** The provider's web search tool for this model when the user turned it on. Unset: none. */
  webSearch?(ref: ModelRef): Promise<WebSearchOffer | undefined> | WebSearchOffer | undefined;
}
