// just-bash's file-system interface over WorkspaceFiles, mounted at /workspace: every change a shell
// command makes goes through the workspace file service (and so to the editor and IndexedDB).
import type {
  BufferEncoding,
  CpOptions,
  FileContent,
  FsStat,
  IFileSystem,
  MkdirOptions,
  RmOptions,
} from "just-bash";
import { PathError, encodeText, normalizePath, toHex } from "../../base";
import { WorkspaceFsError } from "../fs-errors";
import type { ChangeSource } from "../types";
import type { WorkspaceFiles } from "../workspace-files";

type ReadOptions = { encoding?: BufferEncoding | null } | BufferEncoding | null | undefined;
type WriteOptions = { encoding?: BufferEncoding } | BufferEncoding | undefined;

interface DirentEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

const FILE_MODE = 0o644;
/** npm's node_modules/.bin entries run from PATH: executable, as npm links them (modes are not stored). */
const BIN_MODE = 0o755;

function isBinShim(path: string): boolean {
  return /(^|\/)node_modules\/\.bin\/[^/]+$/.test(path);
}
const DIR_MODE = 0o755;

const DESCRIPTIONS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EEXIST: "file already exists",
  ENOTDIR: "not a directory",
  EISDIR: "illegal operation on a directory",
  ENOTEMPTY: "directory not empty",
  EINVAL: "invalid argument",
  ECLOSED: "workspace closed",
  ENOSPC: "No space left on device (this site's browser storage is full)",
  EIO: "input/output error (browser storage refused the change)",
};

/** just-bash's commands recognise Node-style messages ("ENOENT: no such file or directory, open '/a'"). */
function fsError(code: string, op: string, path: string, detail?: string): Error {
  const text = (detail ?? DESCRIPTIONS[code] ?? code).replace(/\.$/, "");
  const error = new Error(`${code}: ${text}, ${op} '${path}'`) as Error & { code: string };
  error.code = code;
  return error;
}

function translate(error: unknown, op: string, path: string): Error {
  if (error instanceof WorkspaceFsError) {
    return fsError(error.code, op, path, error.code === "EINVAL" || error.code === "ECLOSED" ? error.message : undefined);
  }
  if (error instanceof PathError) return fsError("EINVAL", op, path, error.message);
  return error instanceof Error ? error : new Error(String(error));
}

function encodingOf(options: ReadOptions | WriteOptions): BufferEncoding | undefined {
  if (options == null) return undefined;
  if (typeof options === "string") return options;
  return options.encoding ?? undefined;
}

function isUtf8(encoding: BufferEncoding | undefined): boolean {
  return encoding === undefined || encoding === "utf8" || encoding === "utf-8";
}

/** Bytes of `content` as just-bash means them: strings carry text, or bytes in the given encoding. */
export function contentBytes(content: FileContent, encoding: BufferEncoding | undefined): string | Uint8Array {
  if (content instanceof Uint8Array) return content;
  if (isUtf8(encoding)) return content;
  switch (encoding) {
    case "binary":
    case "latin1":
    case "ascii": {
      const bytes = new Uint8Array(content.length);
      for (let i = 0; i < content.length; i++) bytes[i] = content.charCodeAt(i) & 0xff;
      return bytes;
    }
    case "base64": {
      const raw = atob(content.replace(/[^A-Za-z0-9+/]/g, ""));
      return Uint8Array.from(raw, (c) => c.charCodeAt(0));
    }
    case "hex": {
      const bytes = new Uint8Array(Math.floor(content.length / 2));
      for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(content.slice(i * 2, i * 2 + 2), 16) || 0;
      return bytes;
    }
    default:
      return content;
  }
}

function decodeBytes(bytes: Uint8Array, encoding: BufferEncoding | undefined): string {
  if (isUtf8(encoding)) return new TextDecoder().decode(bytes);
  switch (encoding) {
    case "base64": {
      let raw = "";
      for (const b of bytes) raw += String.fromCharCode(b);
      return btoa(raw);
    }
    case "hex":
      return toHex(bytes);
    default: {
      let out = "";
      for (const b of bytes) out += String.fromCharCode(encoding === "ascii" ? b & 0x7f : b);
      return out;
    }
  }
}

/** POSIX-style absolute path normalisation ("/a/./b/../c" -> "/a/c"). */
export function normalizeAbsolute(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return "/" + parts.join("/");
}

export class WorkspaceBashFs implements IFileSystem {
  constructor(
    private readonly files: WorkspaceFiles,
    private readonly source: ChangeSource,
    /** chmod bits (kept in memory only; the workspace stores content, not permissions). */
    private readonly modes: Map<string, number> = new Map(),
  ) {}

  /** Who this mount's changes are attributed to (commands that write the workspace directly use it). */
  get changeSource(): ChangeSource {
    return this.source;
  }

  /** "/src/a.ts" (path inside the mount) -> "src/a.ts"; "/" -> "". */
  private toWorkspace(path: string, op: string): string {
    try {
      return normalizePath(normalizeAbsolute(path));
    } catch (error) {
      throw translate(error, op, path);
    }
  }

  private run<T>(op: string, path: string, action: (p: string) => T): T {
    const p = this.toWorkspace(path, op);
    try {
      return action(p);
    } catch (error) {
      throw translate(error, op, path);
    }
  }

  /**
   * Waits until the command's change is stored: a change storage refuses fails here, where it was
   * made (ENOSPC like a full disk), and has been undone in the workspace.
   */
  private async stored(op: string, path: string): Promise<void> {
    try {
      await this.files.flush();
    } catch (error) {
      throw translate(error, op, path);
    }
  }

  private statOf(path: string, op: string): FsStat {
    const stat = this.run(op, path, (p) => this.files.statSync(p));
    if (!stat) throw fsError("ENOENT", op, path);
    const dir = stat.kind === "dir";
    return {
      isFile: !dir,
      isDirectory: dir,
      isSymbolicLink: false,
      mode: this.modes.get(stat.path) ?? (dir ? DIR_MODE : isBinShim(stat.path) ? BIN_MODE : FILE_MODE),
      size: stat.size,
      mtime: new Date(stat.mtime || Date.now()),
      // A stable identity lets mv/cp tell "same file" from "different file" without inodes.
      identity: `workspace:${stat.path}`,
    };
  }

  async readFile(path: string, options?: ReadOptions): Promise<string> {
    const data = this.run("open", path, (p) => (p === "" ? this.throwIsDir("read", path) : this.files.readSync(p)));
    const encoding = encodingOf(options);
    if (typeof data === "string" && isUtf8(encoding)) return data;
    return decodeBytes(typeof data === "string" ? encodeText(data) : data, encoding);
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    const data = this.run("open", path, (p) => (p === "" ? this.throwIsDir("read", path) : this.files.readSync(p)));
    return typeof data === "string" ? encodeText(data) : data;
  }

  private throwIsDir(op: string, path: string): never {
    throw fsError("EISDIR", op, path);
  }

  async writeFile(path: string, content: FileContent, options?: WriteOptions): Promise<void> {
    const data = contentBytes(content, encodingOf(options));
    this.run("open", path, (p) => (p === "" ? this.throwIsDir("write", path) : this.files.writeSync(p, data, { source: this.source })));
    await this.stored("write", path);
  }

  async appendFile(path: string, content: FileContent, options?: WriteOptions): Promise<void> {
    const addition = contentBytes(content, encodingOf(options));
    this.run("open", path, (p) => {
      if (p === "") this.throwIsDir("write", path);
      const existing = this.files.statSync(p) ? this.files.readSync(p) : "";
      let next: string | Uint8Array;
      if (typeof existing === "string" && typeof addition === "string") next = existing + addition;
      else {
        const a = typeof existing === "string" ? encodeText(existing) : existing;
        const b = typeof addition === "string" ? encodeText(addition) : addition;
        const joined = new Uint8Array(a.length + b.length);
        joined.set(a);
        joined.set(b, a.length);
        next = joined;
      }
      this.files.writeSync(p, next, { source: this.source });
    });
    await this.stored("write", path);
  }

  async exists(path: string): Promise<boolean> {
    try {
      return this.files.statSync(this.toWorkspace(path, "access")) !== undefined;
    } catch {
      return false;
    }
  }

  async stat(path: string): Promise<FsStat> {
    return this.statOf(path, "stat");
  }

  async lstat(path: string): Promise<FsStat> {
    return this.statOf(path, "lstat");
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    this.run("mkdir", path, (p) => {
      const existing = this.files.statSync(p);
      if (existing) {
        if (existing.kind === "file" || !options?.recursive) throw fsError("EEXIST", "mkdir", path);
        return;
      }
      const parent = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "";
      if (!options?.recursive && !this.files.statSync(parent)) throw fsError("ENOENT", "mkdir", path);
      this.files.mkdirSync(p, { source: this.source });
    });
    await this.stored("mkdir", path);
  }

  async readdir(path: string): Promise<string[]> {
    return (await this.readdirWithFileTypes(path)).map((entry) => entry.name);
  }

  async readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    const entries = this.run("scandir", path, (p) => this.files.listSync(p));
    return entries
      .map((stat) => ({
        name: stat.path.slice(stat.path.lastIndexOf("/") + 1),
        isFile: stat.kind === "file",
        isDirectory: stat.kind === "dir",
        isSymbolicLink: false,
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async rm(path: string, options?: RmOptions): Promise<void> {
    this.run("rm", path, (p) => {
      if (p === "") throw fsError("EINVAL", "rm", path, "refusing to remove the workspace root");
      const stat = this.files.statSync(p);
      if (!stat) {
        if (options?.force) return;
        throw fsError("ENOENT", "rm", path);
      }
      if (stat.kind === "dir" && !options?.recursive && this.files.listSync(p).length > 0) {
        throw fsError("ENOTEMPTY", "rm", path);
      }
      this.files.removeSync(p, { source: this.source });
      this.modes.delete(p);
    });
    await this.stored("rm", path);
  }

  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    const from = this.toWorkspace(src, "cp");
    const to = this.toWorkspace(dest, "cp");
    const stat = this.files.statSync(from);
    if (!stat) throw fsError("ENOENT", "cp", src);
    if (stat.kind === "file") {
      this.run("cp", dest, (p) => this.files.writeSync(p, this.files.readSync(from), { source: this.source }));
      await this.stored("cp", dest);
      return;
    }
    if (!options?.recursive) throw fsError("EISDIR", "cp", src, "is a directory");
    if (to === from || to.startsWith(from + "/") || from === "") {
      throw fsError("EINVAL", "cp", src, `cannot copy '${src}' into itself, '${dest}'`);
    }
    this.run("cp", dest, (p) => this.files.mkdirSync(p, { source: this.source }));
    await this.stored("cp", dest);
    for (const child of this.files.listSync(from)) {
      const name = child.path.slice(child.path.lastIndexOf("/") + 1);
      await this.cp(`${normalizeAbsolute(src)}/${name}`, `${normalizeAbsolute(dest)}/${name}`, options);
    }
  }

  async mv(src: string, dest: string): Promise<void> {
    const to = this.toWorkspace(dest, "mv");
    this.run("mv", src, (from) => {
      if (from === "") throw fsError("EINVAL", "mv", src, "cannot move the workspace root");
      const target = this.files.statSync(to);
      const source = this.files.statSync(from);
      // POSIX rename replaces an empty folder with a folder.
      if (target?.kind === "dir" && source?.kind === "dir" && to !== from) {
        if (this.files.listSync(to).length > 0) throw fsError("ENOTEMPTY", "mv", dest);
        this.files.removeSync(to, { source: this.source });
      }
      this.files.renameSync(from, to, { source: this.source, overwrite: true });
    });
    await this.stored("mv", dest);
  }

  resolvePath(base: string, path: string): string {
    return normalizeAbsolute(path.startsWith("/") ? path : `${base}/${path}`);
  }

  getAllPaths(): string[] {
    return ["/", ...this.files.snapshotPaths().map((p) => `/${p}`)];
  }

  async chmod(path: string, mode: number): Promise<void> {
    const stat = this.statOf(path, "chmod");
    this.modes.set(this.toWorkspace(path, "chmod"), (stat.mode & ~0o7777) | (mode & 0o7777));
  }

  async symlink(_target: string, linkPath: string): Promise<void> {
    throw fsError("ENOTSUP", "symlink", linkPath, "symbolic links are not supported in the workspace");
  }

  async link(_existingPath: string, newPath: string): Promise<void> {
    throw fsError("ENOTSUP", "link", newPath, "hard links are not supported in the workspace");
  }

  async readlink(path: string): Promise<string> {
    this.statOf(path, "readlink");
    throw fsError("EINVAL", "readlink", path);
  }

  async realpath(path: string): Promise<string> {
    this.statOf(path, "realpath");
    return normalizeAbsolute(path);
  }

  async utimes(path: string, _atime: Date, mtime: Date): Promise<void> {
    this.run("utimes", path, (p) => {
      if (p === "") return;
      if (!this.files.statSync(p)) throw fsError("ENOENT", "utimes", path);
      this.files.setMtime(p, mtime.getTime());
    });
    await this.stored("utimes", path);
  }
}
