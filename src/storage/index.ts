// The storage layer's public surface: open the database, get one repository per record kind.
import { openDatabase, type WebcodeDatabase } from "./database";
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
  close(): void;
}

export async function openStorage(options: { name?: string; onInvalidRecord?: InvalidRecordReporter } = {}): Promise<Storage> {
  const db: WebcodeDatabase = await openDatabase(options.name);
  const onInvalid = options.onInvalidRecord;
  return {
    workspaces: new WorkspaceRepository(db, onInvalid),
    files: new FileRepository(db, onInvalid),
    sessions: new SessionRepository(db, onInvalid),
    messages: new MessageRepository(db, onInvalid),
    parts: new PartRepository(db, onInvalid),
    blobs: new BlobRepository(db),
    snapshots: new SnapshotRepository(db, onInvalid),
    settings: new SettingsRepository(db),
    writeBatch: (batch) => writeBatch(db, batch),
    close: () => db.close(),
  };
}
