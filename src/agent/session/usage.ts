// Token accounting (docs/agent.md, "Context"): provider usage → our TokenUsage, the token count of a step, the
// usable context of a model and the overflow test that triggers compaction.
import { zodSchema, type LanguageModelUsage } from "ai";
import type { ModelInfo } from "../../providers";
import { emptyUsage, type TokenUsage } from "../../storage";

/** Output tokens kept free in the context window: min(model output limit, this). */
export const OUTPUT_TOKEN_RESERVE_MAX = 32_000;
/** When a provider states a separate input limit, keep this much of it free. */
export const INPUT_LIMIT_RESERVE = 20_000;

/**
 * `input` is the uncached input, `cacheRead`/`cacheWrite` the cached parts (the AI SDK's
 * inputTokens counts all three), `output` includes `reasoning`.
 */
export function toTokenUsage(usage: LanguageModelUsage | undefined): TokenUsage {
  if (!usage) return emptyUsage();
  const cacheRead = usage.inputTokenDetails?.cacheReadTokens ?? 0;
  const cacheWrite = usage.inputTokenDetails?.cacheWriteTokens ?? 0;
  const totalInput = usage.inputTokens ?? 0;
  const input = usage.inputTokenDetails?.noCacheTokens ?? Math.max(0, totalInput - cacheRead - cacheWrite);
  const reasoning = usage.outputTokenDetails?.reasoningTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    input,
    output: output + (reasoningOutsideCompletion(usage.raw, reasoning) ? reasoning : 0),
    reasoning,
    cacheRead,
    cacheWrite,
  };
}

/**
 * Whether an OpenAI-compatible usage object counts reasoning apart from the completion (xAI:
 * total = prompt + completion + reasoning) rather than inside it (OpenAI, DeepSeek: total = prompt +
 * completion). Then the AI SDK's output count leaves reasoning out, and it must be added to be billed.
 */
function reasoningOutsideCompletion(raw: unknown, reasoning: number): boolean {
  if (reasoning <= 0 || !raw || typeof raw !== "object") return false;
  const { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total } = raw as Record<string, unknown>;
  if (typeof prompt !== "number" || typeof completion !== "number" || typeof total !== "number") return false;
  return total === prompt + completion + reasoning;
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    reasoning: a.reasoning + b.reasoning,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
  };
}

/**
 * Tokens a finished step occupied in the context window: input + output + cache read (docs/agent.md, "Context").
 * Cache writes are uncached input too (Anthropic reports them apart), so they count as input.
 */
export function contextTokens(tokens: TokenUsage): number {
  return tokens.input + tokens.cacheWrite + tokens.output + tokens.cacheRead;
}

/** Tokens usable for the prompt: the context minus an output reserve, or the input limit minus a reserve. */
export function usableContext(info: Pick<ModelInfo, "context" | "output" | "input">): number {
  if (info.input !== undefined && info.input > 0) return info.input - INPUT_LIMIT_RESERVE;
  return info.context - Math.min(info.output, OUTPUT_TOKEN_RESERVE_MAX);
}

/** Does a step with these tokens overflow the model's usable context? Unknown limits never do. */
export function isOverflow(tokens: TokenUsage, info: Pick<ModelInfo, "context" | "output" | "input"> | undefined): boolean {
  if (!info || !(info.context > 0)) return false;
  return contextTokens(tokens) >= usableContext(info);
}

/** Cached per tool definition: the JSON a request carries for it (name, description, schema). */
const toolJsonChars = new WeakMap<object, number>();

/**
 * What every request carries besides the messages, estimated (chars / 4, docs/agent.md, "Context"): the system prompt
 * and the tool definitions with their JSON schemas.
 */
export function requestOverheadTokens(
  system: string,
  tools: readonly { id: string; description: string; parameters: Parameters<typeof zodSchema>[0]; inputJsonSchema?: Record<string, unknown> }[],
): number {
  let chars = system.length;
  for (const tool of tools) {
    let size = toolJsonChars.get(tool);
    if (size === undefined) {
      size = JSON.stringify({ name: tool.id, description: tool.description, parameters: tool.inputJsonSchema ?? zodSchema(tool.parameters).jsonSchema }).length;
      toolJsonChars.set(tool, size);
    }
    chars += size;
  }
  return Math.ceil(chars / 4);
}
