// The repository's sync server script (scripts/sync-server.mjs) as the tests run it: spawned with
// Node on a free port of 127.0.0.1 (or a given one, to restart it on the same address), a database
// file in a temporary folder, optionally a Redis; plus real Yjs clients (@hocuspocus/provider over
// `ws`) and Debian's redis-server on a free port. Shared by the unit, browser and bench tests.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import WebSocket from "ws";
import * as Y from "yjs";
import { signRoomToken, type RoomAccess } from "../../scripts/sync-server.mjs";
import { entryContent, isAlive, type Entry } from "../../src/storage/sync/sync-model";

/** The SYNC_SECRET the tests' servers run with. */
export const SYNC_SECRET = "test-secret";

export function syncToken(room: string, access: RoomAccess = "write"): string {
  return signRoomToken({ room, access, secret: SYNC_SECRET });
}

/** Registers what to undo after the test (a test file's afterEach runs these, newest first). */
export type OnCleanup = (cleanup: () => unknown) => void;

/** A fresh temporary folder's `sync.sqlite` path; the folder is removed on cleanup. */
export function tempSyncDb(onCleanup: OnCleanup): string {
  const dir = mkdtempSync(join(tmpdir(), "webcode-sync-"));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, "sync.sqlite");
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface SyncScript {
  url: string;
  port: number;
  child: ChildProcess;
  /** SIGTERM, as `npm run sync-server` is stopped (pending stores are written), then waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: a crash (nothing more is stored), then waits for the exit. */
  kill(): Promise<void>;
  /** What it printed so far (stdout and stderr). */
  output(): string;
}

export interface SyncScriptOptions {
  dbFile: string;
  /** Default 0: a free port. */
  port?: number;
  /** redis://… (the `--redis` option). */
  redis?: string;
  /** Node options before the script (e.g. --expose-gc). */
  nodeArgs?: string[];
}

/** Runs `node scripts/sync-server.mjs` as `npm run sync-server` would; resolves once it listens. Stopped on cleanup. */
export async function startSyncScript(options: SyncScriptOptions, onCleanup: OnCleanup): Promise<SyncScript> {
  const args = [...(options.nodeArgs ?? []), "scripts/sync-server.mjs", "--port", String(options.port ?? 0), "--db", options.dbFile];
  if (options.redis) args.push("--redis", options.redis);
  const child = spawn(process.execPath, args, { env: { ...process.env, SYNC_SECRET }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
  };
  const stop = () => end("SIGTERM");
  // Stopped (and its last store written) before its folder is removed.
  onCleanup(stop);
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      // (Not Node's "Debugger listening on ws://…" when started with --inspect.)
      const match = /sync-server: listening on (ws:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`sync-server exited ${code}: ${out}`)));
  });
  return { url, port: Number(new URL(url).port), child, stop, kill: () => end("SIGKILL"), output: () => out };
}

export interface SyncClient {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  /** Resolves after the first sync with the server. */
  synced: Promise<void>;
  close(): void;
  /** Why the server refused the token, or "". */
  failed(): string;
}

/** A plain Yjs client of `room` (no file service): what a fresh device would receive. Closed on cleanup. */
export function syncClient(url: string, room: string, token: string, onCleanup: OnCleanup): SyncClient {
  const doc = new Y.Doc();
  let failed = "";
  // Node 20 has no global WebSocket: the provider's socket is given `ws`.
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket });
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: room,
    document: doc,
    token,
    onAuthenticationFailed: ({ reason }) => {
      failed = reason;
    },
  });
  provider.attach(); // a provider given its socket is attached by hand
  const close = () => {
    provider.destroy();
    socket.destroy();
  };
  onCleanup(close);
  const synced = new Promise<void>((resolve) => {
    if (provider.isSynced) resolve();
    else provider.on("synced", () => resolve());
  });
  return { doc, provider, synced, close, failed: () => failed };
}

/** Polls `check` every 10 ms until it holds; throws after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000, what = "the condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Debian's redis-server, where installed (`.ci/run` installs it). */
export function redisServerPath(): string | undefined {
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** Starts redis-server on a free port of 127.0.0.1, nothing saved to disk; resolves with its URL once it answers. */
export async function startRedis(onCleanup: OnCleanup): Promise<string> {
  const binary = redisServerPath();
  if (!binary) throw new Error("redis-server is not installed (apt-get install redis-server)");
  const port = await freePort();
  const child = spawn(binary, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (/Ready to accept connections/.test(out)) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
  });
  return `redis://127.0.0.1:${port}`;
}

export interface RunningSyncServer {
  url: string;
  /** A room token signed with the server's secret. */
  token(room: string, access: RoomAccess): string;
  /** Stops the script and removes its database. */
  stop(): Promise<void>;
}

/** The script on a fresh database, for tests that end it themselves (browser tests, benches). */
export async function startSyncServerScript(): Promise<RunningSyncServer> {
  const cleanups: Array<() => unknown> = [];
  const onCleanup: OnCleanup = (cleanup) => void cleanups.push(cleanup);
  const script = await startSyncScript({ dbFile: tempSyncDb(onCleanup) }, onCleanup);
  return {
    url: script.url,
    token: syncToken,
    stop: async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    },
  };
}

/** A file's content as a plain client reads the shared document (version 2: `tree`, `blobs`); undefined when absent or deleted. */
export function docFile(doc: Y.Doc, path: string): string | Uint8Array | undefined {
  const entry = doc.getMap<Entry>("tree").get(path);
  return entry && isAlive(entry) ? entryContent(entry, doc.getMap<Uint8Array>("blobs")) : undefined;
}
