// Prompt-cache breakpoints (docs/agent.md, "Prompt caching"): for providers that cache only up to
// the places a request marks (Anthropic), which messages of a step carry the mark.
//
// A request is read by the provider in the order tools, system, messages. Three marks, of the four
// Anthropic allows:
// - the stable system prompt: tools + system are cached once and read by every later step;
// - the last message: what this step sends is written to the cache, for the next step to read;
// - the message that was last in the previous request (the one before the latest assistant reply):
//   this step reads exactly the prefix the previous step wrote.
// The system text that changes between steps of a turn (reminders) goes after the marked system
// prompt, so it never breaks the cached tools and system.
import type { ModelMessage, SystemModelMessage } from "ai";

type ProviderOptions = NonNullable<SystemModelMessage["providerOptions"]>;

export interface CachedPrompt {
  instructions: string | SystemModelMessage[];
  messages: ModelMessage[];
}

/**
 * The instructions and messages of one call. Without `mark` they go as they are (the system as one
 * text: some servers take a single system message only).
 */
export function withCacheBreakpoints(
  system: { stable: string; tail?: string | undefined },
  messages: ModelMessage[],
  mark: Record<string, Record<string, unknown>> | undefined,
): CachedPrompt {
  const tail = system.tail?.trim() ? system.tail : undefined;
  if (!mark) return { instructions: tail ? `${system.stable}\n\n${tail}` : system.stable, messages };
  const options = mark as ProviderOptions;
  const instructions: SystemModelMessage[] = [{ role: "system", content: system.stable, providerOptions: options }];
  if (tail) instructions.push({ role: "system", content: tail });
  const marked = new Set<number>();
  if (messages.length > 0) marked.add(messages.length - 1);
  const lastReply = messages.findLastIndex((m) => m.role === "assistant");
  if (lastReply > 0) marked.add(lastReply - 1);
  return {
    instructions,
    messages: messages.map((message, i) => (marked.has(i) ? ({ ...message, providerOptions: merge(message.providerOptions, options) } as ModelMessage) : message)),
  };
}

/** Provider options with the mark added (options the message already has, e.g. metadata, stay). */
function merge(existing: ProviderOptions | undefined, mark: ProviderOptions): ProviderOptions {
  const out: ProviderOptions = { ...existing };
  for (const [provider, values] of Object.entries(mark)) out[provider] = { ...out[provider], ...values };
  return out;
}
