// How much each workspace takes in storage (its files, sessions and snapshots), and the ways to
// free space when the quota is used up: delete a workspace's sessions or snapshots (with the
// stored file contents only those snapshots used). Sizes are the records' payload bytes, close to
// what IndexedDB charges; the browser's own figure (navigator.storage.estimate) is shown beside.
import type { IDBPTransaction } from "idb";
import type { WebcodeDatabase, WebcodeSchema } from "./database";
import type { BlobRecord } from "./records";

export interface WorkspaceUsage {
  workspaceId: string;
  name: string;
  /** Bytes of the workspace's files. */
  files: number;
  fileCount: number;
  /** Bytes of the workspace's sessions (messages and parts included). */
  sessions: number;
  sessionCount: number;
  /** Bytes of its snapshots and the file contents only they keep. */
  snapshots: number;
  snapshotCount: number;
  total: number;
}

export interface StorageUsage {
  /** Largest first. */
  workspaces: WorkspaceUsage[];
  sessions: number;
  snapshots: number;
  total: number;
}

/** A record's approximate stored size: strings as UTF-16 code units are close enough for ranking. */
export function recordSize(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === "string") return value.length;
  if (typeof value === "number" || typeof value === "boolean") return 8;
  if (value instanceof Uint8Array) return value.byteLength;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + recordSize(item), 0);
  let size = 0;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) size += key.length + recordSize(item);
  return size;
}

export async function measureUsage(db: WebcodeDatabase): Promise<StorageUsage> {
  const tx = db.transaction(["workspaces", "files", "sessions", "messages", "parts", "snapshots", "blobs"], "readonly");
  const [workspaces, files, sessions, messages, parts, snapshots, blobKeys] = await Promise.all([
    tx.objectStore("workspaces").getAll(),
    tx.objectStore("files").getAll(),
    tx.objectStore("sessions").getAll(),
    tx.objectStore("messages").getAll(),
    tx.objectStore("parts").getAll(),
    tx.objectStore("snapshots").getAll(),
    tx.objectStore("blobs").getAllKeys(),
  ]);
  const blobSizes = new Map<string, number>();
  // Blobs are read one by one: getAll() on a store of large file contents can take a lot of memory.
  for (const hash of blobKeys) blobSizes.set(hash, recordSize(((await tx.objectStore("blobs").get(hash)) as BlobRecord | undefined)?.data));
  await tx.done;

  const usage = new Map<string, WorkspaceUsage>();
  const entry = (workspaceId: string): WorkspaceUsage => {
    let found = usage.get(workspaceId);
    if (!found) {
      found = { workspaceId, name: workspaceId, files: 0, fileCount: 0, sessions: 0, sessionCount: 0, snapshots: 0, snapshotCount: 0, total: 0 };
      usage.set(workspaceId, found);
    }
    return found;
  };
  for (const workspace of workspaces) entry(workspace.id).name = workspace.name;
  for (const file of files) {
    const item = entry(file.workspaceId);
    item.files += recordSize(file.data) + file.path.length;
    if (file.kind === "file") item.fileCount++;
  }
  const sessionWorkspace = new Map<string, string>();
  for (const session of sessions) {
    sessionWorkspace.set(session.id, session.workspaceId);
    const item = entry(session.workspaceId);
    item.sessions += recordSize(session);
    if (session.parentId === undefined) item.sessionCount++;
  }
  for (const record of [...messages, ...parts]) {
    const workspaceId = sessionWorkspace.get(record.sessionId);
    if (workspaceId !== undefined) entry(workspaceId).sessions += recordSize(record);
  }
  const blobUsers = new Map<string, Set<string>>();
  for (const snapshot of snapshots) {
    const item = entry(snapshot.workspaceId);
    item.snapshots += recordSize(snapshot);
    item.snapshotCount++;
    for (const hash of Object.values(snapshot.files)) {
      let users = blobUsers.get(hash);
      if (!users) blobUsers.set(hash, (users = new Set()));
      users.add(snapshot.workspaceId);
    }
  }
  // A blob used by several workspaces counts for each: deleting one workspace's snapshots frees it only if none other uses it.
  for (const [hash, users] of blobUsers) for (const workspaceId of users) entry(workspaceId).snapshots += blobSizes.get(hash) ?? 0;

  const list = [...usage.values()];
  for (const item of list) item.total = item.files + item.sessions + item.snapshots;
  list.sort((a, b) => b.total - a.total);
  return {
    workspaces: list,
    sessions: list.reduce((sum, item) => sum + item.sessions, 0),
    snapshots: list.reduce((sum, item) => sum + item.snapshots, 0),
    total: list.reduce((sum, item) => sum + item.total, 0),
  };
}

/** Deletes a workspace's snapshots, then every stored file content no remaining snapshot uses. */
export async function deleteSnapshots(db: WebcodeDatabase, workspaceId: string): Promise<void> {
  const tx = db.transaction(["snapshots", "blobs"], "readwrite");
  const snapshots = tx.objectStore("snapshots");
  let cursor = await snapshots.index("workspaceId").openKeyCursor(IDBKeyRange.only(workspaceId));
  while (cursor) {
    await snapshots.delete(cursor.primaryKey);
    cursor = await cursor.continue();
  }
  await pruneBlobsIn(tx);
  await tx.done;
}

/** Deletes the file contents no snapshot uses (left behind by deleted workspaces and snapshots). */
export async function pruneBlobs(db: WebcodeDatabase): Promise<void> {
  const tx = db.transaction(["snapshots", "blobs"], "readwrite");
  await pruneBlobsIn(tx);
  await tx.done;
}

async function pruneBlobsIn(tx: IDBPTransaction<WebcodeSchema, ("snapshots" | "blobs")[], "readwrite">): Promise<void> {
  const used = new Set<string>();
  for (const snapshot of await tx.objectStore("snapshots").getAll()) for (const hash of Object.values(snapshot.files)) used.add(hash);
  for (const hash of await tx.objectStore("blobs").getAllKeys()) if (!used.has(hash)) await tx.objectStore("blobs").delete(hash);
}

/** Deletes every session (with messages and parts) of a workspace; returns their ids. */
export async function deleteSessions(db: WebcodeDatabase, workspaceId: string): Promise<string[]> {
  const tx = db.transaction(["sessions", "messages", "parts"], "readwrite");
  const ids = await tx.objectStore("sessions").index("workspaceId").getAllKeys(IDBKeyRange.only(workspaceId));
  for (const sessionId of ids) {
    await tx.objectStore("sessions").delete(sessionId);
    for (const storeName of ["messages", "parts"] as const) {
      let cursor = await tx.objectStore(storeName).index("sessionId").openKeyCursor(IDBKeyRange.only(sessionId));
      while (cursor) {
        await tx.objectStore(storeName).delete(cursor.primaryKey);
        cursor = await cursor.continue();
      }
    }
  }
  await tx.done;
  return ids.map(String);
}
