// Sync tests (issue 33): the repository's own sync server script on 127.0.0.1, and "devices": a
// WorkspaceFiles on fake-indexeddb storage connected through its own @hocuspocus/provider.
import WebSocket from "ws";
import { signRoomToken } from "../../scripts/sync-server.mjs";
import { WorkspaceFiles, type FileChange } from "../../src/runtime";
import { openStorage, type Storage } from "../../src/storage";
import { connectWorkspaceSync, type SyncStatus } from "../../src/storage/sync/connect";
import { startSyncScript, SYNC_SECRET, tempSyncDb } from "./sync-server";
import type { HeldChange, SyncConflict, SyncRestored } from "../../src/storage/sync/workspace-sync";

export { SYNC_SECRET, until } from "./sync-server";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The repo's own script, as `npm run sync-server` runs it, on a fresh database; resolves with its URL once it listens. */
export async function startSyncServer(cleanups: Array<() => unknown>): Promise<string> {
  const onCleanup = (cleanup: () => unknown) => void cleanups.push(cleanup);
  return (await startSyncScript({ dbFile: tempSyncDb(onCleanup) }, onCleanup)).url;
}

export interface DeviceOptions {
  initial?: Record<string, string | Uint8Array>;
  /** Reopen this device's storage (a reload) instead of a new one. */
  storage?: Storage;
  device?: string;
  localName?: string;
  guarded?: (path: string) => boolean;
}

let counter = 0;
export async function syncDevice(cleanups: Array<() => unknown>, url: string, room: string, options: DeviceOptions = {}) {
  const storage = options.storage ?? (await openStorage({ name: `sync-dev-${counter++}-${Date.now()}` }));
  const files = await WorkspaceFiles.open(storage, room);
  for (const [path, data] of Object.entries(options.initial ?? {})) await files.writeFile(path, data);
  const changes: FileChange[] = [];
  files.onDidChange((batch) => changes.push(...batch));
  const statuses: SyncStatus[] = [];
  const conflicts: SyncConflict[] = [];
  const restored: SyncRestored[] = [];
  const skipped: string[] = [];
  const errors: unknown[] = [];
  let held: HeldChange[] = [];
  const connection = connectWorkspaceSync({
    files,
    url,
    token: signRoomToken({ room, access: "write", secret: SYNC_SECRET }),
    WebSocketPolyfill: WebSocket,
    onStatus: (status) => statuses.push(status),
    onConflicts: (found) => conflicts.push(...found),
    onRestored: (found) => restored.push(...found),
    onHeld: (list) => (held = list),
    onSkipped: (_path, reason) => skipped.push(reason),
    onError: (error) => errors.push(error),
    ...(options.device && { device: options.device }),
    ...(options.localName && { localName: options.localName }),
    ...(options.guarded && { guarded: options.guarded }),
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    connection.dispose();
    await files.flush();
    files.dispose();
  };
  cleanups.push(close);
  const text = (path: string) => (files.statSync(path)?.kind === "file" ? (files.readSync(path) as string) : undefined);
  const bytes = (path: string) => (files.statSync(path)?.kind === "file" ? files.readSync(path) : undefined);
  return { files, storage, connection, changes, statuses, conflicts, restored, skipped, errors, held: () => held, text, bytes, close };
}
