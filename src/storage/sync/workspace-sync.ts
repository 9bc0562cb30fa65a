// Sync (issue 33, docs/architecture.md "Sync"): one workspace's files shared through a Yjs
// document. The file service stays the one way files change: local changes (any source but
// "sync") go into the document, and the document's remote changes are written through the file
// service with source "sync", so editors, the tree and IndexedDB see them like a terminal's write
// and they are not sent back. Loaded only when sync is on (dynamic import).
//
// The data model (text, binary blobs, folders, tombstones) is in sync-model.ts.
import * as Y from "yjs";
import type { Disposable } from "../../base";
import {
  blobRef,
  conflictCopyPath,
  deviceConflictPath,
  entryContent,
  entryKind,
  freePath,
  isAlive,
  laterWrite,
  MAX_BLOB_BYTES,
  sameData,
  sha256Hex,
  SYNC_DOC_VERSION,
  type BlobRef,
  type ConflictOf,
  type Entry,
  type Tombstone,
} from "./sync-model";
import { applyTextToYText } from "./y-text-diff";

export { conflictCopyPath, deviceConflictPath, MAX_BLOB_BYTES } from "./sync-model";

/** A file service change as sync reads it (runtime's FileChange; storage may not import runtime). */
export interface SyncedChange {
  type: "created" | "changed" | "deleted";
  path: string;
  kind: "file" | "dir";
  source: string;
}

/** What sync needs of the file service (the runtime's WorkspaceFiles, given by the caller). */
export interface SyncedFiles {
  readonly workspaceId: string;
  readonly readOnly?: boolean;
  entries(): IterableIterator<[path: string, data: string | Uint8Array]>;
  snapshotPaths(): string[];
  statSync(path: string): { kind: "file" | "dir" } | undefined;
  readSync(path: string): string | Uint8Array;
  listSync(dir: string): unknown[];
  writeSync(path: string, data: string | Uint8Array, options: { source: "sync" }): void;
  mkdirSync(path: string, options: { source: "sync" }): void;
  removeSync(path: string, options: { source: "sync" }): void;
  onDidChange(listener: (changes: SyncedChange[]) => void): Disposable;
}

export interface SyncConflict {
  path: string;
  /** Where the other version was kept. */
  copy: string;
  /**
   * "first-connect": the file differed here and in the document; the document's text won, the
   * local one is the copy. "concurrent": two devices wrote it at once; the later write won.
   */
  reason?: "first-connect" | "concurrent";
}

/** A file that was deleted on one device while another edited it: the edit keeps it. */
export interface SyncRestored {
  path: string;
  /** "here": this device had deleted it; "there": another device deleted it while this one edited it. */
  deleted: "here" | "there";
}

/** A remote change held for the user's confirmation (a file that can loosen permissions). */
export interface HeldChange {
  path: string;
  change: "changed" | "deleted";
}

export interface WorkspaceSyncOptions {
  onError?: (error: unknown) => void;
  /** This device's label in conflict copies (`logo.conflict-<device>.png`). */
  device?: string;
  /** Paths whose remote changes wait for the user (accept or keep mine) instead of being written. */
  guarded?: (path: string) => boolean;
  onConflicts?: (conflicts: SyncConflict[]) => void;
  onRestored?: (restored: SyncRestored[]) => void;
  /** The held changes, each time the list changes. */
  onHeld?: (held: HeldChange[]) => void;
  /** A file that is not synced, and why (a binary file over MAX_BLOB_BYTES). */
  onSkipped?: (path: string, reason: string) => void;
}

const LOCAL = Symbol("webcode-local-change");

interface Touched {
  /** The entry under the path was replaced (two devices created it at once). */
  replaced: boolean;
  /** A tombstone arrived. */
  deletedSet: boolean;
  /** The binary write this one replaced, as it was here. */
  blobOld?: BlobRef;
}

/**
 * Binds a workspace's files to `doc`. Call merge() once the document holds what is known (restored
 * from this device's IndexedDB, or after the provider's first sync); from then on both directions
 * flow (changes made offline stay in the document and reach the server when the provider reconnects).
 */
export class WorkspaceSync implements Disposable {
  readonly tree: Y.Map<Entry>;
  readonly blobs: Y.Map<Uint8Array>;
  readonly device: string;
  private subscriptions: Disposable[] = [];
  private merged = false;
  private counter = 0;
  private readonly heldChanges = new Map<string, HeldChange>();
  /** Binary entries waiting for their blob: hash -> paths. */
  private readonly waiting = new Map<string, Set<string>>();
  private readonly skipped = new Set<string>();
  /** Paths an editor shares live (y-monaco), with the transaction origin of each binding. */
  private readonly live = new Map<string, Set<unknown>>();

  constructor(
    private readonly files: SyncedFiles,
    readonly doc: Y.Doc,
    private readonly options: WorkspaceSyncOptions = {},
  ) {
    this.tree = doc.getMap<Entry>("tree");
    this.blobs = doc.getMap<Uint8Array>("blobs");
    this.device = options.device ?? doc.clientID.toString(36);
  }

  /** Whether the document holds anything (restored from this device's storage, or synced). */
  get hasContent(): boolean {
    return this.tree.size > 0 || this.doc.getMap("files").size > 0;
  }

  /**
   * First bind: a file on one side only is added to the other; a file on both with different
   * content keeps the document's, and the local one is saved beside it as a conflict copy (which
   * then syncs too). Returns the conflicts, for the user to be told.
   */
  merge(): SyncConflict[] {
    if (this.merged) return [];
    this.merged = true;
    const version = this.doc.getMap("meta").get("version");
    if (typeof version === "number" && version > SYNC_DOC_VERSION) {
      throw new Error(`This workspace's sync document was written by a newer webcode (version ${version}); update this page to sync it.`);
    }
    const conflicts: SyncConflict[] = [];
    const writable = !this.files.readOnly;
    if (writable) {
      this.doc.transact(() => {
        this.migrate();
        for (const [path, data] of this.files.entries()) {
          const entry = this.tree.get(path);
          const shared = entry && isAlive(entry) ? entryContent(entry, this.blobs) : undefined;
          if (!entry || !isAlive(entry) || entryKind(entry) === "dir") this.put(path, data);
          else if (shared === undefined || sameData(shared, data) || this.tooLarge(path, data)) continue;
          else if (this.options.guarded?.(path)) this.hold(path, "changed");
          else {
            const copy = freePath(conflictCopyPath(path), (p) => this.tree.has(p) || this.files.statSync(p) !== undefined);
            this.put(copy, data);
            conflicts.push({ path, copy, reason: "first-connect" });
          }
        }
        for (const path of this.files.snapshotPaths()) {
          if (path === "") continue;
          const entry = this.tree.get(path);
          if (this.files.statSync(path)?.kind === "dir" && (!entry || !isAlive(entry) || entryKind(entry) !== "dir")) this.putDir(path);
        }
        this.collectBlobs();
      }, LOCAL);
    }
    for (const conflict of conflicts) this.writeFromDoc(conflict.copy);
    for (const [path, entry] of this.tree) if (isAlive(entry) && !this.heldChanges.has(path)) this.writeFromDoc(path);
    const observer = (events: Array<Y.YEvent<Y.AbstractType<unknown>>>, transaction: Y.Transaction) => {
      if (transaction.origin !== LOCAL && !this.isLiveOrigin(transaction.origin)) this.applyRemote(events);
    };
    this.tree.observeDeep(observer);
    const blobObserver = (event: Y.YMapEvent<Uint8Array>) => {
      for (const hash of event.keysChanged) {
        const paths = this.waiting.get(hash);
        if (!paths || !this.blobs.has(hash)) continue;
        this.waiting.delete(hash);
        for (const path of paths) this.writeFromDoc(path);
      }
    };
    this.blobs.observe(blobObserver);
    this.subscriptions.push({ dispose: () => this.tree.unobserveDeep(observer) }, { dispose: () => this.blobs.unobserve(blobObserver) });
    if (writable) this.subscriptions.push(this.files.onDidChange((changes) => this.applyLocal(changes)));
    this.emitHeld();
    return conflicts;
  }

  /** The remote changes waiting for the user. */
  held(): HeldChange[] {
    return [...this.heldChanges.values()];
  }

  /** Takes the held remote version of `path` (writes or removes the local file). */
  acceptHeld(path: string): void {
    if (!this.heldChanges.delete(path)) return;
    const entry = this.tree.get(path);
    if (entry && isAlive(entry)) this.writeFromDoc(path, true);
    else if (this.files.statSync(path)?.kind === "file") this.apply(() => this.files.removeSync(path, { source: "sync" }));
    this.emitHeld();
  }

  /** Keeps the local version of `path` and sends it, replacing the held one for everyone. */
  keepMineHeld(path: string): void {
    if (!this.heldChanges.delete(path)) return;
    this.doc.transact(() => {
      if (this.files.statSync(path)?.kind === "file") this.put(path, this.files.readSync(path));
      else this.tombstone(path);
    }, LOCAL);
    this.emitHeld();
  }

  private migrate(): void {
    const meta = this.doc.getMap("meta");
    const legacy = this.doc.getMap<unknown>("files");
    if (!meta.get("migrated") && legacy.size > 0) {
      // Version 1 (main before blobs and tombstones): path -> Y.Text. Read once; the old map is left
      // as it is (a version-1 page still connected would read its removal as deletes).
      for (const [path, text] of legacy) {
        if (!(text instanceof Y.Text) || this.tree.has(path)) continue;
        this.tree.set(path, this.newEntry("text", { text: new Y.Text(text.toString()) }));
      }
      meta.set("migrated", true);
    }
    if (meta.get("version") !== SYNC_DOC_VERSION) meta.set("version", SYNC_DOC_VERSION);
  }

  private nextId(): string {
    return `${this.doc.clientID.toString(36)}.${++this.counter}`;
  }

  private newEntry(kind: "text" | "binary" | "dir", fields: Record<string, unknown>, edit = this.nextId()): Entry {
    const entry = new Y.Map<unknown>();
    entry.set("kind", kind);
    for (const [key, value] of Object.entries(fields)) entry.set(key, value);
    entry.set("edit", edit);
    return entry;
  }

  private tooLarge(path: string, data: string | Uint8Array): boolean {
    if (typeof data === "string" || data.length <= MAX_BLOB_BYTES) {
      this.skipped.delete(path);
      return false;
    }
    if (!this.skipped.has(path)) {
      this.skipped.add(path);
      const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
      this.options.onSkipped?.(path, `${path} (${mb(data.length)}) is not synced: binary files over ${mb(MAX_BLOB_BYTES)} are not (the whole document travels in one message to a new device); it stays only here.`);
    }
    return true;
  }

  /** Local content into the document (inside a LOCAL transaction). */
  private put(path: string, data: string | Uint8Array, conflictOf?: ConflictOf): void {
    if (this.tooLarge(path, data)) return;
    const entry = this.tree.get(path);
    const live = entry !== undefined && isAlive(entry);
    if (typeof data === "string") {
      const text = entry?.get("text");
      if (entry && entryKind(entry) === "text" && text instanceof Y.Text) {
        if (live && text.toString() === data) return; // the same (another tab's write of what came in)
        applyTextToYText(text, data);
        this.touch(entry, this.nextId());
      } else if (entry) {
        entry.set("kind", "text");
        entry.delete("blob");
        entry.set("text", new Y.Text(data));
        this.touch(entry, this.nextId());
      } else this.tree.set(path, this.newEntry("text", { text: new Y.Text(data), ...(conflictOf && { conflictOf }) }));
      return;
    }
    const hash = sha256Hex(data);
    if (entry && live && entryKind(entry) === "binary" && blobRef(entry)?.hash === hash && this.blobs.has(hash)) return;
    // Set even when present: a concurrent collection elsewhere cannot remove a blob set after it.
    this.blobs.set(hash, data.slice());
    const previous = entry && live && entryKind(entry) === "binary" ? blobRef(entry) : undefined;
    const ref: BlobRef = { hash, size: data.length, writer: this.device, time: Date.now(), id: this.nextId(), base: previous?.id ?? null };
    if (entry) {
      entry.set("kind", "binary");
      entry.delete("text");
      entry.set("blob", ref);
      this.touch(entry, ref.id);
    } else this.tree.set(path, this.newEntry("binary", { blob: ref, ...(conflictOf && { conflictOf }) }, ref.id));
  }

  private putDir(path: string): void {
    const entry = this.tree.get(path);
    if (!entry) {
      this.tree.set(path, this.newEntry("dir", {}));
      return;
    }
    if (isAlive(entry) && entryKind(entry) === "dir") return;
    entry.set("kind", "dir");
    entry.delete("text");
    entry.delete("blob");
    this.touch(entry, this.nextId());
  }

  private touch(entry: Entry, edit: string): void {
    entry.set("edit", edit);
    if (entry.has("deleted")) entry.delete("deleted");
  }

  private tombstone(path: string): void {
    const entry = this.tree.get(path);
    if (!entry || !isAlive(entry)) return;
    const tombstone: Tombstone = { edit: (entry.get("edit") as string | undefined) ?? null };
    entry.set("deleted", tombstone);
  }

  /** Removes blobs no live entry refers to (after each local change and on first bind). */
  private collectBlobs(): void {
    if (this.blobs.size === 0) return;
    const used = new Set<string>();
    for (const entry of this.tree.values()) {
      const ref = isAlive(entry) && entryKind(entry) === "binary" ? blobRef(entry) : undefined;
      if (ref) used.add(ref.hash);
    }
    for (const hash of [...this.blobs.keys()]) if (!used.has(hash)) this.blobs.delete(hash);
  }

  private applyLocal(changes: SyncedChange[]): void {
    const mine = changes.filter((c) => c.source !== "sync");
    if (mine.length === 0) return;
    let heldChanged = false;
    this.doc.transact(() => {
      for (const change of mine) {
        if (this.heldChanges.delete(change.path)) heldChanged = true; // a local change keeps the local version
        if (change.type === "deleted") {
          this.tombstone(change.path);
          continue;
        }
        // The file as it is now (a later change in the batch may have removed or replaced it).
        const stat = this.files.statSync(change.path);
        // A live editor's keystrokes reached the Y.Text through its binding already: its save is not
        // diffed in again (a diff against a Y.Text that moved on meanwhile would undo the other side's
        // typing); it only marks the entry edited, so a concurrent delete elsewhere keeps the file.
        const entry = this.tree.get(change.path);
        if (stat?.kind === "file" && change.source === "editor" && this.live.has(change.path) && entry && entryKind(entry) === "text") this.touch(entry, this.nextId());
        else if (stat?.kind === "dir") this.putDir(change.path);
        else if (stat?.kind === "file") this.put(change.path, this.files.readSync(change.path));
      }
      this.collectBlobs();
    }, LOCAL);
    if (heldChanged) this.emitHeld();
  }

  /**
   * An editor shares `path` live (y-monaco binds its model to the path's Y.Text): transactions of
   * `origin` are the local user's keystrokes, which reach the file service when the editor saves,
   * so they are not written back as remote changes; remote changes still are (source "sync").
   */
  markLive(path: string, origin: object): Disposable {
    let origins = this.live.get(path);
    if (!origins) this.live.set(path, (origins = new Set()));
    origins.add(origin);
    return {
      dispose: () => {
        origins.delete(origin);
        if (origins.size === 0 && this.live.get(path) === origins) this.live.delete(path);
      },
    };
  }

  /** The shared text of `path` for a live editor: a text file's Y.Text, unless it is deleted. */
  liveText(path: string): Y.Text | undefined {
    const entry = this.tree.get(path);
    const text = entry?.get("text");
    return entry && isAlive(entry) && entryKind(entry) === "text" && text instanceof Y.Text ? text : undefined;
  }

  /** Calls `listener` when files are added, removed, deleted or restored, or change kind (not on every keystroke). */
  onDidChangeEntries(listener: () => void): Disposable {
    const observer = (events: Array<Y.YEvent<Y.AbstractType<unknown>>>) => {
      if (events.some((event) => event.target instanceof Y.Map)) listener();
    };
    this.tree.observeDeep(observer);
    return { dispose: () => this.tree.unobserveDeep(observer) };
  }

  private isLiveOrigin(origin: unknown): boolean {
    for (const origins of this.live.values()) if (origins.has(origin)) return true;
    return false;
  }

  private applyRemote(events: Array<Y.YEvent<Y.AbstractType<unknown>>>): void {
    const touched = new Map<string, Touched>();
    const info = (path: string) => {
      let found = touched.get(path);
      if (!found) touched.set(path, (found = { replaced: false, deletedSet: false }));
      return found;
    };
    for (const event of events) {
      if (event.target === this.tree) {
        for (const [key, change] of (event as Y.YMapEvent<Entry>).changes.keys) if (change.action === "update") info(key).replaced = true;
        for (const key of (event as Y.YMapEvent<Entry>).keysChanged) info(key);
        continue;
      }
      const path = event.path[0];
      if (typeof path !== "string") continue;
      const entryInfo = info(path);
      if (event.path.length !== 1 || !(event instanceof Y.YMapEvent)) continue;
      for (const [key, change] of event.changes.keys) {
        if (key === "deleted" && change.action !== "delete") entryInfo.deletedSet = true;
        if (key === "blob" && change.action === "update") entryInfo.blobOld = change.oldValue as BlobRef;
      }
    }
    const conflicts: SyncConflict[] = [];
    const restored: SyncRestored[] = [];
    const dirs: string[] = [];
    for (const [path, found] of touched) {
      const entry = this.tree.get(path);
      if (entry && entryKind(entry) === "dir") dirs.push(path);
      else this.syncFile(path, found, conflicts, restored);
    }
    // Folders after their files; a removed folder goes only when nothing is left in it.
    for (const path of dirs.sort((a, b) => b.length - a.length)) {
      const entry = this.tree.get(path)!;
      const local = this.files.statSync(path);
      if (isAlive(entry)) {
        if (!local) this.apply(() => this.files.mkdirSync(path, { source: "sync" }));
      } else if (local?.kind === "dir" && this.files.listSync(path).length === 0) this.apply(() => this.files.removeSync(path, { source: "sync" }));
    }
    if (conflicts.length > 0) this.options.onConflicts?.(conflicts);
    if (restored.length > 0) this.options.onRestored?.(restored);
  }

  private syncFile(path: string, found: Touched, conflicts: SyncConflict[], restored: SyncRestored[]): void {
    const entry = this.tree.get(path);
    const local = this.files.statSync(path);
    const localData = local?.kind === "file" ? this.files.readSync(path) : undefined;
    if (!entry || !isAlive(entry)) {
      if (localData === undefined) return;
      if (this.options.guarded?.(path)) this.hold(path, "deleted");
      else this.apply(() => this.files.removeSync(path, { source: "sync" }));
      return;
    }
    if (found.blobOld) this.resolveBinary(path, entry, found.blobOld, localData, conflicts);
    else if (found.replaced && localData !== undefined && !this.tooLarge(path, localData)) {
      // Created on two devices at once: one entry won; the other device keeps its version as a copy.
      const shared = entryContent(entry, this.blobs);
      if (shared !== undefined && !sameData(shared, localData)) this.keepCopy(path, localData, this.device, conflicts);
    }
    const conflictOf = entry.get("conflictOf") as ConflictOf | undefined;
    if (conflictOf && found.replaced === false && localData === undefined && !conflicts.some((c) => c.copy === path)) {
      conflicts.push({ path: conflictOf.path, copy: path, reason: "concurrent" });
    }
    if (entry.has("deleted") && localData === undefined && local === undefined) restored.push({ path, deleted: "here" });
    else if (found.deletedSet) restored.push({ path, deleted: "there" });
    this.writeFromDoc(path);
  }

  /**
   * A remote binary write replaced `old` without having seen it: two devices wrote at once. The
   * later write wins on every device (laterWrite); the other is kept as `name.conflict-<device>.ext`.
   */
  private resolveBinary(path: string, entry: Entry, old: BlobRef, localData: string | Uint8Array | undefined, conflicts: SyncConflict[]): void {
    const now = blobRef(entry);
    if (!now || !old || typeof old.hash !== "string" || old.hash === now.hash || now.base === old.id) return;
    const winner = laterWrite(old, now);
    const loser = winner === old ? now : old;
    const bytesOf = (ref: BlobRef) => this.blobs.get(ref.hash) ?? (ref === old && localData instanceof Uint8Array ? localData : undefined);
    const loserBytes = bytesOf(loser);
    const winnerBytes = bytesOf(winner);
    if (!loserBytes || !winnerBytes || this.files.readOnly) return;
    this.doc.transact(() => {
      if (winner === old) {
        this.blobs.set(old.hash, winnerBytes.slice());
        entry.set("blob", { ...old, id: this.nextId(), base: now.id });
        entry.set("edit", (entry.get("blob") as BlobRef).id);
      }
    }, LOCAL);
    this.keepCopy(path, loserBytes, loser.writer, conflicts);
  }

  private keepCopy(path: string, data: string | Uint8Array, device: string, conflicts: SyncConflict[]): void {
    if (this.files.readOnly) return;
    const copy = freePath(deviceConflictPath(path, device), (p) => this.tree.has(p) || this.files.statSync(p) !== undefined);
    this.doc.transact(() => this.put(copy, data, { path, device }), LOCAL);
    this.writeFromDoc(copy);
    conflicts.push({ path, copy, reason: "concurrent" });
  }

  /** Makes the local file match the document's live entry (held for guarded paths). */
  private writeFromDoc(path: string, accepted = false): void {
    const entry = this.tree.get(path);
    if (!entry || !isAlive(entry)) return;
    const local = this.files.statSync(path);
    if (entryKind(entry) === "dir") {
      if (!local) this.apply(() => this.files.mkdirSync(path, { source: "sync" }));
      return;
    }
    const content = entryContent(entry, this.blobs);
    if (content === undefined) {
      const ref = blobRef(entry);
      if (ref) this.waiting.set(ref.hash, (this.waiting.get(ref.hash) ?? new Set()).add(path));
      return;
    }
    const localData = local?.kind === "file" ? this.files.readSync(path) : undefined;
    if (localData !== undefined && sameData(localData, content)) {
      if (this.heldChanges.delete(path)) this.emitHeld(); // the document came back to this device's version
      return;
    }
    if (localData !== undefined && this.tooLarge(path, localData)) return;
    // A file that can loosen permissions is changed only with the user's consent; a new one only adds limits.
    if (localData !== undefined && !accepted && this.options.guarded?.(path)) {
      this.hold(path, "changed");
      return;
    }
    if (this.heldChanges.delete(path)) queueMicrotask(() => this.emitHeld());
    this.apply(() => this.files.writeSync(path, content, { source: "sync" }));
  }

  private hold(path: string, change: HeldChange["change"]): void {
    this.heldChanges.set(path, { path, change });
    if (this.merged) queueMicrotask(() => this.emitHeld());
  }

  private emitHeld(): void {
    this.options.onHeld?.(this.held());
  }

  private apply(write: () => void): void {
    if (this.files.readOnly) return;
    try {
      write();
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }
}
