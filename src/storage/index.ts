// The storage layer's public surface: open the database, get one repository per record kind.
import { DATABASE_NAME, openDatabase, openDatabaseAsIs, type WebcodeDatabase } from "./database";
import { TabChanges, type StorageChange } from "./tab-changes";
import { deleteSessions, deleteSnapshots, measureUsage, pruneBlobs, type StorageUsage } from "./usage";
import { createBackup, readEverything, restoreBackup, type BackupContents, type RestoreSummary } from "./backup";
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
} from "./repositories";

export * from "./records";
export { StorageQuotaError, type RecordBatch } from "./repositories";
export { RestoreError, RECORD_MIGRATIONS } from "./restore";
export { DATABASE_NAME, DATABASE_VERSION } from "./database";
export { BackupError, BACKUP_FORMAT, BACKUP_VERSION, decodeBackup, encodeBackup, type BackupContents, type RestoreSummary } from "./backup";
export { TabChanges, type StorageChange } from "./tab-changes";
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
  readonly workspaces: WorkspaceRepository;
  readonly files: FileRepository;
  readonly sessions: SessionRepository;
  readonly messages: MessageRepository;
  readonly parts: PartRepository;
  readonly blobs: BlobRepository;
  readonly snapshots: SnapshotRepository;
  readonly settings: SettingsRepository;
  /** Writes sessions, messages and parts in one transaction. */
  writeBatch(batch: RecordBatch): Promise<void>;
  /** What other tabs on this database stored (workspaces, files, sessions): follow it without a reload. */
  readonly changes: Pick<TabChanges, "onDidChange">;
  /** What takes space, and the ways to free it when the quota is used up. */
  readonly maintenance: StorageMaintenance;
  /** One file with every workspace, session and setting (without keys). */
  backup(): Promise<Uint8Array>;
  /** Merges a backup file in without overwriting anything; refuses a file that is not a valid backup (BackupError). */
  restoreBackup(bytes: Uint8Array): Promise<RestoreSummary>;
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
 * The stored data as it is, when openStorage failed (a migration that threw, a newer version):
 * enough to export workspaces and free space. Undefined when there is nothing readable.
 */
export async function openStorageForRecovery(options: { name?: string; onInvalidRecord?: InvalidRecordReporter } = {}): Promise<Storage | undefined> {
  const name = options.name ?? DATABASE_NAME;
  const db = await openDatabaseAsIs(name).catch(() => undefined);
  return db && storageOver(db, name, options.onInvalidRecord);
}

function storageOver(db: WebcodeDatabase, name: string, onInvalid: InvalidRecordReporter | undefined): Storage {
  const settings = new SettingsRepository(db);
  const tabs = new TabChanges(name);
  const announce = (change: StorageChange) => tabs.announce(change);
  return {
    workspaces: new WorkspaceRepository(db, onInvalid, announce),
    files: new FileRepository(db, onInvalid, announce),
    sessions: new SessionRepository(db, onInvalid, announce),
    messages: new MessageRepository(db, onInvalid, announce),
    parts: new PartRepository(db, onInvalid, announce),
    blobs: new BlobRepository(db),
    snapshots: new SnapshotRepository(db, onInvalid),
    settings,
    writeBatch: (batch) => writeBatch(db, batch, announce),
    changes: tabs,
    maintenance: {
      usage: () => measureUsage(db),
      deleteSessions: async (workspaceId) => {
        await deleteSessions(db, workspaceId);
        announce({ kind: "sessions" });
      },
      deleteSnapshots: (workspaceId) => deleteSnapshots(db, workspaceId),
      pruneBlobs: () => pruneBlobs(db),
      probe: () => settings.put(PROBE_KEY, Date.now()),
    },
    backup: () => createBackup(db),
    restoreBackup: async (bytes) => {
      const summary = await restoreBackup(db, bytes);
      if (summary.workspacesAdded.length > 0) announce({ kind: "workspaces" });
      return summary;
    },
    readEverything: () => readEverything(db),
    close: () => {
      tabs.dispose();
      db.close();
    },
  };
}
