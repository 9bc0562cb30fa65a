// Sync tests (issue 33): the repository's own sync server script on 127.0.0.1, and "devices": a
// WorkspaceFiles on fake-indexeddb storage connected through its own @hocuspocus/provider.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { signRoomToken } from "../../scripts/sync-server.mjs";
import { WorkspaceFiles, type FileChange } from "../../src/runtime";
import { openStorage, type Storage } from "../../src/storage";
import { connectWorkspaceSync, type SyncStatus } from "../../src/storage/sync/connect";
import type { HeldChange, SyncConflict, SyncRestored } from "../../src/storage/sync/workspace-sync";

export const SYNC_SECRET = "test-secret";

export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The repo's own script, as `npm run sync-server` runs it; resolves with its URL once it listens. */
export async function startSyncServer(cleanups: Array<() => unknown>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "webcode-sync-"));
  const child = spawn(process.execPath, ["scripts/sync-server.mjs", "--port", "0", "--db", join(dir, "sync.sqlite")], {
    env: { ...process.env, SYNC_SECRET },
    stdio: ["ignore", "pipe", "pipe"],
  });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  // Stopped (and its last store written) before its folder is removed.
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });
  return new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (ws:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`sync-server exited ${code}: ${out}`)));
  });
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
