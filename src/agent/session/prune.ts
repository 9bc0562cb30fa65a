// Prune (docs/agent.md, "Context"): after each turn, old tool outputs beyond the newest PRUNE_PROTECT_TOKENS are
// cleared from what the model sees (stamped `compactedAt`; the UI still has the text), but only
// when that frees more than PRUNE_MINIMUM_TOKENS — small gains are not worth a cache miss.
import type { PartRecord } from "../../storage";
import { estimateTokens } from "./compaction";
import type { SessionEnv } from "./env";
import { visibleHistory } from "./history";

export const PRUNE_PROTECT_TOKENS = 40_000;
export const PRUNE_MINIMUM_TOKENS = 20_000;

type ToolPart = Extract<PartRecord, { type: "tool" }>;

/** Returns the number of tool outputs cleared. */
export async function prune(env: SessionEnv, sessionId: string): Promise<number> {
  const history = visibleHistory(await env.store.messages(sessionId));
  let seen = 0;
  let prunable = 0;
  const clear: ToolPart[] = [];
  walk: for (let m = history.length - 1; m >= 0; m--) {
    const message = history[m]!;
    if (message.info.role === "assistant" && message.info.summary) break;
    for (let p = message.parts.length - 1; p >= 0; p--) {
      const part = message.parts[p]!;
      if (part.type !== "tool" || part.state.status !== "completed") continue;
      // Everything older was pruned by an earlier pass already.
      if (part.state.compactedAt !== undefined) break walk;
      const tokens = estimateTokens(part.state.output);
      seen += tokens;
      if (seen > PRUNE_PROTECT_TOKENS) {
        prunable += tokens;
        clear.push(part);
      }
    }
  }
  if (prunable <= PRUNE_MINIMUM_TOKENS) return 0;
  const now = env.now();
  for (const part of clear) {
    if (part.state.status !== "completed") continue;
    env.store.updatePart({ ...part, state: { ...part.state, compactedAt: now } });
  }
  await env.store.flush(sessionId);
  return clear.length;
}
