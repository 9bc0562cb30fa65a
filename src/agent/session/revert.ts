// Revert, unrevert and fork (docs/agent.md, "Snapshots, revert, unrevert, fork"). Revert puts the files the later steps changed back as
// they were before a message and hides the later messages (kept until the next prompt, so
// unrevert can bring both back); fork copies the messages before a point into a new session.
import { UserFacingError, newId } from "../../base";
import { emptyUsage, type MessageRecord, type PartRecord, type SessionRecord } from "../../storage";
import type { SessionEnv } from "./env";
import type { MessageWithParts } from "./store";
import { addUsage } from "./usage";

/** The files changed by steps at or after `messageId` (from their patch parts), sorted. */
function changedFilesFrom(messages: MessageWithParts[], messageId: string): string[] {
  const files = new Set<string>();
  for (const message of messages) {
    if (message.info.id < messageId) continue;
    for (const part of message.parts) if (part.type === "patch") for (const file of part.files) files.add(file);
  }
  return [...files].sort();
}

/** The snapshot recorded when the first step at or after `messageId` started. */
function snapshotBefore(messages: MessageWithParts[], messageId: string): string | undefined {
  for (const message of messages) {
    if (message.info.id < messageId) continue;
    for (const part of message.parts) if (part.type === "step-start" && part.snapshot) return part.snapshot;
  }
  return undefined;
}

export async function revertSession(env: SessionEnv, sessionId: string, messageId: string): Promise<SessionRecord> {
  const session = await env.store.requireSession(sessionId);
  const messages = await env.store.messages(sessionId);
  if (!messages.some((m) => m.info.id === messageId)) {
    throw new UserFacingError("That message is no longer in this session; reload the session and try again.", "revert-missing");
  }
  // Reverting again while reverted: first bring the files back to the latest state.
  if (session.revert) await restoreLatest(env, session, messages);
  const files = changedFilesFrom(messages, messageId);
  const before = snapshotBefore(messages, messageId);
  const latest = await env.snapshots.take();
  if (before && files.length > 0) await env.snapshots.restore(before, files);
  const updated = await env.store.updateSession(sessionId, (current) => ({ ...current, revert: { messageId, snapshot: latest }, updatedAt: env.now() }));
  await env.store.flush(sessionId);
  return updated ?? session;
}

async function restoreLatest(env: SessionEnv, session: SessionRecord, messages: MessageWithParts[]): Promise<void> {
  if (!session.revert) return;
  const files = changedFilesFrom(messages, session.revert.messageId);
  if (files.length > 0) await env.snapshots.restore(session.revert.snapshot, files);
}

export async function unrevertSession(env: SessionEnv, sessionId: string): Promise<SessionRecord> {
  const session = await env.store.requireSession(sessionId);
  if (!session.revert) return session;
  await restoreLatest(env, session, await env.store.messages(sessionId));
  const updated = await env.store.updateSession(sessionId, ({ revert: _revert, ...rest }) => ({ ...rest, updatedAt: env.now() }));
  await env.store.flush(sessionId);
  return updated ?? session;
}

/** Makes a revert final (the next prompt): deletes the hidden messages, forgets the way back. */
export async function commitRevert(env: SessionEnv, sessionId: string): Promise<void> {
  const session = await env.store.requireSession(sessionId);
  if (!session.revert) return;
  const { messageId } = session.revert;
  const hidden = (await env.store.messages(sessionId)).filter((m) => m.info.id >= messageId).map((m) => m.info.id);
  await env.store.removeMessages(sessionId, hidden);
  await env.store.updateSession(sessionId, ({ revert: _revert, ...rest }) => ({ ...rest, updatedAt: env.now() }));
  await env.store.flush(sessionId);
}

/** Messages as the user sees them: while reverted, the hidden ones are left out. */
export function visibleToUser(session: SessionRecord, messages: MessageWithParts[]): MessageWithParts[] {
  const revert = session.revert;
  return revert ? messages.filter((m) => m.info.id < revert.messageId) : messages;
}

/** Copies the messages before `messageId` (all when omitted) into a new session "<title> (fork #N)". */
export async function forkSession(env: SessionEnv, sessionId: string, messageId?: string): Promise<SessionRecord> {
  const session = await env.store.requireSession(sessionId);
  const messages = visibleToUser(session, await env.store.messages(sessionId)).filter(
    (m) => messageId === undefined || m.info.id < messageId,
  );
  const base = session.title.replace(/ \(fork #\d+\)$/, "");
  const siblings = await env.storage.sessions.list(session.workspaceId);
  const pattern = new RegExp(`^${escapeRegExp(base)} \\(fork #(\\d+)\\)$`);
  const taken = siblings.map((s) => pattern.exec(s.title)?.[1]).filter((n): n is string => n !== undefined).map(Number);
  const n = taken.length === 0 ? 1 : Math.max(...taken) + 1;
  const now = env.now();
  const fork: SessionRecord = {
    ...session,
    id: newId("ses", now),
    title: `${base} (fork #${n})`,
    createdAt: now,
    updatedAt: now,
    tokens: messages.reduce((sum, m) => (m.info.role === "assistant" ? addUsage(sum, m.info.tokens) : sum), emptyUsage()),
    cost: messages.reduce((sum, m) => sum + (m.info.role === "assistant" ? m.info.cost : 0), 0),
    todos: session.todos.map((t) => ({ ...t })),
    permission: session.permission.slice(),
  };
  delete fork.revert;
  delete fork.share;
  delete fork.userEdits;
  await env.store.createSession(fork);

  // New ids in the same order keep the copy time-ordered; assistant parents follow the mapping.
  const ids = new Map<string, string>();
  for (const message of messages) ids.set(message.info.id, newId("msg", now));
  for (const message of messages) {
    const id = ids.get(message.info.id)!;
    const info: MessageRecord =
      message.info.role === "assistant"
        ? { ...message.info, id, sessionId: fork.id, parentId: ids.get(message.info.parentId) ?? message.info.parentId }
        : { ...message.info, id, sessionId: fork.id };
    env.store.updateMessage(info);
    for (const part of message.parts) {
      const copy = { ...structuredClone(part), id: newId("prt", now), sessionId: fork.id, messageId: id } as PartRecord;
      // A compaction names the first turn it kept verbatim; in the copy that turn has a new id.
      if (copy.type === "compaction" && copy.tailStartId !== undefined) {
        const tail = ids.get(copy.tailStartId);
        if (tail) copy.tailStartId = tail;
        else delete copy.tailStartId;
      }
      env.store.updatePart(copy);
    }
  }
  await env.store.flush(fork.id);
  return fork;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
