// The app shell: top bar, runtime notice, the workspace (or its skeleton while it opens), status
// bar, notifications and dialogs. It paints before storage, Monaco, xterm or the runtime load.
import { Fragment, useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useStore } from "zustand";
import type { StoreApi } from "zustand/vanilla";
import { DialogHost, LiveAnnouncer, Toasts, type Dialogs, type Notifications } from "../common";
import type { EditorDocuments } from "../editor";
import { PreviewPanel } from "../preview";
import { byOrder, type Contributions, type PanelContribution } from "./contributions";
import { ErrorScreen, type FatalError } from "./error-screen";
import type { LayoutStore } from "./layout-store";
import type { AppServices } from "./services";
import { StatusBar } from "./status-bar";
import { RuntimeNotice } from "./runtime-notice";
import { WorkspaceSwitcher } from "./workspace-switcher";
import { WorkbenchSkeleton, WorkspaceView } from "./workspace-view";
import type { WorkspaceController } from "./workspace-controller";
import { useWorkbenchShortcuts } from "./shortcuts";
import type { WorkbenchServices } from "./workbench-context";
import type { Storage } from "../../storage";
import { MEMORY_STORAGE_MESSAGE, MemoryStorageBanner, StorageBanner, StorageDialog, UnsavedStatus, storageActions, workbenchStorageActions, type StorageHealth } from "../storage";
import { StorageRecovery } from "./storage-recovery";
import { PERSISTENCE_EXPLANATION, type StoragePersistence } from "./storage-persistence";

export type BootState =
  | { phase: "booting" }
  | { phase: "ready"; services: AppServices; controller: WorkspaceController }
  | { phase: "fatal"; error: FatalError }
  /** Storage opened but no workspace could: the recovery screen offers export, delete and retry. */
  | { phase: "recovery"; error: FatalError; storage: Storage; retry(): void };

export interface AppProps {
  boot: StoreApi<BootState>;
  notifications: Notifications;
  dialogs: Dialogs;
  layout: LayoutStore;
  contributions: Contributions;
  health: StorageHealth;
  /** Asks the browser to keep webcode's storage (navigator.storage.persist()). */
  persistence?: StoragePersistence;
}

const PREVIEW_PANEL_ID = "preview";

export function App(props: AppProps) {
  const boot = useStore(props.boot);
  useWorkbenchShortcuts(props.layout, props.dialogs);
  if (boot.phase === "fatal") return <ErrorScreen error={boot.error} />;
  if (boot.phase === "recovery") {
    return (
      <div className="app">
        <StorageRecovery error={boot.error} storage={boot.storage} dialogs={props.dialogs} health={props.health} onRetry={boot.retry} />
        <Toasts notifications={props.notifications} />
        <DialogHost dialogs={props.dialogs} />
      </div>
    );
  }
  return (
    <div className="app">
      {boot.phase === "ready" ? (
        <ReadyShell {...props} services={boot.services} controller={boot.controller} />
      ) : (
        <>
          <TopBarFrame />
          <WorkbenchSkeleton layout={props.layout} message="Opening storage…" />
          <StatusBar runtime={undefined} />
        </>
      )}
      <Toasts notifications={props.notifications} />
      <DialogHost dialogs={props.dialogs} />
      <LiveAnnouncer />
    </div>
  );
}

function TopBarFrame({ children }: { children?: ReactNode }) {
  return (
    <header className="top-bar">
      <div className="brand" aria-label="webcode">
        <span className="brand-mark" aria-hidden="true">
          {"</>"}
        </span>
        <span className="brand-name">webcode</span>
      </div>
      {children}
    </header>
  );
}

function ReadyShell(props: AppProps & { services: AppServices; controller: WorkspaceController }) {
  const { controller, notifications, dialogs, contributions } = props;
  const state = useStore(controller.store);
  const [workbench, setWorkbench] = useState<WorkbenchServices | undefined>(undefined);
  const [freeingSpace, setFreeingSpace] = useState(false);
  const { health } = props;
  const documents = useRef<EditorDocuments | undefined>(undefined);
  documents.current = workbench?.documents;

  // Settles unsaved editor changes before the workspace goes away.
  const beforeLeave = useCallback(async () => {
    const open = documents.current;
    const dirty = open?.tabs.filter((t) => t.dirty) ?? [];
    if (!open || dirty.length === 0) return true;
    const answer = await dialogs.ask({
      kind: "choice",
      title: "Save changes?",
      message: `${dirty.length === 1 ? `"${dirty[0]!.path}" has` : `${dirty.length} files have`} unsaved changes. Save before leaving this workspace?`,
      buttons: [
        { id: "cancel", label: "Cancel" },
        { id: "discard", label: "Don't save" },
        { id: "save", label: "Save all", primary: true },
      ],
      cancelId: "cancel",
    });
    if (answer === "save") return open.saveAll();
    return answer === "discard";
  }, [dialogs]);

  // Quota errors and other persistence failures of the open workspace.
  useEffect(() => {
    const files = state.current?.files;
    if (!files) return;
    const subscription = files.onDidFailToPersist((error) => {
      health.report(error);
      notifications.error(error, "Your changes could not be saved to browser storage");
    });
    // Another tab changed a file at the same lines as this one (or deleted what it changed): both
    // are kept, and the user is told where to look; it stays until dismissed, like a warning should.
    const conflicts = files.onDidConflict((conflict) => notifications.notify("warning", conflict.message));
    return () => {
      subscription.dispose();
      conflicts.dispose();
    };
  }, [state.current?.files, notifications, health]);

  // Ask to keep storage the first time the user's work changes in this page (a sensible moment: there
  // is now something to lose), and say why.
  const { persistence } = props;
  useEffect(() => void persistence?.check(), [persistence]);
  useEffect(() => {
    const files = state.current?.files;
    // Memory storage has nothing for the browser to keep.
    if (!files || !persistence || files.readOnly || props.services.storage.inMemory) return;
    const subscription = files.onDidChange((changes) => {
      if (!changes.some((c) => c.source !== "other-tab" && c.source !== "system" && c.source !== "runtime")) return;
      subscription.dispose();
      if (persistence.store.getState().state !== "not-persistent") return;
      // Said as it is asked: some browsers show a prompt, others decide by themselves.
      notifications.info(PERSISTENCE_EXPLANATION);
      void persistence.request();
    });
    return () => subscription.dispose();
  }, [state.current?.files, persistence, notifications, props.services.storage.inMemory]);

  // Pane sizes are remembered per workspace.
  const openWorkspaceId = state.current?.workspace.id;
  useEffect(() => {
    if (openWorkspaceId) props.layout.useWorkspace(openWorkspaceId);
  }, [openWorkspaceId, props.layout]);

  // Warn before closing the tab with unsaved editor changes or workspace changes not yet stored.
  // On in-memory storage everything is lost on leaving: always ask (unless the user chose to reload).
  const files = state.current?.files;
  const inMemory = props.services.storage.inMemory;
  const leaving = useRef(false);
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      if (inMemory || documents.current?.tabs.some((t) => t.dirty) || (files?.pendingWrites ?? 0) > 0) event.preventDefault();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [files, inMemory]);

  const runtime = state.runtime;
  const ready = runtime.status === "ready" ? runtime.runtime : undefined;

  // Errors the runtime meets outside any command (WebContainer's own, file sync's).
  useEffect(() => {
    const subscription = ready?.onDidReportProblem?.((problem) =>
      notifications.notify("error", problem.kind === "container" ? `WebContainer reported an error: ${problem.message}` : problem.message),
    );
    return () => subscription?.dispose();
  }, [ready, notifications]);
  const preview: PanelContribution = {
    id: PREVIEW_PANEL_ID,
    title: "Preview",
    order: 100,
    render: (services) => (
      // A new callback each render is fine: the panel never re-subscribes for it, and calls it only
      // for a newly ready server, never for the replay of servers already up.
      <PreviewPanel runtime={ready} onServerReady={() => services.showPanel(PREVIEW_PANEL_ID)} />
    ),
  };
  const panels = [preview, ...contributions.panels];

  const current = state.current;
  const temporary = props.services.temporaryStorage;
  return (
    <>
      <TopBarFrame>
        <WorkspaceSwitcher controller={controller} dialogs={dialogs} notifications={notifications} beforeLeave={beforeLeave} />
        <div className="top-bar-spacer" />
        <div className="top-bar-items">
          {workbench && byOrder(contributions.topBar).map((item) => <Fragment key={item.id}>{item.render(workbench)}</Fragment>)}
        </div>
      </TopBarFrame>
      <RuntimeNotice
        key={`notice-${current?.workspace.id ?? ""}`}
        failure={runtime.status === "failed" ? runtime.message : undefined}
        readOnly={current?.files.readOnly === true}
        settings={props.services.storage.settings}
      />
      <div className="storage-banners">
        {temporary && (
          <MemoryStorageBanner
            reason={temporary.reason}
            dialogs={dialogs}
            checkAgain={temporary.checkAgain}
            exportWorkspace={workbench && (() => workbenchStorageActions(workbench).exportWorkspace(workbench.workspace.id, workbench.workspace.name))}
            reload={() => {
              leaving.current = true;
              location.reload();
            }}
          />
        )}
        <StorageBanner health={health} maintenance={props.services.storage.maintenance} onFreeSpace={() => setFreeingSpace(true)} />
      </div>
      {freeingSpace && (
        <StorageDialog
          actions={
            workbench
              ? workbenchStorageActions(workbench)
              : storageActions({ storage: props.services.storage, dialogs, health, removeWorkspace: (id) => controller.remove(id) })
          }
          onClose={() => setFreeingSpace(false)}
        />
      )}
      {current ? (
        <WorkspaceView
          key={current.workspace.id}
          storage={props.services.storage}
          workspace={current.workspace}
          files={current.files}
          runtime={runtime}
          controller={controller}
          notifications={notifications}
          dialogs={dialogs}
          layout={props.layout}
          panels={panels}
          storageHealth={health}
          onServices={setWorkbench}
        />
      ) : (
        <WorkbenchSkeleton layout={props.layout} message="Opening the workspace…" />
      )}
      <StatusBar runtime={runtime} readOnly={current?.files.readOnly === true} retry={() => controller.retryRuntime()} persistence={temporary ? undefined : props.persistence}>
        {temporary && (
          <span className="status-item status-warning" title={MEMORY_STORAGE_MESSAGE} aria-description={MEMORY_STORAGE_MESSAGE}>
            Temporary storage: not saved
          </span>
        )}
        {current && workbench && <UnsavedStatus files={current.files} documents={workbench.documents} />}
      </StatusBar>
    </>
  );
}
