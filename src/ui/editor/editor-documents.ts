// The open files of the editor: tabs, dirty state, saving through the workspace file service,
// and what happens when a file changes underneath an open tab (terminal, agent, import): a clean
// tab reloads, a dirty one asks (keep mine / load theirs), a deleted one closes, a moved one follows.
import { createStore, type StoreApi } from "zustand/vanilla";
import {
  basename,
  DisposableStore,
  Emitter,
  errorMessage,
  isInside,
  mergeText,
  looksBinary,
  normalizePath,
  toDisposable,
  tryDecodeText,
  type Disposable,
} from "../../base";
import { isFsError, type FileChange, type WorkspaceFs } from "../../runtime";
import type { BufferFactory, TextBuffer } from "./text-buffer";

export type TabStatus = "loading" | "text" | "binary" | "error";

export interface EditorTab {
  path: string;
  status: TabStatus;
  dirty: boolean;
  /** The file changed on disk while the tab had unsaved changes: the user picks a side. */
  conflict: boolean;
  /** The file was deleted on disk while the tab had unsaved changes; saving recreates it. */
  deletedOnDisk: boolean;
  /** Size in bytes (shown for binary files). */
  size?: number;
  /** Why the file could not be opened. */
  error?: string;
}

export interface EditorDocumentsState {
  tabs: EditorTab[];
  active?: string;
}

/** Another person in a live-collaboration session (sync), as the editor and the file tree show them. */
export interface Peer {
  /** Their sync client id (stable for their connection). */
  id: number;
  name: string;
  /** A CSS colour. */
  color: string;
  /** The file they have open, if any. */
  openPath?: string;
}

/**
 * The editor surface for extensions while a workspace is shared live: the engine's editor
 * (opaque here; Monaco's in the page), who else is there, and whether the shared document may be
 * changed from here (a read-only invitation may not).
 */
export interface LiveState {
  view?: unknown;
  peers: Peer[];
  readOnly: boolean;
}

export type UnsavedChoice = "save" | "discard" | "cancel";

/** A range to select and scroll to (1-based lines and columns, end column exclusive). */
export interface EditorSelection {
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
}

export interface RevealRequest {
  path: string;
  selection: EditorSelection;
}

export interface EditorDocumentsOptions {
  files: WorkspaceFs;
  /** Loads the editor engine on first use (Monaco is a lazy chunk). */
  loadBuffers: () => Promise<BufferFactory>;
  /** Asks what to do with unsaved changes of a tab being closed. */
  askUnsaved: (path: string) => Promise<UnsavedChoice>;
  onError: (error: unknown, context: string) => void;
}

interface OpenDocument {
  buffer: TextBuffer;
  /** The file's content on disk as last seen (what "dirty" compares against). */
  saved: string;
  /**
   * The content the tab's text was edited from: last loaded, or last written by a save (which may
   * differ from `saved` when another writer changed the file during the save). A save merges
   * against it, so neither a change on disk nor the tab's own earlier save is lost or repeated.
   */
  base: string;
  /** The content on disk that conflicts with unsaved changes. */
  theirs?: string;
  /** Counts the changes on disk that raised the conflict (a save compares it, not the text). */
  conflicts: number;
  listener: Disposable;
}

/** How many newly created files are read when looking for where a deleted open file went. */
const MOVE_CANDIDATE_LIMIT = 20;

export class EditorDocuments implements Disposable {
  readonly store: StoreApi<EditorDocumentsState> = createStore<EditorDocumentsState>(() => ({ tabs: [] }));
  private readonly docs = new Map<string, OpenDocument>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly disposables = new DisposableStore();
  /** Moves started here: their deletions are not "file deleted underneath the tab". */
  private readonly moving: Array<{ from: string; to: string }> = [];
  private factory?: BufferFactory;
  private readonly focusRequests = new Emitter<string>();
  /** Fires when a tab wants the keyboard (a file opened with `focus: true` finished loading). */
  readonly onDidRequestFocus = this.focusRequests.event;
  private readonly revealRequests = new Emitter<RevealRequest>();
  /** Fires when a tab wants a range selected and shown (a search result was opened). */
  readonly onDidRequestReveal = this.revealRequests.event;
  private queue: Promise<void> = Promise.resolve();
  private disposed = false;
  /** The editor's per-tab view state (cursor, selections, scroll): opaque here, kept for the tab's life. */
  private readonly viewStates = new Map<string, unknown>();
  private readonly viewStateChanges = new Emitter<string>();
  /** Fires when a tab's view state was recorded (for remembering it across reloads). */
  readonly onDidChangeViewState = this.viewStateChanges.event;

  /** Live collaboration (sync): the editor view for cursors, the peers, read-only. */
  readonly live: StoreApi<LiveState> = createStore<LiveState>(() => ({ peers: [], readOnly: false }));
  /**
   * Tabs whose text is bound live to the shared document (y-monaco): the binding writes other
   * people's changes into the buffer itself, so a change on disk only moves what the tab counts as
   * saved, and never replaces the buffer or asks.
   */
  private readonly livePaths = new Set<string>();

  constructor(private readonly options: EditorDocumentsOptions) {
    this.disposables.add(options.files.onDidChange((changes) => this.enqueue(() => this.applyChanges(changes))));
  }

  get tabs(): EditorTab[] {
    return this.store.getState().tabs;
  }

  get active(): string | undefined {
    return this.store.getState().active;
  }

  tab(path: string): EditorTab | undefined {
    return this.tabs.find((t) => t.path === path);
  }

  buffer(path: string): TextBuffer | undefined {
    return this.docs.get(path)?.buffer;
  }

  /** Opens a file in a tab (or shows its tab) and makes it active. */
  async open(input: string, options: { activate?: boolean; focus?: boolean; selection?: EditorSelection } = {}): Promise<void> {
    const path = normalizePath(input);
    if (options.activate !== false) this.activate(path, true);
    let pending = this.loading.get(path);
    if (!pending && !this.tab(path)) {
      this.setTabs([...this.tabs, { path, status: "loading", dirty: false, conflict: false, deletedOnDisk: false }]);
      if (options.activate !== false) this.store.setState({ active: path });
      pending = this.load(path).finally(() => this.loading.delete(path));
      this.loading.set(path, pending);
    }
    await pending;
    if (options.selection && this.active === path && this.tab(path)?.status === "text") this.revealRequests.fire({ path, selection: options.selection });
    if (options.focus && this.active === path) this.focusRequests.fire(path);
  }

  /** Marks a tab as bound live to the shared document (see `livePaths`); dispose to unmark. */
  setLive(path: string): Disposable {
    this.livePaths.add(path);
    return toDisposable(() => this.livePaths.delete(path));
  }

  isLive(path: string): boolean {
    return this.livePaths.has(path);
  }

  viewState(path: string): unknown {
    return this.viewStates.get(path);
  }

  setViewState(path: string, state: unknown): void {
    if (!this.tab(path)) return;
    this.viewStates.set(path, state);
    this.viewStateChanges.fire(path);
  }

  activate(path: string, onlyIfOpen = false): void {
    if (onlyIfOpen && !this.tab(path)) return;
    if (this.tab(path)) this.store.setState({ active: path });
  }

  /** Saves a tab's text through the file service; false when it failed (the user was told). */
  async save(path: string | undefined = this.active): Promise<boolean> {
    if (path === undefined) return false;
    const doc = this.docs.get(path);
    if (!doc) return false;
    const tab = this.tab(path);
    // Nothing to save (what the disabled Save button says): not a write, so never a failure.
    if (tab && !tab.dirty && !tab.deletedOnDisk) return true;
    if (this.livePaths.has(path)) {
      // Other devices' keystrokes reach a live tab's buffer at once and its file a batch later (the
      // file service announces changes on the next tick, then the reload runs): the save first lets
      // those announced so far move the base, or it would merge the buffer (which holds them) against
      // a base without them, and typing next to the other person's line would refuse the save.
      await new Promise((resolve) => setTimeout(resolve, 0));
      await this.idle();
      if (this.docs.get(path) !== doc) return false;
    }
    const conflictsBefore = doc.conflicts;
    let text = doc.buffer.getValue();
    // The text was edited from `saved`. If the file changed since (the terminal, the agent or another
    // tab wrote it, and its reload may not have reached this tab yet), both changes are merged into
    // the tab first, as an editor merges a file changed on disk; changes to the same lines stop the
    // save and ask. A file deleted on disk is simply written again.
    const onDisk = tab?.deletedOnDisk ? undefined : await this.options.files.readText(path).catch(() => undefined);
    // What this save's changes are made against (the file as it was read just now).
    const savedFrom = onDisk ?? doc.base;
    if (onDisk !== undefined && onDisk !== doc.base) {
      // Typed on while the file was read: merge what the tab holds now.
      text = doc.buffer.getValue();
      const merged = mergeText(doc.base, text, onDisk, { ours: "editor", theirs: "on disk" });
      if (merged.conflicts > 0) return this.saveConflicted(doc, onDisk);
      if (merged.text !== text) doc.buffer.setValue(merged.text);
      text = merged.text;
    }
    try {
      // `base` again: a change landing between the read above and this write is merged (or refused) too.
      await this.options.files.writeFile(path, text, { source: "editor", base: onDisk });
    } catch (error) {
      if (isFsError(error, "ECONFLICT")) return this.saveConflicted(doc, await this.options.files.readText(path).catch(() => undefined));
      this.options.onError(error, `Could not save ${path}`);
      return false;
    }
    doc.base = text;
    const current = this.pathOf(doc);
    if (current === undefined) return true;
    if (this.livePaths.has(current)) {
      // A live tab's buffer is the shared text (y-monaco): other devices' keystrokes that arrived
      // while this save was stored are in the buffer and on disk already (sync writes the whole
      // shared text), and their reload moved what the tab counts as saved. `text` is older than
      // both: taking it as saved would leave the tab dirty for good, and as the base the next
      // save (offline too) would merge against a version nobody has, and could refuse. What the
      // file holds now is both.
      const stored = await this.options.files.readText(current).catch(() => undefined);
      if (stored !== undefined && this.pathOf(doc) === current) {
        text = stored;
        doc.base = stored;
      }
    } else if (doc.conflicts !== conflictsBefore && doc.theirs !== undefined && doc.theirs !== text) {
      // Another writer changed the file while this save was stored. When the file now holds this
      // save's changes too (the write merged theirs, or theirs was made on top of it: a synced edit
      // from another device, an append) and nothing was typed meanwhile, the tab takes the file as it
      // is, as a clean tab would. Otherwise the file holds theirs without ours, so the changed-on-disk
      // choice the reload raised stays (the save itself did land first).
      const stored = await this.options.files.readText(path).catch(() => undefined);
      const holdsOurs = stored !== undefined && mergeText(savedFrom, text, stored).text === stored;
      if (!holdsOurs || doc.buffer.getValue() !== text || this.pathOf(doc) !== current) return true;
      if (stored !== text) doc.buffer.setValue(stored);
      text = stored;
      doc.base = stored;
    }
    doc.saved = text;
    doc.theirs = undefined;
    this.patch(current, { conflict: false, deletedOnDisk: false });
    this.updateDirty(current);
    return true;
  }

  /**
   * The save changed the same lines as a change on disk it had not seen: nothing was written, and
   * the tab asks Keep mine / Load theirs (Keep mine, then Save, writes this text over theirs).
   */
  private saveConflicted(doc: OpenDocument, theirs: string | undefined): boolean {
    const path = this.pathOf(doc);
    if (path === undefined || theirs === undefined) return false; // Deleted meanwhile: reported on its own.
    doc.theirs = theirs;
    doc.conflicts++;
    this.patch(path, { conflict: true, deletedOnDisk: false });
    this.updateDirty(path);
    return false;
  }

  async saveAll(): Promise<boolean> {
    let ok = true;
    for (const tab of this.tabs.filter((t) => t.dirty)) ok = (await this.save(tab.path)) && ok;
    return ok;
  }

  /** Closes a tab; unsaved changes are saved or discarded as the user chooses. False = kept open. */
  async close(path: string, options: { force?: boolean } = {}): Promise<boolean> {
    const tab = this.tab(path);
    if (!tab) return true;
    if (!options.force && tab.dirty) {
      const choice = await this.options.askUnsaved(path);
      if (choice === "cancel") return false;
      if (choice === "save" && !(await this.save(path))) return false;
    }
    this.removeTab(path);
    return true;
  }

  /** Closes every tab of a file or folder without asking (it was deleted on purpose). */
  closeUnder(path: string): void {
    for (const tab of this.tabs.filter((t) => isInside(t.path, path))) this.removeTab(tab.path);
  }

  /** Renames or moves a file or folder; its open tabs follow with their unsaved text. */
  async move(from: string, to: string): Promise<void> {
    const entry = { from, to };
    this.moving.push(entry);
    try {
      await this.options.files.rename(from, to, { source: "user" });
      this.retarget(from, to);
      // The rename's change batch arrives on a later tick; let it pass while the move is known.
      await new Promise((resolve) => setTimeout(resolve, 0));
      await this.idle();
    } finally {
      this.moving.splice(this.moving.indexOf(entry), 1);
    }
  }

  /** Keeps the unsaved text; the next save overwrites the file on disk. */
  keepMine(path: string): void {
    const doc = this.docs.get(path);
    if (!doc || doc.theirs === undefined) return;
    // Chosen over theirs: the next save writes this text as it is (merging against theirs changes nothing).
    doc.saved = doc.theirs;
    doc.base = doc.theirs;
    doc.theirs = undefined;
    this.patch(path, { conflict: false });
    this.updateDirty(path);
  }

  /** Drops the unsaved text and shows the file as it is on disk. */
  loadTheirs(path: string): void {
    const doc = this.docs.get(path);
    if (!doc || doc.theirs === undefined) return;
    const theirs = doc.theirs;
    doc.saved = theirs;
    doc.base = theirs;
    doc.theirs = undefined;
    doc.buffer.setValue(theirs);
    this.patch(path, { conflict: false });
    this.updateDirty(path);
  }

  /** Resolves when every change notification received so far has been handled. */
  idle(): Promise<void> {
    return this.queue;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposables.dispose();
    this.focusRequests.dispose();
    this.revealRequests.dispose();
    this.viewStateChanges.dispose();
    for (const doc of this.docs.values()) {
      doc.listener.dispose();
      doc.buffer.dispose();
    }
    this.docs.clear();
    this.store.setState({ tabs: [], active: undefined });
  }

  private async load(path: string): Promise<void> {
    try {
      const bytes = await this.options.files.readFile(path);
      const text = looksBinary(bytes) ? undefined : tryDecodeText(bytes);
      if (text === undefined) {
        this.patch(path, { status: "binary", size: bytes.length });
        return;
      }
      this.factory ??= await this.options.loadBuffers();
      if (this.disposed || !this.tab(path)) return;
      this.attach(path, this.factory.create(path, text), text);
      this.patch(path, { status: "text", size: bytes.length });
    } catch (error) {
      this.patch(path, { status: "error", error: `Could not open ${path}: ${errorMessage(error)}` });
    }
  }

  private attach(path: string, buffer: TextBuffer, saved: string): OpenDocument {
    const doc: OpenDocument = { buffer, saved, base: saved, conflicts: 0, listener: toDisposable(() => {}) };
    doc.listener = buffer.onDidChangeContent(() => {
      const current = this.pathOf(doc);
      if (current !== undefined) this.updateDirty(current);
    });
    this.docs.set(path, doc);
    return doc;
  }

  private pathOf(doc: OpenDocument): string | undefined {
    for (const [path, value] of this.docs) if (value === doc) return path;
    return undefined;
  }

  private updateDirty(path: string): void {
    const doc = this.docs.get(path);
    if (!doc) return;
    const dirty = doc.buffer.getValue() !== doc.saved;
    if (this.tab(path)?.dirty !== dirty) this.patch(path, { dirty });
  }

  private removeTab(path: string): void {
    const doc = this.docs.get(path);
    if (doc) {
      doc.listener.dispose();
      doc.buffer.dispose();
      this.docs.delete(path);
    }
    this.viewStates.delete(path);
    const tabs = this.tabs;
    const index = tabs.findIndex((t) => t.path === path);
    if (index < 0) return;
    const rest = tabs.filter((t) => t.path !== path);
    let active = this.active;
    if (active === path) active = (rest[index] ?? rest[index - 1])?.path;
    this.store.setState({ tabs: rest, active });
  }

  /** Re-keys the tabs of `from` (a file or a folder) to `to`, keeping unsaved text. */
  private retarget(from: string, to: string): void {
    const renamed = new Map<string, string>();
    for (const tab of this.tabs) {
      if (isInside(tab.path, from)) renamed.set(tab.path, to + tab.path.slice(from.length));
    }
    if (renamed.size === 0) return;
    for (const [oldPath, newPath] of renamed) {
      const doc = this.docs.get(oldPath);
      if (!doc || !this.factory) continue;
      const text = doc.buffer.getValue();
      doc.listener.dispose();
      doc.buffer.dispose();
      this.docs.delete(oldPath);
      const moved = this.attach(newPath, this.factory.create(newPath, text), doc.saved);
      moved.base = doc.base;
      moved.theirs = doc.theirs;
    }
    for (const [oldPath, newPath] of renamed) {
      const state = this.viewStates.get(oldPath);
      this.viewStates.delete(oldPath);
      if (state !== undefined) this.viewStates.set(newPath, state);
    }
    const active = this.active;
    this.store.setState({
      tabs: this.tabs.map((t) => (renamed.has(t.path) ? { ...t, path: renamed.get(t.path)!, deletedOnDisk: false } : t)),
      active: active !== undefined ? (renamed.get(active) ?? active) : undefined,
    });
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((error) => this.options.onError(error, "Could not update the editor"));
  }

  private async applyChanges(changes: FileChange[]): Promise<void> {
    if (this.disposed) return;
    for (const change of changes) {
      if (change.type === "deleted" || change.kind !== "file" || change.source === "editor") continue;
      if (this.tab(change.path)) await this.reload(change.path);
    }
    const deleted = changes.filter((c) => c.type === "deleted");
    if (deleted.length === 0) return;
    const created = changes.filter((c) => c.type === "created");
    const gone = this.tabs.filter(
      (t) => deleted.some((d) => isInside(t.path, d.path)) && !this.moving.some((m) => isInside(t.path, m.from)),
    );
    for (const tab of gone) {
      // A delete followed by a create in the same batch (atomic save) is a change, not a delete.
      if (await this.options.files.exists(tab.path)) {
        await this.reload(tab.path);
        continue;
      }
      const target = this.renameTarget(tab.path, created) ?? (await this.findMoveTarget(tab.path, deleted, created));
      if (target !== undefined) this.retarget(tab.path, target);
      else if (tab.dirty) this.markDeleted(tab.path);
      else this.removeTab(tab.path);
    }
  }

  /** A dirty tab's file is gone: a pending "changed on disk" choice is moot (their version no longer exists). */
  private markDeleted(path: string): void {
    const doc = this.docs.get(path);
    if (doc) doc.theirs = undefined;
    this.patch(path, { deletedOnDisk: true, conflict: false });
  }

  /** Reads a file that changed on disk into its tab. */
  private async reload(path: string): Promise<void> {
    const tab = this.tab(path);
    if (!tab || tab.status === "loading") return;
    let bytes: Uint8Array;
    try {
      bytes = await this.options.files.readFile(path);
    } catch {
      return; // Deleted in the meantime: the deletion is handled with its own notification.
    }
    const doc = this.docs.get(path);
    const text = looksBinary(bytes) ? undefined : tryDecodeText(bytes);
    if (!doc || text === undefined) {
      // A binary file (or one that became binary) is shown by size; reopen to pick up a new kind.
      if (doc && text === undefined) {
        this.removeTab(path);
        await this.open(path, { activate: false });
      } else this.patch(path, { size: bytes.length });
      return;
    }
    if (text === doc.saved) return;
    if (text === doc.buffer.getValue() || this.livePaths.has(path)) {
      doc.saved = text;
      doc.base = text;
      doc.theirs = undefined;
      this.patch(path, { conflict: false, deletedOnDisk: false });
    } else if (!this.tab(path)?.dirty) {
      doc.saved = text;
      doc.base = text;
      doc.buffer.setValue(text);
      this.patch(path, { deletedOnDisk: false });
    } else {
      doc.theirs = text;
      doc.conflicts++;
      this.patch(path, { conflict: true, deletedOnDisk: false });
    }
    this.updateDirty(path);
  }

  /** Where a rename reported by the file service (`renamedFrom`) took an open file. */
  private renameTarget(path: string, created: FileChange[]): string | undefined {
    for (const change of created) {
      const from = change.renamedFrom;
      if (from !== undefined && isInside(path, from)) {
        const target = change.path + path.slice(from.length);
        if (target === change.path || created.some((c) => c.path === target)) return target;
      }
    }
    return undefined;
  }

  /** Where did a deleted open file go, when nobody said? A file created in the same batch with its saved content. */
  private async findMoveTarget(path: string, deleted: FileChange[], created: FileChange[]): Promise<string | undefined> {
    const doc = this.docs.get(path);
    if (!doc) return undefined;
    const candidates: string[] = [];
    for (const d of deleted) {
      if (d.path === path || !isInside(path, d.path)) continue;
      for (const c of created) if (c.kind === "dir") candidates.push(c.path + path.slice(d.path.length));
    }
    const files = created.filter((c) => c.kind === "file").map((c) => c.path);
    candidates.push(...files.filter((p) => basename(p) === basename(path)), ...files);
    const seen = new Set<string>();
    for (const candidate of candidates) {
      if (seen.has(candidate) || this.tab(candidate)) continue;
      seen.add(candidate);
      if (seen.size > MOVE_CANDIDATE_LIMIT) break;
      try {
        if ((await this.options.files.readText(candidate)) === doc.saved) return candidate;
      } catch {
        // Not there (or not text): not where the file went.
      }
    }
    return undefined;
  }

  private patch(path: string, patch: Partial<EditorTab>): void {
    if (!this.tab(path)) return;
    this.setTabs(this.tabs.map((t) => (t.path === path ? { ...t, ...patch } : t)));
  }

  private setTabs(tabs: EditorTab[]): void {
    this.store.setState({ tabs });
  }
}
