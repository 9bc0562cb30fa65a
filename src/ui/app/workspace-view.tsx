// One open workspace: creates its editor documents, lays out tree | editor + terminal | right
// panel, and gives contributed panels the workbench services. Remounted when the workspace changes.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useStore } from "zustand";
import type { WorkspaceRecord } from "../../storage";
import type { Dialogs, Notifications } from "../common";
import { EditorDocuments, EditorPanel, loadMonacoBuffers, type UnsavedChoice } from "../editor";
import { FileTree } from "../files";
import { TerminalPanel } from "../terminal";
import type { PanelContribution } from "./contributions";
import type { LayoutStore } from "./layout-store";
import { RightPanel } from "./right-panel";
import type { Storage } from "../../storage";
import type { WorkspaceFiles } from "./services";
import { SplitHandle } from "./split-handle";
import { useWorkbenchSize } from "./use-workbench-size";
import { WorkbenchContext, type WorkbenchServices } from "./workbench-context";
import type { RuntimeStatus, WorkspaceController } from "./workspace-controller";
import type { StorageHealth } from "../storage";
import { basename } from "../../base";
import { browserViewStore, loadViewState, saveViewState } from "./workspace-view-state";

/** Tab and cursor changes settle this long before the workspace's view is remembered. */
const REMEMBER_DELAY_MS = 300;

export interface WorkspaceViewProps {
  storage: Storage;
  workspace: WorkspaceRecord;
  files: WorkspaceFiles;
  runtime: RuntimeStatus;
  controller: WorkspaceController;
  notifications: Notifications;
  dialogs: Dialogs;
  layout: LayoutStore;
  panels: PanelContribution[];
  storageHealth?: StorageHealth;
  /** Receives the workbench services while this view is mounted (for the top bar and its items). */
  onServices(services: WorkbenchServices | undefined): void;
}

/** The README a new workspace is seeded with, opened when nothing else is. */
const WELCOME_FILES = ["README.md", "readme.md", "README"];

export function WorkspaceView(props: WorkspaceViewProps) {
  const { files, dialogs, notifications } = props;
  const workspaceId = props.workspace.id;
  const [documents, setDocuments] = useState<EditorDocuments | undefined>(undefined);
  /** The side panel tab shown, remembered with the tabs; read once to restore it. */
  const panelRef = useRef<string | undefined>(undefined);
  const [initialPanel] = useState(() => loadViewState(browserViewStore(), workspaceId).panel);
  panelRef.current ??= initialPanel;
  const viewChanged = useRef<() => void>(() => undefined);

  useEffect(() => {
    const created = new EditorDocuments({
      files,
      loadBuffers: loadMonacoBuffers,
      onError: (error, context) => notifications.error(error, context),
      askUnsaved: async (path): Promise<UnsavedChoice> => {
        const answer = await dialogs.ask({
          kind: "choice",
          title: "Save changes?",
          message: `"${basename(path)}" has unsaved changes. Save them before closing?`,
          buttons: [
            { id: "cancel", label: "Cancel" },
            { id: "discard", label: "Don't save" },
            { id: "save", label: "Save", primary: true },
          ],
          cancelId: "cancel",
        });
        return answer === "save" || answer === "discard" ? answer : "cancel";
      },
    });
    setDocuments(created);
    const store = browserViewStore();
    const remembered = loadViewState(store, workspaceId);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const remember = () => {
      clearTimeout(timer);
      timer = undefined;
      const tabs = created.tabs.map((t) => t.path);
      const viewStates: Record<string, unknown> = {};
      for (const path of tabs) {
        const state = created.viewState(path);
        if (state !== undefined) viewStates[path] = state;
      }
      saveViewState(store, workspaceId, { tabs, active: created.active, viewStates, panel: panelRef.current });
    };
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(remember, REMEMBER_DELAY_MS);
    };
    let subscriptions: Array<() => void> = [];
    let live = true;
    void (async () => {
      // The tabs of last time that still exist, in their order, each with its cursor and scroll.
      const reopen = remembered.tabs.filter((path) => {
        try {
          return files.statSync(path)?.kind === "file";
        } catch {
          return false;
        }
      });
      if (reopen.length > 0) {
        await Promise.all(reopen.map((path) => created.open(path, { activate: false })));
        if (!live) return;
        for (const path of reopen) if (remembered.viewStates[path] !== undefined) created.setViewState(path, remembered.viewStates[path]);
        created.activate(remembered.active !== undefined && reopen.includes(remembered.active) ? remembered.active : reopen[0]!);
      } else {
        for (const name of WELCOME_FILES) {
          if (await files.exists(name).catch(() => false)) {
            if (live) await created.open(name, { activate: true });
            break;
          }
        }
      }
      if (!live) return;
      const viewStates = created.onDidChangeViewState(later);
      subscriptions = [created.store.subscribe(later), () => viewStates.dispose()];
      viewChanged.current = later;
      window.addEventListener("pagehide", remember);
      subscriptions.push(() => window.removeEventListener("pagehide", remember));
    })();
    return () => {
      live = false;
      viewChanged.current = () => undefined;
      if (timer !== undefined) remember();
      for (const unsubscribe of subscriptions) unsubscribe();
      created.dispose();
    };
  }, [files, dialogs, notifications, workspaceId, panelRef]);

  if (!documents) return <WorkbenchSkeleton layout={props.layout} message="Opening the workspace…" />;
  return <WorkspaceLayout {...props} documents={documents} initialPanel={initialPanel} panelRef={panelRef} viewChanged={viewChanged} />;
}

interface WorkspaceLayoutProps extends WorkspaceViewProps {
  documents: EditorDocuments;
  initialPanel: string | undefined;
  panelRef: { current: string | undefined };
  /** Remembers the workspace's view soon (the side panel shown changed). */
  viewChanged: { current: () => void };
}

function WorkspaceLayout(props: WorkspaceLayoutProps) {
  const { layout, documents, runtime, panels, panelRef } = props;
  const sizes = useStore(layout, (s) => s.sizes);
  const hidden = useStore(layout, (s) => s.hidden);
  // Re-render when the window size changes what fits (the separators' End key and aria-valuemax).
  useStore(layout, (s) => s.viewport);
  const measureRef = useWorkbenchSize(layout);
  const [selectedPanel, setSelectedPanelState] = useState<string | undefined>(() => (panels.some((p) => p.id === props.initialPanel) ? props.initialPanel : undefined));
  const setSelectedPanel = useCallback(
    (id: string) => {
      setSelectedPanelState(id);
      panelRef.current = id;
      props.viewChanged.current();
    },
    [panelRef, props.viewChanged],
  );
  const showPanel = useCallback(
    (id: string) => {
      setSelectedPanel(id);
      if (layout.getState().hidden.right) layout.toggle("right");
    },
    [layout, setSelectedPanel],
  );

  const services: WorkbenchServices = useMemo(
    () => ({
      storage: props.storage,
      notifications: props.notifications,
      dialogs: props.dialogs,
      layout,
      workspaces: props.controller,
      workspace: props.workspace,
      files: props.files,
      runtime,
      documents,
      showPanel,
      ...(props.storageHealth && { storageHealth: props.storageHealth }),
    }),
    [props.storage, props.notifications, props.dialogs, layout, props.controller, props.workspace, props.files, runtime, documents, showPanel, props.storageHealth],
  );

  const { onServices } = props;
  useEffect(() => {
    onServices(services);
    return () => onServices(undefined);
  }, [services, onServices]);

  const columns = [
    hidden.tree ? "0" : `${sizes.tree}px`,
    hidden.tree ? "0" : "4px",
    "minmax(200px, 1fr)",
    hidden.right ? "0" : "4px",
    hidden.right ? "0" : `${sizes.right}px`,
  ].join(" ");
  const rows = ["minmax(80px, 1fr)", hidden.terminal ? "0" : "4px", hidden.terminal ? "0" : `${sizes.terminal}px`].join(" ");
  const ready = runtime.status === "ready" ? runtime.runtime : undefined;

  return (
    <WorkbenchContext.Provider value={services}>
      <div className="workbench" ref={measureRef} style={{ gridTemplateColumns: columns }}>
        <aside className="pane pane-tree" hidden={hidden.tree}>
          <FileTree
            files={props.files}
            documents={documents}
            dialogs={props.dialogs}
            notifications={props.notifications}
            workspaceName={props.workspace.name}
          />
        </aside>
        {!hidden.tree ? (
          <SplitHandle pane="tree" label="Resize file tree" orientation="vertical" size={sizes.tree} direction={1} max={layout.maxSize("tree")} onResize={(s) => layout.resize("tree", s)} />
        ) : (
          <div />
        )}
        <main className="center" style={{ gridTemplateRows: rows }}>
          <EditorPanel documents={documents} files={props.files} dialogs={props.dialogs} />
          {!hidden.terminal ? (
            <SplitHandle
              pane="terminal"
              label="Resize terminal"
              orientation="horizontal"
              size={sizes.terminal}
              direction={-1}
              max={layout.maxSize("terminal")}
              onResize={(s) => layout.resize("terminal", s)}
            />
          ) : (
            <div />
          )}
          <div className="pane pane-terminal" hidden={hidden.terminal}>
            {props.files.readOnly ? (
              <TerminalPanel runtime={undefined} idleMessage="The terminal starts once you press Continue (this shared session is read-only)." />
            ) : (
              <TerminalPanel runtime={ready} runtimeError={runtime.status === "failed" ? runtime.message : undefined} />
            )}
          </div>
        </main>
        {!hidden.right ? (
          <SplitHandle pane="right" label="Resize side panel" orientation="vertical" size={sizes.right} direction={-1} max={layout.maxSize("right")} onResize={(s) => layout.resize("right", s)} />
        ) : (
          <div />
        )}
        <aside className="pane pane-right" hidden={hidden.right}>
          <RightPanel panels={panels} selected={selectedPanel} onSelect={setSelectedPanel} services={services} />
        </aside>
      </div>
    </WorkbenchContext.Provider>
  );
}

/** The frame shown before a workspace is open: same grid, so nothing jumps when it arrives. */
export function WorkbenchSkeleton({ layout, message }: { layout: LayoutStore; message: string }) {
  const sizes = useStore(layout, (s) => s.sizes);
  const measureRef = useWorkbenchSize(layout);
  return (
    <div className="workbench" ref={measureRef} style={{ gridTemplateColumns: `${sizes.tree}px 4px minmax(200px, 1fr) 4px ${sizes.right}px` }} aria-busy="true">
      <aside className="pane pane-tree skeleton" />
      <div className="split-handle" />
      <main className="center" style={{ gridTemplateRows: `minmax(80px, 1fr) 4px ${sizes.terminal}px` }}>
        <div className="editor-panel">
          <div className="editor-message" role="status">
            {message}
          </div>
        </div>
        <div className="split-handle" />
        <div className="pane pane-terminal skeleton" />
      </main>
      <div className="split-handle" />
      <aside className="pane pane-right skeleton" />
    </div>
  );
}
