// Settings → Sync at work (issue 33): connects the open workspace's files to the sync server when a
// server URL and a token are set and "Sync this workspace" is on, and disconnects when one of them
// goes. The sync code (Yjs, the Hocuspocus provider) is loaded by dynamic import only then, so it
// is in no chunk a page without sync loads.
import { createStore, type StoreApi } from "zustand/vanilla";
import { errorMessage, type Disposable } from "../../base";
import { syncCredentials, type RuntimeSettings } from "../../runtime";
import type { EditorDocuments } from "../editor/editor-documents";
import { loadWorkspaceSync, type SyncConflict, type SyncConnection, type SyncConnectOptions, type SyncedFiles } from "../../storage";

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
  /** Told once per first connect that kept local text as conflict copies, and of write failures. */
  info(message: string): void;
  error(error: unknown, context: string): void;
  /** The editor's open documents: shared live (cursors, keystrokes, who has what open) when given. */
  documents?: EditorDocuments;
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

export class SyncController {
  readonly view: StoreApi<SyncView> = createStore<SyncView>(() => ({ state: "off" }));

  constructor(
    private readonly settings: StoreApi<RuntimeSettings>,
    private readonly load: () => Promise<Connect> = loadConnect,
    private readonly live: StartLive = startLive,
  ) {}

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
    const stop = () => {
      generation++;
      live?.dispose();
      live = undefined;
      binding.documents?.live.setState({ readOnly: false });
      connection?.dispose();
      connection = undefined;
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
            onConflicts: (conflicts: SyncConflict[]) =>
              binding.info(
                `Sync: ${conflicts.length} file(s) differed here and on the server; the server's text was kept and yours saved beside it: ${conflicts.map((c) => c.copy).join(", ")}.`,
              ),
            onError: (error) => binding.error(error, "Sync could not write a file"),
          });
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
}
