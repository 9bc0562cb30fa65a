// The program's file system inside the sandboxed worker: synchronous (a program's readFileSync
// returns at once), started from the files the page hands in, and every change reported as an FsOp
// so the page replays it through the one workspace file service. Errors carry Node's codes.
// Hand-written: libraries such as memfs bring a whole Node fs API on their own tree, while this
// needs a small tree whose every change is reported in order to the page.
import type { FileData, FsOp, RunMessage } from "./protocol";
import type { WorkspaceChanges } from "./sync-answer";

export interface FsFile {
  kind: "file";
  data: FileData;
  mtime: number;
}
export interface FsDir {
  kind: "dir";
  mtime: number;
}
export type FsNode = FsFile | FsDir;

const ERRNO: Record<string, [number, string]> = {
  ENOENT: [-2, "no such file or directory"],
  EEXIST: [-17, "file already exists"],
  ENOTDIR: [-20, "not a directory"],
  EISDIR: [-21, "illegal operation on a directory"],
  ENOTEMPTY: [-39, "directory not empty"],
  EINVAL: [-22, "invalid argument"],
  EACCES: [-13, "permission denied"],
  ENOTSUP: [-95, "operation not supported"],
};

/**
 * An error as Node's fs throws it: `ENOENT: no such file or directory, open '/x'` with errno, code,
 * syscall, path (and dest for two-path calls), in Node's order, which is how Node prints them.
 */
export class SandboxFsError extends Error {
  readonly errno: number;
  readonly code: string;
  readonly syscall: string;
  readonly path: string;
  declare readonly dest?: string;
  constructor(code: string, syscall: string, path: string, dest?: string) {
    const [errno, text] = ERRNO[code] ?? [-1, code.toLowerCase()];
    super(`${code}: ${text}, ${syscall} '${path}'${dest !== undefined ? ` -> '${dest}'` : ""}`);
    this.errno = errno;
    this.code = code;
    this.syscall = syscall;
    this.path = path;
    if (dest !== undefined) Object.defineProperty(this, "dest", { value: dest, enumerable: true, writable: true, configurable: true });
    this.name = "Error";
  }
}

/** "/a/./b/../c/" → "/a/c"; relative paths are taken from `cwd`. */
export function resolvePath(cwd: string, path: string): string {
  const parts: string[] = [];
  for (const part of (path.startsWith("/") ? path : `${cwd}/${path}`).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

function parentOf(path: string): string {
  const index = path.lastIndexOf("/");
  return index <= 0 ? "/" : path.slice(0, index);
}

export class SandboxFs {
  private readonly nodes = new Map<string, FsNode>([["/", { kind: "dir", mtime: Date.now() }]]);
  private readonly children = new Map<string, Set<string>>([["/", new Set()]]);

  constructor(
    private readonly report: (op: FsOp) => void = () => undefined,
    start?: Pick<RunMessage, "files" | "dirs">,
  ) {
    if (!start) return;
    const now = Date.now();
    for (const dir of start.dirs) this.ensureDir(resolvePath("/", dir), now);
    for (const [path, data] of start.files) {
      const p = resolvePath("/", path);
      this.ensureDir(parentOf(p), now);
      this.attach(p, { kind: "file", data, mtime: now });
    }
  }

  stat(path: string): FsNode | undefined {
    return this.nodes.get(path);
  }

  readFile(path: string, syscall = "open"): FileData {
    const node = this.nodes.get(path);
    if (!node) throw new SandboxFsError("ENOENT", syscall, path);
    if (node.kind === "dir") throw new SandboxFsError("EISDIR", "read", path);
    return node.data;
  }

  writeFile(path: string, data: FileData, syscall = "open"): void {
    const existing = this.nodes.get(path);
    if (existing?.kind === "dir") throw new SandboxFsError("EISDIR", syscall, path);
    this.requireParent(path, syscall);
    this.attach(path, { kind: "file", data, mtime: Date.now() });
    this.report({ kind: "write", path, data });
  }

  mkdir(path: string, recursive: boolean): string | undefined {
    const existing = this.nodes.get(path);
    if (existing) {
      if (recursive && existing.kind === "dir") return undefined;
      throw new SandboxFsError("EEXIST", "mkdir", path);
    }
    if (!recursive) this.requireParent(path, "mkdir");
    let first: string | undefined;
    const missing: string[] = [];
    for (let p = path; !this.nodes.has(p); p = parentOf(p)) missing.unshift(p);
    for (const p of missing) {
      if (this.nodes.get(parentOf(p))?.kind === "file") throw new SandboxFsError("ENOTDIR", "mkdir", path);
      this.attach(p, { kind: "dir", mtime: Date.now() });
      first ??= p;
    }
    this.report({ kind: "mkdir", path });
    return first;
  }

  readdir(path: string): string[] {
    const node = this.nodes.get(path);
    if (!node) throw new SandboxFsError("ENOENT", "scandir", path);
    if (node.kind !== "dir") throw new SandboxFsError("ENOTDIR", "scandir", path);
    return [...(this.children.get(path) ?? [])].sort();
  }

  /** rm / unlink / rmdir: `recursive` removes a folder with its content. */
  remove(path: string, options: { recursive?: boolean; dirOnly?: boolean; fileOnly?: boolean; syscall: string }): void {
    const node = this.nodes.get(path);
    if (!node) throw new SandboxFsError("ENOENT", options.syscall, path);
    if (options.fileOnly && node.kind === "dir") throw new SandboxFsError(path === "/" ? "EISDIR" : "EISDIR", options.syscall, path);
    if (options.dirOnly && node.kind !== "dir") throw new SandboxFsError("ENOTDIR", options.syscall, path);
    if (node.kind === "dir" && !options.recursive && (this.children.get(path)?.size ?? 0) > 0) {
      throw new SandboxFsError("ENOTEMPTY", options.syscall, path);
    }
    if (path === "/") throw new SandboxFsError("EACCES", options.syscall, path);
    this.detach(path);
    this.report({ kind: "remove", path });
  }

  rename(from: string, to: string): void {
    const node = this.nodes.get(from);
    if (!node) throw new SandboxFsError("ENOENT", "rename", from, to);
    if (from === to) return;
    if (to.startsWith(`${from}/`)) throw new SandboxFsError("EINVAL", "rename", from, to);
    const target = this.nodes.get(to);
    if (target?.kind === "dir" && node.kind !== "dir") throw new SandboxFsError("EISDIR", "rename", from, to);
    if (target?.kind === "dir" && (this.children.get(to)?.size ?? 0) > 0) throw new SandboxFsError("ENOTEMPTY", "rename", from, to);
    if (this.nodes.get(parentOf(to))?.kind !== "dir") throw new SandboxFsError("ENOENT", "rename", from, to);
    const moved: Array<[string, FsNode]> = [];
    for (const [p, n] of this.nodes) if (p === from || p.startsWith(`${from}/`)) moved.push([p, n]);
    if (target) this.detach(to);
    this.detach(from);
    for (const [p, n] of moved.sort(([a], [b]) => a.length - b.length)) this.attach(to + p.slice(from.length), n);
    this.report({ kind: "rename", from, to });
  }

  /**
   * Takes the workspace as it is after a child process ended (`under` and everything below it
   * replaced by `start`'s entries there), without reporting anything: the page already has it.
   */
  resync(start: Pick<RunMessage, "files" | "dirs">, under: string): void {
    const now = Date.now();
    const inside = (p: string) => p === under || p.startsWith(`${under}/`);
    const files = start.files.map(([path, data]) => [resolvePath("/", path), data] as const).filter(([p]) => inside(p));
    const kept = new Map(files.map(([p, data]) => [p, data]));
    // Files whose content did not change keep their node (and mtime); the rest is replaced.
    for (const [p, node] of [...this.nodes]) {
      if (!inside(p) || p === under || !this.nodes.has(p)) continue;
      if (node.kind === "file" && kept.get(p) === node.data) continue;
      if (node.kind === "dir" && (start.dirs.includes(p) || files.some(([f]) => f.startsWith(`${p}/`)))) continue;
      this.detach(p);
    }
    this.ensureDir(under, now);
    for (const dir of start.dirs) if (inside(resolvePath("/", dir))) this.ensureDir(resolvePath("/", dir), now);
    for (const [p, data] of files) {
      const node = this.nodes.get(p);
      if (node?.kind === "file" && node.data === data) continue;
      if (node) this.detach(p);
      this.ensureDir(parentOf(p), now);
      this.attach(p, { kind: "file", data, mtime: now });
    }
  }

  /** A synchronous child's changes (sync-answer.ts), taken without reporting anything: the page already has them. */
  takeChanges(changes: WorkspaceChanges): void {
    const now = Date.now();
    for (const path of changes.removed) if (this.nodes.has(path) && path !== "/") this.detach(path);
    for (const dir of changes.dirs) {
      if (this.nodes.get(dir)?.kind === "file") this.detach(dir);
      this.ensureDir(dir, now);
    }
    for (const [path, data] of changes.written) {
      if (this.nodes.get(path)?.kind === "dir") this.detach(path);
      this.ensureDir(parentOf(path), now);
      this.attach(path, { kind: "file", data, mtime: now });
    }
  }

  /** Every file and folder, as a run starts from (a thread of the program starts from this). */
  snapshot(): Pick<RunMessage, "files" | "dirs"> {
    const files: RunMessage["files"] = [];
    const dirs: string[] = [];
    for (const [path, node] of this.nodes) {
      if (node.kind === "file") files.push([path, node.data]);
      else if (path !== "/") dirs.push(path);
    }
    return { files, dirs };
  }

  /** A change that a thread of the program made, made here too (and reported to the page as the program's own). */
  apply(op: FsOp): void {
    switch (op.kind) {
      case "write":
        this.ensureDir(parentOf(op.path), Date.now());
        return this.writeFile(op.path, op.data);
      case "mkdir":
        return void this.mkdir(op.path, true);
      case "remove":
        if (this.nodes.has(op.path)) this.remove(op.path, { recursive: true, syscall: "rm" });
        return;
      case "rename":
        if (this.nodes.has(op.from)) this.rename(op.from, op.to);
        return;
    }
  }

  private requireParent(path: string, syscall: string): void {
    const parent = this.nodes.get(parentOf(path));
    if (!parent) throw new SandboxFsError("ENOENT", syscall, path);
    if (parent.kind !== "dir") throw new SandboxFsError("ENOTDIR", syscall, path);
  }

  private ensureDir(path: string, mtime: number): void {
    if (this.nodes.has(path)) return;
    this.ensureDir(parentOf(path), mtime);
    this.attach(path, { kind: "dir", mtime });
  }

  private attach(path: string, node: FsNode): void {
    this.nodes.set(path, node);
    if (node.kind === "dir" && !this.children.has(path)) this.children.set(path, new Set());
    if (path !== "/") this.children.get(parentOf(path))?.add(path.slice(path.lastIndexOf("/") + 1));
  }

  private detach(path: string): void {
    for (const p of [...this.nodes.keys()]) {
      if (p.startsWith(`${path}/`)) {
        this.nodes.delete(p);
        this.children.delete(p);
      }
    }
    this.nodes.delete(path);
    this.children.delete(path);
    this.children.get(parentOf(path))?.delete(path.slice(path.lastIndexOf("/") + 1));
  }
}
