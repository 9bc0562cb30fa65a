// Keeps one huge tool result from overflowing the model's context: a text result larger than what
// is left of the window (after everything else and the room kept for the reply) is cut before
// sending, with a note telling the model how to read the rest in smaller pieces. The stored
// result is untouched (the user still sees it all). Sizes are estimated at 4 characters a token,
// the same rough rule the rest of the budget uses; a little slack absorbs the estimate's error.
import type { ModelMessage } from "ai";

/** Results smaller than this are never cut, and cutting needs at least this much room to be worth it. */
const MIN_KEPT_CHARS = 1000;

/** Characters per token for the estimate. */
export const CHARS_PER_TOKEN = 4;

export interface ContextBudget {
  /** The model's context window, in tokens. */
  contextTokens: number;
  /** Tokens kept free for the reply. */
  reserveTokens: number;
  /** Characters sent besides the messages (system prompt, tool descriptions). */
  fixedChars: number;
}

export function truncationNote(shown: number, total: number): string {
  return (
    `\n\n[Result truncated to fit the model's context window: showing the first ${shown} of ${total} characters. ` +
    "Read the rest in smaller pieces: the read tool with offset and limit, grep for what you need, or head/tail/sed on the command's output.]"
  );
}

type ToolOutput = { type: "text" | "error-text"; value: string };

/** Returns `messages` with oversize text tool results cut to what is left of the window. */
export function fitToolResults(messages: ModelMessage[], budget: ContextBudget): ModelMessage[] {
  const limit = Math.max(0, (budget.contextTokens - budget.reserveTokens) * CHARS_PER_TOKEN - budget.fixedChars);
  const size = (value: unknown) => JSON.stringify(value).length;
  let total = messages.reduce((sum, m) => sum + size(m.content), 0);
  if (total <= limit) return messages;
  // Largest first: the one result that blows the budget is cut, the rest stay whole when they fit.
  const outputs: Array<{ message: number; index: number; length: number }> = [];
  messages.forEach((message, m) => {
    if (message.role !== "tool") return;
    message.content.forEach((part, i) => {
      if (part.type !== "tool-result") return;
      const output = part.output as ToolOutput | { type: string };
      if (output.type === "text" || output.type === "error-text") outputs.push({ message: m, index: i, length: size((output as ToolOutput).value) });
    });
  });
  outputs.sort((a, b) => b.length - a.length);
  const result = messages.slice();
  for (const item of outputs) {
    if (total <= limit) break;
    const left = limit - (total - item.length);
    // Cut only a result that alone is too big for what is left: when the rest does not fit either
    // (or the result is small), cutting cannot help; compaction handles that.
    if (item.length <= left || left < MIN_KEPT_CHARS || item.length < MIN_KEPT_CHARS) continue;
    const message = result[item.message] as Extract<ModelMessage, { role: "tool" }>;
    const part = message.content[item.index] as Extract<(typeof message.content)[number], { type: "tool-result" }>;
    const output = part.output as ToolOutput;
    const room = Math.max(0, left - size(truncationNote(output.value.length, output.value.length)) - 64);
    // Sizes are JSON sizes (escapes count): keep the same share of the raw text.
    const keep = Math.floor((output.value.length * room) / item.length);
    const value = output.value.slice(0, keep) + truncationNote(keep, output.value.length);
    const content = message.content.slice();
    content[item.index] = { ...part, output: { ...output, value } } as (typeof message.content)[number];
    result[item.message] = { ...message, content };
    total += size(value) - item.length;
  }
  return result;
}
