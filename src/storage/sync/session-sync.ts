// Sync (issue 33, docs/architecture.md "Sync"): a workspace's sessions shared through the same Yjs
// document as its files. Local session writes (the agent's batches, titles, deletes: whatever this
// tab stores) go into the document; what other devices put there is written to IndexedDB and this
// tab's chat is told, the same way it hears of another tab's writes.
//
// Data model (records as the storage schemas define them, keyed by id; each record is replaced
// whole, never edited in place, and only added or removed: append-only):
//   doc.getMap("sessions")  session id -> session record (without its permission grants)
//   doc.getMap("messages")  message id -> message record
//   doc.getMap("parts")     part id -> part record; text and reasoning parts without `text`
//   doc.getMap("partTexts") part id -> Y.Text, the text of a text or reasoning part
// A streaming reply's text goes as Y.Text edits (the appended characters), not as whole records:
// the agent stores its records at most 10 times a second per session, and each of those writes
// sends what changed since the last one.
import * as Y from "yjs";
import type { Disposable } from "../../base";
import type { PartRecord, SessionRecord } from "../records";
import type { RecordBatch, SessionWriteEvent } from "../repositories";
import { restoreMessage, restorePart, restoreSession } from "../restore";
import type { Storage, StorageChange } from "../index";
import { applyTextToYText } from "./y-text-diff";

/** What session sync needs of storage. */
export type SyncedSessionStorage = Pick<Storage, "sessions" | "messages" | "parts" | "writeBatch" | "onDidWriteSessions"> & {
  readonly changes: Pick<Storage["changes"], "notifyHere">;
};

const LOCAL = Symbol("webcode-local-session-change");

type Json = Record<string, unknown>;

/** Part types whose text streams (kept as Y.Text). */
const STREAMED = new Set<string>(["text", "reasoning"]);

/**
 * A session as it goes into the document: permission grants ("always allow" for this session)
 * stay on the device that gave them, so a synced document can never loosen another device's
 * permissions (the rule backups follow too).
 */
function sharedSession(session: SessionRecord): Json {
  const { permission: _permission, ...shared } = session;
  return shared;
}

/** JSON with object keys sorted: a record read back from the document may list them in another order. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Uint8Array)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || stableJson(a) === stableJson(b);
}

export class SessionSync implements Disposable {
  readonly sessions: Y.Map<Json>;
  readonly messages: Y.Map<Json>;
  readonly parts: Y.Map<Json>;
  readonly texts: Y.Map<Y.Text>;
  private readonly subscriptions: Disposable[] = [];
  private merged = false;
  /** Local writes made before the first merge: applied once it is done. */
  private early: SessionWriteEvent[] = [];
  private pendingRemote = { sessions: new Set<string>(), messages: new Set<string>(), parts: new Set<string>() };
  private remoteTimer: ReturnType<typeof setTimeout> | undefined;
  /** Remote changes are stored one batch after the other, in order. */
  private writing: Promise<void> = Promise.resolve();
  private disposed = false;
  /** Records as storage held them at the merge: the first sweep does not store them again. */
  private skipUnchanged: Map<string, unknown> | undefined;

  constructor(
    private readonly storage: SyncedSessionStorage,
    private readonly workspaceId: string,
    readonly doc: Y.Doc,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.sessions = doc.getMap<Json>("sessions");
    this.messages = doc.getMap<Json>("messages");
    this.parts = doc.getMap<Json>("parts");
    this.texts = doc.getMap<Y.Text>("partTexts");
    this.subscriptions.push(
      storage.onDidWriteSessions((event) => {
        if (event.source === "sync" || this.disposed) return;
        if (this.merged) this.applyLocal(event);
        else this.early.push(event);
      }),
    );
  }

  /**
   * First connect: the workspace's stored sessions are added to the document (records it lacks;
   * a session record on both sides keeps the one updated last), and what the document has that
   * storage lacks or holds differently is stored. From then on both directions flow.
   */
  async merge(): Promise<void> {
    if (this.merged) return;
    const local = await this.storage.sessions.list(this.workspaceId);
    const records = await Promise.all(
      local.map(async (session) => ({
        session,
        messages: await this.storage.messages.list(session.id),
        parts: await this.storage.parts.listBySession(session.id),
      })),
    );
    if (this.disposed) return;
    this.merged = true;
    this.doc.transact(() => {
      for (const { session, messages, parts } of records) {
        const shared = this.sessions.get(session.id);
        if (!shared || (typeof shared.updatedAt === "number" && session.updatedAt > shared.updatedAt)) this.putRecord(this.sessions, session.id, sharedSession(session));
        for (const message of messages) if (!this.messages.has(message.id)) this.putRecord(this.messages, message.id, message as unknown as Json);
        for (const part of parts) if (!this.parts.has(part.id)) this.putPart(part);
      }
    }, LOCAL);
    // Everything the document has is compared with storage (and stored where it differs).
    for (const id of this.sessions.keys()) this.pendingRemote.sessions.add(id);
    for (const id of this.messages.keys()) this.pendingRemote.messages.add(id);
    for (const id of this.parts.keys()) this.pendingRemote.parts.add(id);
    const known = new Map<string, unknown>();
    for (const { session, messages, parts } of records) {
      known.set(`s:${session.id}`, sharedSession(session));
      for (const m of messages) known.set(`m:${m.id}`, m);
      for (const p of parts) known.set(`p:${p.id}`, p);
    }
    this.skipUnchanged = known;
    const observer = (events: Array<Y.YEvent<Y.AbstractType<unknown>>>, transaction: Y.Transaction) => {
      if (transaction.origin !== LOCAL) this.noteRemote(events);
    };
    for (const map of [this.sessions, this.messages, this.parts, this.texts] as Y.AbstractType<unknown>[]) {
      map.observeDeep(observer);
      this.subscriptions.push({ dispose: () => map.unobserveDeep(observer) });
    }
    for (const event of this.early.splice(0)) this.applyLocal(event);
    this.scheduleRemote(0);
    await this.whenStored();
  }

  /** Resolves when the remote changes seen so far are stored. */
  async whenStored(): Promise<void> {
    while (this.remoteTimer !== undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.writing;
  }

  // ---- local -> document ----------------------------------------------------------------------

  private applyLocal(event: SessionWriteEvent): void {
    const batch = event.batch ?? {};
    this.doc.transact(() => {
      for (const session of batch.sessions ?? []) {
        if (session.workspaceId === this.workspaceId) this.putRecord(this.sessions, session.id, sharedSession(session));
      }
      // Messages and parts of this workspace's sessions only (one database holds every workspace).
      for (const message of batch.messages ?? []) if (this.sessions.has(message.sessionId)) this.putRecord(this.messages, message.id, message as unknown as Json);
      for (const part of batch.parts ?? []) if (this.sessions.has(part.sessionId)) this.putPart(part);
      if (event.deletedSessions?.length) {
        const gone = new Set(event.deletedSessions.filter((id) => this.sessions.has(id)));
        for (const id of gone) this.sessions.delete(id);
        this.deleteWhere(this.messages, (m) => gone.has(m.sessionId as string));
        this.deleteWhere(this.parts, (p) => gone.has(p.sessionId as string));
      }
      if (event.deletedMessages?.length) {
        const gone = new Set(event.deletedMessages);
        for (const id of gone) this.messages.delete(id);
        this.deleteWhere(this.parts, (p) => gone.has(p.messageId as string));
      }
      for (const id of event.deletedParts ?? []) this.deletePart(id);
    }, LOCAL);
  }

  private putRecord(map: Y.Map<Json>, id: string, value: Json): void {
    if (!sameJson(map.get(id), value)) map.set(id, value);
  }

  private putPart(part: PartRecord): void {
    if (!STREAMED.has(part.type) || !("text" in part)) {
      this.putRecord(this.parts, part.id, part as unknown as Json);
      return;
    }
    const { text, ...rest } = part;
    const shared = this.texts.get(part.id);
    if (shared) applyTextToYText(shared, text);
    else this.texts.set(part.id, new Y.Text(text));
    this.putRecord(this.parts, part.id, rest);
  }

  private deletePart(id: string): void {
    if (this.parts.has(id)) this.parts.delete(id);
    if (this.texts.has(id)) this.texts.delete(id);
  }

  private deleteWhere(map: Y.Map<Json>, match: (record: Json) => boolean): void {
    for (const [id, record] of map) {
      if (!match(record)) continue;
      if (map === this.parts) this.deletePart(id);
      else map.delete(id);
    }
  }

  // ---- document -> storage --------------------------------------------------------------------

  private noteRemote(events: Array<Y.YEvent<Y.AbstractType<unknown>>>): void {
    for (const event of events) {
      const target = event.target;
      const keys = event instanceof Y.YMapEvent && event.path.length === 0 ? [...event.keysChanged] : typeof event.path[0] === "string" ? [event.path[0]] : [];
      if (target === this.sessions) for (const k of keys) this.pendingRemote.sessions.add(k);
      else if (target === this.messages) for (const k of keys) this.pendingRemote.messages.add(k);
      else for (const k of keys) this.pendingRemote.parts.add(k); // parts, partTexts and the texts in it
    }
    // Gathered for a moment: a stream's edits arrive many to a second, storage takes one batch.
    this.scheduleRemote(REMOTE_BATCH_MS);
  }

  private scheduleRemote(delay: number): void {
    if (this.remoteTimer !== undefined || this.disposed) return;
    this.remoteTimer = setTimeout(() => {
      this.remoteTimer = undefined;
      const pending = this.pendingRemote;
      this.pendingRemote = { sessions: new Set(), messages: new Set(), parts: new Set() };
      this.writing = this.writing.then(() => this.storeRemote(pending)).catch((error: unknown) => this.onError(error));
    }, delay);
  }

  /** Whether a session belongs to this workspace (a document cannot write into another one's). */
  private ownSession(sessionId: string): boolean {
    const shared = this.sessions.get(sessionId);
    return !!shared && shared.workspaceId === this.workspaceId;
  }

  /** Record ids checked once: not stored, or stored in a session of this workspace. */
  private readonly ownIds = new Set<string>();

  /**
   * Whether the stored record with this id (if any) is this workspace's: a document naming the id
   * of another workspace's message or part must not replace or delete it.
   */
  private async ownStored(kind: "messages" | "parts", id: string): Promise<boolean> {
    if (this.ownIds.has(id)) return true;
    const stored = await this.storage[kind].get(id);
    const own = !stored || (await this.storage.sessions.get(stored.sessionId))?.workspaceId === this.workspaceId;
    if (own) this.ownIds.add(id);
    return own;
  }

  private async storeRemote(pending: { sessions: Set<string>; messages: Set<string>; parts: Set<string> }): Promise<void> {
    if (this.disposed) return;
    const skip = this.skipUnchanged;
    this.skipUnchanged = undefined;
    const unchanged = (key: string, value: unknown) => skip?.has(key) === true && sameJson(skip.get(key), value);
    const batch: Required<RecordBatch> = { sessions: [], messages: [], parts: [] };
    const deletedSessions: string[] = [];
    const deletedMessages: string[] = [];
    const deletedParts: string[] = [];
    const touched = new Set<string>();
    for (const id of pending.sessions) {
      const value = this.sessions.get(id);
      if (!value) {
        const stored = await this.storage.sessions.get(id);
        if (stored?.workspaceId === this.workspaceId) deletedSessions.push(id);
        continue;
      }
      if (unchanged(`s:${id}`, value)) continue;
      const session = this.restore(() => restoreSession(value));
      if (!session || session.workspaceId !== this.workspaceId) continue;
      const stored = await this.storage.sessions.get(id);
      if (stored && stored.workspaceId !== this.workspaceId) continue;
      // This device's own grants are kept; a document never brings any.
      batch.sessions.push({ ...session, permission: stored?.permission ?? [] });
      touched.add(id);
    }
    for (const id of pending.messages) {
      const value = this.messages.get(id);
      if (!value) {
        if (await this.ownStored("messages", id)) deletedMessages.push(id);
        continue;
      }
      if (unchanged(`m:${id}`, value)) continue;
      const message = this.restore(() => restoreMessage(value));
      if (!message || !this.ownSession(message.sessionId) || !(await this.ownStored("messages", id))) continue;
      batch.messages.push(message);
      touched.add(message.sessionId);
    }
    for (const id of pending.parts) {
      const value = this.parts.get(id);
      if (!value) {
        if (!this.texts.has(id) && (await this.ownStored("parts", id))) deletedParts.push(id);
        continue;
      }
      const text = this.texts.get(id);
      const record = text ? { ...value, text: text.toString() } : value;
      if (unchanged(`p:${id}`, record)) continue;
      const part = this.restore(() => restorePart(record));
      if (!part || !this.ownSession(part.sessionId) || !(await this.ownStored("parts", id))) continue;
      batch.parts.push(part);
      touched.add(part.sessionId);
    }
    if (batch.sessions.length + batch.messages.length + batch.parts.length > 0) await this.storage.writeBatch(batch, { source: "sync" });
    // Deletions of records this workspace holds (the ids come from its own document).
    for (const id of deletedSessions) await this.storage.sessions.delete(id, { source: "sync" });
    if (deletedMessages.length > 0) await this.storage.messages.delete(deletedMessages, { source: "sync" });
    if (deletedParts.length > 0) await this.storage.parts.delete(deletedParts, { source: "sync" });
    // This tab's chat follows as it does another tab's writes. Removed messages or parts no longer
    // say which session they were in, so then every session this tab holds is reloaded.
    const removed = deletedMessages.length + deletedParts.length > 0;
    if (touched.size === 0 && deletedSessions.length === 0 && !removed) return;
    const change: StorageChange = {
      kind: "sessions",
      ...(!removed && touched.size > 0 && { sessionIds: [...touched] }),
      ...(deletedSessions.length > 0 && { deleted: deletedSessions }),
    };
    this.storage.changes.notifyHere(change);
  }

  private restore<T>(read: () => T): T | undefined {
    try {
      return read();
    } catch (error) {
      this.onError(error);
      return undefined;
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.remoteTimer !== undefined) clearTimeout(this.remoteTimer);
    this.remoteTimer = undefined;
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }
}

/** How long remote changes are gathered before they are stored (one IndexedDB batch). */
export const REMOTE_BATCH_MS = 50;
