// Formatting for the chat: token counts, costs, durations, context sizes, prices and agent names.
import { revealInvisibleChars } from "../../base";
import type { MessageRecord, ModelRef, TokenUsage } from "../../storage";
import type { AgentSummary } from "./agent-port";

/** 950 -> "950", 12_345 -> "12.3k", 1_200_000 -> "1.2M". */
export function formatTokens(count: number): string {
  if (count < 1000) return String(Math.round(count));
  if (count < 1_000_000) return `${trim(count / 1000)}k`;
  return `${trim(count / 1_000_000)}M`;
}

function trim(value: number): string {
  return value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, "");
}

/** USD with enough precision for small amounts: "$0.0042", "$1.23". */
export function formatCost(usd: number): string {
  if (usd === 0) return "$0.00";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** Total tokens of a usage (input + output + cache reads and writes; reasoning is inside output). */
export function totalTokens(usage: TokenUsage): number {
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** "in 1.2k · out 340 · cache 5k" — what a message or session used. */
export function describeUsage(usage: TokenUsage): string {
  const parts = [`in ${formatTokens(usage.input)}`, `out ${formatTokens(usage.output)}`];
  if (usage.reasoning > 0) parts.push(`reasoning ${formatTokens(usage.reasoning)}`);
  if (usage.cacheRead > 0) parts.push(`cache read ${formatTokens(usage.cacheRead)}`);
  if (usage.cacheWrite > 0) parts.push(`cache write ${formatTokens(usage.cacheWrite)}`);
  return parts.join(" · ");
}

/** 850 -> "850 ms", 12_300 -> "12.3 s", 125_000 -> "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${trim(ms / 1000)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

/** Price per million tokens: "$3 / $15 per M" ("free" when both are zero). */
export function formatPrice(cost: { input: number; output: number }): string {
  if (cost.input === 0 && cost.output === 0) return "free";
  return `$${cost.input} / $${cost.output} per M`;
}

/**
 * An agent as the picker names it: a workspace file that defines an agent, or redefines a built-in
 * one (an imported repository may ship its own build.md), is marked with its path.
 */
export function agentLabel(agent: AgentSummary): string {
  // Names come from workspace files: invisible and direction characters are shown, not obeyed.
  const name = revealInvisibleChars(agent.name);
  if (!agent.source) return name;
  return `${name} (${agent.builtIn ? "redefined by" : "from"} ${revealInvisibleChars(agent.source)})`;
}

export function agentTitle(agent: AgentSummary): string {
  const origin = agent.source ? `${agent.builtIn ? "Built-in agent redefined by the workspace file" : "Workspace agent from"} ${agent.source}` : "";
  return [agent.description, origin].filter(Boolean).join("\n");
}


/**
 * The context the last model call filled: its prompt as the provider counted it (system prompt, tool
 * schemas and messages) plus its reply, the count compaction compares (docs/agent.md, "Context"). Undefined
 * before the first reply with usage.
 */
export function lastRequestContext(messages: readonly { info: MessageRecord }[]): { tokens: number; model: ModelRef } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const info = messages[i]!.info;
    if (info.role !== "assistant") continue;
    const tokens = totalTokens(info.tokens);
    if (tokens > 0) return { tokens, model: info.model };
  }
  return undefined;
}

/** "23.4k of 200k (12%)". */
export function describeContext(tokens: number, window: number): string {
  return `${formatTokens(tokens)} of ${formatTokens(window)} (${Math.min(999, Math.round((tokens / window) * 100))}%)`;
}
