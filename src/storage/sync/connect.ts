// Sync (issue 33): connects one workspace's files to a Hocuspocus server (room = workspace id,
// the room token's room must match). Loaded only when sync is on (dynamic import). With
// `localName`, the document is also kept in this browser's IndexedDB (y-indexeddb): after a reload
// the files are bound to it before the server answers (or while offline), so edits made offline
// before the reload merge per character on reconnect.
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import { IndexeddbPersistence } from "y-indexeddb";
import * as Y from "yjs";
import { errorMessage, type Disposable } from "../../base";
import { WorkspaceSync, type HeldChange, type SyncConflict, type SyncedFiles, type SyncRestored } from "./workspace-sync";
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
  /** A file deleted on one device while another edited it was kept (restored). */
  onRestored?: (restored: SyncRestored[]) => void;
  /** Paths whose remote changes wait for the user (files that can loosen permissions). */
  guarded?: (path: string) => boolean;
  /** The remote changes held for the user, each time the list changes. */
  onHeld?: (held: HeldChange[]) => void;
  /** A file that is not synced, and why (a binary file over the size limit). */
  onSkipped?: (path: string, reason: string) => void;
  /** This device's label in conflict copies. */
  device?: string;
  /** The IndexedDB database that keeps the document across reloads (none: kept only in memory). */
  localName?: string;
  /** The server accepted the token: "read" when its changes will be refused (a read-only token). */
  onAccess?: (access: "read" | "write") => void;
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
  /** Resolves once the document kept in IndexedDB is loaded (and, when it held anything, bound to the files). */
  readonly restored: Promise<void>;
  /** Drops the connection, keeping local changes in the document (as when offline). */
  disconnect(): void;
  /** Connects again; changes made meanwhile are exchanged. */
  connect(): Promise<void>;
}

export function connectWorkspaceSync(options: SyncConnectOptions): SyncConnection {
  const doc = new Y.Doc();
  const sync = new WorkspaceSync(options.files, doc, {
    ...(options.onError && { onError: options.onError }),
    ...(options.device && { device: options.device }),
    ...(options.guarded && { guarded: options.guarded }),
    ...(options.onConflicts && { onConflicts: options.onConflicts }),
    ...(options.onRestored && { onRestored: options.onRestored }),
    ...(options.onHeld && { onHeld: options.onHeld }),
    ...(options.onSkipped && { onSkipped: options.onSkipped }),
  });
  const sessions = options.sessions && new SessionSync(options.sessions.storage, options.files.workspaceId, doc, options.onError);
  let online = false;
  // Not connected before the kept document is loaded: the server's answer merges into it.
  const socket = new HocuspocusProviderWebsocket({
    url: options.url,
    autoConnect: false,
    ...(options.WebSocketPolyfill ? { WebSocketPolyfill: options.WebSocketPolyfill as typeof WebSocket } : {}),
  });
  let failed = false;
  let disposed = false;
  const report = (status: SyncStatus, detail?: string) => options.onStatus?.(status, detail);
  const bind = () => {
    try {
      const conflicts = sync.merge();
      if (conflicts.length > 0) options.onConflicts?.(conflicts);
    } catch (error) {
      failed = true;
      report("error", errorMessage(error));
    }
  };
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
    onAuthenticated: ({ scope }) => options.onAccess?.(scope === "readonly" ? "read" : "write"),
    onSynced: () => {
      online = true;
      bind();
      if (!failed) report("connected");
      // Sessions merge against the server's state (a session record on both sides: the later one).
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
  const local = options.localName ? new IndexeddbPersistence(options.localName, doc) : undefined;
  const restored = (local ? local.whenSynced.then(() => undefined) : Promise.resolve()).then(
    () => {
      if (disposed) return;
      if (sync.hasContent) bind();
      void socket.connect();
    },
    (error: unknown) => {
      // No kept copy (IndexedDB unavailable): sync as without one.
      options.onError?.(error);
      if (!disposed) void socket.connect();
    },
  );
  return {
    sync,
    sessions,
    turns,
    provider,
    ready,
    restored,
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
      disposed = true;
      turns?.dispose();
      sessions?.dispose();
      sync.dispose();
      provider.destroy();
      socket.destroy();
      void local?.destroy();
      doc.destroy();
    },
  };
}
