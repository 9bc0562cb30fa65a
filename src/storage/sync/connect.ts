// Sync (issue 33): connects one workspace's files to a Hocuspocus server (room = workspace id,
// the room token's room must match). Loaded only when sync is on (dynamic import).
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import * as Y from "yjs";
import type { Disposable } from "../../base";
import { WorkspaceSync, type SyncConflict, type SyncedFiles } from "./workspace-sync";
import { SessionSync, type SyncedSessionStorage } from "./session-sync";
import { TurnLeases } from "./turn-lease";

export type SyncStatus = "connecting" | "connected" | "offline" | "error";

export interface SyncConnectOptions {
  files: SyncedFiles;
  /** ws:// or wss:// URL of the server (`npm run sync-server`). */
  url: string;
  /** A room token for this workspace (`npm run sync-server -- token --room <workspace id>`). */
  token: string;
  onStatus?: (status: SyncStatus, detail?: string) => void;
  /** First connect found files that differ on both sides: the local text was kept as a copy. */
  onConflicts?: (conflicts: SyncConflict[]) => void;
  onError?: (error: unknown) => void;
  /** Node has no global WebSocket (tests give `ws`). */
  WebSocketPolyfill?: unknown;
  /** The workspace's sessions too, with one turn per session across devices (session-sync.ts, turn-lease.ts). */
  sessions?: {
    storage: SyncedSessionStorage;
    /** This page, unique (a random id). */
    device: string;
    /** What other devices show while this one runs a turn ("Chrome on Linux"). */
    deviceName: string;
    /** Test hooks for the lease's timing. */
    lease?: { heartbeatMs?: number; expireMs?: number; settleMs?: number; now?: () => number };
  };
}

/** How long a turn's claim waits for the server's answer before it goes ahead as if offline. */
const ACK_TIMEOUT_MS = 5_000;

export interface SyncConnection extends Disposable {
  readonly sync: WorkspaceSync;
  readonly sessions: SessionSync | undefined;
  readonly turns: TurnLeases | undefined;
  readonly provider: HocuspocusProvider;
  /** Resolves after the first sync with the server and the merge. */
  readonly ready: Promise<void>;
  /** Drops the connection, keeping local changes in the document (as when offline). */
  disconnect(): void;
  /** Connects again; changes made meanwhile are exchanged. */
  connect(): Promise<void>;
}

export function connectWorkspaceSync(options: SyncConnectOptions): SyncConnection {
  const doc = new Y.Doc();
  const sync = new WorkspaceSync(options.files, doc, options.onError);
  const sessions = options.sessions && new SessionSync(options.sessions.storage, options.files.workspaceId, doc, options.onError);
  let online = false;
  const socket = new HocuspocusProviderWebsocket({
    url: options.url,
    ...(options.WebSocketPolyfill ? { WebSocketPolyfill: options.WebSocketPolyfill as typeof WebSocket } : {}),
  });
  let failed = false;
  const report = (status: SyncStatus, detail?: string) => options.onStatus?.(status, detail);
  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: options.files.workspaceId,
    document: doc,
    token: options.token,
    onAuthenticationFailed: ({ reason }) => {
      failed = true;
      report("error", `The sync server refused the token: ${reason}`);
    },
    onSynced: () => {
      online = true;
      if (!failed) report("connected");
      const conflicts = sync.merge();
      if (conflicts.length > 0) options.onConflicts?.(conflicts);
      if (sessions) void sessions.merge().then(resolveReady, (error: unknown) => (options.onError?.(error), resolveReady()));
      else resolveReady();
    },
    onStatus: ({ status }) => {
      online = status === "connected";
      if (failed) return;
      if (status === "connecting") report("connecting");
      else if (status === "disconnected") report("offline");
    },
  });
  const acknowledged = () =>
    new Promise<void>((resolve) => {
      if (!online || !provider.hasUnsyncedChanges) return resolve();
      const done = () => {
        clearTimeout(timer);
        provider.off("unsyncedChanges", check);
        resolve();
      };
      const check = () => {
        if (!provider.hasUnsyncedChanges) done();
      };
      const timer = setTimeout(done, ACK_TIMEOUT_MS);
      provider.on("unsyncedChanges", check);
    });
  const turns =
    options.sessions &&
    new TurnLeases(doc, { device: options.sessions.device, name: options.sessions.deviceName, acknowledged, ...options.sessions.lease });
  provider.attach(); // a provider given its socket is attached by hand
  report("connecting");
  return {
    sync,
    sessions,
    turns,
    provider,
    ready,
    disconnect: () => socket.disconnect(),
    connect: async () => {
      await socket.connect();
      provider.attach();
      await new Promise<void>((resolve) => {
        if (provider.isSynced) resolve();
        else provider.on("synced", () => resolve());
      });
    },
    dispose: () => {
      turns?.dispose();
      sessions?.dispose();
      sync.dispose();
      provider.destroy();
      socket.destroy();
      doc.destroy();
    },
  };
}
