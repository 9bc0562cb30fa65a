// Node's `fs` (sync, callback and promises forms) over the sandbox's synchronous file system, whose
// changes flow back to the workspace. Hand-written: the point is that every call lands on the one
// SandboxFs the page replays (see src/runtime/sandbox/sandbox-fs.ts for why not memfs).
import { Buffer } from "buffer/";
import { EventEmitter } from "events/";
import { SandboxFsError, type FsNode, type SandboxFs } from "../../sandbox/sandbox-fs";
import type { FileData } from "../../sandbox/protocol";
import { realSetTimeout, type EventLoop } from "../event-loop";
import { createDescriptors } from "./fs-descriptors";
import { createFileHandles } from "./fs-filehandle";
import { createStreams } from "./fs-streams";
import { Dir } from "./fs-dir";

type PathLike = string | Uint8Array | URL;
type Callback = (error: Error | null, ...values: unknown[]) => void;
type Encoding = BufferEncoding | "buffer" | null | undefined;

const encoder = new TextEncoder();

export interface FsContext {
  fs: SandboxFs;
  loop: EventLoop;
  cwd(): string;
  resolve(cwd: string, path: string): string;
}

export const constants = {
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1,
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024,
  S_IFMT: 61440, S_IFREG: 32768, S_IFDIR: 16384, S_IFLNK: 40960,
  COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4,
};

class Stats {
  readonly dev = 1;
  readonly ino: number;
  readonly mode: number;
  readonly nlink = 1;
  readonly uid = 1000;
  readonly gid = 1000;
  readonly rdev = 0;
  readonly size: number;
  readonly blksize = 4096;
  readonly blocks: number;
  readonly atimeMs: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly birthtimeMs: number;
  readonly atime: Date;
  readonly mtime: Date;
  readonly ctime: Date;
  readonly birthtime: Date;
  constructor(node: FsNode, ino: number) {
    this.ino = ino;
    this.mode = node.kind === "dir" ? 0o40755 : 0o100644;
    this.size = node.kind === "dir" ? 4096 : byteLength(node.data);
    this.blocks = Math.ceil(this.size / 512);
    this.atimeMs = this.mtimeMs = this.ctimeMs = this.birthtimeMs = node.mtime;
    this.atime = this.mtime = this.ctime = this.birthtime = new Date(node.mtime);
  }
  isFile() { return (this.mode & constants.S_IFMT) === constants.S_IFREG; }
  isDirectory() { return (this.mode & constants.S_IFMT) === constants.S_IFDIR; }
  isSymbolicLink() { return false; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

/** Node's BigIntStats (stat with { bigint: true }): every number a BigInt, plus the nanosecond times. WASI implementations read these. */
class BigIntStats {
  [key: string]: unknown;
  constructor(stats: Stats) {
    for (const [key, value] of Object.entries(stats)) this[key] = typeof value === "number" ? BigInt(Math.trunc(value)) : value;
    for (const name of ["atime", "mtime", "ctime", "birthtime"] as const) this[`${name}Ns`] = BigInt(Math.trunc(stats[`${name}Ms`])) * 1_000_000n;
  }
  isFile() { return (Number(this.mode) & constants.S_IFMT) === constants.S_IFREG; }
  isDirectory() { return (Number(this.mode) & constants.S_IFMT) === constants.S_IFDIR; }
  isSymbolicLink() { return false; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

/** The stats as the options ask: BigIntStats for { bigint: true }. */
function statsAs(stats: Stats, options: unknown): Stats | BigIntStats {
  return options && typeof options === "object" && (options as { bigint?: unknown }).bigint === true ? new BigIntStats(stats) : stats;
}

class Dirent {
  constructor(
    readonly name: string,
    private readonly kind: "file" | "dir",
    readonly parentPath: string,
  ) {}
  get path() { return this.parentPath; }
  isFile() { return this.kind === "file"; }
  isDirectory() { return this.kind === "dir"; }
  isSymbolicLink() { return false; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

function byteLength(data: FileData): number {
  return typeof data === "string" ? encoder.encode(data).length : data.length;
}

function encodingOf(options: unknown): Encoding {
  if (typeof options === "string") return options as BufferEncoding;
  if (options && typeof options === "object" && "encoding" in options) return (options as { encoding?: Encoding }).encoding;
  return undefined;
}

function toBuffer(data: FileData): Buffer {
  return typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data.buffer, data.byteOffset, data.length);
}

function decode(data: FileData, encoding: Encoding): string | Buffer {
  if (!encoding || encoding === "buffer") return toBuffer(data);
  if (typeof data === "string" && (encoding === "utf8" || encoding === "utf-8")) return data;
  return toBuffer(data).toString(encoding);
}

function toData(data: unknown, encoding: Encoding): FileData {
  if (typeof data === "string") return !encoding || encoding === "utf8" || encoding === "utf-8" ? data : Uint8Array.from(Buffer.from(data, encoding as BufferEncoding));
  if (data instanceof Uint8Array) return Uint8Array.from(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  const error = new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${data === null ? "null" : typeof data}`);
  throw Object.assign(error, { code: "ERR_INVALID_ARG_TYPE" });
}

function concat(a: FileData, b: FileData): FileData {
  if (typeof a === "string" && typeof b === "string") return a + b;
  return Uint8Array.from(Buffer.concat([toBuffer(a), toBuffer(b)]));
}

/** Other built-ins fs uses, given lazily (a FileHandle's readLines is readline's). */
export interface FsLinks {
  readline(): { createInterface(options: { input: unknown; crlfDelay?: number }): unknown };
}

export function createFs(context: FsContext, links: FsLinks) {
  const { fs, loop } = context;
  const inodes = new Map<string, number>();
  const watchers = new Set<{ path: string; recursive: boolean; emit: (type: string, name: string) => void }>();

  const abs = (path: PathLike): string => {
    let p: string;
    if (typeof path === "string") p = path;
    else if (path instanceof URL) {
      if (path.protocol !== "file:") throw Object.assign(new TypeError("The URL must be of scheme file"), { code: "ERR_INVALID_URL_SCHEME" });
      p = decodeURIComponent(path.pathname);
    } else if (path instanceof Uint8Array) p = Buffer.from(path).toString();
    else throw Object.assign(new TypeError(`The "path" argument must be of type string or an instance of Buffer or URL. Received ${path === null ? "null" : typeof path}`), { code: "ERR_INVALID_ARG_TYPE" });
    return context.resolve(context.cwd(), p);
  };
  const notify = (path: string, type: "change" | "rename") => {
    for (const watcher of watchers) {
      if (path === watcher.path) watcher.emit(type, path.slice(path.lastIndexOf("/") + 1));
      else if (path.startsWith(`${watcher.path}/`)) {
        const rest = path.slice(watcher.path.length + 1);
        if (watcher.recursive || !rest.includes("/")) watcher.emit(type, rest);
      }
    }
  };
  const stat = (path: PathLike, syscall = "stat"): Stats => {
    const p = abs(path);
    const node = fs.stat(p);
    if (!node) throw new SandboxFsError("ENOENT", syscall, p);
    let ino = inodes.get(p);
    if (ino === undefined) inodes.set(p, (ino = inodes.size + 1000));
    return new Stats(node, ino);
  };
  const write = (path: PathLike, data: unknown, options: unknown, append: boolean) => {
    const p = abs(path);
    const encoding = encodingOf(options) ?? "utf8";
    const flag = options && typeof options === "object" ? (options as { flag?: string }).flag : undefined;
    let content = toData(data, encoding);
    const existing = fs.stat(p);
    if (flag?.includes("x") && existing) throw new SandboxFsError("EEXIST", "open", p);
    if ((append || flag?.startsWith("a")) && existing?.kind === "file") content = concat(existing.data, content);
    fs.writeFile(p, content);
    notify(p, existing ? "change" : "rename");
  };
  const copy = (from: PathLike, to: PathLike, mode = 0) => {
    const src = abs(from);
    const dest = abs(to);
    if ((mode & constants.COPYFILE_EXCL) !== 0 && fs.stat(dest)) throw new SandboxFsError("EEXIST", "copyfile", src, dest);
    const data = fs.readFile(src, "copyfile");
    fs.writeFile(dest, typeof data === "string" ? data : Uint8Array.from(data), "copyfile");
    notify(dest, "change");
  };
  const cp = (from: PathLike, to: PathLike, options: { recursive?: boolean; force?: boolean; errorOnExist?: boolean } = {}) => {
    const src = abs(from);
    const dest = abs(to);
    const node = fs.stat(src);
    if (!node) throw new SandboxFsError("ENOENT", "cp", src);
    if (node.kind === "file") {
      if (fs.stat(dest) && options.force === false) {
        if (options.errorOnExist) throw new SandboxFsError("EEXIST", "cp", dest);
        return;
      }
      return copy(src, dest);
    }
    if (!options.recursive) throw Object.assign(new Error(`Recursive option is required to copy a directory: ${src}`), { code: "ERR_FS_EISDIR" });
    fs.mkdir(dest, true);
    for (const name of fs.readdir(src)) cp(`${src}/${name}`, `${dest}/${name}`, options);
  };
  const readdir = (path: PathLike, options?: unknown) => {
    const p = abs(path);
    const withTypes = typeof options === "object" && options !== null && (options as { withFileTypes?: boolean }).withFileTypes === true;
    const recursive = typeof options === "object" && options !== null && (options as { recursive?: boolean }).recursive === true;
    const encoding = encodingOf(options);
    const out: Array<string | Buffer | Dirent> = [];
    const walk = (dir: string, prefix: string) => {
      for (const name of fs.readdir(dir)) {
        const child = `${dir === "/" ? "" : dir}/${name}`;
        const kind = fs.stat(child)?.kind ?? "file";
        if (withTypes) out.push(new Dirent(name, kind, dir));
        else out.push(encoding === "buffer" ? Buffer.from(prefix + name) : prefix + name);
        if (recursive && kind === "dir") walk(child, `${prefix}${name}/`);
      }
    };
    walk(p, "");
    return out;
  };
  const rm = (path: PathLike, options: { recursive?: boolean; force?: boolean } = {}) => {
    const p = abs(path);
    const node = fs.stat(p);
    if (!node) {
      if (options.force) return;
      throw new SandboxFsError("ENOENT", "rm", p);
    }
    if (node.kind === "dir" && !options.recursive) {
      throw Object.assign(new Error(`Path is a directory: rm returned EISDIR (is a directory) ${p}`), { code: "ERR_FS_EISDIR", errno: 21, syscall: "rm", path: p });
    }
    fs.remove(p, { recursive: true, syscall: "rm" });
    notify(p, "rename");
  };
  const access = (path: PathLike) => {
    const p = abs(path);
    if (!fs.stat(p)) throw new SandboxFsError("ENOENT", "access", p);
  };
  const realpath = (path: PathLike) => {
    const p = abs(path);
    if (!fs.stat(p)) throw new SandboxFsError("ENOENT", "realpath", p);
    return p;
  };
  let tempCounter = 0;
  const mkdtemp = (prefix: string) => {
    let p: string;
    do p = abs(`${prefix}${Math.random().toString(36).slice(2, 8)}${tempCounter++ > 1000 ? tempCounter : ""}`);
    while (fs.stat(p));
    fs.mkdir(p, false);
    return p;
  };

  const descriptors = createDescriptors({ fs, abs: (path) => abs(path as PathLike), notify, stat: (path, syscall) => stat(path, syscall) });
  /** A callback on a later turn of the loop (in the AsyncLocalStorage frame it was asked in), as Node answers. */
  const nextTurn = (callback: () => void) => {
    const bound = loop.asyncContext.bindCallback(callback);
    loop.ref();
    realSetTimeout(() => {
      loop.unref();
      loop.guard(bound);
    }, 0);
  };
  const sync = {
    ...descriptors,
    fstatSync: (fd: unknown, options?: unknown) => statsAs(descriptors.fstatSync(fd) as Stats, options),
    existsSync: (path: PathLike) => {
      try {
        return fs.stat(abs(path)) !== undefined;
      } catch {
        return false;
      }
    },
    readFileSync: (path: PathLike, options?: unknown) => decode(fs.readFile(abs(path)), encodingOf(options)),
    writeFileSync: (path: PathLike, data: unknown, options?: unknown) => write(path, data, options, false),
    appendFileSync: (path: PathLike, data: unknown, options?: unknown) => write(path, data, options, true),
    statSync: (path: PathLike, options?: { throwIfNoEntry?: boolean; bigint?: boolean }) => {
      try {
        return statsAs(stat(path), options);
      } catch (error) {
        if (options?.throwIfNoEntry === false && (error as { code?: string }).code === "ENOENT") return undefined;
        throw error;
      }
    },
    lstatSync: (path: PathLike, options?: { throwIfNoEntry?: boolean; bigint?: boolean }) => {
      try {
        return statsAs(stat(path, "lstat"), options);
      } catch (error) {
        if (options?.throwIfNoEntry === false && (error as { code?: string }).code === "ENOENT") return undefined;
        throw error;
      }
    },
    readdirSync: readdir,
    mkdirSync: (path: PathLike, options?: { recursive?: boolean } | number) => {
      const p = abs(path);
      const created = fs.mkdir(p, typeof options === "object" && options?.recursive === true);
      notify(p, "rename");
      return typeof options === "object" && options?.recursive ? created : undefined;
    },
    rmSync: rm,
    rmdirSync: (path: PathLike, options?: { recursive?: boolean }) => {
      const p = abs(path);
      fs.remove(p, { recursive: options?.recursive === true, dirOnly: true, syscall: "rmdir" });
      notify(p, "rename");
    },
    unlinkSync: (path: PathLike) => {
      const p = abs(path);
      fs.remove(p, { fileOnly: true, syscall: "unlink" });
      notify(p, "rename");
    },
    renameSync: (from: PathLike, to: PathLike) => {
      const a = abs(from);
      const b = abs(to);
      fs.rename(a, b);
      notify(a, "rename");
      notify(b, "rename");
    },
    copyFileSync: copy,
    cpSync: cp,
    accessSync: access,
    realpathSync: Object.assign(realpath, { native: realpath }),
    opendirSync: (path: PathLike) => new Dir(String(path), readdir(path, { withFileTypes: true }) as Dirent[], nextTurn),
    mkdtempSync: mkdtemp,
    truncateSync: (path: PathLike, length = 0) => {
      const p = abs(path);
      fs.writeFile(p, Uint8Array.from(toBuffer(fs.readFile(p)).subarray(0, length)));
    },
    chmodSync: (path: PathLike) => void access(path),
    chownSync: (path: PathLike) => void access(path),
    utimesSync: (path: PathLike) => void access(path),
    readlinkSync: (path: PathLike) => {
      throw new SandboxFsError("EINVAL", "readlink", abs(path));
    },
    // The workspace holds files and folders only (the shell's ln -s says the same): not supported,
    // ENOTSUP as Node reports an operation the file system cannot do, never a permission problem.
    symlinkSync: (target: PathLike, path: PathLike) => {
      throw new SandboxFsError("ENOTSUP", "symlink", String(target), String(path));
    },
  };

  // Node's errors name the paths as the program gave them ("open 'notes.txt'"); ours are resolved.
  const asGiven = <F extends (...args: never[]) => unknown>(fn: F): F =>
    Object.assign(function givenPaths(...args: unknown[]) {
      try {
        return (fn as unknown as (...a: unknown[]) => unknown)(...args);
      } catch (error) {
        if (error instanceof SandboxFsError) {
          for (const given of args.slice(0, 2)) {
            if (typeof given !== "string") continue;
            const resolved = abs(given);
            if (resolved === given) continue;
            if (error.path === resolved) Object.defineProperty(error, "path", { value: given, enumerable: true, configurable: true, writable: true });
            error.message = error.message.split(`'${resolved}'`).join(`'${given}'`);
          }
        }
        throw error;
      }
    }, fn) as unknown as F;
  for (const key of Object.keys(sync) as Array<keyof typeof sync>) (sync as Record<string, unknown>)[key] = asGiven(sync[key] as (...args: never[]) => unknown);

  // Callback forms: the same work, answered on a later turn of the loop as Node does.
  const callbackForm = (fn: (...args: never[]) => unknown, resultless = false) =>
    function callbackVersion(...args: unknown[]) {
      const given = args.pop();
      if (typeof given !== "function") {
        throw Object.assign(new TypeError(`The "cb" argument must be of type function. Received ${typeof given}`), { code: "ERR_INVALID_ARG_TYPE" });
      }
      // Answered in the AsyncLocalStorage frame it was asked in, as Node's fs callbacks are.
      const callback = loop.asyncContext.bindCallback(given as Callback);
      let outcome: { error: Error | null; value?: unknown };
      try {
        outcome = { error: null, value: (fn as (...a: unknown[]) => unknown)(...args) };
      } catch (error) {
        outcome = { error: error as Error };
      }
      loop.ref();
      realSetTimeout(() => {
        loop.unref();
        if (outcome.error) loop.guard(callback as Callback, outcome.error);
        else if (resultless) loop.guard(callback as Callback, null);
        else loop.guard(callback as Callback, null, outcome.value);
      }, 0);
    };
  const promiseForm = (fn: (...args: never[]) => unknown) =>
    async function promiseVersion(...args: unknown[]) {
      await Promise.resolve();
      return (fn as (...a: unknown[]) => unknown)(...args);
    };

  const names: Array<[keyof typeof sync, boolean]> = [
    ["readFileSync", false], ["writeFileSync", true], ["appendFileSync", true], ["statSync", false], ["lstatSync", false],
    ["readdirSync", false], ["mkdirSync", false], ["rmSync", true], ["rmdirSync", true], ["unlinkSync", true],
    ["renameSync", true], ["copyFileSync", true], ["cpSync", true], ["accessSync", true], ["realpathSync", false],
    ["mkdtempSync", false], ["truncateSync", true], ["chmodSync", true], ["chownSync", true], ["utimesSync", true],
    ["readlinkSync", false], ["symlinkSync", true], ["openSync", false], ["closeSync", true], ["fstatSync", false],
    ["fsyncSync", true], ["fdatasyncSync", true], ["ftruncateSync", true],
  ];
  const callbacks: Record<string, unknown> = {};
  const promises: Record<string, unknown> = {};
  for (const [name, resultless] of names) {
    const base = name.slice(0, -4);
    callbacks[base] = callbackForm(sync[name] as never, resultless);
    // fs.promises has FileHandles instead of descriptors.
    if (!(name in descriptors)) promises[base] = promiseForm(sync[name] as never);
  }
  const streams = createStreams(descriptors, sync.openSync, (path) => abs(path as PathLike));
  promises.open = createFileHandles({ ...descriptors, openSync: sync.openSync }, { ...streams, readline: links.readline }).open;
  // fs.write and fs.read answer (error, bytes, buffer) as Node does.
  for (const name of ["writeSync", "readSync"] as const) {
    const withBytes = callbackForm((...args: unknown[]) => [(sync[name] as (...a: unknown[]) => number)(...args), args[1]]);
    callbacks[name.slice(0, -4)] = (...args: unknown[]) => {
      const callback = args.pop() as Callback;
      (withBytes as (...a: unknown[]) => void)(...args, (error: Error | null, result?: [number, unknown]) => (error ? callback(error) : callback(null, ...result!)));
    };
  }
  // fs.exists(path, cb) answers with a boolean only (no error argument).
  callbacks.exists = (path: PathLike, callback: (exists: boolean) => void) => {
    const exists = sync.existsSync(path);
    loop.ref();
    realSetTimeout(() => {
      loop.unref();
      loop.guard(callback, exists);
    }, 0);
  };
  promises.rm = promiseForm(sync.rmSync as never);
  callbacks.opendir = callbackForm(((path: PathLike) => sync.opendirSync(path)) as never);
  promises.opendir = promiseForm(((path: PathLike) => sync.opendirSync(path)) as never);
  // fs.realpath.native as Node has it (fs-extra checks for it).
  Object.assign(callbacks.realpath as object, { native: callbacks.realpath });
  promises.constants = constants;

  /** fs.watch: the program's own changes (the page's are not seen while it runs). */
  const watch = (path: PathLike, options?: unknown, listener?: (type: string, name: string) => void) => {
    if (typeof options === "function") {
      listener = options as (type: string, name: string) => void;
      options = undefined;
    }
    const p = abs(path);
    if (!fs.stat(p)) throw new SandboxFsError("ENOENT", "watch", p);
    const watcher = new EventEmitter() as EventEmitter & { close(): void; ref(): unknown; unref(): unknown };
    const persistent = !(typeof options === "object" && options !== null && (options as { persistent?: boolean }).persistent === false);
    let referenced = persistent;
    if (referenced) loop.ref();
    const entry = {
      path: p,
      recursive: typeof options === "object" && options !== null && (options as { recursive?: boolean }).recursive === true,
      emit: (type: string, name: string) => queueMicrotask(() => loop.guard(() => watcher.emit("change", type, name))),
    };
    watchers.add(entry);
    if (listener) watcher.on("change", listener);
    watcher.close = () => {
      if (!watchers.delete(entry)) return;
      if (referenced) loop.unref();
      referenced = false;
      watcher.emit("close");
    };
    watcher.ref = () => {
      if (!referenced && watchers.has(entry)) loop.ref();
      referenced = true;
      return watcher;
    };
    watcher.unref = () => {
      if (referenced && watchers.has(entry)) loop.unref();
      referenced = false;
      return watcher;
    };
    return watcher;
  };

  const { createReadStream, createWriteStream, ReadStream, WriteStream } = streams;

  const module = {
    ...sync,
    ...callbacks,
    constants,
    Stats,
    Dirent,
    watch,
    createReadStream,
    createWriteStream,
    ReadStream,
    WriteStream,
    // Node's older names for the same classes.
    FileReadStream: ReadStream,
    FileWriteStream: WriteStream,
    promises: { ...promises, watch: undefined },
  };
  return module;
}
