// Settings → Sync at work (issue 33): connects the open workspace's files to the sync server when a
// server URL and a token are set and "Sync this workspace" is on, and disconnects when one of them
// goes. The sync code (Yjs, the Hocuspocus provider) is loaded by dynamic import only then, so it
// is in no chunk a page without sync loads.
import { createStore, type StoreApi } from "zustand/vanilla";
import { Emitter, errorMessage, newId, type Disposable } from "../../base";
import { syncCredentials, type RuntimeSettings } from "../../runtime";
import type { EditorDocuments } from "../editor/editor-documents";
import {
  loadWorkspaceSync,
  type HeldChange,
  type SyncConflict,
  type SyncConnection,
  type SyncConnectOptions,
  type SyncedFiles,
  type SyncedSessionStorage,
  type SyncRestored,
  type TurnLeases,
} from "../../storage";
import { deviceName } from "./device-name";
import { isPermissionConfigFile } from "./guarded-files";

export type SyncState = "off" | "connecting" | "connected" | "offline" | "error";

export interface SyncView {
  state: SyncState;
  /** Why, for "error". */
  detail?: string;
  /** "read": the server accepted a read-only token and refuses this side's changes. */
  access?: "read" | "write";
}

export interface SyncBinding {
  files: SyncedFiles;
  /** The workspace's sessions sync too when given (with one turn per session across devices). */
  storage?: SyncedSessionStorage;
  /** Told once per first connect that kept local text as conflict copies, and of write failures. */
  info(message: string): void;
  /** A file that is not synced (a binary file over the size limit). */
  warn?(message: string): void;
  error(error: unknown, context: string): void;
  /**
   * Asks the user about a held remote change to a file that can loosen permissions: take it,
   * keep the local version (sent to the other devices), or decide later.
   */
  ask?(change: HeldChange): Promise<"accept" | "keep" | "later">;
  /** The editor's open documents: shared live (cursors, keystrokes, who has what open) when given. */
  documents?: EditorDocuments;
}

/** The IndexedDB database that keeps a workspace's sync document across reloads. */
export const syncDocumentName = (workspaceId: string) => `webcode-sync-${workspaceId}`;

function conflictMessage(conflicts: SyncConflict[]): string {
  const concurrent = conflicts.filter((c) => c.reason === "concurrent");
  if (concurrent.length === conflicts.length) {
    return `Sync: changed on two devices at once, so one version is kept and the other saved beside it: ${concurrent.map((c) => `${c.path} -> ${c.copy}`).join(", ")}.`;
  }
  return `Sync: ${conflicts.length} file(s) differed here and on the server; the server's version was kept and yours saved beside it: ${conflicts.map((c) => c.copy).join(", ")}.`;
}

function restoredMessage(restored: SyncRestored): string {
  return restored.deleted === "here"
    ? `Sync: restored ${restored.path}: it was deleted while another device was editing it.`
    : `Sync: kept ${restored.path}: it was deleted on another device while you edited it.`;
}

/** Starts live collaboration on a connection (presence, y-monaco); resolves with how to stop it. */
export type StartLive = (connection: SyncConnection, documents: EditorDocuments, displayName: string) => Promise<Disposable>;

const startLive: StartLive = async (connection, documents, displayName) => {
  const [{ LiveEditing }, { bindPresence }] = await Promise.all([import("./live-editing"), import("./presence")]);
  const awareness = connection.provider.awareness;
  const presence = awareness ? bindPresence(awareness, documents, displayName) : undefined;
  const editing = new LiveEditing(connection, documents);
  return {
    dispose: () => {
      editing.dispose();
      presence?.dispose();
    },
  };
};

export type Connect = (options: SyncConnectOptions) => SyncConnection;

const loadConnect: () => Promise<Connect> = () => loadWorkspaceSync().then((m) => m.connectWorkspaceSync);

export function syncWanted(settings: RuntimeSettings, workspaceId: string): boolean {
  const { url, accessToken } = syncCredentials(settings, workspaceId);
  return url !== "" && accessToken !== "" && settings.syncWorkspaces.includes(workspaceId);
}

/** Turns of a workspace's sessions running on other devices, for the chat. */
export interface RemoteTurns {
  /** The device running the session's turn, if another one is. */
  runningOn(sessionId: string): string | undefined;
  subscribe(listener: () => void): () => void;
  /** Asks that device to stop the turn. */
  requestStop(sessionId: string): void;
}

export interface SyncControllerOptions {
  /** What other devices see while this one runs a turn (default: from the user agent). */
  deviceName?: string;
  /** Starts live collaboration (default: presence and y-monaco, loaded lazily). */
  live?: StartLive;
}

export class SyncController {
  readonly view: StoreApi<SyncView> = createStore<SyncView>(() => ({ state: "off" }));
  /** Remote changes to files that can loosen permissions, waiting for the user. */
  readonly held: StoreApi<{ items: HeldChange[] }> = createStore(() => ({ items: [] as HeldChange[] }));
  private active: { connection: SyncConnection; binding: SyncBinding } | undefined;
  private asking = false;
  private readonly later = new Set<string>();
  /** This page among the devices of a synced workspace (random: tabs are told apart too). */
  readonly device = newId("dev");
  readonly deviceName: string;
  private readonly live: StartLive;
  private readonly connections = new Map<string, SyncConnection>();
  private readonly leasesChanged = new Emitter<void>();

  constructor(
    private readonly settings: StoreApi<RuntimeSettings>,
    private readonly load: () => Promise<Connect> = loadConnect,
    options: SyncControllerOptions = {},
  ) {
    this.live = options.live ?? startLive;
    this.deviceName = options.deviceName ?? deviceName(typeof navigator === "undefined" ? "" : navigator.userAgent);
    // A page being closed or reloaded lets go of its turns at once (its turns end with it), rather
    // than other devices waiting for the claims to expire.
    if (typeof window !== "undefined") window.addEventListener("pagehide", () => this.releaseTurns());
  }

  /** Drops this page's turn claims in every connected workspace. */
  releaseTurns(): void {
    for (const connection of this.connections.values()) connection.turns?.releaseAll();
  }

  /** The turn leases of a workspace while it is connected with its sessions. */
  leases(workspaceId: string): TurnLeases | undefined {
    return this.connections.get(workspaceId)?.turns;
  }

  remoteTurns(workspaceId: string): RemoteTurns {
    return {
      runningOn: (sessionId) => this.leases(workspaceId)?.runningElsewhere().get(sessionId),
      subscribe: (listener) => {
        let leaseWatch: Disposable | undefined;
        const follow = () => {
          leaseWatch?.dispose();
          leaseWatch = this.leases(workspaceId)?.onDidChange(listener);
          listener();
        };
        follow();
        const watch = this.leasesChanged.event(follow);
        return () => {
          watch.dispose();
          leaseWatch?.dispose();
        };
      },
      requestStop: (sessionId) => void this.leases(workspaceId)?.requestStop(sessionId),
    };
  }

  private inviteClaimed = false;

  /** True the first time only: the page's invite link (`#sync=…`) is handled once per page load. */
  claimInvite(): boolean {
    if (this.inviteClaimed) return false;
    this.inviteClaimed = true;
    return true;
  }

  /** Keeps `binding.files` connected while the settings ask for it; dispose to disconnect. */
  bind(binding: SyncBinding): Disposable {
    let connection: SyncConnection | undefined;
    let live: Disposable | undefined;
    let key = "";
    let disposed = false;
    let generation = 0;
    const workspaceId = binding.files.workspaceId;
    const stop = () => {
      generation++;
      if (connection && this.connections.get(workspaceId) === connection) {
        this.connections.delete(workspaceId);
        this.leasesChanged.fire();
      }
      live?.dispose();
      live = undefined;
      binding.documents?.live.setState({ readOnly: false });
      connection?.dispose();
      connection = undefined;
      this.active = undefined;
      this.later.clear();
      this.held.setState({ items: [] }, true);
      this.view.setState({ state: "off" }, true);
    };
    const update = (settings: RuntimeSettings) => {
      const wanted = syncWanted(settings, binding.files.workspaceId);
      const credentials = syncCredentials(settings, binding.files.workspaceId);
      const next = wanted ? `${credentials.url}\n${credentials.accessToken}\n${settings.syncDisplayName}` : "";
      if (next === key) return;
      key = next;
      stop();
      if (!wanted) return;
      const mine = generation;
      this.view.setState({ state: "connecting" }, true);
      void this.load().then(
        (connect) => {
          if (disposed || mine !== generation) return;
          connection = connect({
            files: binding.files,
            url: credentials.url,
            token: credentials.accessToken,
            onStatus: (state, detail) => {
              if (mine !== generation) return;
              const { access } = this.view.getState();
              this.view.setState({ state, ...(detail ? { detail } : {}), ...(access ? { access } : {}) }, true);
            },
            onAccess: (access) => {
              if (mine !== generation) return;
              this.view.setState({ access });
              binding.documents?.live.setState({ readOnly: access === "read" });
            },
            onConflicts: (conflicts: SyncConflict[]) => binding.info(conflictMessage(conflicts)),
            onRestored: (restored) => restored.forEach((one) => binding.info(restoredMessage(one))),
            onSkipped: (_path, reason) => (binding.warn ?? binding.info)(`Sync: ${reason}`),
            onError: (error) => binding.error(error, "Sync could not store a change"),
            guarded: isPermissionConfigFile,
            onHeld: (items) => {
              if (mine !== generation) return;
              this.held.setState({ items }, true);
              void this.review();
            },
            localName: syncDocumentName(binding.files.workspaceId),
            ...(binding.storage && { sessions: { storage: binding.storage, device: this.device, deviceName: this.deviceName } }),
          });
          this.active = { connection, binding };
          this.connections.set(workspaceId, connection);
          this.leasesChanged.fire();
          void this.review();
          const current = connection;
          if (binding.documents) {
            void this.live(current, binding.documents, settings.syncDisplayName).then(
              (started) => {
                if (mine === generation) live = started;
                else started.dispose();
              },
              (error: unknown) => binding.error(error, "Live editing could not start"),
            );
          }
        },
        (error: unknown) => {
          if (mine === generation) this.view.setState({ state: "error", detail: `The sync code could not be loaded: ${errorMessage(error)}` }, true);
        },
      );
    };
    update(this.settings.getState());
    const unsubscribe = this.settings.subscribe(update);
    return {
      dispose: () => {
        disposed = true;
        unsubscribe();
        stop();
      },
    };
  }

  /**
   * Asks about each held change in turn (binding.ask). "Later" leaves it held until review(true)
   * (the top bar's "Review synced changes").
   */
  async review(again = false): Promise<void> {
    if (again) this.later.clear();
    if (this.asking) return;
    this.asking = true;
    try {
      for (;;) {
        const active = this.active;
        const next = this.held.getState().items.find((change) => !this.later.has(change.path));
        if (!active?.binding.ask || !next) return;
        const answer = await active.binding.ask(next);
        if (this.active !== active) return;
        if (answer === "accept") active.connection.sync.acceptHeld(next.path);
        else if (answer === "keep") active.connection.sync.keepMineHeld(next.path);
        else this.later.add(next.path);
      }
    } finally {
      this.asking = false;
    }
  }
}
