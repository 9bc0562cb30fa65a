// Workspace snapshots (docs/agent.md, "Snapshots, revert, unrevert, fork"): at each step start the agent records a content hash per file;
// contents go to content-addressed blobs, so an unchanged file costs nothing after its first
// snapshot. Revert and unrevert restore files from a snapshot through the runtime's file service.
import { newSnapshot } from "../../storage";
import { sha256Hex, tryDecodeText, type Disposable } from "../../base";
import type { FileStat, WorkspaceFs } from "../../runtime";
import type { BlobRecord, SnapshotRecord, Storage } from "../../storage";

/** Files larger than this are left out of snapshots (and so are never reverted). */
export const SNAPSHOT_MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Folders whose contents are reproducible or not the user's work; hashing them would dominate. */
export const SNAPSHOT_IGNORED_FOLDERS = ["node_modules", ".git"];

interface CachedHash {
  mtime: number;
  size: number;
  hash: string;
}

function ignored(path: string): boolean {
  return path.split("/").some((segment) => SNAPSHOT_IGNORED_FOLDERS.includes(segment));
}

export class SnapshotService implements Disposable {
  private readonly hashes = new Map<string, CachedHash>();
  private readonly storedBlobs = new Set<string>();
  private last: SnapshotRecord | undefined;
  /** Whether the workspace reported a change since the last snapshot was taken. */
  private changed = true;
  private readonly listener: Disposable;

  constructor(
    private readonly storage: Storage,
    private readonly fs: WorkspaceFs,
    private readonly now: () => number,
  ) {
    // mtime and size catch most changes; the change feed also catches same-size rewrites within a millisecond.
    this.listener = fs.onDidChange((changes) => {
      this.changed = true;
      for (const change of changes) {
        this.hashes.delete(change.path);
        if (change.kind === "dir") {
          for (const path of this.hashes.keys()) if (path.startsWith(change.path + "/")) this.hashes.delete(path);
        }
      }
    });
  }

  /**
   * Records the workspace's current files; returns the snapshot id (reused when nothing changed).
   * With `reuseIfQuiet`, the last snapshot is returned without a scan when the workspace has
   * reported no change since it was taken (the start of a step right after the previous one ended).
   */
  async take(options: { reuseIfQuiet?: boolean } = {}): Promise<string> {
    // Settings → Storage (in this tab or another) may have deleted this workspace's snapshots and
    // pruned their blobs: then nothing cached here is stored any more, and everything is written again.
    if (this.last && !(await this.storage.snapshots.has(this.last.id))) this.forgetStored();
    if (options.reuseIfQuiet && !this.changed && this.last) return this.last.id;
    this.changed = false;
    const files: Record<string, string> = {};
    const blobs: BlobRecord[] = [];
    const queued = new Set<string>();
    const toHash: FileStat[] = [];
    for (const stat of await this.fs.listAll()) {
      if (stat.kind !== "file" || stat.size > SNAPSHOT_MAX_FILE_BYTES || ignored(stat.path)) continue;
      const cached = this.hashes.get(stat.path);
      if (cached && cached.mtime === stat.mtime && cached.size === stat.size) files[stat.path] = cached.hash;
      else toHash.push(stat);
    }
    // Hash the new and changed files concurrently (the digests run off the main thread).
    await Promise.all(
      toHash.map(async (stat) => {
        let bytes: Uint8Array;
        try {
          bytes = await this.fs.readFile(stat.path);
        } catch {
          return; // deleted between listing and reading
        }
        const hash = await sha256Hex(bytes);
        this.hashes.set(stat.path, { mtime: stat.mtime, size: stat.size, hash });
        files[stat.path] = hash;
        if (!this.storedBlobs.has(hash) && !queued.has(hash)) {
          queued.add(hash);
          blobs.push({ hash, data: tryDecodeText(bytes) ?? bytes });
        }
      }),
    );
    if (this.last && sameFiles(this.last.files, files)) {
      if (blobs.length > 0) await this.storage.blobs.putMany(blobs);
      this.noteStored(blobs);
      return this.last.id;
    }
    const record: SnapshotRecord = newSnapshot({ workspaceId: this.fs.workspaceId, files }, this.now());
    await this.storage.snapshots.put(record, blobs);
    // Only once stored: after a failed write (storage full) the contents are written again next time.
    this.noteStored(blobs);
    this.last = record;
    return record.id;
  }

  private noteStored(blobs: readonly BlobRecord[]): void {
    for (const blob of blobs) this.storedBlobs.add(blob.hash);
  }

  private forgetStored(): void {
    this.last = undefined;
    this.storedBlobs.clear();
    this.hashes.clear();
    this.changed = true;
  }

  async get(id: string): Promise<SnapshotRecord | undefined> {
    if (this.last?.id === id) return this.last;
    return this.storage.snapshots.get(id);
  }

  /** Paths added, removed or changed between two snapshots, sorted. */
  async changes(fromId: string, toId: string): Promise<string[]> {
    if (fromId === toId) return [];
    const [from, to] = await Promise.all([this.get(fromId), this.get(toId)]);
    if (!from || !to) return [];
    const paths = new Set([...Object.keys(from.files), ...Object.keys(to.files)]);
    return [...paths].filter((p) => from.files[p] !== to.files[p]).sort();
  }

  /**
   * Puts `paths` back as they were in the snapshot: rewrites changed files, recreates deleted
   * ones, removes files that did not exist then. Writes go through the runtime (source "agent").
   */
  async restore(snapshotId: string, paths: string[]): Promise<void> {
    const snapshot = await this.get(snapshotId);
    if (!snapshot) throw new Error(`The snapshot ${snapshotId} is missing from storage; the files cannot be restored.`);
    for (const path of paths) {
      const hash = snapshot.files[path];
      // Our own writes must not be mistaken for unchanged files by the next snapshot (same size,
      // same millisecond), before their change notification arrives.
      this.hashes.delete(path);
      this.changed = true;
      if (hash === undefined) {
        if (await this.fs.exists(path)) await this.fs.remove(path, { source: "agent" });
        continue;
      }
      const blob = await this.storage.blobs.get(hash);
      if (!blob) throw new Error(`The saved content of ${path} is missing from storage; it cannot be restored.`);
      await this.fs.writeFile(path, blob.data, { source: "agent" });
    }
  }

  dispose(): void {
    this.listener.dispose();
  }
}

function sameFiles(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => a[k] === b[k]);
}
