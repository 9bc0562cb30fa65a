// The session store: an in-memory view of the sessions the agent touches, the one way the agent
// changes sessions, messages and parts. Every change is published on the bus at once and persisted
// in batches (at most one IndexedDB transaction per PERSIST_INTERVAL_MS per session; flush() forces).
import { UserFacingError, errorMessage, isQuotaError, type Disposable } from "../../base";
import type { MessageRecord, PartRecord, SessionRecord, Storage } from "../../storage";
import type { AgentBus } from "./events";

/** Minimum time between two batched writes of one session (≤ 10 transactions per second). */
export const PERSIST_INTERVAL_MS = 100;

export interface MessageWithParts {
  info: MessageRecord;
  parts: PartRecord[];
}

interface SessionEntry {
  session: SessionRecord;
  messages: MessageRecord[];
  parts: Map<string, PartRecord[]>;
}

interface PendingWrites {
  sessions: Map<string, SessionRecord>;
  messages: Map<string, MessageRecord>;
  parts: Map<string, PartRecord>;
  timer?: ReturnType<typeof setTimeout>;
  lastWrite: number;
  /** The write in flight; writes of one session are chained so they land in order. */
  writing: Promise<void>;
  /** Batches handed to storage and not yet answered. */
  inFlight: number;
  /** Why the last write failed, until one succeeds: the session's records are not all stored. */
  failure?: SessionStorageError;
}

/** The session's records could not be stored: the turn stops rather than going on in memory. */
export class SessionStorageError extends UserFacingError {
  constructor(cause: unknown) {
    super(
      isQuotaError(cause)
        ? "The chat could not be saved: this site's browser storage is full. The agent stopped so nothing it does is lost; free space (Settings → Storage), then send your message again."
        : `The chat could not be saved to browser storage (${errorMessage(cause)}). The agent stopped so nothing it does is lost; try again.`,
      "session-storage",
      { cause },
    );
    this.name = "SessionStorageError";
  }
}

interface SessionRecords {
  sessions: SessionRecord[];
  messages: MessageRecord[];
  parts: PartRecord[];
}

/** What writeWhatFits could not store, thrown as the batch's failure. */
class UnstoredRecords extends Error {
  constructor(
    readonly batch: SessionRecords,
    readonly error: unknown,
  ) {
    super(errorMessage(error));
  }
}

function isUnstored(error: unknown): error is UnstoredRecords {
  return error instanceof UnstoredRecords;
}

function byId<T extends { id: string }>(a: T, b: T): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Inserts or replaces by id, keeping the list sorted by id (ids are time-ordered). */
function upsert<T extends { id: string }>(list: T[], item: T): void {
  for (let i = list.length - 1; i >= 0; i--) {
    const current = list[i]!;
    if (current.id === item.id) {
      list[i] = item;
      return;
    }
    if (current.id < item.id) {
      list.splice(i + 1, 0, item);
      return;
    }
  }
  list.unshift(item);
}

export interface SessionStoreOptions {
  /** Called when a batched write fails (e.g. storage quota); the records stay queued for the next write. */
  onPersistError?(error: unknown, sessionId: string): void;
  /** Called once per session when it is first loaded from storage (crash recovery hooks in here). */
  onLoad?(entry: { session: SessionRecord; messages: MessageWithParts[] }): Promise<void> | void;
}

export class SessionStore implements Disposable {
  private readonly entries = new Map<string, SessionEntry>();
  private readonly loading = new Map<string, Promise<SessionEntry | undefined>>();
  private readonly pending = new Map<string, PendingWrites>();
  /** Sessions deleted here: a late change (a title, a subagent's totals) must not write them back. */
  private readonly deleted = new Set<string>();
  /** Number of IndexedDB transactions issued for session records (for tests and benchmarks). */
  transactions = 0;

  constructor(
    private readonly storage: Storage,
    private readonly bus: AgentBus,
    private readonly options: SessionStoreOptions = {},
  ) {}

  // ---- reading -------------------------------------------------------------------------------

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    return (await this.entry(sessionId))?.session;
  }

  async requireSession(sessionId: string): Promise<SessionRecord> {
    const session = await this.getSession(sessionId);
    if (!session) throw new Error(`Session ${sessionId} does not exist (it may have been deleted).`);
    return session;
  }

  /** Why the session's last write failed, while none has succeeded since (its records are not all stored). */
  persistFailure(sessionId: string): SessionStorageError | undefined {
    return this.pending.get(sessionId)?.failure;
  }

  /** The in-memory version of a session if this store has loaded it (it may be newer than storage). */
  cached(sessionId: string): SessionRecord | undefined {
    return this.entries.get(sessionId)?.session;
  }

  /** Messages with their parts, oldest first. The arrays are copies; the records are shared. */
  async messages(sessionId: string): Promise<MessageWithParts[]> {
    const entry = await this.entry(sessionId);
    if (!entry) return [];
    return entry.messages.map((info) => ({ info, parts: (entry.parts.get(info.id) ?? []).slice() }));
  }

  async message(sessionId: string, messageId: string): Promise<MessageWithParts | undefined> {
    const entry = await this.entry(sessionId);
    const info = entry?.messages.find((m) => m.id === messageId);
    return info && entry ? { info, parts: (entry.parts.get(info.id) ?? []).slice() } : undefined;
  }

  /** Parts of a message already loaded (synchronous; the loop's hot path). */
  partsOf(sessionId: string, messageId: string): PartRecord[] {
    return this.entries.get(sessionId)?.parts.get(messageId) ?? [];
  }

  private entry(sessionId: string): Promise<SessionEntry | undefined> {
    if (this.deleted.has(sessionId)) return Promise.resolve(undefined);
    const cached = this.entries.get(sessionId);
    if (cached) return Promise.resolve(cached);
    let loading = this.loading.get(sessionId);
    if (!loading) {
      loading = this.load(sessionId).finally(() => this.loading.delete(sessionId));
      this.loading.set(sessionId, loading);
    }
    return loading;
  }

  private async load(sessionId: string): Promise<SessionEntry | undefined> {
    const session = await this.storage.sessions.get(sessionId);
    if (!session) return undefined;
    const [messages, parts] = await Promise.all([
      this.storage.messages.list(sessionId),
      this.storage.parts.listBySession(sessionId),
    ]);
    const byMessage = new Map<string, PartRecord[]>();
    for (const part of parts) {
      let list = byMessage.get(part.messageId);
      if (!list) byMessage.set(part.messageId, (list = []));
      list.push(part);
    }
    for (const list of byMessage.values()) list.sort(byId);
    const entry: SessionEntry = { session, messages: messages.sort(byId), parts: byMessage };
    if (this.deleted.has(sessionId)) return undefined;
    // Another caller may have created the session in memory meanwhile; memory wins.
    const existing = this.entries.get(sessionId);
    if (existing) return existing;
    this.entries.set(sessionId, entry);
    await this.options.onLoad?.({
      session,
      messages: entry.messages.map((info) => ({ info, parts: (entry.parts.get(info.id) ?? []).slice() })),
    });
    return this.entries.get(sessionId);
  }

  // ---- writing -------------------------------------------------------------------------------

  /** Registers a new session (written at once: the session list must survive a reload). */
  async createSession(session: SessionRecord): Promise<void> {
    // A subagent's session started just as its parent was deleted: it is deleted with it.
    if (session.parentId && this.deleted.has(session.parentId)) {
      this.deleted.add(session.id);
      return;
    }
    this.entries.set(session.id, { session, messages: [], parts: new Map() });
    this.queue(session.id).sessions.set(session.id, session);
    this.bus.emit("session-created", { session });
    await this.flush(session.id);
  }

  /**
   * The one way to change a session: `change` gets the current record (this store's, which may be
   * newer than storage) and returns the new one, synchronously, so a change that lands meanwhile
   * (a title during a revert, a todo list during a turn's totals) is never overwritten by a copy
   * read before an `await`. Resolves with the new record, or undefined when the session does not
   * exist (deleted meanwhile).
   */
  async updateSession(sessionId: string, change: (current: SessionRecord) => SessionRecord): Promise<SessionRecord | undefined> {
    const entry = await this.entry(sessionId);
    if (!entry) return undefined;
    const session = change(entry.session);
    if (session === entry.session) return session;
    entry.session = session;
    this.queue(sessionId).sessions.set(sessionId, session);
    this.schedule(sessionId);
    this.bus.emit("session-updated", { session });
    return session;
  }

  updateMessage(message: MessageRecord): void {
    if (this.deleted.has(message.sessionId)) return;
    const entry = this.entries.get(message.sessionId);
    if (entry) upsert(entry.messages, message);
    this.queue(message.sessionId).messages.set(message.id, message);
    this.schedule(message.sessionId);
    this.bus.emit("message-updated", { message });
  }

  /** Publishes the part at once; persists it with the next batch. */
  updatePart(part: PartRecord, delta?: string): void {
    if (this.deleted.has(part.sessionId)) return;
    const entry = this.entries.get(part.sessionId);
    if (entry) {
      let list = entry.parts.get(part.messageId);
      if (!list) entry.parts.set(part.messageId, (list = []));
      upsert(list, part);
    }
    this.queue(part.sessionId).parts.set(part.id, part);
    this.schedule(part.sessionId);
    this.bus.emit("part-updated", delta === undefined ? { part } : { part, delta });
  }

  async removePart(part: PartRecord): Promise<void> {
    const entry = this.entries.get(part.sessionId);
    const list = entry?.parts.get(part.messageId);
    if (list) {
      const index = list.findIndex((p) => p.id === part.id);
      if (index >= 0) list.splice(index, 1);
    }
    const queue = this.queue(part.sessionId);
    queue.parts.delete(part.id);
    await this.flush(part.sessionId);
    await this.storage.parts.delete([part.id]);
    this.bus.emit("part-removed", { sessionId: part.sessionId, messageId: part.messageId, partId: part.id });
  }

  async removeMessages(sessionId: string, messageIds: string[]): Promise<void> {
    if (messageIds.length === 0) return;
    const ids = new Set(messageIds);
    const entry = this.entries.get(sessionId);
    if (entry) {
      entry.messages = entry.messages.filter((m) => !ids.has(m.id));
      for (const id of ids) entry.parts.delete(id);
    }
    const queue = this.queue(sessionId);
    for (const id of ids) queue.messages.delete(id);
    for (const [partId, part] of queue.parts) if (ids.has(part.messageId)) queue.parts.delete(partId);
    await this.flush(sessionId);
    await this.storage.messages.delete(messageIds);
    for (const messageId of messageIds) this.bus.emit("message-removed", { sessionId, messageId });
  }

  async deleteSession(sessionId: string): Promise<void> {
    // From here on, changes to it are dropped rather than queued (they would write it back).
    const ids = [sessionId];
    this.stopWriting(sessionId);
    try {
      await this.pending.get(sessionId)?.writing;
      const children = await this.storage.sessions.children(sessionId);
      for (const child of children) {
        ids.push(child.id);
        this.stopWriting(child.id);
        await this.pending.get(child.id)?.writing;
      }
      await this.storage.sessions.delete(sessionId);
    } catch (error) {
      // Still stored: it can be read (and deleted) again.
      for (const id of ids) this.deleted.delete(id);
      throw error;
    }
    for (const id of ids) {
      this.pending.delete(id);
      this.bus.emit("session-deleted", { sessionId: id });
    }
  }

  /** Whether this store has a copy of the session, or writes for it queued or in flight. */
  holds(sessionId: string): boolean {
    return this.entries.has(sessionId) || this.loading.has(sessionId) || this.pending.has(sessionId);
  }

  /** Whether the session was deleted while this page held it (here or elsewhere). */
  isDeleted(sessionId: string): boolean {
    return this.deleted.has(sessionId);
  }

  /**
   * A session deleted elsewhere (Settings → Storage, another tab) while this page may still work in
   * it: its copy and queued writes go at once, with those of its subagent sessions held here, and
   * later changes to them are dropped. When this page was working in it (`busy`) or had writes on
   * the way, something may have landed after the delete (a batch, a step's totals): the session is
   * deleted again once the write in flight is done. Resolves when that is done.
   */
  async stopWritingDeleted(sessionId: string, busy: boolean): Promise<void> {
    if (this.deleted.has(sessionId)) return;
    const children = [...this.entries.values()].filter((e) => e.session.parentId === sessionId).map((e) => e.session.id);
    const ids = [sessionId, ...children];
    const writing = ids.map((id) => this.pending.get(id)?.writing);
    const mayHaveWritten = busy || ids.some((id) => this.writesWaiting(id));
    for (const id of ids) this.stopWriting(id);
    for (const id of ids) this.bus.emit("session-deleted", { sessionId: id });
    if (mayHaveWritten) await Promise.all(writing.map((w) => w?.catch(() => undefined)));
    for (const id of ids) this.pending.delete(id);
    // Each one by id: a subagent's messages may have landed after its session record was deleted.
    if (mayHaveWritten) for (const id of ids) await this.storage.sessions.delete(id);
  }

  /** Drops a session's copy and its queued writes; later changes to it are ignored. */
  private stopWriting(sessionId: string): void {
    this.deleted.add(sessionId);
    this.entries.delete(sessionId);
    const queue = this.pending.get(sessionId);
    if (!queue) return;
    if (queue.timer) clearTimeout(queue.timer);
    queue.timer = undefined;
    queue.sessions.clear();
    queue.messages.clear();
    queue.parts.clear();
  }

  /**
   * Drops the in-memory copy of sessions another tab changed, so the next read loads what is stored.
   * A session with writes still queued or in flight here keeps its copy (they are the newer ones);
   * one whose writes have all landed is dropped like any other. Returns the ids dropped.
   */
  forget(sessionIds: readonly string[] | undefined, keep: (sessionId: string) => boolean): string[] {
    const dropped: string[] = [];
    for (const id of sessionIds ?? [...this.entries.keys()]) {
      if (!this.entries.has(id) || keep(id) || this.writesWaiting(id)) continue;
      this.entries.delete(id);
      dropped.push(id);
    }
    return dropped;
  }

  private writesWaiting(sessionId: string): boolean {
    const queue = this.pending.get(sessionId);
    return !!queue && (queue.timer !== undefined || queue.inFlight > 0 || queue.sessions.size + queue.messages.size + queue.parts.size > 0);
  }

  /** Writes everything queued for a session (or all sessions) now, in one transaction each. */
  async flush(sessionId?: string): Promise<void> {
    if (sessionId === undefined) {
      await Promise.all([...this.pending.keys()].map((id) => this.flush(id)));
      return;
    }
    const queue = this.pending.get(sessionId);
    if (!queue) return;
    if (queue.timer) {
      clearTimeout(queue.timer);
      queue.timer = undefined;
    }
    if (queue.sessions.size + queue.messages.size + queue.parts.size > 0) {
      const batch = {
        sessions: [...queue.sessions.values()],
        messages: [...queue.messages.values()],
        parts: [...queue.parts.values()],
      };
      queue.sessions.clear();
      queue.messages.clear();
      queue.parts.clear();
      queue.lastWrite = Date.now();
      queue.inFlight++;
      queue.writing = queue.writing.then(async () => {
        this.transactions++;
        try {
          let unstored: UnstoredRecords | undefined;
          try {
            await this.storage.writeBatch(batch);
          } catch (error) {
            if (!isQuotaError(error)) throw error;
            // Full: one large record (a write's content) must not keep the small ones out (the
            // reply's end, its error, other calls' results). Each is tried on its own, smallest first.
            unstored = await this.writeWhatFits(batch, error);
          }
          if (unstored) throw unstored;
          queue.failure = undefined;
        } catch (error) {
          // Deleted meanwhile (elsewhere): nothing to keep or report.
          if (this.deleted.has(sessionId)) return;
          queue.failure = new SessionStorageError(isUnstored(error) ? error.error : error);
          const failed = isUnstored(error) ? error.batch : batch;
          // Keep what failed queued (unless a newer version is already waiting) and report it.
          for (const s of failed.sessions) if (!queue.sessions.has(s.id)) queue.sessions.set(s.id, s);
          for (const m of failed.messages) if (!queue.messages.has(m.id)) queue.messages.set(m.id, m);
          for (const p of failed.parts) if (!queue.parts.has(p.id)) queue.parts.set(p.id, p);
          this.options.onPersistError?.(isUnstored(error) ? error.error : error, sessionId);
        } finally {
          queue.inFlight--;
        }
      });
    }
    await queue.writing;
  }

  /**
   * After storage refused a batch as too large: writes its records one per transaction, sessions
   * and messages first (a part is shown under its message), each group smallest first. Returns
   * what still did not fit, with the error, or undefined when all of it did.
   */
  private async writeWhatFits(batch: SessionRecords, error: unknown): Promise<UnstoredRecords | undefined> {
    const failed: SessionRecords = { sessions: [], messages: [], parts: [] };
    let lastError = error;
    const bySize = <T>(records: T[]) => records.map((r) => ({ r, size: JSON.stringify(r)?.length ?? 0 })).sort((a, b) => a.size - b.size).map((x) => x.r);
    const tryOne = async (single: Partial<SessionRecords>): Promise<boolean> => {
      this.transactions++;
      try {
        await this.storage.writeBatch(single);
        return true;
      } catch (refused) {
        lastError = refused;
        return false;
      }
    };
    for (const s of bySize(batch.sessions)) if (!(await tryOne({ sessions: [s] }))) failed.sessions.push(s);
    for (const m of bySize(batch.messages)) if (!(await tryOne({ messages: [m] }))) failed.messages.push(m);
    for (const p of bySize(batch.parts)) if (!(await tryOne({ parts: [p] }))) failed.parts.push(p);
    return failed.sessions.length + failed.messages.length + failed.parts.length > 0 ? new UnstoredRecords(failed, lastError) : undefined;
  }

  private queue(sessionId: string): PendingWrites {
    let queue = this.pending.get(sessionId);
    if (!queue) {
      queue = {
        sessions: new Map(),
        messages: new Map(),
        parts: new Map(),
        lastWrite: 0,
        writing: Promise.resolve(),
        inFlight: 0,
      };
      this.pending.set(sessionId, queue);
    }
    return queue;
  }

  private schedule(sessionId: string): void {
    const queue = this.queue(sessionId);
    if (queue.timer) return;
    const wait = Math.max(0, queue.lastWrite + PERSIST_INTERVAL_MS - Date.now());
    queue.timer = setTimeout(() => {
      queue.timer = undefined;
      void this.flush(sessionId);
    }, wait);
  }

  dispose(): void {
    for (const queue of this.pending.values()) if (queue.timer) clearTimeout(queue.timer);
    void this.flush();
  }
}
