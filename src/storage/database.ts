// The IndexedDB database: schema and versioned migrations. Repositories (repositories.ts) are the
// only code that touches it.
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from "idb";
import type {
  BlobRecord,
  FileRecord,
  MessageRecord,
  PartRecord,
  SessionRecord,
  SettingRecord,
  SnapshotRecord,
  WorkspaceRecord,
} from "./records";

export const DATABASE_NAME = "webcode";

export interface WebcodeSchema extends DBSchema {
  workspaces: { key: string; value: WorkspaceRecord };
  files: { key: [string, string]; value: FileRecord; indexes: { workspaceId: string } };
  sessions: { key: string; value: SessionRecord; indexes: { workspaceId: string; parentId: string } };
  messages: { key: string; value: MessageRecord; indexes: { sessionId: string } };
  parts: { key: string; value: PartRecord; indexes: { sessionId: string; messageId: string } };
  blobs: { key: string; value: BlobRecord };
  snapshots: { key: string; value: SnapshotRecord; indexes: { workspaceId: string } };
  settings: { key: string; value: SettingRecord };
}

export type WebcodeDatabase = IDBPDatabase<WebcodeSchema>;

export type SchemaMigration = (db: WebcodeDatabase, tx: IDBPTransaction<WebcodeSchema, StoreNames<WebcodeSchema>[], "versionchange">) => void;

/**
 * Schema migrations: entry i moves the database from version i to i+1. They all run inside the
 * upgrade's one versionchange transaction, so the previous data stays until every one has succeeded:
 * a migration that throws aborts the upgrade and leaves the database as it was (version and records).
 * Record-level migrations (restore.ts) run on read and never rewrite what is stored.
 */
export const SCHEMA_MIGRATIONS: SchemaMigration[] = [
  (db) => {
    db.createObjectStore("workspaces", { keyPath: "id" });
    const files = db.createObjectStore("files", { keyPath: ["workspaceId", "path"] });
    files.createIndex("workspaceId", "workspaceId");
    const sessions = db.createObjectStore("sessions", { keyPath: "id" });
    sessions.createIndex("workspaceId", "workspaceId");
    sessions.createIndex("parentId", "parentId");
    const messages = db.createObjectStore("messages", { keyPath: "id" });
    messages.createIndex("sessionId", "sessionId");
    const parts = db.createObjectStore("parts", { keyPath: "id" });
    parts.createIndex("sessionId", "sessionId");
    parts.createIndex("messageId", "messageId");
    db.createObjectStore("blobs", { keyPath: "hash" });
    const snapshots = db.createObjectStore("snapshots", { keyPath: "id" });
    snapshots.createIndex("workspaceId", "workspaceId");
    db.createObjectStore("settings", { keyPath: "key" });
  },
];

/** The schema version: one per migration. */
export const DATABASE_VERSION = SCHEMA_MIGRATIONS.length;

/**
 * Opens the database at whatever version it has, without upgrading: for recovery when the normal
 * open failed (a migration that threw, a newer version from another tab). Undefined when it has
 * not the stores this code reads.
 */
export async function openDatabaseAsIs(name: string = DATABASE_NAME): Promise<WebcodeDatabase | undefined> {
  if (!(await databaseExists(name))) return undefined;
  const db = await openDB<WebcodeSchema>(name).catch(() => undefined);
  if (!db) return undefined;
  const needed = ["workspaces", "files", "sessions", "messages", "parts", "blobs", "snapshots", "settings"];
  if (needed.every((store) => db.objectStoreNames.contains(store as never))) return db;
  db.close();
  return undefined;
}

/**
 * Whether a database of that name exists, without leaving an empty one behind (the normal open
 * would then find version 1 without its stores and never migrate). Raw API: idb's wrapper reports
 * the aborted creation as an unhandled rejection.
 */
function databaseExists(name: string): Promise<boolean> {
  return new Promise((resolve) => {
    let created = false;
    const request = indexedDB.open(name);
    request.onupgradeneeded = () => {
      created = true;
      request.transaction?.abort();
    };
    request.onsuccess = () => {
      request.result.close();
      resolve(!created);
    };
    request.onerror = (event) => {
      event.preventDefault();
      resolve(false);
    };
  });
}

export async function openDatabase(name: string = DATABASE_NAME, migrations: readonly SchemaMigration[] = SCHEMA_MIGRATIONS): Promise<WebcodeDatabase> {
  return openDB<WebcodeSchema>(name, migrations.length, {
    upgrade(db, oldVersion, _newVersion, tx) {
      // A failed upgrade is reported by openDB's rejection; its transaction's own rejection is the same news.
      tx.done.catch(() => undefined);
      for (let version = oldVersion; version < migrations.length; version++) {
        migrations[version]!(db, tx);
      }
    },
    blocked() {
      // Another tab holds an older version open; it will be asked to close (see `blocking`).
    },
    blocking(_current, _blocked, event) {
      (event.target as IDBDatabase | null)?.close();
    },
  });
}
