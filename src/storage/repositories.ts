// One repository per record kind. All reads go through the restore step; write failures caused
// by the browser's storage quota become StorageQuotaError, a message the user can act on.
import { UserFacingError, isQuotaError } from "../base";
import type { IDBPTransaction } from "idb";
import type { WebcodeDatabase, WebcodeSchema } from "./database";
import type { StorageChange } from "./tab-changes";
import { matchesBase, resolveWrite, type CheckedResult, type CheckedWrite } from "./file-writes";
import type {
  BlobRecord,
  FileRecord,
  MessageRecord,
  PartRecord,
  SessionRecord,
  SnapshotRecord,
  WorkspaceRecord,
} from "./records";
import {
  restoreAll,
  restoreList,
  restoreFile,
  restoreMessage,
  restorePart,
  restoreSession,
  restoreSnapshot,
  restoreWorkspace,
} from "./restore";

export class StorageQuotaError extends UserFacingError {
  constructor(cause: unknown) {
    super(
      "The browser refused to store more data (storage quota exceeded). Your last change was not saved; free space by deleting old workspaces or sessions, then try again.",
      "storage-quota",
      { cause },
    );
    this.name = "StorageQuotaError";
  }
}

async function guard<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isQuotaError(error)) throw new StorageQuotaError(error);
    throw error;
  }
}

export type InvalidRecordReporter = (error: unknown) => void;

/** Tells other tabs what a committed write changed (see tab-changes.ts). */
export type Announce = (change: StorageChange) => void;
const silent: Announce = () => undefined;

/**
 * Session records this tab wrote or deleted (after the commit), with the records themselves: what
 * sync sends to other devices. `source: "sync"` marks writes sync made itself (not sent back).
 */
export interface SessionWriteEvent {
  batch?: RecordBatch;
  deletedSessions?: string[];
  deletedMessages?: string[];
  deletedParts?: string[];
  source?: "sync";
}
export type SessionWritten = (event: SessionWriteEvent) => void;
const unheard: SessionWritten = () => undefined;

/** Who is writing: sync marks its own writes so they are not sent back to the document. */
export interface WriteOptions {
  source?: "sync";
}
const from = (options: WriteOptions | undefined) => (options?.source ? { source: options.source } : {});

export class WorkspaceRepository {
  constructor(
    private readonly db: WebcodeDatabase,
    private readonly onInvalid?: InvalidRecordReporter,
    private readonly announce: Announce = silent,
  ) {}

  async list(): Promise<WorkspaceRecord[]> {
    const all = await restoreList(await this.db.getAll("workspaces"), restoreWorkspace, this.onInvalid);
    return all.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async get(id: string): Promise<WorkspaceRecord | undefined> {
    const value = await this.db.get("workspaces", id);
    return value === undefined ? undefined : restoreWorkspace(value);
  }

  put(record: WorkspaceRecord): Promise<void> {
    return guard(async () => {
      await this.db.put("workspaces", record);
      this.announce({ kind: "workspaces" });
    });
  }

  /**
   * Stores `change(current, all)` in one transaction with the reads it decides on: `current` is the
   * stored record with `id` (undefined for a new one) and `all` every workspace, so a name checked
   * against them cannot be taken by another tab before the write. What `change` throws aborts it;
   * a record it returns from `all` unchanged is not written again.
   */
  putChecked(id: string, change: (current: WorkspaceRecord | undefined, all: WorkspaceRecord[]) => WorkspaceRecord): Promise<WorkspaceRecord> {
    return guard(async () => {
      const tx = this.db.transaction("workspaces", "readwrite");
      let record: WorkspaceRecord;
      try {
        // Restored in one go: yielding to the page here (restoreList) would let the transaction commit.
        const all = restoreAll(await tx.store.getAll(), restoreWorkspace, this.onInvalid);
        record = change(
          all.find((w) => w.id === id),
          all,
        );
        if (!all.includes(record)) await tx.store.put(record);
        await tx.done;
      } catch (error) {
        try {
          tx.abort();
        } catch {
          // Already finished (the error came from the transaction itself): nothing to undo.
        }
        await tx.done.catch(() => undefined);
        throw error;
      }
      this.announce({ kind: "workspaces" });
      return record;
    });
  }

  /** Deletes the workspace with its files, snapshots, sessions, messages and parts. */
  async delete(id: string): Promise<void> {
    const tx = this.db.transaction(["workspaces", "files", "snapshots", "sessions", "messages", "parts"], "readwrite");
    await tx.objectStore("workspaces").delete(id);
    const range = IDBKeyRange.only(id);
    for (const storeName of ["files", "snapshots"] as const) {
      let cursor = await tx.objectStore(storeName).index("workspaceId").openKeyCursor(range);
      while (cursor) {
        await tx.objectStore(storeName).delete(cursor.primaryKey);
        cursor = await cursor.continue();
      }
    }
    const sessionIds = await tx.objectStore("sessions").index("workspaceId").getAllKeys(range);
    for (const sessionId of sessionIds) await deleteSessionIn(tx as unknown as SessionTx, sessionId);
    await tx.done;
    this.announce({ kind: "workspaces" });
    this.announce({ kind: "sessions", sessionIds: sessionIds.map(String) });
  }
}

type SessionTx = IDBPTransaction<WebcodeSchema, ("sessions" | "messages" | "parts")[], "readwrite">;

async function deleteSessionIn(tx: SessionTx, sessionId: string): Promise<void> {
  const sessions = tx.objectStore("sessions");
  await sessions.delete(sessionId);
  const range = IDBKeyRange.only(sessionId);
  for (const storeName of ["messages", "parts"] as const) {
    let cursor = await tx.objectStore(storeName).index("sessionId").openKeyCursor(range);
    while (cursor) {
      await tx.objectStore(storeName).delete(cursor.primaryKey);
      cursor = await cursor.continue();
    }
  }
}

export class FileRepository {
  constructor(
    private readonly db: WebcodeDatabase,
    private readonly onInvalid?: InvalidRecordReporter,
    private readonly announce: Announce = silent,
  ) {}

  async list(workspaceId: string): Promise<FileRecord[]> {
    const values = await this.db.getAllFromIndex("files", "workspaceId", workspaceId);
    return restoreList(values, restoreFile, this.onInvalid);
  }

  async get(workspaceId: string, path: string): Promise<FileRecord | undefined> {
    const value = await this.db.get("files", [workspaceId, path]);
    return value === undefined ? undefined : restoreFile(value);
  }

  /** Writes and deletes in one transaction: either all land or none. */
  apply(workspaceId: string, puts: FileRecord[], deletes: string[]): Promise<void> {
    return guard(async () => {
      const tx = this.db.transaction("files", "readwrite");
      const store = tx.objectStore("files");
      const pending: Promise<unknown>[] = [];
      for (const path of deletes) pending.push(store.delete([workspaceId, path]));
      for (const record of puts) pending.push(store.put(record));
      await Promise.all([...pending, tx.done]);
      this.announce({ kind: "files", workspaceId, paths: [...deletes, ...puts.map((r) => r.path)] });
    });
  }

  /**
   * Writes and deletes in one transaction, each compared with its base first (compare-and-set, see
   * file-writes.ts): a path another tab changed since is merged, or kept with conflict markers, or
   * (a deletion) left as they stored it. Returns what happened to each path and what it now holds.
   */
  applyChecked(workspaceId: string, writes: CheckedWrite[]): Promise<CheckedResult[]> {
    return guard(async () => {
      const tx = this.db.transaction("files", "readwrite");
      const store = tx.objectStore("files");
      // The reads and the writes decided on them share the transaction: no other tab's write can
      // land in between. Nothing but IndexedDB requests is awaited here, so it stays open.
      // A write with no base is stored as it is; a new file's path (base null) is only counted, and
      // read when another tab has created it meanwhile (an npm install writes thousands of new files).
      const currents = await Promise.all(
        writes.map(async (w) => {
          const key: [string, string] = [workspaceId, w.path];
          if (w.base === undefined || (w.base === null && (await store.count(key)) === 0)) return undefined;
          return store.get(key);
        }),
      );
      const results: CheckedResult[] = [];
      const pending: Promise<unknown>[] = [];
      writes.forEach((write, i) => {
        const raw = currents[i];
        let current: FileRecord | undefined;
        // The common case (no base, or storage holds what the writer started from) needs no restore
        // step: `resolveWrite` writes ours without reading the record, or only compares it (which
        // `matchesBase` did on the raw value). Parsing every record of a large batch (an npm
        // install) inside the transaction would cost more than the write.
        if (raw !== undefined && write.base !== undefined && !matchesBase(raw, write.base)) {
          try {
            current = restoreFile(raw);
          } catch (error) {
            this.onInvalid?.(error); // An unreadable record is replaced, as before the check.
          }
        } else if (raw !== undefined) current = raw as FileRecord;
        const { store: next, outcome } = resolveWrite(write, current);
        if (next === null) pending.push(store.delete([workspaceId, write.path]));
        else if (next !== undefined) pending.push(store.put(next));
        results.push({ path: write.path, outcome, stored: next === undefined ? current : (next ?? undefined) });
      });
      await Promise.all([...pending, tx.done]);
      this.announce({ kind: "files", workspaceId, paths: writes.map((w) => w.path) });
      return results;
    });
  }

  async deleteAll(workspaceId: string): Promise<void> {
    const tx = this.db.transaction("files", "readwrite");
    let cursor = await tx.store.index("workspaceId").openKeyCursor(IDBKeyRange.only(workspaceId));
    while (cursor) {
      await tx.store.delete(cursor.primaryKey);
      cursor = await cursor.continue();
    }
    await tx.done;
    this.announce({ kind: "files", workspaceId });
  }
}

export class SessionRepository {
  constructor(
    private readonly db: WebcodeDatabase,
    private readonly onInvalid?: InvalidRecordReporter,
    private readonly announce: Announce = silent,
    private readonly written: SessionWritten = unheard,
  ) {}

  /** Sessions of a workspace (or all), newest first. */
  async list(workspaceId?: string): Promise<SessionRecord[]> {
    const values =
      workspaceId === undefined
        ? await this.db.getAll("sessions")
        : await this.db.getAllFromIndex("sessions", "workspaceId", workspaceId);
    return (await restoreList(values, restoreSession, this.onInvalid)).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async children(parentId: string): Promise<SessionRecord[]> {
    const values = await this.db.getAllFromIndex("sessions", "parentId", parentId);
    return restoreList(values, restoreSession, this.onInvalid);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const value = await this.db.get("sessions", id);
    return value === undefined ? undefined : restoreSession(value);
  }

  put(record: SessionRecord, options?: WriteOptions): Promise<void> {
    return guard(async () => {
      await this.db.put("sessions", record);
      this.announce({ kind: "sessions", sessionIds: [record.id] });
      this.written({ batch: { sessions: [record] }, ...from(options) });
    });
  }

  /** Deletes a session with its messages and parts (child sessions too). */
  async delete(id: string, options?: WriteOptions): Promise<void> {
    const children = await this.db.getAllKeysFromIndex("sessions", "parentId", id);
    const tx = this.db.transaction(["sessions", "messages", "parts"], "readwrite");
    for (const sessionId of [id, ...children]) await deleteSessionIn(tx, sessionId);
    await tx.done;
    const ids = [id, ...children.map(String)];
    this.announce({ kind: "sessions", sessionIds: ids, deleted: ids });
    this.written({ deletedSessions: ids, ...from(options) });
  }
}

export class MessageRepository {
  constructor(
    private readonly db: WebcodeDatabase,
    private readonly onInvalid?: InvalidRecordReporter,
    private readonly announce: Announce = silent,
    private readonly written: SessionWritten = unheard,
  ) {}

  /** Messages of a session in creation order (ids are time-ordered). */
  async list(sessionId: string): Promise<MessageRecord[]> {
    const values = await this.db.getAllFromIndex("messages", "sessionId", sessionId);
    return (await restoreList(values, restoreMessage, this.onInvalid)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async get(id: string): Promise<MessageRecord | undefined> {
    const value = await this.db.get("messages", id);
    return value === undefined ? undefined : restoreMessage(value);
  }

  put(record: MessageRecord, options?: WriteOptions): Promise<void> {
    return guard(async () => {
      await this.db.put("messages", record);
      this.announce({ kind: "sessions", sessionIds: [record.sessionId] });
      this.written({ batch: { messages: [record] }, ...from(options) });
    });
  }

  /** Deletes messages and their parts. */
  async delete(ids: string[], options?: WriteOptions): Promise<void> {
    const tx = this.db.transaction(["messages", "parts"], "readwrite");
    for (const id of ids) {
      await tx.objectStore("messages").delete(id);
      let cursor = await tx.objectStore("parts").index("messageId").openKeyCursor(IDBKeyRange.only(id));
      while (cursor) {
        await tx.objectStore("parts").delete(cursor.primaryKey);
        cursor = await cursor.continue();
      }
    }
    await tx.done;
    this.announce({ kind: "sessions" });
    this.written({ deletedMessages: ids, ...from(options) });
  }
}

export class PartRepository {
  constructor(
    private readonly db: WebcodeDatabase,
    private readonly onInvalid?: InvalidRecordReporter,
    private readonly announce: Announce = silent,
    private readonly written: SessionWritten = unheard,
  ) {}

  /** Parts of a session in creation order. */
  async listBySession(sessionId: string): Promise<PartRecord[]> {
    const values = await this.db.getAllFromIndex("parts", "sessionId", sessionId);
    return (await restoreList(values, restorePart, this.onInvalid)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async get(id: string): Promise<PartRecord | undefined> {
    const value = await this.db.get("parts", id);
    return value === undefined ? undefined : restorePart(value);
  }

  async listByMessage(messageId: string): Promise<PartRecord[]> {
    const values = await this.db.getAllFromIndex("parts", "messageId", messageId);
    return (await restoreList(values, restorePart, this.onInvalid)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  put(record: PartRecord, options?: WriteOptions): Promise<void> {
    return guard(async () => {
      await this.db.put("parts", record);
      this.announce({ kind: "sessions", sessionIds: [record.sessionId] });
      this.written({ batch: { parts: [record] }, ...from(options) });
    });
  }

  async delete(ids: string[], options?: WriteOptions): Promise<void> {
    const tx = this.db.transaction("parts", "readwrite");
    await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
    this.announce({ kind: "sessions" });
    this.written({ deletedParts: ids, ...from(options) });
  }
}

export class BlobRepository {
  constructor(private readonly db: WebcodeDatabase) {}

  async get(hash: string): Promise<BlobRecord | undefined> {
    return this.db.get("blobs", hash);
  }

  async has(hash: string): Promise<boolean> {
    return (await this.db.getKey("blobs", hash)) !== undefined;
  }

  /** Stores blobs not stored yet (content-addressed: an existing hash is never rewritten). */
  putMany(blobs: BlobRecord[]): Promise<void> {
    return guard(async () => {
      if (blobs.length === 0) return;
      const tx = this.db.transaction("blobs", "readwrite");
      await Promise.all([...putNewBlobs(tx.store, blobs), tx.done]);
    });
  }
}

/** The blobs store of any read-write transaction that includes it. */
interface BlobWrites {
  getKey(hash: string): Promise<string | undefined>;
  put(blob: BlobRecord): Promise<unknown>;
}

function putNewBlobs(store: BlobWrites, blobs: readonly BlobRecord[]): Promise<unknown>[] {
  return blobs.map((blob) => store.getKey(blob.hash).then((existing) => (existing === undefined ? store.put(blob) : undefined)));
}

export class SnapshotRepository {
  constructor(
    private readonly db: WebcodeDatabase,
    private readonly onInvalid?: InvalidRecordReporter,
  ) {}

  async get(id: string): Promise<SnapshotRecord | undefined> {
    const value = await this.db.get("snapshots", id);
    return value === undefined ? undefined : restoreSnapshot(value);
  }

  async list(workspaceId: string): Promise<SnapshotRecord[]> {
    const values = await this.db.getAllFromIndex("snapshots", "workspaceId", workspaceId);
    return restoreList(values, restoreSnapshot, this.onInvalid);
  }

  async has(id: string): Promise<boolean> {
    return (await this.db.getKey("snapshots", id)) !== undefined;
  }

  /**
   * Stores a snapshot with the blobs it adds, in one transaction: a cleanup that prunes unreferenced
   * blobs (another tab deleting a workspace) cannot fall between the blobs and the snapshot.
   */
  put(record: SnapshotRecord, blobs: readonly BlobRecord[] = []): Promise<void> {
    return guard(async () => {
      const tx = this.db.transaction(["blobs", "snapshots"], "readwrite");
      await Promise.all([...putNewBlobs(tx.objectStore("blobs"), blobs), tx.objectStore("snapshots").put(record), tx.done]);
    });
  }
}

export class SettingsRepository {
  constructor(
    private readonly db: WebcodeDatabase,
    private readonly announce: Announce = silent,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    return (await this.db.get("settings", key))?.value as T | undefined;
  }

  put(key: string, value: unknown): Promise<void> {
    return guard(async () => {
      await this.db.put("settings", { key, value });
      this.announce({ kind: "settings", keys: [key] });
    });
  }

  async delete(key: string): Promise<void> {
    await this.db.delete("settings", key);
    this.announce({ kind: "settings", keys: [key] });
  }
}

/** A batch of record writes in one transaction (the agent's streaming writes). */
export interface RecordBatch {
  sessions?: SessionRecord[];
  messages?: MessageRecord[];
  parts?: PartRecord[];
}

export async function writeBatch(db: WebcodeDatabase, batch: RecordBatch, announce: Announce = silent, written: SessionWritten = unheard, options?: WriteOptions): Promise<void> {
  return guard(async () => {
    const tx = db.transaction(["sessions", "messages", "parts"], "readwrite");
    const pending: Promise<unknown>[] = [];
    for (const s of batch.sessions ?? []) pending.push(tx.objectStore("sessions").put(s));
    for (const m of batch.messages ?? []) pending.push(tx.objectStore("messages").put(m));
    for (const p of batch.parts ?? []) pending.push(tx.objectStore("parts").put(p));
    await Promise.all([...pending, tx.done]);
    const ids = new Set<string>([...(batch.sessions ?? []).map((r) => r.id), ...(batch.messages ?? []).map((r) => r.sessionId), ...(batch.parts ?? []).map((r) => r.sessionId)]);
    if (ids.size > 0) announce({ kind: "sessions", sessionIds: [...ids] });
    written({ batch, ...from(options) });
  });
}
