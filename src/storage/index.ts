// The storage layer's public surface: open the database, get one repository per record kind.
import { DATABASE_NAME, openDatabase, openDatabaseAsIs, type WebcodeDatabase } from "./database";
import { installMemoryIndexedDB, memoryDatabaseName, openMemoryDatabase } from "./memory";
import { TabChanges, type StorageChange } from "./tab-changes";
import { deleteSessions, deleteSnapshots, measureUsage, pruneBlobs, type StorageUsage } from "./usage";
import { createBackup, readEverything, restoreBackup, type BackupContents, type RestoreSummary, type SettingsReview } from "./backup";
import {
  BlobRepository,
  FileRepository,
  MessageRepository,
  PartRepository,
  SessionRepository,
  SettingsRepository,
  SnapshotRepository,
  WorkspaceRepository,
  writeBatch,
  type InvalidRecordReporter,
  type RecordBatch,
  type SessionWriteEvent,
  type WriteOptions,
} from "./repositories";
import { Emitter, type Disposable } from "../base";

export * from "./records";
export * from "./factories";
export { recordSchemas, type RecordSchemas } from "./schemas";
export { StorageQuotaError, type RecordBatch, type SessionWriteEvent, type WriteOptions } from "./repositories";
export { RestoreError, RECORD_MIGRATIONS } from "./restore";
export { DATABASE_NAME, DATABASE_VERSION } from "./database";
export { BackupError, BACKUP_FORMAT, BACKUP_VERSION, decodeBackup, encodeBackup, type BackupContents, type RestoreSummary, type SettingsReview } from "./backup";
export { TabChanges, type StorageChange } from "./tab-changes";
export { resolveWrite, STORAGE_MERGE_LABELS, type CheckedResult, type CheckedWrite, type StoredBase, type WriteOutcome } from "./file-writes";
export { recordSize, type StorageUsage, type WorkspaceUsage } from "./usage";
export type {
  BlobRepository,
  FileRepository,
  MessageRepository,
  PartRepository,
  SessionRepository,
  SettingsRepository,
  SnapshotRepository,
  WorkspaceRepository,
};

export interface Storage {
  /** True for the in-memory stand-in (openMemoryStorage): nothing is kept after the tab closes. */
  readonly inMemory: boolean;
  readonly workspaces: WorkspaceRepository;
  readonly files: FileRepository;
  readonly sessions: SessionRepository;
  readonly messages: MessageRepository;
  readonly parts: PartRepository;
  readonly blobs: BlobRepository;
  readonly snapshots: SnapshotRepository;
  readonly settings: SettingsRepository;
  /** Writes sessions, messages and parts in one transaction. */
  writeBatch(batch: RecordBatch, options?: WriteOptions): Promise<void>;
  /**
   * What other tabs on this database stored (workspaces, files, sessions): follow it without a
   * reload. `notifyHere` tells this tab's own listeners (sync wrote what another device changed).
   */
  readonly changes: Pick<TabChanges, "onDidChange" | "notifyHere">;
  /** Session records this tab wrote or deleted, with the records (sync sends them to other devices). */
  onDidWriteSessions(listener: (event: SessionWriteEvent) => void): Disposable;
  /** What takes space, and the ways to free it when the quota is used up. */
  readonly maintenance: StorageMaintenance;
  /** One file with every workspace, session and setting (without keys). */
  backup(): Promise<Uint8Array>;
  /**
   * Merges a backup file in without overwriting anything; refuses a file that is not a valid backup
   * (BackupError). `review` says which of the settings it would add to leave out, before anything is written.
   */
  restoreBackup(bytes: Uint8Array, review: SettingsReview): Promise<RestoreSummary>;
  /** Every record as stored (settings without keys), for checking a restore. */
  readEverything(): Promise<BackupContents>;
  close(): void;
}

export interface StorageMaintenance {
  /** Bytes per workspace (files, sessions, snapshots), largest first. */
  usage(): Promise<StorageUsage>;
  deleteSessions(workspaceId: string): Promise<void>;
  /** Deletes a workspace's snapshots and the file contents only they kept (revert then has less to go back to). */
  deleteSnapshots(workspaceId: string): Promise<void>;
  /** Deletes stored file contents no snapshot uses any more. */
  pruneBlobs(): Promise<void>;
  /** Stores a tiny record: rejects with StorageQuotaError while the browser refuses new data. */
  probe(): Promise<void>;
}

/** The settings key the storage probe writes (a number; nothing reads it). */
const PROBE_KEY = "storage.probe";

export async function openStorage(options: { name?: string; onInvalidRecord?: InvalidRecordReporter } = {}): Promise<Storage> {
  const name = options.name ?? DATABASE_NAME;
  return storageOver(await openDatabase(name), name, options.onInvalidRecord);
}

/**
 * Storage in this tab's memory, behind the same interface, for when IndexedDB cannot be opened at
 * all: the app works, and nothing is kept after the tab closes (see memory.ts). `browserIndexedDB`
 * is the browser's own IndexedDB, to check later whether it works again.
 */
export async function openMemoryStorage(options: { onInvalidRecord?: InvalidRecordReporter } = {}): Promise<{ storage: Storage; browserIndexedDB: IDBFactory | undefined }> {
  const browserIndexedDB = await installMemoryIndexedDB();
  const name = memoryDatabaseName();
  return { storage: storageOver(await openMemoryDatabase(name), name, options.onInvalidRecord, true), browserIndexedDB };
}

/**
 * Whether the browser's IndexedDB opens webcode's database now (raw API: the page's idb globals may
 * be the in-memory stand-in's). Resolves with the error's text when it does not.
 */
export function checkBrowserIndexedDB(factory: IDBFactory | undefined, name: string = DATABASE_NAME): Promise<string | undefined> {
  return new Promise((resolve) => {
    try {
      if (!factory) throw new Error("this browser has no IndexedDB");
      const request = factory.open(name);
      request.onsuccess = () => {
        request.result.close();
        resolve(undefined);
      };
      request.onerror = (event) => {
        event.preventDefault();
        resolve(request.error?.message ?? "the database did not open");
      };
      request.onblocked = () => resolve("another tab is upgrading the database");
    } catch (error) {
      resolve(error instanceof Error ? error.message : String(error));
    }
  });
}

/**
 * The stored data as it is, when openStorage failed (a migration that threw, a newer version):
 * enough to export workspaces and free space. Undefined when there is nothing readable.
 */
export async function openStorageForRecovery(options: { name?: string; onInvalidRecord?: InvalidRecordReporter } = {}): Promise<Storage | undefined> {
  const name = options.name ?? DATABASE_NAME;
  const db = await openDatabaseAsIs(name).catch(() => undefined);
  return db && storageOver(db, name, options.onInvalidRecord);
}

function storageOver(db: WebcodeDatabase, name: string, onInvalid: InvalidRecordReporter | undefined, inMemory = false): Storage {
  const tabs = new TabChanges(name);
  const announce = (change: StorageChange) => tabs.announce(change);
  const sessionWrites = new Emitter<SessionWriteEvent>();
  const written = (event: SessionWriteEvent) => sessionWrites.fire(event);
  const settings = new SettingsRepository(db, announce);
  return {
    inMemory,
    workspaces: new WorkspaceRepository(db, onInvalid, announce),
    files: new FileRepository(db, onInvalid, announce),
    sessions: new SessionRepository(db, onInvalid, announce, written),
    messages: new MessageRepository(db, onInvalid, announce, written),
    parts: new PartRepository(db, onInvalid, announce, written),
    blobs: new BlobRepository(db),
    snapshots: new SnapshotRepository(db, onInvalid),
    settings,
    writeBatch: (batch, options) => writeBatch(db, batch, announce, written, options),
    changes: tabs,
    onDidWriteSessions: sessionWrites.event,
    maintenance: {
      usage: () => measureUsage(db),
      deleteSessions: async (workspaceId) => {
        const deleted = await deleteSessions(db, workspaceId);
        // Every tab's chat, this one's included, stops work in them, drops them and reloads the list.
        announce({ kind: "sessions", deleted });
        tabs.notifyHere({ kind: "sessions", deleted });
        written({ deletedSessions: deleted });
      },
      deleteSnapshots: (workspaceId) => deleteSnapshots(db, workspaceId),
      pruneBlobs: () => pruneBlobs(db),
      probe: () => settings.put(PROBE_KEY, Date.now()),
    },
    backup: () => createBackup(db),
    restoreBackup: async (bytes, review) => {
      const summary = await restoreBackup(db, bytes, review);
      if (summary.workspacesAdded.length > 0) announce({ kind: "workspaces" });
      if (summary.settingsAdded.length > 0) {
        // The settings stores of every tab, this one included, read the restored records.
        const change: StorageChange = { kind: "settings", keys: summary.settingsAdded };
        announce(change);
        tabs.notifyHere(change);
      }
      return summary;
    },
    readEverything: () => readEverything(db),
    close: () => {
      sessionWrites.dispose();
      tabs.dispose();
      db.close();
    },
  };
}

// Sync (issue 33): types only here, and the code by dynamic import, so that Yjs and the Hocuspocus
// provider are in a chunk of their own that only a syncing workspace loads.
export type { HeldChange, SyncConflict, SyncedChange, SyncedFiles, SyncRestored } from "./sync/workspace-sync";
export type { SyncConnection, SyncConnectOptions, SyncStatus } from "./sync/connect";
export type { SyncedSessionStorage } from "./sync/session-sync";
export type { TurnHolder, TurnLeases } from "./sync/turn-lease";
export const loadWorkspaceSync = () => import("./sync/connect");
