// Live collaboration in the editor (issue 33): each open text tab's Monaco model is bound to its
// file's Y.Text with y-monaco while the workspace syncs, so keystrokes travel character by
// character, and other people's cursors and selections are drawn with their names and colours.
// Loaded only when sync is on (it pulls in y-monaco and Monaco).
//
// How the binding and the file service coexist (docs/architecture.md "Sync"): a remote change
// arrives in the model through y-monaco and on disk through WorkspaceSync (source "sync"); the
// tab only moves what it counts as saved (EditorDocuments.setLive). A local keystroke reaches the
// Y.Text through y-monaco (WorkspaceSync ignores the binding's transactions) and the file service
// when the user saves, as without sync; that save is not diffed into the Y.Text again. An agent's
// or the terminal's write to an open file goes into the Y.Text through WorkspaceSync and from there
// into the model through y-monaco.
import type * as MonacoApi from "monaco-editor";
import { MonacoBinding } from "y-monaco";
import type * as Y from "yjs";
import { DisposableStore, toDisposable, type Disposable } from "../../base";
import type { SyncConnection } from "../../storage";
import type { EditorDocuments, Peer } from "../editor/editor-documents";
import { monacoBuffers } from "../editor/monaco-setup";

type Editor = MonacoApi.editor.IStandaloneCodeEditor;

interface Bound {
  text: Y.Text;
  model: MonacoApi.editor.ITextModel;
  binding: MonacoBinding;
  clearCursors(): void;
  disposables: DisposableStore;
}

/**
 * The part of the editor y-monaco uses, with its listeners and decorations owned by one binding:
 * y-monaco never removes its cursor listener or its decorations, and the editor outlives bindings.
 * `clear()` removes the binding's cursor decorations from its model (the editor showed another
 * model meanwhile: y-monaco would otherwise draw them again beside the old ones).
 */
function editorFor(editor: Editor, model: MonacoApi.editor.ITextModel, owner: DisposableStore): { view: Editor; clear(): void } {
  let decorations: string[] = [];
  const clear = () => {
    if (!model.isDisposed() && decorations.length > 0) model.deltaDecorations(decorations, []);
    decorations = [];
  };
  owner.add(toDisposable(clear));
  const view = {
    getModel: () => editor.getModel(),
    getSelection: () => editor.getSelection(),
    setSelection: (selection: MonacoApi.Selection) => editor.setSelection(selection),
    deltaDecorations: (old: string[], next: MonacoApi.editor.IModelDeltaDecoration[]) => (decorations = editor.deltaDecorations(old, next)),
    onDidChangeCursorSelection: (listener: (e: MonacoApi.editor.ICursorSelectionChangedEvent) => void) => owner.add(editor.onDidChangeCursorSelection(listener)),
  };
  return { view: view as unknown as Editor, clear };
}

/** A CSS string literal of untrusted text (a peer's name). */
function cssString(text: string): string {
  return `"${text.replace(/[^\w .,:;!?'()@#+-]/gu, (c) => `\\${c.codePointAt(0)!.toString(16)} `)}"`;
}

/** The rules that colour and label each peer's cursor and selection (y-monaco's class names). */
export function peerStyles(peers: Peer[]): string {
  return peers
    .map(
      ({ id, name, color }) =>
        `.yRemoteSelection-${id}{background-color:${color}40}` +
        `.yRemoteSelectionHead-${id}{position:absolute;border-left:2px solid ${color};height:100%;box-sizing:border-box}` +
        `.yRemoteSelectionHead-${id}::after{position:absolute;top:-1.1em;left:-2px;padding:0 3px;font-size:10px;line-height:1.1em;white-space:nowrap;color:#1e1e1e;background:${color};content:${cssString(name)};pointer-events:none;z-index:5}`,
    )
    .join("\n");
}

export class LiveEditing implements Disposable {
  private readonly bound = new Map<string, Bound>();
  private readonly disposables = new DisposableStore();
  private readonly style: HTMLStyleElement;

  constructor(
    private readonly connection: SyncConnection,
    private readonly documents: EditorDocuments,
  ) {
    this.style = document.createElement("style");
    this.style.dataset.webcodeSyncCursors = "";
    document.head.append(this.style);
    this.disposables.add(toDisposable(() => this.style.remove()));
    const renderStyles = () => (this.style.textContent = peerStyles(documents.live.getState().peers));
    renderStyles();
    let view = documents.live.getState().view;
    let peers = documents.live.getState().peers;
    this.disposables.add(
      toDisposable(
        documents.live.subscribe((state) => {
          if (state.peers !== peers) {
            peers = state.peers;
            renderStyles();
          }
          if (state.view !== view) {
            view = state.view;
            this.unbindAll();
            this.watchModel(view as Editor | undefined);
            this.reconcile();
          }
        }),
      ),
    );
    this.watchModel(view as Editor | undefined);
    this.disposables.add(toDisposable(documents.store.subscribe(() => this.reconcile())));
    this.disposables.add(connection.sync.onDidChangeEntries(() => this.reconcile()));
    this.reconcile();
  }

  private modelWatch: Disposable | undefined;

  /** Other people's cursors follow the editor from one tab's model to another's. */
  private watchModel(editor: Editor | undefined): void {
    this.modelWatch?.dispose();
    this.modelWatch = editor?.onDidChangeModel(() => {
      for (const bound of this.bound.values()) {
        if (bound.model === editor.getModel()) bound.binding._rerenderDecorations();
        else bound.clearCursors();
      }
    });
  }

  private reconciling = false;
  private reconcileAgain = false;

  /**
   * Binds every open text tab whose file has a shared text; unbinds the ones that no longer qualify.
   * Binding can set a model's text, which changes the tabs' dirty state and calls this again: that
   * call only asks for another pass, so a tab is never bound twice.
   */
  private reconcile(): void {
    if (this.reconciling) {
      this.reconcileAgain = true;
      return;
    }
    this.reconciling = true;
    try {
      do {
        this.reconcileAgain = false;
        this.reconcileOnce();
      } while (this.reconcileAgain);
    } finally {
      this.reconciling = false;
    }
  }

  private reconcileOnce(): void {
    const editor = this.documents.live.getState().view as Editor | undefined;
    const wanted = new Map<string, { text: Y.Text; model: MonacoApi.editor.ITextModel }>();
    if (editor) {
      for (const tab of this.documents.tabs) {
        if (tab.status !== "text") continue;
        const text = this.connection.sync.liveText(tab.path);
        const model = monacoBuffers.model(tab.path);
        if (!text || !model || model.isDisposed()) continue;
        const current = this.bound.get(tab.path);
        // Unsaved text that never went to the shared document stays the user's: bound after a save.
        if (!current && tab.dirty && model.getValue() !== text.toString()) continue;
        wanted.set(tab.path, { text, model });
      }
    }
    for (const [path, bound] of this.bound) {
      const next = wanted.get(path);
      if (!next || next.text !== bound.text || next.model !== bound.model) this.unbind(path);
    }
    for (const [path, { text, model }] of wanted) if (!this.bound.has(path)) this.bind(path, text, model, editor!);
  }

  private bind(path: string, text: Y.Text, model: MonacoApi.editor.ITextModel, editor: Editor): void {
    const disposables = new DisposableStore();
    const awareness = this.connection.provider.awareness ?? undefined;
    const { view, clear } = editorFor(editor, model, disposables);
    const binding = new MonacoBinding(text, model, new Set([view]), awareness);
    disposables.add(toDisposable(() => binding.destroy()));
    disposables.add(this.connection.sync.markLive(path, binding));
    disposables.add(this.documents.setLive(path));
    this.bound.set(path, { text, model, binding, clearCursors: clear, disposables });
  }

  private unbind(path: string): void {
    this.bound.get(path)?.disposables.dispose();
    this.bound.delete(path);
  }

  private unbindAll(): void {
    for (const path of [...this.bound.keys()]) this.unbind(path);
  }

  dispose(): void {
    this.modelWatch?.dispose();
    this.unbindAll();
    this.disposables.dispose();
  }
}
