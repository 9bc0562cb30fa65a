// Which workspace is open, and switching, creating, renaming and deleting workspaces. Each action
// is persisted on its own; the last opened workspace is remembered in settings for the next visit.
import { createStore, type StoreApi } from "zustand/vanilla";
import { UserFacingError, errorMessage } from "../../base";
import { createWorkspace, deleteWorkspace, ensureWorkspace, listWorkspaces, renameWorkspace } from "../../runtime";
import { browserViewStore, forgetViewState } from "./workspace-view-state";
import type { WorkspaceRecord } from "../../storage";
import type { Disposable } from "../../base";
import type { Runtime, RuntimeStage } from "../../runtime";
import type { AppServices, RuntimeSelection, WorkspaceFiles } from "./services";

export const LAST_WORKSPACE_KEY = "ui.lastWorkspaceId";
export const FIRST_WORKSPACE_NAME = "My workspace";

export type RuntimeStatus =
  | { status: "starting" }
  /** `stage`: where commands run now, while the runtime may move to WebContainer (see RuntimeUpgrade). */
  | ({ status: "ready"; stage?: RuntimeStage } & RuntimeSelection)
  | { status: "failed"; message: string };

export interface OpenWorkspace {
  workspace: WorkspaceRecord;
  files: WorkspaceFiles;
}

export interface WorkspaceState {
  workspaces: WorkspaceRecord[];
  /** undefined while the first workspace is opening. */
  current?: OpenWorkspace;
  runtime: RuntimeStatus;
  /** True while a switch is in progress (the panes show a progress message). */
  switching: boolean;
}

export class WorkspaceController {
  readonly store: StoreApi<WorkspaceState> = createStore<WorkspaceState>(() => ({
    workspaces: [],
    runtime: { status: "starting" },
    switching: true,
  }));
  /** Guards against an older switch finishing after a newer one started. */
  private generation = 0;
  private disposed = false;
  /** The newest list refresh: an overtaken one resolves when that one's list is in. */
  private latestRefresh: Promise<void> = Promise.resolve();
  /** Follows the open runtime's stage (browser → Node.js) into the store. */
  private stageSubscription: Disposable | undefined;
  private otherTabs: Disposable | undefined;

  constructor(private readonly services: AppServices) {}

  /** Opens the last opened workspace, or the newest, or creates the first one with a README. */
  async start(): Promise<void> {
    const { storage } = this.services;
    // Another tab created, renamed or deleted a workspace: the list (and the open one) follow.
    this.otherTabs ??= storage.changes?.onDidChange((change) => {
      if (change.kind === "workspaces") void this.followOtherTab();
    });
    let workspaces = await listWorkspaces(storage);
    if (workspaces.length === 0) {
      await ensureWorkspace(storage, FIRST_WORKSPACE_NAME);
      workspaces = await listWorkspaces(storage);
    }
    const last = await storage.settings.get<string>(LAST_WORKSPACE_KEY);
    const pick = workspaces.find((w) => w.id === last) ?? workspaces[0]!;
    this.store.setState({ workspaces });
    await this.switchTo(pick.id);
  }

  async switchTo(id: string): Promise<void> {
    if (this.disposed) return;
    const generation = ++this.generation;
    const { storage } = this.services;
    const workspace = (await storage.workspaces.get(id)) ?? this.store.getState().workspaces.find((w) => w.id === id);
    if (!workspace) throw new Error(`The workspace ${id} no longer exists. Pick another one from the list.`);
    this.store.setState({ switching: true });
    let files: WorkspaceFiles;
    try {
      await this.closeCurrent();
      files = await this.services.openFiles(id);
    } catch (error) {
      // Leave the switcher usable so another workspace can be picked.
      if (generation === this.generation) this.store.setState({ switching: false });
      throw error;
    }
    if (generation !== this.generation || this.disposed) {
      files.dispose();
      return;
    }
    this.store.setState({ current: { workspace, files }, runtime: { status: "starting" }, switching: false });
    // Remembering the workspace is a convenience: with storage full the workspace still opens.
    await storage.settings.put(LAST_WORKSPACE_KEY, id).catch((error: unknown) => this.services.onStorageError?.(error));
    void this.startRuntime(files, generation);
  }

  /** New workspace from the dialog: starts with the starter README (imports create theirs elsewhere, without it). */
  async create(name: string): Promise<WorkspaceRecord> {
    const record = await createWorkspace(this.services.storage, name, { seedReadme: true });
    await this.refresh();
    await this.switchTo(record.id);
    return record;
  }

  /**
   * Opens the workspace with this id, creating it empty first when this browser has none (a synced
   * workspace joined from an invite link: its id is the sync room, and its files come by sync).
   */
  async openOrCreate(id: string, name: string): Promise<WorkspaceRecord> {
    const taken = new Set(this.store.getState().workspaces.filter((w) => w.id !== id).map((w) => w.name));
    let unique = name;
    for (let n = 2; taken.has(unique); n++) unique = `${name} (${n})`;
    const record = await createWorkspace(this.services.storage, unique, { seedReadme: false, id });
    await this.refresh();
    await this.switchTo(record.id);
    return record;
  }

  async rename(id: string, name: string): Promise<void> {
    await renameWorkspace(this.services.storage, id, name);
    await this.refresh();
    const current = this.store.getState().current;
    if (current?.workspace.id === id) {
      const workspace = this.store.getState().workspaces.find((w) => w.id === id) ?? { ...current.workspace, name };
      this.store.setState({ current: { ...current, workspace } });
    }
  }

  /** Deletes a workspace; deleting the open one opens another (or a fresh one if none is left). */
  async remove(id: string): Promise<void> {
    const wasCurrent = this.store.getState().current?.workspace.id === id;
    if (wasCurrent) {
      this.store.setState({ switching: true });
      await this.closeCurrent();
    }
    await deleteWorkspace(this.services.storage, id);
    forgetViewState(browserViewStore(), id);
    await this.refresh();
    if (!wasCurrent) return;
    let next = this.store.getState().workspaces[0];
    if (!next) {
      next = await ensureWorkspace(this.services.storage, FIRST_WORKSPACE_NAME);
      await this.refresh();
    }
    await this.switchTo(next.id);
  }

  refresh(): Promise<void> {
    // Two refreshes may overlap (a change here and one from another tab): the later one's list wins,
    // and an overtaken one resolves when that list is in.
    const refresh: Promise<void> = listWorkspaces(this.services.storage).then(async (workspaces) => {
      if (this.latestRefresh === refresh) this.store.setState({ workspaces });
      else await this.latestRefresh;
    });
    this.latestRefresh = refresh;
    return refresh;
  }

  /** After another tab's change: the list refreshed, the open workspace renamed or, if deleted there, another one opened. */
  private async followOtherTab(): Promise<void> {
    if (this.disposed) return;
    await this.refresh();
    const { current, workspaces, switching } = this.store.getState();
    if (!current || switching) return;
    const record = workspaces.find((w) => w.id === current.workspace.id);
    if (record) {
      if (record.name !== current.workspace.name) this.store.setState({ current: { ...current, workspace: record } });
      return;
    }
    // Deleted in the other tab: its files are gone from storage, so nothing here can be kept.
    this.store.setState({ switching: true });
    await this.closeCurrent().catch(() => undefined);
    let next = this.store.getState().workspaces[0];
    if (!next) {
      next = await ensureWorkspace(this.services.storage, FIRST_WORKSPACE_NAME);
      await this.refresh();
    }
    await this.switchTo(next.id);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.otherTabs?.dispose();
    this.generation++;
    await this.closeCurrent();
  }

  private async startRuntime(files: WorkspaceFiles, generation: number): Promise<void> {
    let runtime: RuntimeStatus;
    try {
      runtime = { status: "ready", ...(await this.services.startRuntime(files)) };
    } catch (error) {
      runtime = {
        status: "failed",
        // A message written for the user (e.g. a read-only shared session) is shown as it is.
        message:
          error instanceof UserFacingError
            ? error.message
            : `The runtime could not start: ${errorMessage(error)}. Reload the page to try again.`,
      };
    }
    if (generation !== this.generation || this.disposed) {
      if (runtime.status === "ready") runtime.runtime.dispose();
      return;
    }
    if (runtime.status === "ready" && runtime.upgrade) {
      const ready = runtime;
      ready.stage = ready.upgrade!.stage;
      this.stageSubscription = ready.upgrade!.onDidChange((stage) => {
        if (this.store.getState().runtime.status === "ready") this.store.setState({ runtime: { ...ready, stage } });
      });
    }
    this.store.setState({ runtime });
  }

  /** The status bar's Retry: WebContainer after a timeout or failure. */
  retryRuntime(): void {
    const { runtime } = this.store.getState();
    if (runtime.status === "ready") runtime.upgrade?.retry();
  }

  /** Stops the runtime, writes pending file changes and releases the workspace. */
  private async closeCurrent(): Promise<void> {
    const { current, runtime } = this.store.getState();
    this.store.setState({ current: undefined, runtime: { status: "starting" } });
    this.stageSubscription?.dispose();
    this.stageSubscription = undefined;
    // The runtime's close waits for the container's last changes to reach the files (and hands the
    // container on), so it comes before the files close.
    if (runtime.status === "ready") await closeRuntime(runtime.runtime);
    if (current) {
      // close() waits until the last changes are stored before the next workspace opens.
      await current.files.close();
    }
  }
}

async function closeRuntime(runtime: Runtime): Promise<void> {
  try {
    if (runtime.close) await runtime.close();
    else runtime.dispose();
  } catch (error) {
    console.warn("webcode: the runtime did not close cleanly", error);
  }
}
