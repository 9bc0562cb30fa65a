// What a model call may carry, per provider and model: the reasoning levels the model takes (the
// chat's reasoning control), the AI SDK reasoning setting and provider options for one call, and
// whether sampling options (temperature, top-p) may be sent at all. The AI SDK maps `reasoning` to
// each provider's own form (OpenAI reasoningEffort, Anthropic thinking budget, Gemini thinkingLevel
// or thinkingBudget, reasoning_effort for OpenAI-compatible servers); what it does not cover is here,
// prompt caching among it (docs/agent.md, "Prompt caching").
import type { ModelInfo, ProviderConfig } from "./types";

/** The reasoning control's levels; "off" asks the model not to reason where it can. */
export const REASONING_EFFORTS = ["off", "low", "medium", "high"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** The AI SDK's call setting for each level. */
const SDK_REASONING = { off: "none", low: "low", medium: "medium", high: "high" } as const;

export type CallPurpose = "turn" | "title" | "summary";

export interface CallOptions {
  /** The AI SDK `reasoning` call setting; unset: the provider's default. */
  reasoning?: (typeof SDK_REASONING)[ReasoningEffort] | "minimal";
  providerOptions?: Record<string, Record<string, unknown>>;
  /** Whether temperature and top-p may be sent (reasoning models and Anthropic thinking refuse them). */
  sampling: boolean;
  /**
   * Whether results of tools the provider ran go back as provider blocks. OpenAI Responses with
   * `store: false` takes none (they are sent as text instead).
   */
  providerToolResults: boolean;
  /**
   * Provider options that mark a cache breakpoint on a system or conversation message (Anthropic:
   * cache_control). Set for turns of models that cache only what is marked; the session marks the
   * stable prefix and the latest messages with it.
   */
  cacheBreakpoint?: Record<string, Record<string, unknown>>;
}

/** Anthropic's mark for "cache the prompt up to here" (5-minute cache, refreshed on every read). */
const EPHEMERAL = { type: "ephemeral" } as const;

/** A Claude model, whatever the provider calls it ("claude-sonnet-4-5", "anthropic/claude-sonnet-4.5"). */
function isClaude(modelId: string): boolean {
  return /(^|\/)claude/i.test(modelId);
}

/** Model families that cannot stop reasoning: "off" is not offered for them. */
function alwaysReasons(config: Pick<ProviderConfig, "kind">, modelId: string): boolean {
  const id = modelId.toLowerCase().replace(/^.*\//, "");
  if (/^o\d/.test(id) || /^gpt-5(\.\d+)?-codex/.test(id)) return true; // OpenAI o-series and Codex: low is the least
  if (/^gemini-3/.test(id) || /^gemini-2\.5-pro/.test(id)) return true; // Gemini 3 and 2.5 Pro always think
  return config.kind === "google" && /pro/.test(id);
}

/** The levels the chat offers for this model (none for models that do not reason). */
export function reasoningLevels(config: Pick<ProviderConfig, "kind">, info: Pick<ModelInfo, "id" | "capabilities"> | undefined): ReasoningEffort[] {
  if (!info?.capabilities.reasoning) return [];
  return alwaysReasons(config, info.id) ? ["low", "medium", "high"] : [...REASONING_EFFORTS];
}

/**
 * The options of one call. `effort` is the user's choice for a turn (unset: the provider's default);
 * title and summary calls ask for the least reasoning the model allows and never send sampling
 * options a reasoning model rejects.
 */
export function callOptions(
  config: Pick<ProviderConfig, "kind" | "api" | "id">,
  info: Pick<ModelInfo, "id" | "capabilities"> | undefined,
  request: { effort?: ReasoningEffort; purpose: CallPurpose; sessionId?: string },
): CallOptions {
  const levels = reasoningLevels(config, info);
  let effort = request.purpose === "turn" ? request.effort : levels[0];
  if (effort !== undefined && !levels.includes(effort)) effort = levels.length > 0 ? nearest(effort, levels) : undefined;
  // GPT-5 (before 5.1) cannot stop reasoning; "minimal" is its least, which the SDK would otherwise
  // reach from "none" only with a compatibility warning.
  const reasoning = effort === "off" && config.kind === "openai" && /^gpt-5(-mini|-nano)?$/.test(info?.id ?? "") ? "minimal" : effort !== undefined ? SDK_REASONING[effort] : undefined;
  const thinking = effort !== undefined && effort !== "off";
  const providerOptions: Record<string, Record<string, unknown>> = {};
  const responses = config.kind === "openai" && config.api !== "chat";
  // Nothing is kept at OpenAI: reasoning comes back encrypted and is sent back whole.
  if (responses) providerOptions.openai = { store: false };
  // Gemini returns its thoughts (summaries) only when asked; titles and summaries need none.
  if (config.kind === "google" && thinking && request.purpose === "turn") providerOptions.google = { thinkingConfig: { includeThoughts: true } };
  const sampling = (info?.capabilities.temperature ?? true) && !(config.kind === "anthropic" && thinking);
  // Prompt caching, for the turns of a session (its steps share their prefix; a title or summary is
  // a one-off whose cache write, billed above the input price, would never be read).
  let cacheBreakpoint: CallOptions["cacheBreakpoint"];
  if (request.purpose === "turn") {
    // Anthropic caches only up to the breakpoints a request marks.
    if (config.kind === "anthropic") cacheBreakpoint = { anthropic: { cacheControl: EPHEMERAL } };
    // OpenAI caches every prefix of 1024 tokens or more by itself; a key per session routes its
    // steps to the same cache (both APIs take prompt_cache_key).
    if (config.kind === "openai" && request.sessionId) providerOptions.openai = { ...providerOptions.openai, promptCacheKey: request.sessionId };
    // OpenRouter passes Claude's caching through: a top-level cache_control (the provider's options
    // under the config's id go into the body as they are) puts the breakpoint on the last block.
    if (config.kind === "openrouter" && isClaude(info?.id ?? "")) providerOptions[config.id] = { cache_control: EPHEMERAL };
  }
  return {
    ...(reasoning !== undefined && { reasoning }),
    ...(Object.keys(providerOptions).length > 0 && { providerOptions }),
    sampling,
    providerToolResults: !responses,
    ...(cacheBreakpoint && { cacheBreakpoint }),
  };
}

function nearest(effort: ReasoningEffort, levels: ReasoningEffort[]): ReasoningEffort {
  const rank = REASONING_EFFORTS.indexOf(effort);
  return levels.reduce((best, level) => (Math.abs(REASONING_EFFORTS.indexOf(level) - rank) < Math.abs(REASONING_EFFORTS.indexOf(best) - rank) ? level : best));
}
