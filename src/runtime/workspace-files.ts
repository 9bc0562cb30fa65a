// The one workspace file service: an in-memory tree of the workspace that every writer (editor,
// terminal, agent, import) goes through, notifying listeners and writing through to IndexedDB.
import {
  Emitter,
  PathError,
  basename,
  dirname,
  encodeText,
  errorMessage,
  mergeText,
  normalizePath,
  validatePath,
  type Disposable,
} from "../base";
import { STORAGE_MERGE_LABELS, fileRecord, type CheckedResult, type CheckedWrite, type FileRecord, type Storage, type StoredBase } from "../storage";
import { WorkspaceFsError, alreadyExists, conflictOnWrite, isAFolder, notAFolder, notFound, workspaceClosed, workspaceReadOnly } from "./fs-errors";
import { StoredState, persistFailure } from "./workspace-persistence";
import { sameContent, toStoredContent, utf8Length } from "./file-content";
import { adoptStoredRecords, readStoredRecords, type AdoptionTarget } from "./other-tab-adoption";
import type { ChangeSource, FileChange, FileStat, WorkspaceFs, WriteOptions } from "./types";

/** How long changes gather before one IndexedDB transaction writes them (bounded, never reset). */
export const PERSIST_DELAY_MS = 25;

/** Who a change is attributed to when the caller does not say. */
const DEFAULT_SOURCE: ChangeSource = "user";

interface FileNode {
  kind: "file";
  /** Text as a string; bytes that are not valid UTF-8 (or hold a NUL byte) as Uint8Array. */
  data: string | Uint8Array;
  mtime: number;
  /** Byte size, computed on first use (a large text's UTF-8 length is not free). */
  size?: number;
}

interface DirNode {
  kind: "dir";
  mtime: number;
}

type Node = FileNode | DirNode;

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

/** Another tab stored a change to a file while this tab's change to it was on the way (see onDidConflict). */
export interface FileConflict {
  path: string;
  /** "conflict": both are in the file between markers; "kept": a deletion was not done; "replaced": ours replaced theirs. */
  outcome: "conflict" | "kept" | "replaced";
  message: string;
}

export class WorkspaceFiles implements WorkspaceFs, Disposable {
  /** Every file and folder except the root (""), keyed by workspace path. */
  private readonly nodes = new Map<string, Node>();
  /** Folder path -> names of its direct children ("" is the root). */
  private readonly children = new Map<string, Set<string>>([["", new Set()]]);
  private readonly changeEmitter = new Emitter<FileChange[]>();
  private readonly failureEmitter = new Emitter<Error>();
  private readonly conflictEmitter = new Emitter<FileConflict>();
  private pendingChanges: FileChange[] = [];
  /** Paths whose stored record no longer matches memory. */
  private dirty = new Set<string>();
  /** What storage holds for every path not yet stored, and the outcome of each batch. */
  private readonly stored = new StoredState<Node>();
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
      if (this.nodes.has(path)) continue;
      if (!this.ensureParentsQuietly(dirname(path))) {
        onInvalid?.(new PathError(`Skipped "${path}": a parent of it is a file.`));
        continue;
      }
      const node: Node =
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
    const node = this.nodes.get(dir);
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
    const records = await readStoredRecords(this.storage, this.workspaceId, paths, () => this.nodes.keys());
    if (this.disposed) return;
    adoptStoredRecords(records, this.adoptionTarget());
  }

  private adoptionTarget(): AdoptionTarget {
    return {
      node: (path) => this.nodes.get(path),
      hasChildren: (path) => (this.children.get(path)?.size ?? 0) > 0,
      // Changed here and not stored yet (waiting or in flight): ours follows, and storage merges it
      // with theirs (compare-and-set in persistOnce).
      isLocal: (path) => this.stored.has(path),
      ensureParents: (dir) => this.ensureParentsQuietly(dir, true),
      detach: (path) => this.detach(path, false),
      attach: (path, node) => this.attach(path, node, false),
      replace: (path, node) => void this.nodes.set(path, node),
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
    return Array.from(this.nodes.keys());
  }

  /** Every file path with its content as stored (text as string, binary as bytes; do not mutate). */
  *entries(): IterableIterator<[path: string, data: string | Uint8Array]> {
    for (const [path, node] of this.nodes) if (node.kind === "file") yield [path, node.data];
  }

  /** Stat without awaiting; undefined when missing. Accepts "" for the root folder. */
  statSync(path: string): FileStat | undefined {
    const p = this.checkPath(path, true);
    if (p === "") return { path: "", kind: "dir", size: 0, mtime: 0 };
    const node = this.nodes.get(p);
    return node ? this.toStat(p, node) : undefined;
  }

  /** The stored content (string for text, bytes for binary; the bytes are a copy). */
  readSync(path: string): string | Uint8Array {
    const p = this.checkPath(path);
    const node = this.nodes.get(p);
    if (!node) throw notFound(p);
    if (node.kind === "dir") throw isAFolder(p);
    return typeof node.data === "string" ? node.data : node.data.slice();
  }

  /** Direct children of a folder ("" = root), folders first then by name. */
  listSync(dir = ""): FileStat[] {
    const p = this.checkPath(dir, true);
    if (p !== "") {
      const node = this.nodes.get(p);
      if (!node) throw notFound(p);
      if (node.kind !== "dir") throw notAFolder(p);
    }
    const out: FileStat[] = [];
    for (const name of this.children.get(p) ?? []) {
      const child = p === "" ? name : `${p}/${name}`;
      out.push(this.toStat(child, this.nodes.get(child)!));
    }
    return out.sort(compareStats);
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
    const existing = this.nodes.get(p);
    if (existing?.kind === "dir") throw isAFolder(p);
    const stored = toStoredContent(this.rebase(p, existing, data, options?.base));
    if (existing && sameContent(existing.data, stored)) return;
    this.mkdirsFor(dirname(p), source);
    const node: FileNode = { kind: "file", data: stored, mtime: Date.now() };
    if (existing) {
      this.remember(p);
      this.nodes.set(p, node);
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
    const existing = this.nodes.get(p);
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
    const node = this.nodes.get(p);
    if (!node) throw notFound(p);
    const source = options?.source ?? DEFAULT_SOURCE;
    const doomed = node.kind === "dir" ? this.descendants(p) : [];
    doomed.reverse();
    doomed.push(p);
    for (const victim of doomed) {
      const kind = this.nodes.get(victim)!.kind;
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
    const node = this.nodes.get(src);
    if (!node) throw notFound(src);
    if (src === dst) return;
    if (dst.startsWith(src + "/")) {
      throw new WorkspaceFsError("EINVAL", `Cannot move "${src}" into itself ("${dst}").`, dst);
    }
    const source = options?.source ?? DEFAULT_SOURCE;
    const target = this.nodes.get(dst);
    if (target) {
      if (!options?.overwrite || target.kind === "dir" || node.kind === "dir") throw alreadyExists(dst);
      this.removeSync(dst, { source });
    }
    this.mkdirsFor(dirname(dst), source);
    const moved = node.kind === "dir" ? [src, ...this.descendants(src)] : [src];
    const nodes = moved.map((path) => this.nodes.get(path)!);
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
    const node = this.nodes.get(p);
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
    for (const [path, node] of this.nodes) out.push(this.toStat(path, node));
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
    const written = new Map<string, Node | null>();
    for (const path of paths) {
      const node = this.nodes.get(path);
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
  private takeMerged(results: CheckedResult[], written: Map<string, Node | null>): void {
    for (const result of results) {
      const { path, stored } = result;
      let outcome = result.outcome;
      const node: Node | null = !stored
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
        const current = this.nodes.get(path);
        const mine = written.get(path);
        const [base, ours, theirs] = [mine?.kind === "file" && mine.data, current?.kind === "file" && current.data, node?.kind === "file" && node.data];
        if (typeof base === "string" && typeof ours === "string" && typeof theirs === "string") {
          const merged = mergeText(base, ours, theirs, STORAGE_MERGE_LABELS);
          this.nodes.set(path, { kind: "file", data: merged.text, mtime: current!.mtime });
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
    const paths = [...targets.keys()];
    // Deepest first: remove what storage does not have (or holds as another kind).
    for (const path of [...paths].sort((a, b) => b.length - a.length)) {
      const target = targets.get(path);
      const current = this.nodes.get(path);
      if (!current || (target && target.kind === current.kind)) continue;
      if (current.kind === "dir" && (this.children.get(path)?.size ?? 0) > 0) continue;
      this.detach(path, false);
      this.record({ type: "deleted", path, kind: current.kind, source: "system" });
    }
    // Shallowest first: put back what storage holds.
    for (const path of [...paths].sort((a, b) => a.length - b.length)) {
      const target = targets.get(path);
      if (!target) continue;
      const current = this.nodes.get(path);
      if (current) {
        if (current.kind !== target.kind) continue;
        this.nodes.set(path, target);
        if (target.kind === "file") this.record({ type: "changed", path, kind: "file", source: "system" });
        continue;
      }
      const parent = dirname(path);
      if (parent !== "" && this.nodes.get(parent)?.kind !== "dir") continue;
      this.attach(path, target, false);
      this.record({ type: "created", path, kind: target.kind, source: "system" });
    }
  }

  private toRecord(path: string, node: Node): FileRecord {
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
    const node = this.nodes.get(dir);
    if (node) {
      if (node.kind !== "dir") throw notAFolder(dir);
      return;
    }
    this.mkdirsFor(dirname(dir), source);
    this.attach(dir, { kind: "dir", mtime: Date.now() });
    this.record({ type: "created", path: dir, kind: "dir", source });
  }

  private attach(path: string, node: Node, persist = true): void {
    if (persist) this.remember(path);
    this.nodes.set(path, node);
    this.children.get(dirname(path))!.add(basename(path));
    if (node.kind === "dir" && !this.children.has(path)) this.children.set(path, new Set());
    if (persist) this.markDirty(path);
  }

  private detach(path: string, persist = true): void {
    if (persist) this.remember(path);
    this.nodes.delete(path);
    this.children.get(dirname(path))?.delete(basename(path));
    this.children.delete(path);
    if (persist) this.markDirty(path);
  }

  /** Notes what storage holds for a path before its first unstored change. */
  private remember(path: string): void {
    const node = this.nodes.get(path);
    this.stored.remember(path, node ? { ...node } : null);
  }

  /** Every path under a folder, parents before children. */
  private descendants(dir: string): string[] {
    const out: string[] = [];
    const walk = (folder: string): void => {
      for (const name of this.children.get(folder) ?? []) {
        const path = `${folder}/${name}`;
        out.push(path);
        if (this.nodes.get(path)?.kind === "dir") walk(path);
      }
    };
    walk(dir);
    return out;
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

  private toStat(path: string, node: Node): FileStat {
    if (node.kind === "dir") return { path, kind: "dir", size: 0, mtime: node.mtime };
    node.size ??= typeof node.data === "string" ? utf8Length(node.data) : node.data.byteLength;
    return { path, kind: "file", size: node.size, mtime: node.mtime };
  }
}

function toBase(node: Node | null | undefined): StoredBase | undefined {
  if (node === undefined || node === null) return node;
  return node.kind === "dir" ? { kind: "dir" } : { kind: "file", data: node.data };
}

function conflictMessage(path: string, outcome: FileConflict["outcome"]): string {
  switch (outcome) {
    case "conflict":
      return `${path} was changed in another tab at the same lines as here: both versions are kept in the file, between <<<<<<< and >>>>>>> markers. Edit it to keep what you want.`;
    case "kept":
      return `${path} was not deleted: another tab changed it just before. Delete it again if you still want it gone.`;
    case "replaced":
      return `${path} was changed in another tab and here at once and cannot be merged (not text): this tab's version replaced the other tab's.`;
  }
}

function compareStats(a: FileStat, b: FileStat): number {
  if (a.kind !== b.kind) return a.kind === "dir" ? -1 : 1;
  const an = basename(a.path);
  const bn = basename(b.path);
  return an < bn ? -1 : an > bn ? 1 : 0;
}
