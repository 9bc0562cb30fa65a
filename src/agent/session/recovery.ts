// Crash consistency (docs/agent.md, "Sessions and persistence"): a reply that was streaming when the page
// closed is found without completedAt. When its session is loaded and no turn is running, the
// reply is closed as interrupted and its unfinished tool calls become errors, so the user can go on.
import type { MessageError } from "../../storage";
import type { SessionEnv } from "./env";
import type { MessageWithParts } from "./store";

export const INTERRUPTED_ERROR: MessageError = {
  name: "InterruptedError",
  // Said as what is known: the page also finds a reply unfinished when its last records could not
  // be stored (browser storage full), and cannot tell which happened.
  message: "This reply stopped before it finished: the page was closed or reloaded, or its last steps could not be saved (browser storage full).",
  action: "Send a message to continue where it stopped; if storage is full, free space first (Settings → Storage).",
};

/** Returns how many messages were closed. */
export function closeInterrupted(env: Pick<SessionEnv, "store" | "now">, messages: MessageWithParts[]): number {
  let closed = 0;
  const now = env.now();
  for (const message of messages) {
    if (message.info.role !== "assistant" || message.info.completedAt !== undefined) continue;
    for (const part of message.parts) {
      if (part.type === "provider-tool" && part.state.status === "running") {
        env.store.updatePart({ ...part, state: { ...part.state, status: "error", output: "interrupted" } });
        continue;
      }
      if (part.type !== "tool") continue;
      const state = part.state;
      if (state.status !== "pending" && state.status !== "running") continue;
      const start = state.status === "running" ? state.start : now;
      env.store.updatePart({ ...part, state: { status: "error", input: state.input, error: "interrupted", start, end: now } });
    }
    env.store.updateMessage({ ...message.info, completedAt: now, finish: "aborted", error: INTERRUPTED_ERROR });
    closed++;
  }
  return closed;
}
