// Sync (issue 33): connects one workspace's files to a Hocuspocus server (room = workspace id,
// the room token's room must match). Loaded only when sync is on (dynamic import).
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import * as Y from "yjs";
import type { Disposable } from "../../base";
import { WorkspaceSync, type SyncConflict, type SyncedFiles } from "./workspace-sync";

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
  /** The server accepted the token: "read" when its changes will be refused (a read-only token). */
  onAccess?: (access: "read" | "write") => void;
  /** Node has no global WebSocket (tests give `ws`). */
  WebSocketPolyfill?: unknown;
}

export interface SyncConnection extends Disposable {
  readonly sync: WorkspaceSync;
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
    onAuthenticated: ({ scope }) => options.onAccess?.(scope === "readonly" ? "read" : "write"),
    onSynced: () => {
      if (!failed) report("connected");
      const conflicts = sync.merge();
      if (conflicts.length > 0) options.onConflicts?.(conflicts);
      resolveReady();
    },
    onStatus: ({ status }) => {
      if (failed) return;
      if (status === "connecting") report("connecting");
      else if (status === "disconnected") report("offline");
    },
  });
  provider.attach(); // a provider given its socket is attached by hand
  report("connecting");
  return {
    sync,
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
      sync.dispose();
      provider.destroy();
      socket.destroy();
      doc.destroy();
    },
  };
}
