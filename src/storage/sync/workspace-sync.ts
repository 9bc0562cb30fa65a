// Sync (issue 33, docs/architecture.md "Sync"): one workspace's files shared through a Yjs
// document. The file service stays the one way files change: local changes (any source but
// "sync") go into the document, and the document's remote changes are written through the file
// service with source "sync", so editors, the tree and IndexedDB see them like a terminal's write
// and they are not sent back. Loaded only when sync is on (dynamic import).
//
// Data model: doc.getMap("files"): workspace path -> Y.Text (text files). Binary files and empty
// folders are not synced yet; folders come with the files in them.
import * as Y from "yjs";
import type { Disposable } from "../../base";
import { applyTextToYText } from "./y-text-diff";

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
  statSync(path: string): { kind: "file" | "dir" } | undefined;
  readSync(path: string): string | Uint8Array;
  writeSync(path: string, data: string, options: { source: "sync" }): void;
  removeSync(path: string, options: { source: "sync" }): void;
  onDidChange(listener: (changes: SyncedChange[]) => void): Disposable;
}

export interface SyncConflict {
  path: string;
  /** Where the local text was kept (the document's text won). */
  copy: string;
}

/** `src/a.ts` -> `src/a.local-conflict.ts`; `Makefile` -> `Makefile.local-conflict`. */
export function conflictCopyPath(path: string): string {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  if (dot <= slash + 1) return `${path}.local-conflict`;
  return `${path.slice(0, dot)}.local-conflict${path.slice(dot)}`;
}

const LOCAL = Symbol("webcode-local-change");

/**
 * Binds a workspace's files to `doc`. Call merge() once the provider has synced the document the
 * first time; from then on both directions flow (changes made offline stay in the local document
 * and reach the server when the provider reconnects).
 */
export class WorkspaceSync implements Disposable {
  readonly map: Y.Map<Y.Text>;
  private subscriptions: Disposable[] = [];
  private merged = false;
  /** Paths an editor shares live (y-monaco), with the transaction origin of each binding. */
  private readonly live = new Map<string, Set<unknown>>();

  constructor(
    private readonly files: SyncedFiles,
    readonly doc: Y.Doc,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.map = doc.getMap<Y.Text>("files");
  }

  /**
   * First connect: a file on one side only is added to the other; a file on both with different
   * text keeps the document's text, and the local text is saved beside it as a conflict copy
   * (which then syncs too). Returns the conflicts, for the user to be told.
   */
  merge(): SyncConflict[] {
    if (this.merged) return [];
    this.merged = true;
    const conflicts: SyncConflict[] = [];
    const local = new Map<string, string>();
    for (const [path, data] of this.files.entries()) if (typeof data === "string") local.set(path, data);
    this.doc.transact(() => {
      for (const [path, text] of local) {
        const shared = this.map.get(path);
        if (!shared) {
          this.map.set(path, new Y.Text(text));
          continue;
        }
        if (shared.toString() === text) continue;
        let copy = conflictCopyPath(path);
        for (let n = 2; this.map.has(copy) || this.files.statSync(copy); n++) copy = `${conflictCopyPath(path)}.${n}`;
        this.map.set(copy, new Y.Text(text));
        conflicts.push({ path, copy });
      }
    }, LOCAL);
    for (const conflict of conflicts) this.writeLocal(conflict.copy, this.map.get(conflict.copy)!.toString());
    for (const [path, text] of this.map) if (local.get(path) !== text.toString()) this.writeLocal(path, text.toString());
    const observer = (events: Array<Y.YEvent<Y.AbstractType<unknown>>>, transaction: Y.Transaction) => {
      if (transaction.origin !== LOCAL && !this.isLiveOrigin(transaction.origin)) this.applyRemote(events);
    };
    this.map.observeDeep(observer);
    this.subscriptions.push({ dispose: () => this.map.unobserveDeep(observer) });
    if (!this.files.readOnly) this.subscriptions.push(this.files.onDidChange((changes) => this.applyLocal(changes)));
    return conflicts;
  }

  private applyLocal(changes: SyncedChange[]): void {
    // A live editor's keystrokes reached the Y.Text through its binding already: its save is not
    // diffed in again (a diff against a Y.Text that moved on meanwhile would undo the other side's typing).
    const mine = changes.filter((c) => c.source !== "sync" && c.kind === "file" && !(c.source === "editor" && c.type !== "deleted" && this.live.has(c.path)));
    if (mine.length === 0) return;
    this.doc.transact(() => {
      for (const change of mine) {
        if (change.type === "deleted") {
          this.map.delete(change.path);
          continue;
        }
        // The file as it is now (a later change in the batch may have removed or replaced it).
        const stat = this.files.statSync(change.path);
        if (stat?.kind !== "file") continue;
        const data = this.files.readSync(change.path);
        const shared = this.map.get(change.path);
        if (typeof data !== "string") {
          if (shared) this.map.delete(change.path); // now binary: not synced (yet)
          continue;
        }
        if (shared) applyTextToYText(shared, data);
        else this.map.set(change.path, new Y.Text(data));
      }
    }, LOCAL);
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

  private isLiveOrigin(origin: unknown): boolean {
    for (const origins of this.live.values()) if (origins.has(origin)) return true;
    return false;
  }

  private applyRemote(events: Array<Y.YEvent<Y.AbstractType<unknown>>>): void {
    const touched = new Set<string>();
    for (const event of events) {
      if (event instanceof Y.YMapEvent) for (const key of event.keysChanged) touched.add(key);
      else if (typeof event.path[0] === "string") touched.add(event.path[0]);
    }
    for (const path of touched) {
      const shared = this.map.get(path);
      if (shared) this.writeLocal(path, shared.toString());
      else if (this.files.statSync(path)?.kind === "file") this.apply(() => this.files.removeSync(path, { source: "sync" }));
    }
  }

  private writeLocal(path: string, text: string): void {
    this.apply(() => this.files.writeSync(path, text, { source: "sync" }));
  }

  private apply(write: () => void): void {
    if (this.files.readOnly) return;
    try {
      write();
    } catch (error) {
      this.onError(error);
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }
}
