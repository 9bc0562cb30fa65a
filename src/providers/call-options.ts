// What a model call may carry, per provider and model: the reasoning levels the model takes (the
// chat's reasoning control), the AI SDK reasoning setting and provider options for one call, and
// whether sampling options (temperature, top-p) may be sent at all. The AI SDK maps `reasoning` to
// each provider's own form (OpenAI reasoningEffort, Anthropic thinking budget, Gemini thinkingLevel
// or thinkingBudget, reasoning_effort for OpenAI-compatible servers); what it does not cover is here.
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
  request: { effort?: ReasoningEffort; purpose: CallPurpose },
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
  return {
    ...(reasoning !== undefined && { reasoning }),
    ...(Object.keys(providerOptions).length > 0 && { providerOptions }),
    sampling,
    providerToolResults: !responses,
  };
}

function nearest(effort: ReasoningEffort, levels: ReasoningEffort[]): ReasoningEffort {
  const rank = REASONING_EFFORTS.indexOf(effort);
  return levels.reduce((best, level) => (Math.abs(REASONING_EFFORTS.indexOf(level) - rank) < Math.abs(REASONING_EFFORTS.indexOf(best) - rank) ? level : best));
}
