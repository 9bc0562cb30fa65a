// Settings → Sync at work (issue 33): connects the open workspace's files to the sync server when a
// server URL and a token are set and "Sync this workspace" is on, and disconnects when one of them
// goes. The sync code (Yjs, the Hocuspocus provider) is loaded by dynamic import only then, so it
// is in no chunk a page without sync loads.
import { createStore, type StoreApi } from "zustand/vanilla";
import { errorMessage, type Disposable } from "../../base";
import type { RuntimeSettings } from "../../runtime";
import { loadWorkspaceSync, type SyncConflict, type SyncConnection, type SyncConnectOptions, type SyncedFiles } from "../../storage";

export type SyncState = "off" | "connecting" | "connected" | "offline" | "error";

export interface SyncView {
  state: SyncState;
  /** Why, for "error". */
  detail?: string;
}

export interface SyncBinding {
  files: SyncedFiles;
  /** Told once per first connect that kept local text as conflict copies, and of write failures. */
  info(message: string): void;
  error(error: unknown, context: string): void;
}

export type Connect = (options: SyncConnectOptions) => SyncConnection;

const loadConnect: () => Promise<Connect> = () => loadWorkspaceSync().then((m) => m.connectWorkspaceSync);

export function syncWanted(settings: RuntimeSettings, workspaceId: string): boolean {
  return settings.syncServerUrl !== "" && settings.syncAccessToken !== "" && settings.syncWorkspaces.includes(workspaceId);
}

export class SyncController {
  readonly view: StoreApi<SyncView> = createStore<SyncView>(() => ({ state: "off" }));

  constructor(
    private readonly settings: StoreApi<RuntimeSettings>,
    private readonly load: () => Promise<Connect> = loadConnect,
  ) {}

  /** Keeps `binding.files` connected while the settings ask for it; dispose to disconnect. */
  bind(binding: SyncBinding): Disposable {
    let connection: SyncConnection | undefined;
    let key = "";
    let disposed = false;
    let generation = 0;
    const stop = () => {
      generation++;
      connection?.dispose();
      connection = undefined;
      this.view.setState({ state: "off" }, true);
    };
    const update = (settings: RuntimeSettings) => {
      const wanted = syncWanted(settings, binding.files.workspaceId);
      const next = wanted ? `${settings.syncServerUrl}\n${settings.syncAccessToken}` : "";
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
            url: settings.syncServerUrl,
            token: settings.syncAccessToken,
            onStatus: (state, detail) => {
              if (mine === generation) this.view.setState(detail ? { state, detail } : { state }, true);
            },
            onConflicts: (conflicts: SyncConflict[]) =>
              binding.info(
                `Sync: ${conflicts.length} file(s) differed here and on the server; the server's text was kept and yours saved beside it: ${conflicts.map((c) => c.copy).join(", ")}.`,
              ),
            onError: (error) => binding.error(error, "Sync could not write a file"),
          });
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
