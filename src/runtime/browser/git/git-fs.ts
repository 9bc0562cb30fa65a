// isomorphic-git's file-system interface (its `fs.promises` shape) over the workspace file service,
// so the repository (.git) and the work tree are ordinary workspace files: stored in IndexedDB,
// seen by the editor and the tree. Paths are absolute inside the workspace ("/src/a.ts").
// Writes are made synchronously in memory; the git command waits for storage once at its end
// (GitFs.stored), not after each of the hundreds of object files a commit writes.
import { PathError, encodeText, normalizePath } from "../../../base";
import { WorkspaceFsError } from "../../fs-errors";
import type { ChangeSource } from "../../types";
import type { WorkspaceFiles } from "../../workspace-files";

const FILE_MODE = 0o100644;
const DIR_MODE = 0o040000;

function fsError(code: string, path: string): Error {
  const error = new Error(`${code}: ${path}`) as Error & { code: string };
  error.code = code;
  return error;
}

/** The stat shape isomorphic-git reads (it normalises the times and ids itself). */
export interface GitStat {
  type: "file" | "dir";
  mode: number;
  size: number;
  ino: number;
  dev: number;
  uid: number;
  gid: number;
  mtimeMs: number;
  ctimeMs: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

export class GitFs {
  /** isomorphic-git looks for `fs.promises` first. */
  readonly promises = this;

  constructor(
    private readonly files: WorkspaceFiles,
    private readonly source: ChangeSource,
  ) {}

  private path(path: string): string {
    try {
      return normalizePath(path.replace(/^\/+/, ""));
    } catch (error) {
      if (error instanceof PathError) throw fsError("EINVAL", path);
      throw error;
    }
  }

  private guard<T>(path: string, action: () => T): T {
    try {
      return action();
    } catch (error) {
      if (error instanceof WorkspaceFsError) {
        const wrapped = fsError(error.code, path);
        wrapped.message = `${error.code}: ${error.message}`;
        throw wrapped;
      }
      throw error;
    }
  }

  /** Waits until everything this command wrote is stored (a full disk fails here, where it was made). */
  async stored(): Promise<void> {
    await this.files.flush();
  }

  // ---- helpers for the git commands (not part of isomorphic-git's interface) ----

  existsSync(path: string): boolean {
    return this.files.statSync(this.path(path)) !== undefined;
  }

  isFolder(path: string): boolean {
    return this.files.statSync(this.path(path))?.kind === "dir";
  }

  ensureFolder(path: string): void {
    const p = this.path(path);
    if (p !== "") this.guard(path, () => this.files.mkdirSync(p, { source: this.source }));
  }

  rename(from: string, to: string): void {
    this.guard(from, () => this.files.renameSync(this.path(from), this.path(to), { source: this.source }));
  }

  removeTree(path: string): void {
    const p = this.path(path);
    if (p !== "") this.guard(path, () => this.files.removeSync(p, { source: this.source }));
  }

  /** After files were deleted, removes the folders they leave empty (git does not keep empty folders), up to `stop`. */
  removeEmptyFolders(deleted: string[], stop: string): void {
    const top = this.path(stop);
    for (const file of deleted) {
      let folder = this.path(file);
      while (folder.includes("/")) {
        folder = folder.slice(0, folder.lastIndexOf("/"));
        if (folder === top || folder === "") break;
        const stat = this.files.statSync(folder);
        if (!stat || stat.kind !== "dir" || this.files.listSync(folder).length > 0) break;
        this.files.removeSync(folder, { source: this.source });
      }
    }
  }

  async readFile(path: string, options?: { encoding?: string } | string): Promise<Uint8Array | string> {
    const p = this.path(path);
    const node = p === "" ? undefined : this.files.statSync(p);
    if (!node) throw fsError("ENOENT", path);
    if (node.kind === "dir") throw fsError("EISDIR", path);
    const data = this.guard(path, () => this.files.readSync(p));
    const encoding = typeof options === "string" ? options : options?.encoding;
    if (encoding === "utf8" || encoding === "utf-8") return typeof data === "string" ? data : new TextDecoder().decode(data);
    return typeof data === "string" ? encodeText(data) : data;
  }

  async writeFile(path: string, data: Uint8Array | string): Promise<void> {
    const p = this.path(path);
    const parent = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "";
    const folder = this.files.statSync(parent);
    if (!folder) throw fsError("ENOENT", path);
    if (folder.kind !== "dir") throw fsError("ENOTDIR", path);
    // A Buffer is a Uint8Array subclass; stored as a plain copy so the workspace never holds a Buffer.
    const content = typeof data === "string" ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
    this.guard(path, () => this.files.writeSync(p, content, { source: this.source }));
  }

  async unlink(path: string): Promise<void> {
    const p = this.path(path);
    const node = p === "" ? undefined : this.files.statSync(p);
    if (!node) throw fsError("ENOENT", path);
    if (node.kind === "dir") throw fsError("EISDIR", path);
    this.guard(path, () => this.files.removeSync(p, { source: this.source }));
    if (this.pendingFolderRemovals.size > 0) this.removePendingFolders(p);
  }

  async readdir(path: string): Promise<string[]> {
    const p = this.path(path);
    const node = this.files.statSync(p);
    if (!node) throw fsError("ENOENT", path);
    if (node.kind !== "dir") throw fsError("ENOTDIR", path);
    return this.files
      .listSync(p)
      .map((stat) => stat.path.slice(stat.path.lastIndexOf("/") + 1))
      .sort();
  }

  async mkdir(path: string): Promise<void> {
    const p = this.path(path);
    if (this.files.statSync(p)) throw fsError("EEXIST", path);
    const parent = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "";
    if (!this.files.statSync(parent)) throw fsError("ENOENT", path);
    this.guard(path, () => this.files.mkdirSync(p, { source: this.source }));
  }

  async rmdir(path: string): Promise<void> {
    const p = this.path(path);
    const node = p === "" ? undefined : this.files.statSync(p);
    if (!node) throw fsError("ENOENT", path);
    if (node.kind !== "dir") throw fsError("ENOTDIR", path);
    if (this.files.listSync(p).length > 0) {
      // isomorphic-git's `stash apply` removes a folder before the files in it; the folder goes
      // when its last file does (see unlink) instead of failing the whole apply.
      this.pendingFolderRemovals.add(p);
      return;
    }
    this.guard(path, () => this.files.removeSync(p, { source: this.source }));
  }

  private readonly pendingFolderRemovals = new Set<string>();

  private removePendingFolders(file: string): void {
    let folder = file;
    while (folder.includes("/")) {
      folder = folder.slice(0, folder.lastIndexOf("/"));
      if (!this.pendingFolderRemovals.has(folder) || this.files.listSync(folder).length > 0) return;
      this.pendingFolderRemovals.delete(folder);
      this.files.removeSync(folder, { source: this.source });
    }
  }

  async stat(path: string): Promise<GitStat> {
    const p = this.path(path);
    const node = this.files.statSync(p);
    if (!node) throw fsError("ENOENT", path);
    const dir = node.kind === "dir";
    // The workspace keeps one modification time per file; it stands in for ctime too, and the
    // inode is 0 for all, so git's racy-stat check compares times and sizes only.
    const mtime = node.mtime || 0;
    return {
      type: dir ? "dir" : "file",
      mode: dir ? DIR_MODE : FILE_MODE,
      size: node.size,
      ino: 0,
      dev: 0,
      uid: 0,
      gid: 0,
      mtimeMs: mtime,
      ctimeMs: mtime,
      isFile: () => !dir,
      isDirectory: () => dir,
      isSymbolicLink: () => false,
    };
  }

  async lstat(path: string): Promise<GitStat> {
    return this.stat(path);
  }

  async readlink(path: string): Promise<string> {
    throw fsError("EINVAL", path);
  }

  async symlink(_target: string, path: string): Promise<void> {
    throw fsError("ENOTSUP", path);
  }

  async chmod(): Promise<void> {
    // The workspace stores content, not permissions.
  }
}
