// The one workspace file service: an in-memory tree of the workspace that every writer (editor,
// terminal, agent, import) goes through, notifying listeners and writing through to IndexedDB.
import {
  Emitter,
  PathError,
  dirname,
  encodeText,
  errorMessage,
  mergeText,
  normalizePath,
  validatePath,
  type Disposable,
} from "../base";
import { STORAGE_MERGE_LABELS, fileRecord, type CheckedResult, type CheckedWrite, type FileRecord, type Storage } from "../storage";
import { WorkspaceFsError, alreadyExists, conflictOnWrite, isAFolder, notAFolder, notFound, workspaceClosed, workspaceReadOnly } from "./fs-errors";
import { StoredState, conflictMessage, persistFailure, restoreStored, toBase, type FileConflict } from "./workspace-persistence";
import { WorkspaceTree, toStat, type FileNode, type TreeNode } from "./workspace-tree";
import { sameContent, toStoredContent } from "./file-content";
import { adoptStoredRecords, readStoredRecords, type AdoptionTarget } from "./other-tab-adoption";
import type { ChangeSource, FileChange, FileStat, WorkspaceFs, WriteOptions } from "./types";

/** How long changes gather before one IndexedDB transaction writes them (bounded, never reset). */
export const PERSIST_DELAY_MS = 25;

/** Who a change is attributed to when the caller does not say. */
const DEFAULT_SOURCE: ChangeSource = "user";

export type { FileConflict };

export interface RenameOptions extends WriteOptions {
  /** Replace an existing target file (shell `mv` semantics). Folders are never overwritten. */
  overwrite?: boolean;
}

export interface WorkspaceFilesOptions {
  /** Delay before pending changes are written (default PERSIST_DELAY_MS). */
  persistDelayMs?: number;
  /** Reports stored records that failed the restore step and were skipped. */
  onInvalidRecord?: (error: unknown) => void;
  /** Refuse every change (shared sessions before "Continue"); read from the workspace record when omitted. */
  readOnly?: boolean;
}

export class WorkspaceFiles implements WorkspaceFs, Disposable {
  private readonly tree = new WorkspaceTree();
  private readonly changeEmitter = new Emitter<FileChange[]>();
  private readonly failureEmitter = new Emitter<Error>();
  private readonly conflictEmitter = new Emitter<FileConflict>();
  private pendingChanges: FileChange[] = [];
  /** Paths whose stored record no longer matches memory. */
  private dirty = new Set<string>();
  /** What storage holds for every path not yet stored, and the outcome of each batch. */
  private readonly stored = new StoredState<TreeNode>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inflight: Promise<void> | undefined;
  private disposed = false;
  private readonly persistDelayMs: number;
  /** Other tabs' stored changes, adopted one batch at a time, in the order they were announced. */
  private adopting: Promise<void> = Promise.resolve();
  private readonly otherTabs: Disposable | undefined;

  private constructor(
    private readonly storage: Storage,
    readonly workspaceId: string,
    options: WorkspaceFilesOptions,
  ) {
    this.persistDelayMs = options.persistDelayMs ?? PERSIST_DELAY_MS;
    this.readOnly = options.readOnly ?? false;
    this.otherTabs = storage.changes?.onDidChange((change) => {
      if (change.kind === "files" && change.workspaceId === workspaceId) this.adoptFromOtherTab(change.paths);
    });
  }

  /** True for a shared session's workspace until the user continues it: every change is refused. */
  readonly readOnly: boolean;

  /** Loads a workspace's stored files into memory. Stored folders missing a record get one. */
  static async open(storage: Storage, workspaceId: string, options: WorkspaceFilesOptions = {}): Promise<WorkspaceFiles> {
    const readOnly = options.readOnly ?? (await storage.workspaces.get(workspaceId))?.readOnly === true;
    const files = new WorkspaceFiles(storage, workspaceId, { ...options, readOnly });
    const records = await storage.files.list(workspaceId);
    files.load(records, options.onInvalidRecord);
    if (files.dirty.size > 0) files.schedulePersist();
    return files;
  }

  private load(records: FileRecord[], onInvalid?: (error: unknown) => void): void {
    // Parents before children, so a folder record keeps its own mtime.
    records.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const record of records) {
      let path: string;
      try {
        path = validatePath(record.path);
      } catch (error) {
        onInvalid?.(error);
        continue;
      }
      if (this.tree.has(path)) continue;
      if (!this.ensureParentsQuietly(dirname(path))) {
        onInvalid?.(new PathError(`Skipped "${path}": a parent of it is a file.`));
        continue;
      }
      const node: TreeNode =
        record.kind === "dir"
          ? { kind: "dir", mtime: record.mtime }
          : { kind: "file", data: record.data ?? "", mtime: record.mtime };
      this.attach(path, node, false);
    }
  }

  /**
   * Creates missing parent folders during load (marked for persisting) or, `fromOtherTab`, while
   * adopting another tab's change (stored there already: reported, not persisted); false if one is a file.
   */
  private ensureParentsQuietly(dir: string, fromOtherTab = false): boolean {
    if (dir === "") return true;
    const node = this.tree.get(dir);
    if (node) return node.kind === "dir";
    if (!this.ensureParentsQuietly(dirname(dir), fromOtherTab)) return false;
    this.attach(dir, { kind: "dir", mtime: Date.now() }, false);
    if (fromOtherTab) this.record({ type: "created", path: dir, kind: "dir", source: "other-tab" });
    else {
      this.stored.remember(dir, null);
      this.dirty.add(dir);
    }
    return true;
  }

  // ---- other tabs ---------------------------------------------------------------------------

  /**
   * Another tab stored changes to this workspace: take what is stored now (see other-tab-adoption.ts;
   * storage never let one tab's write replace another's unseen, see persistOnce), reported with
   * source "other-tab" so an editor with unsaved edits treats them as a change on disk.
   */
  private adoptFromOtherTab(paths: string[] | undefined): void {
    this.adopting = this.adopting
      .then(() => this.adopt(paths))
      .catch((error: unknown) => this.failureEmitter.fire(new Error(`Changes from another tab could not be read: ${errorMessage(error)}`)));
  }

  private async adopt(paths: string[] | undefined): Promise<void> {
    if (this.disposed) return;
    const records = await readStoredRecords(this.storage, this.workspaceId, paths, () => this.tree.paths());
    if (this.disposed) return;
    adoptStoredRecords(records, this.adoptionTarget());
  }

  private adoptionTarget(): AdoptionTarget {
    return {
      node: (path) => this.tree.get(path),
      hasChildren: (path) => this.tree.hasChildren(path),
      // Changed here and not stored yet (waiting or in flight): ours follows, and storage merges it
      // with theirs (compare-and-set in persistOnce).
      isLocal: (path) => this.stored.has(path),
      ensureParents: (dir) => this.ensureParentsQuietly(dir, true),
      detach: (path) => this.detach(path, false),
      attach: (path, node) => this.attach(path, node, false),
      replace: (path, node) => void this.tree.replace(path, node),
      report: (type, path, kind) => this.record({ type, path, kind, source: "other-tab" }),
    };
  }

  // ---- events -------------------------------------------------------------------------------

  onDidChange(listener: (changes: FileChange[]) => void): Disposable {
    return this.changeEmitter.event(listener);
  }

  onDidFailToPersist(listener: (error: Error) => void): Disposable {
    return this.failureEmitter.event(listener);
  }

  /**
   * A change stored here met another tab's change to the same file that it could not simply merge
   * with (same lines, a deletion, or bytes): what happened, for the user to look at.
   */
  onDidConflict(listener: (conflict: FileConflict) => void): Disposable {
    return this.conflictEmitter.event(listener);
  }

  // ---- synchronous helpers (for the UI's tree, the shell adapter and the agent's search) ----

  /** Every path in the workspace (files and folders), unsorted. */
  snapshotPaths(): string[] {
    return Array.from(this.tree.paths());
  }

  /** Every file path with its content as stored (text as string, binary as bytes; do not mutate). */
  *entries(): IterableIterator<[path: string, data: string | Uint8Array]> {
    for (const [path, node] of this.tree.nodeEntries()) if (node.kind === "file") yield [path, node.data];
  }

  /** Stat without awaiting; undefined when missing. Accepts "" for the root folder. */
  statSync(path: string): FileStat | undefined {
    const p = this.checkPath(path, true);
    if (p === "") return { path: "", kind: "dir", size: 0, mtime: 0 };
    const node = this.tree.get(p);
    return node ? toStat(p, node) : undefined;
  }

  /** The stored content (string for text, bytes for binary; the bytes are a copy). */
  readSync(path: string): string | Uint8Array {
    const p = this.checkPath(path);
    const node = this.tree.get(p);
    if (!node) throw notFound(p);
    if (node.kind === "dir") throw isAFolder(p);
    return typeof node.data === "string" ? node.data : node.data.slice();
  }

  /** Direct children of a folder ("" = root), folders first then by name. */
  listSync(dir = ""): FileStat[] {
    const p = this.checkPath(dir, true);
    if (p !== "") {
      const node = this.tree.get(p);
      if (!node) throw notFound(p);
      if (node.kind !== "dir") throw notAFolder(p);
    }
    return this.tree.list(p);
  }

  // ---- WorkspaceFs --------------------------------------------------------------------------

  async stat(path: string): Promise<FileStat | undefined> {
    return this.statSync(path);
  }

  async exists(path: string): Promise<boolean> {
    return this.statSync(path) !== undefined;
  }

  async readFile(path: string): Promise<Uint8Array> {
    const data = this.readSync(path);
    return typeof data === "string" ? encodeText(data) : data;
  }

  async readText(path: string): Promise<string> {
    const data = this.readSync(path);
    return typeof data === "string" ? data : new TextDecoder().decode(data);
  }

  /** Resolves once the file is stored; rejects (ENOSPC when storage is full) with the write undone. */
  async writeFile(path: string, data: string | Uint8Array, options?: WriteOptions): Promise<void> {
    this.writeSync(path, data, options);
    await this.stores(options);
  }

  /** writeFile without awaiting: creates parent folders; an identical content is not a change. */
  writeSync(path: string, data: string | Uint8Array, options?: WriteOptions): void {
    const p = this.checkWritable(path);
    const source = options?.source ?? DEFAULT_SOURCE;
    const existing = this.tree.get(p);
    if (existing?.kind === "dir") throw isAFolder(p);
    const stored = toStoredContent(this.rebase(p, existing, data, options?.base));
    if (existing && sameContent(existing.data, stored)) return;
    this.mkdirsFor(dirname(p), source);
    const node: TreeNode = { kind: "file", data: stored, mtime: Date.now() };
    if (existing) {
      this.remember(p);
      this.tree.replace(p, node);
      this.markDirty(p);
    } else this.attach(p, node);
    this.record({ type: existing ? "changed" : "created", path: p, kind: "file", source });
  }

  /**
   * A write made from `base` while the file now holds something else: both changes, merged line by
   * line (the file changed underneath an editor); refused when they touch the same lines.
   */
  private rebase(path: string, existing: FileNode | undefined, data: string | Uint8Array, base: string | undefined): string | Uint8Array {
    if (base === undefined || !existing || sameContent(existing.data, base)) return data;
    const current = existing.data;
    if (typeof current !== "string" || typeof data !== "string") throw conflictOnWrite(path);
    const merged = mergeText(base, data, current);
    if (merged.conflicts > 0) throw conflictOnWrite(path);
    return merged.text;
  }

  async mkdir(path: string, options?: WriteOptions): Promise<void> {
    this.mkdirSync(path, options);
    await this.stores(options);
  }

  /** Creates a folder and its parents; an existing folder is fine, an existing file is not. */
  mkdirSync(path: string, options?: WriteOptions): void {
    const p = this.checkWritable(path);
    const existing = this.tree.get(p);
    if (existing?.kind === "file") throw alreadyExists(p);
    this.mkdirsFor(p, options?.source ?? DEFAULT_SOURCE);
  }

  async remove(path: string, options?: WriteOptions): Promise<void> {
    this.removeSync(path, options);
    await this.stores(options);
  }

  /** Removes a file, or a folder with everything under it (deepest first in the change list). */
  removeSync(path: string, options?: WriteOptions): void {
    const p = this.checkWritable(path);
    const node = this.tree.get(p);
    if (!node) throw notFound(p);
    const source = options?.source ?? DEFAULT_SOURCE;
    const doomed = node.kind === "dir" ? this.tree.descendants(p) : [];
    doomed.reverse();
    doomed.push(p);
    for (const victim of doomed) {
      const kind = this.tree.get(victim)!.kind;
      this.detach(victim);
      this.record({ type: "deleted", path: victim, kind, source });
    }
  }

  async rename(from: string, to: string, options?: RenameOptions): Promise<void> {
    this.renameSync(from, to, options);
    await this.stores(options);
  }

  /**
   * Renames or moves a file or folder (with everything in it). Refuses an existing target unless
   * `overwrite` is set and both are files. New paths' "created" changes carry `renamedFrom`.
   */
  renameSync(from: string, to: string, options?: RenameOptions): void {
    const src = this.checkWritable(from);
    const dst = this.checkWritable(to);
    const node = this.tree.get(src);
    if (!node) throw notFound(src);
    if (src === dst) return;
    if (dst.startsWith(src + "/")) {
      throw new WorkspaceFsError("EINVAL", `Cannot move "${src}" into itself ("${dst}").`, dst);
    }
    const source = options?.source ?? DEFAULT_SOURCE;
    const target = this.tree.get(dst);
    if (target) {
      if (!options?.overwrite || target.kind === "dir" || node.kind === "dir") throw alreadyExists(dst);
      this.removeSync(dst, { source });
    }
    this.mkdirsFor(dirname(dst), source);
    const moved = node.kind === "dir" ? [src, ...this.tree.descendants(src)] : [src];
    const nodes = moved.map((path) => this.tree.get(path)!);
    // Detach deepest first so folders are empty when they go; attach shallowest first.
    for (let i = moved.length - 1; i >= 0; i--) {
      this.detach(moved[i]!);
      this.record({ type: "deleted", path: moved[i]!, kind: nodes[i]!.kind, source });
    }
    for (let i = 0; i < moved.length; i++) {
      const newPath = dst + moved[i]!.slice(src.length);
      this.attach(newPath, nodes[i]!);
      this.record({ type: "created", path: newPath, kind: nodes[i]!.kind, source, renamedFrom: moved[i]! });
    }
  }

  /** Sets a file's or folder's modification time (shell `touch`); not reported as a change. */
  setMtime(path: string, mtime: number): void {
    const p = this.checkWritable(path);
    const node = this.tree.get(p);
    if (!node) throw notFound(p);
    this.remember(p);
    node.mtime = mtime;
    this.markDirty(p);
  }

  async list(dir?: string): Promise<FileStat[]> {
    return this.listSync(dir);
  }

  async listAll(): Promise<FileStat[]> {
    const out: FileStat[] = [];
    for (const [path, node] of this.tree.nodeEntries()) out.push(toStat(path, node));
    return out;
  }

  // ---- persistence --------------------------------------------------------------------------

  /**
   * Resolves when every change so far is stored. Rejects when storing failed: those changes were
   * undone in memory (memory matches storage again) and the error says why (ENOSPC when full).
   */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const outcome = this.stored.outcome(this.dirty.size > 0);
    if (this.dirty.size > 0) this.persistOnce().catch(() => undefined);
    await outcome;
  }

  /** Waits for storage after a change unless the caller batches and flushes itself. */
  private async stores(options: WriteOptions | undefined): Promise<void> {
    if (options?.batched) return;
    await this.flush();
  }

  /** Number of paths changed in memory but not yet stored (shown as "saving…" by the UI). */
  get pendingWrites(): number {
    return this.stored.size;
  }

  /** Paths changed in memory but not yet stored (the file tree marks them). */
  pendingPaths(): string[] {
    return this.stored.paths();
  }

  /** Flushes what it can in the background and stops timers; later writes are refused. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.otherTabs?.dispose();
    void this.flush()
      .catch(() => undefined)
      .finally(() => {
        this.failureEmitter.dispose();
        this.conflictEmitter.dispose();
      });
    this.changeEmitter.dispose();
  }

  /** dispose() that waits for the last changes to be stored (rejects if they could not be). */
  async close(): Promise<void> {
    this.dispose();
    await this.flush();
  }

  private schedulePersist(): void {
    // The timer is not reset by later changes: each change is stored within one delay.
    if (this.timer !== undefined || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.persistOnce().catch(() => undefined);
    }, this.persistDelayMs);
  }

  /**
   * Writes every dirty path in one transaction. On failure every change not yet stored (this
   * batch's and any made since) is undone, so memory says what storage holds, like a full disk.
   */
  private async persistOnce(): Promise<void> {
    while (this.inflight) await this.inflight.catch(() => undefined);
    if (this.dirty.size === 0) return;
    const paths = this.dirty;
    this.dirty = new Set();
    const batch = this.stored.startBatch();
    const writes: CheckedWrite[] = [];
    const written = new Map<string, TreeNode | null>();
    for (const path of paths) {
      const node = this.tree.get(path);
      written.set(path, node ? { ...node } : null);
      // Each write carries what this tab believes is stored, so storage can tell whether another
      // tab wrote the path since (its announcement may still be on the way): compare-and-set.
      writes.push({ path, record: node ? this.toRecord(path, node) : null, base: toBase(this.stored.baseOf(path)) });
    }
    const attempt = this.storage.files.applyChecked(this.workspaceId, writes);
    this.inflight = attempt.then(
      () => undefined,
      () => undefined,
    );
    try {
      const results = await attempt;
      const others: CheckedResult[] = [];
      for (const result of results) {
        if (result.outcome === "written") this.stored.stored(result.path, written.get(result.path) ?? null, this.dirty.has(result.path));
        else others.push(result);
      }
      this.takeMerged(others, written);
      batch.resolve();
    } catch (error) {
      const failure = persistFailure(error);
      this.undoUnstored();
      batch.reject(failure);
      this.stored.rejectNext(failure);
      this.failureEmitter.fire(failure);
      throw failure;
    } finally {
      this.inflight = undefined;
    }
  }

  /**
   * Storage kept another tab's change along with ours (merged, with conflict markers, or a
   * deletion not done): memory takes what is stored, reported as a change from the other tab. A
   * path changed here again meanwhile keeps that newer change too, merged onto what is stored.
   */
  private takeMerged(results: CheckedResult[], written: Map<string, TreeNode | null>): void {
    for (const result of results) {
      const { path, stored } = result;
      let outcome = result.outcome;
      const node: TreeNode | null = !stored
        ? null
        : stored.kind === "dir"
          ? { kind: "dir", mtime: stored.mtime }
          : { kind: "file", data: stored.data ?? "", mtime: stored.mtime };
      const changedSince = this.dirty.has(path);
      // What is stored is the base of the next write from now on.
      this.stored.stored(path, node, changedSince);
      if (!changedSince) adoptStoredRecords([[path, stored]], this.adoptionTarget());
      else {
        // Changed again here since the batch: that change, made from what we wrote, goes onto what is stored.
        const current = this.tree.get(path);
        const mine = written.get(path);
        const [base, ours, theirs] = [mine?.kind === "file" && mine.data, current?.kind === "file" && current.data, node?.kind === "file" && node.data];
        if (typeof base === "string" && typeof ours === "string" && typeof theirs === "string") {
          const merged = mergeText(base, ours, theirs, STORAGE_MERGE_LABELS);
          this.tree.replace(path, { kind: "file", data: merged.text, mtime: current!.mtime });
          this.record({ type: "changed", path, kind: "file", source: "other-tab" });
          if (merged.conflicts > 0) outcome = "conflict";
        }
      }
      if (outcome !== "merged" && outcome !== "written") this.conflictEmitter.fire({ path, outcome, message: conflictMessage(path, outcome) });
    }
  }

  /** Puts every path not yet stored back to what storage holds, reporting each as a change. */
  private undoUnstored(): void {
    const targets = this.stored.takeAll();
    this.dirty.clear();
    restoreStored(targets, this.tree, (type, path, kind) => this.record({ type, path, kind, source: "system" }));
  }

  private toRecord(path: string, node: TreeNode): FileRecord {
    const record: FileRecord = fileRecord({ workspaceId: this.workspaceId, path, kind: node.kind, mtime: node.mtime });
    if (node.kind === "file") record.data = node.data;
    return record;
  }

  // ---- tree internals -----------------------------------------------------------------------

  private checkPath(path: string, allowRoot = false): string {
    if (allowRoot) {
      const p = normalizePath(path);
      if (p === "") return p;
    }
    return validatePath(path);
  }

  private checkWritable(path: string): string {
    const p = this.checkPath(path);
    if (this.disposed) throw workspaceClosed(p);
    if (this.readOnly) throw workspaceReadOnly(p);
    return p;
  }

  /** Creates `dir` and missing parents, reporting each new folder. */
  private mkdirsFor(dir: string, source: ChangeSource): void {
    if (dir === "") return;
    const node = this.tree.get(dir);
    if (node) {
      if (node.kind !== "dir") throw notAFolder(dir);
      return;
    }
    this.mkdirsFor(dirname(dir), source);
    this.attach(dir, { kind: "dir", mtime: Date.now() });
    this.record({ type: "created", path: dir, kind: "dir", source });
  }

  /** Adds a path to the tree; `persist`: a change of this tab's, to be stored. */
  private attach(path: string, node: TreeNode, persist = true): void {
    if (persist) this.remember(path);
    this.tree.attach(path, node);
    if (persist) this.markDirty(path);
  }

  private detach(path: string, persist = true): void {
    if (persist) this.remember(path);
    this.tree.detach(path);
    if (persist) this.markDirty(path);
  }

  /** Notes what storage holds for a path before its first unstored change. */
  private remember(path: string): void {
    const node = this.tree.get(path);
    this.stored.remember(path, node ? { ...node } : null);
  }

  private markDirty(path: string): void {
    this.dirty.add(path);
    this.schedulePersist();
  }

  private record(change: FileChange): void {
    // One batch per task: a command or an import that awaits between writes still reports once.
    if (this.pendingChanges.length === 0) setTimeout(() => this.deliverChanges(), 0);
    this.pendingChanges.push(change);
  }

  private deliverChanges(): void {
    const changes = this.pendingChanges;
    this.pendingChanges = [];
    if (changes.length > 0) this.changeEmitter.fire(changes);
  }
}
