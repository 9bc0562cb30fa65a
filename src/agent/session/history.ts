// Which stored messages the next model call sees (docs/agent.md, "The loop", step 1): everything since the latest
// finished compaction — its question and summary first, then the turns it kept verbatim, then
// what came after — and the helpers that read turn structure out of a message list.
import type { AssistantMessageRecord, PartRecord, UserMessageRecord } from "../../storage";
import type { MessageWithParts } from "./store";

export function isFinishedSummary(message: MessageWithParts): boolean {
  const info = message.info;
  return info.role === "assistant" && info.summary === true && info.completedAt !== undefined && info.error === undefined;
}

export function compactionPart(message: MessageWithParts): Extract<PartRecord, { type: "compaction" }> | undefined {
  return message.parts.find((p): p is Extract<PartRecord, { type: "compaction" }> => p.type === "compaction");
}

/** The messages the model sees next, in the order it sees them. */
export function visibleHistory(all: MessageWithParts[]): MessageWithParts[] {
  for (let i = all.length - 1; i >= 0; i--) {
    const summary = all[i]!;
    if (!isFinishedSummary(summary)) continue;
    const parentId = (summary.info as AssistantMessageRecord).parentId;
    const requestIndex = all.findIndex((m) => m.info.id === parentId);
    if (requestIndex < 0) return all.slice(i);
    const request = all[requestIndex]!;
    const tailStart = compactionPart(request)?.tailStartId;
    // The tail is cut from what the model saw when the compaction ran (itself after earlier ones).
    const before = tailStart === undefined ? [] : visibleHistory(all.slice(0, requestIndex));
    const tailIndex = before.findIndex((m) => m.info.id === tailStart);
    const tail = tailIndex < 0 ? [] : before.slice(tailIndex);
    const after = all.slice(requestIndex + 1).filter((m) => m !== summary);
    return [request, summary, ...tail, ...after];
  }
  return all;
}

export function lastUser(messages: MessageWithParts[]): MessageWithParts | undefined {
  let best: MessageWithParts | undefined;
  for (const m of messages) if (m.info.role === "user" && (!best || m.info.id > best.info.id)) best = m;
  return best;
}

export function lastAssistant(messages: MessageWithParts[], finishedOnly = false): MessageWithParts | undefined {
  let best: MessageWithParts | undefined;
  for (const m of messages) {
    if (m.info.role !== "assistant") continue;
    if (finishedOnly && m.info.completedAt === undefined) continue;
    if (!best || m.info.id > best.info.id) best = m;
  }
  return best;
}

/** The user messages that start turns: real prompts, not compaction requests. */
export function isTurnStart(message: MessageWithParts): message is MessageWithParts & { info: UserMessageRecord } {
  return message.info.role === "user" && !message.parts.some((p) => p.type === "compaction");
}

export function hasUnfinishedTool(message: MessageWithParts): boolean {
  return message.parts.some((p) => p.type === "tool" && (p.state.status === "pending" || p.state.status === "running"));
}
