// Bookkeeping for the workspace file service's write-through: what storage holds for every path
// changed in memory but not yet stored (so a refused write can be undone), and one promise per
// batch so each writer learns whether its own change reached storage; undoing a batch that failed,
// and telling the user of a change another tab stored meanwhile.
import { dirname, errorMessage, isQuotaError } from "../base";
import type { StoredBase } from "../storage";
import { WorkspaceFsError } from "./fs-errors";
import type { FileChange } from "./types";
import type { TreeNode, WorkspaceTree } from "./workspace-tree";

/** A promise with its settle functions; always has a handler, so nobody waiting is not an error. */
export class Outcome {
  readonly promise: Promise<void>;
  settled = false;
  private settle!: { resolve: () => void; reject: (error: Error) => void };

  constructor() {
    this.promise = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    this.promise.catch(() => undefined);
  }

  resolve(): void {
    this.settled = true;
    this.settle.resolve();
  }

  reject(error: Error): void {
    this.settled = true;
    this.settle.reject(error);
  }
}

export class StoredState<N> {
  /** Path -> what storage holds for it (null: nothing), for every path with an unstored change. */
  private readonly base = new Map<string, N | null>();
  /** The fate of the changes not yet handed to a batch. */
  private next = new Outcome();
  private inflight: Outcome | undefined;

  get size(): number {
    return this.base.size;
  }

  paths(): string[] {
    return [...this.base.keys()];
  }

  has(path: string): boolean {
    return this.base.has(path);
  }

  /** What storage holds for a path with an unstored change (undefined: the path has none). */
  baseOf(path: string): N | null | undefined {
    return this.base.get(path);
  }

  /** Called before a path's first unstored change with what storage holds for it. */
  remember(path: string, stored: N | null): void {
    if (!this.base.has(path)) this.base.set(path, stored);
  }

  /** The outcome of the changes made so far: the next batch's if any wait, else the one in flight. */
  outcome(waiting: boolean): Promise<void> {
    if (waiting) return this.next.promise;
    if (this.inflight && !this.inflight.settled) return this.inflight.promise;
    return Promise.resolve();
  }

  /** The waiting changes become a batch: returns its outcome; later changes wait for the next one. */
  startBatch(): Outcome {
    const batch = this.next;
    this.next = new Outcome();
    this.inflight = batch;
    return batch;
  }

  /** A batch stored `node` for `path`; if the path changed again meanwhile, that is now its base. */
  stored(path: string, node: N | null, changedSince: boolean): void {
    if (changedSince) this.base.set(path, node);
    else this.base.delete(path);
  }

  /** The changes waiting for the next batch were undone: their writers get the error. */
  rejectNext(error: Error): void {
    this.next.reject(error);
    this.next = new Outcome();
  }

  /** Every unstored path with what storage holds for it; forgets them (they are being undone). */
  takeAll(): Map<string, N | null> {
    const all = new Map(this.base);
    this.base.clear();
    return all;
  }
}

/** The error writers get when a batch could not be stored: ENOSPC for a full quota, like a full disk. */
export function persistFailure(error: unknown): WorkspaceFsError {
  if (isQuotaError(error)) {
    return new WorkspaceFsError(
      "ENOSPC",
      "No space left on device: this site's browser storage is full, so the change was not saved. Free space (Settings → Storage: delete old sessions, snapshots or workspaces), then try again.",
      "",
      { cause: error },
    );
  }
  return new WorkspaceFsError(
    "EIO",
    `Browser storage refused the change (${errorMessage(error)}), so it was not saved. Try again; if it keeps failing, export the workspace as a zip.`,
    "",
    { cause: error },
  );
}

/**
 * Puts every path of `targets` back to what storage holds (its value there; null: nothing), after
 * a batch could not be stored, so memory says what storage holds; `report` tells each change.
 */
export function restoreStored(
  targets: ReadonlyMap<string, TreeNode | null>,
  tree: WorkspaceTree,
  report: (type: FileChange["type"], path: string, kind: TreeNode["kind"]) => void,
): void {
  const paths = [...targets.keys()];
  // Deepest first: remove what storage does not have (or holds as another kind).
  for (const path of [...paths].sort((a, b) => b.length - a.length)) {
    const target = targets.get(path);
    const current = tree.get(path);
    if (!current || (target && target.kind === current.kind)) continue;
    if (current.kind === "dir" && tree.hasChildren(path)) continue;
    tree.detach(path);
    report("deleted", path, current.kind);
  }
  // Shallowest first: put back what storage holds.
  for (const path of [...paths].sort((a, b) => a.length - b.length)) {
    const target = targets.get(path);
    if (!target) continue;
    const current = tree.get(path);
    if (current) {
      if (current.kind !== target.kind) continue;
      tree.replace(path, target);
      if (target.kind === "file") report("changed", path, "file");
      continue;
    }
    const parent = dirname(path);
    if (parent !== "" && tree.get(parent)?.kind !== "dir") continue;
    tree.attach(path, target);
    report("created", path, target.kind);
  }
}

/** Another tab stored a change to a file while this tab's change to it was on the way (see onDidConflict). */
export interface FileConflict {
  path: string;
  /** "conflict": both are in the file between markers; "kept": a deletion was not done; "replaced": ours replaced theirs. */
  outcome: "conflict" | "kept" | "replaced";
  message: string;
}

/** What a compare-and-set write says this tab believes storage holds for a path. */
export function toBase(node: TreeNode | null | undefined): StoredBase | undefined {
  if (node === undefined || node === null) return node;
  return node.kind === "dir" ? { kind: "dir" } : { kind: "file", data: node.data };
}

export function conflictMessage(path: string, outcome: FileConflict["outcome"]): string {
  switch (outcome) {
    case "conflict":
      return `${path} was changed in another tab at the same lines as here: both versions are kept in the file, between <<<<<<< and >>>>>>> markers. Edit it to keep what you want.`;
    case "kept":
      return `${path} was not deleted: another tab changed it just before. Delete it again if you still want it gone.`;
    case "replaced":
      return `${path} was changed in another tab and here at once and cannot be merged (not text): this tab's version replaced the other tab's.`;
  }
}
