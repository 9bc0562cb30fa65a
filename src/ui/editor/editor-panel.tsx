// The editor area: tabs, the Monaco editor (loaded lazily), save, conflict and deleted-file bars,
// binary-file message and quick open. Ctrl/Cmd+S saves and Ctrl/Cmd+P opens quick open anywhere.
import { useEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import "./editor.css";
import { basename, DisposableStore, errorMessage, formatBytes, toDisposable } from "../../base";
import type * as MonacoApi from "monaco-editor";
import type { WorkspaceFs } from "../../runtime";
import { Icon, IconButton, tabFocusMode, type Dialogs } from "../common";
import type { EditorDocuments, RevealRequest } from "./editor-documents";
import { editorStatus } from "./editor-status";
import { EditorTabs } from "./editor-tabs";
import { loadMonaco, type MonacoModule } from "./monaco-loader";
import { QuickOpen } from "./quick-open";
import { ImagePreview, MarkdownPreview, SvgPreview, describeFileType, previewKind } from "./file-preview";

export const EDITOR_READY_MARK = "webcode:editor-ready";

export interface EditorPanelProps {
  documents: EditorDocuments;
  files: WorkspaceFs;
  dialogs: Dialogs;
}

type MonacoEditor = MonacoApi.editor.IStandaloneCodeEditor;
type ViewState = MonacoApi.editor.ICodeEditorViewState;

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
/** Cursor moves and scrolling settle this long before the view state is recorded. */
const VIEW_STATE_DELAY_MS = 200;

export const MOD_KEY_LABEL = isMac ? "⌘" : "Ctrl+";

export function EditorPanel({ documents, files, dialogs }: EditorPanelProps) {
  const tabs = useStore(documents.store, (s) => s.tabs);
  const active = useStore(documents.store, (s) => s.active);
  const dialogOpen = useStore(dialogs.store, (s) => s.current !== undefined);
  const activeTab = tabs.find((t) => t.path === active);
  const liveReadOnly = useStore(documents.live, (s) => s.readOnly);
  const host = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<{ instance: MonacoEditor; module: MonacoModule } | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | undefined>(undefined);
  const [quickOpen, setQuickOpen] = useState(false);
  /** Text tabs (Markdown, SVG) showing their preview beside the source. */
  const [previews, setPreviews] = useState<ReadonlySet<string>>(new Set());
  const shown = useRef<string | undefined>(undefined);
  /** A range to show once its file's model is in the editor (a search result opened before it loaded). */
  const pendingReveal = useRef<RevealRequest | undefined>(undefined);

  // Create Monaco once per workspace; the TypeScript project lives as long as the editor.
  useEffect(() => {
    let cancelled = false;
    const disposables = new DisposableStore();
    loadMonaco().then(
      (module) => {
        if (cancelled || !host.current) return;
        const instance = module.monaco.editor.create(host.current, {
          model: null,
          theme: "webcode-dark",
          automaticLayout: true,
          fontSize: 13,
          fontFamily: "'JetBrains Mono', 'Cascadia Code', 'Fira Code', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
          minimap: { enabled: true, renderCharacters: false },
          scrollBeyondLastLine: false,
          renderWhitespace: "selection",
          tabSize: 2,
          fixedOverflowWidgets: true,
          ariaLabel: "Editor",
          readOnly: files.readOnly,
          readOnlyMessage: { value: "This shared session is read-only. Press Continue to make an editable copy." },
        });
        disposables.add(instance);
        // "Tab moves focus" (Ctrl+M, handled by the workbench for the editor and the terminal alike).
        instance.updateOptions({ tabFocusMode: tabFocusMode.getState().on });
        disposables.add(toDisposable(tabFocusMode.subscribe((s) => instance.updateOptions({ tabFocusMode: s.on }))));
        disposables.add(new module.TypeScriptProject(files));
        disposables.add(
          instance.onDidChangeCursorPosition((e) => editorStatus.setState({ line: e.position.lineNumber, column: e.position.column })),
        );
        const updateMarkers = () => {
          const model = instance.getModel();
          const markers = model ? module.monaco.editor.getModelMarkers({ resource: model.uri }) : [];
          const { MarkerSeverity } = module.monaco;
          editorStatus.setState({
            errors: markers.filter((m) => m.severity === MarkerSeverity.Error).length,
            warnings: markers.filter((m) => m.severity === MarkerSeverity.Warning).length,
          });
        };
        disposables.add(module.monaco.editor.onDidChangeMarkers(updateMarkers));
        disposables.add(instance.onDidChangeModel(updateMarkers));
        disposables.add(toDisposable(() => editorStatus.setState({ line: undefined, column: undefined, language: undefined, errors: 0, warnings: 0 })));
        // Live collaboration (sync) draws other people's cursors in this editor.
        documents.live.setState({ view: instance });
        disposables.add(toDisposable(() => documents.live.setState({ view: undefined })));
        const applyReadOnly = (liveReadOnly: boolean) =>
          instance.updateOptions({
            readOnly: files.readOnly || liveReadOnly,
            readOnlyMessage: {
              value: files.readOnly
                ? "This shared session is read-only. Press Continue to make an editable copy."
                : "You joined this workspace read-only: the sync server refuses your changes.",
            },
          });
        applyReadOnly(documents.live.getState().readOnly);
        disposables.add(toDisposable(documents.live.subscribe((s, before) => s.readOnly !== before.readOnly && applyReadOnly(s.readOnly))));
        host.current.dataset.editorReady = "true";
        performance.mark(EDITOR_READY_MARK);
        setEditor({ instance, module });
      },
      (error: unknown) => !cancelled && setLoadError(`The editor could not be loaded: ${errorMessage(error)}. Check your connection and reload the page.`),
    );
    return () => {
      cancelled = true;
      disposables.dispose();
      shown.current = undefined;
      setEditor(undefined);
    };
  }, [files, documents]);

  // Show the active tab's model, keeping each tab's cursor and scroll position.
  const activeBufferReady = activeTab?.status === "text";
  useEffect(() => {
    if (!editor) return;
    const { instance, module } = editor;
    if (shown.current !== undefined) {
      const state = instance.saveViewState();
      if (state) documents.setViewState(shown.current, state);
    }
    const model = activeBufferReady && active !== undefined ? module.monacoBuffers.model(active) : undefined;
    if (instance.getModel() !== (model ?? null)) instance.setModel(model ?? null);
    shown.current = model ? active : undefined;
    if (model && active !== undefined) {
      // Prose wraps; code keeps its lines.
      const prose = ["markdown", "plaintext", "mdx"].includes(model.getLanguageId());
      instance.updateOptions({ wordWrap: prose ? "on" : "off" });
      const state = documents.viewState(active) as ViewState | undefined;
      if (state) instance.restoreViewState(state);
      if (pendingReveal.current?.path === active) {
        reveal(instance, pendingReveal.current);
        pendingReveal.current = undefined;
      }
      editorStatus.setState({ language: model.getLanguageId(), ...positionOf(instance) });
    } else {
      editorStatus.setState({ language: undefined, line: undefined, column: undefined });
    }
  }, [editor, documents, active, activeBufferReady, tabs]);

  // Record the cursor and scroll position as they change (settled), so a reload brings them back.
  useEffect(() => {
    if (!editor) return;
    const { instance } = editor;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const record = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const state = shown.current !== undefined ? instance.saveViewState() : null;
        if (state && shown.current !== undefined) documents.setViewState(shown.current, state);
      }, VIEW_STATE_DELAY_MS);
    };
    const subscriptions = [instance.onDidChangeCursorPosition(record), instance.onDidScrollChange(record)];
    return () => {
      clearTimeout(timer);
      for (const s of subscriptions) s.dispose();
    };
  }, [editor, documents]);

  useEffect(() => {
    const subscription = documents.onDidRequestFocus(() => editor?.instance.focus());
    return () => subscription.dispose();
  }, [documents, editor]);

  useEffect(() => {
    const subscription = documents.onDidRequestReveal((request) => {
      if (editor && shown.current === request.path) reveal(editor.instance, request);
      else pendingReveal.current = request;
    });
    return () => subscription.dispose();
  }, [documents, editor]);

  // Workbench-wide shortcuts, caught before Monaco or xterm see them.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || dialogOpen) return;
      const key = event.key.toLowerCase();
      if (key === "s") {
        event.preventDefault();
        event.stopPropagation();
        void (event.shiftKey ? documents.saveAll() : documents.save());
      } else if (key === "p" && !event.shiftKey) {
        event.preventDefault();
        event.stopPropagation();
        setQuickOpen(true);
      }
    };
    window.addEventListener("keydown", onKeyDown, true);
    return () => window.removeEventListener("keydown", onKeyDown, true);
  }, [documents, dialogOpen]);

  const name = active !== undefined ? basename(active) : undefined;
  const kind = active !== undefined ? previewKind(active) : undefined;
  const canPreview = activeTab?.status === "text" && kind !== undefined;
  const previewing = canPreview && previews.has(activeTab.path);
  const togglePreview = (path: string) =>
    setPreviews((current) => {
      const next = new Set(current);
      if (!next.delete(path)) next.add(path);
      return next;
    });

  return (
    <section className="editor-panel" aria-label="Editor">
      <div className="editor-tabs-bar">
        <EditorTabs
          tabs={tabs}
          active={active}
          onSelect={(path) => documents.activate(path)}
          onClose={(path) => void documents.close(path)}
        />
        <div className="editor-actions">
          {canPreview && (
            <button
              type="button"
              className="button editor-preview-toggle"
              aria-pressed={previewing}
              title={previewing ? "Hide the preview" : "Show a preview beside the source"}
              onClick={() => togglePreview(activeTab.path)}
            >
              Preview
            </button>
          )}
          <IconButton icon="search" label="Go to file" shortcut={`${MOD_KEY_LABEL}P`} onClick={() => setQuickOpen(true)} />
          <IconButton
            icon="save"
            label="Save"
            shortcut={`${MOD_KEY_LABEL}S`}
            disabled={!activeTab || activeTab.status !== "text" || !(activeTab.dirty || activeTab.deletedOnDisk)}
            onClick={() => void documents.save()}
          />
        </div>
      </div>
      {liveReadOnly && (
        <div className="editor-banner" role="status">
          <Icon name="info" />
          <span>Read-only: you joined this workspace with a read-only invitation, so the sync server refuses your changes.</span>
        </div>
      )}
      {activeTab?.conflict && (
        <div className="editor-banner editor-banner-warning" role="alert">
          <Icon name="warning" />
          <span>
            <strong>{name}</strong> changed on disk while you had unsaved changes.
          </span>
          <button type="button" className="button" onClick={() => documents.keepMine(activeTab.path)}>
            Keep mine
          </button>
          <button type="button" className="button button-primary" onClick={() => documents.loadTheirs(activeTab.path)}>
            Load theirs
          </button>
        </div>
      )}
      {activeTab?.deletedOnDisk && (
        <div className="editor-banner editor-banner-warning" role="alert">
          <Icon name="warning" />
          <span>
            <strong>{name}</strong> was deleted on disk. Save to create it again, or close the tab to drop your changes.
          </span>
        </div>
      )}
      <div className={`editor-body ${previewing ? "with-preview" : ""}`}>
        <div ref={host} className={`monaco-host ${activeBufferReady ? "" : "is-hidden"}`} data-testid="monaco-host" />
        {previewing && activeTab && (
          <div className="file-preview-pane">
            {kind === "markdown" ? (
              <MarkdownPreview key={activeTab.path} buffer={documents.buffer(activeTab.path)} path={activeTab.path} />
            ) : (
              <SvgPreview key={activeTab.path} files={files} buffer={documents.buffer(activeTab.path)} path={activeTab.path} />
            )}
          </div>
        )}
        {!activeTab && !loadError && (
          <div className="editor-empty">
            <p>No file is open.</p>
            <p>
              Pick a file in the tree, or press <kbd>{MOD_KEY_LABEL}P</kbd> to find one.
            </p>
          </div>
        )}
        {activeTab?.status === "loading" && <div className="editor-message" role="status">Opening {name}…</div>}
        {activeTab?.status === "binary" && kind === "image" && <ImagePreview key={activeTab.path} files={files} path={activeTab.path} />}
        {activeTab?.status === "binary" && kind !== "image" && (
          <div className="editor-message" role="status">
            <Icon name="file" size={32} />
            <p>
              <strong>{name}</strong> is a binary file: {formatBytes(activeTab.size ?? 0)}, {describeFileType(activeTab.path)}. The editor shows text files only.
            </p>
          </div>
        )}
        {activeTab?.status === "error" && (
          <div className="editor-message" role="alert">
            {activeTab.error}
          </div>
        )}
        {activeTab?.status === "text" && !editor && !loadError && <div className="editor-message" role="status">Loading the editor…</div>}
        {loadError && (
          <div className="editor-message" role="alert">
            {loadError}
          </div>
        )}
      </div>
      {quickOpen && (
        <QuickOpen
          files={files}
          onClose={() => setQuickOpen(false)}
          onOpen={(path) => {
            setQuickOpen(false);
            void documents.open(path, { focus: true });
          }}
        />
      )}
    </section>
  );
}

function reveal(instance: MonacoEditor, { selection }: RevealRequest): void {
  const range = {
    startLineNumber: selection.line,
    startColumn: selection.column,
    endLineNumber: selection.endLine ?? selection.line,
    endColumn: selection.endColumn ?? selection.column,
  };
  instance.setSelection(range);
  instance.revealRangeInCenterIfOutsideViewport(range);
}

function positionOf(instance: MonacoEditor): { line?: number; column?: number } {
  const position = instance.getPosition();
  return position ? { line: position.lineNumber, column: position.column } : {};
}
