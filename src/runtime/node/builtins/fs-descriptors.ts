// File descriptors for Node's `fs` (openSync, readSync, writeSync, fstatSync, closeSync and their
// callback forms): a table of open files over the sandbox's synchronous file system. Every write
// lands on the file at once (TypeScript's compiler writes its output as open + write + close), so
// the workspace sees it as it sees writeFileSync. Hand-written for the reason fs.ts gives.
import { Buffer } from "buffer/";
import { SandboxFsError, type SandboxFs } from "../../sandbox/sandbox-fs";
import type { FileData } from "../../sandbox/protocol";

interface Open {
  path: string;
  readable: boolean;
  writable: boolean;
  append: boolean;
  position: number;
}

export interface DescriptorContext {
  fs: SandboxFs;
  abs(path: unknown): string;
  notify(path: string, type: "change" | "rename"): void;
  stat(path: string, syscall: string): unknown;
}

const encoder = new TextEncoder();
const FLAGS: Record<string, { read: boolean; write: boolean; create: boolean; truncate: boolean; append: boolean; exclusive: boolean }> = {
  r: { read: true, write: false, create: false, truncate: false, append: false, exclusive: false },
  "r+": { read: true, write: true, create: false, truncate: false, append: false, exclusive: false },
  w: { read: false, write: true, create: true, truncate: true, append: false, exclusive: false },
  "w+": { read: true, write: true, create: true, truncate: true, append: false, exclusive: false },
  a: { read: false, write: true, create: true, truncate: false, append: true, exclusive: false },
  "a+": { read: true, write: true, create: true, truncate: false, append: true, exclusive: false },
};

function parseFlags(flags: unknown): (typeof FLAGS)[string] {
  if (typeof flags === "number") {
    const access = flags & 3;
    return { read: access !== 1, write: access !== 0, create: (flags & 64) !== 0, truncate: (flags & 512) !== 0, append: (flags & 1024) !== 0, exclusive: (flags & 128) !== 0 };
  }
  const text = String(flags ?? "r").replace("s", "");
  const exclusive = text.includes("x");
  const known = FLAGS[text.replace("x", "")];
  if (!known) throw Object.assign(new TypeError(`The value "${String(flags)}" is invalid for option "flags"`), { code: "ERR_INVALID_ARG_VALUE" });
  return { ...known, exclusive };
}

function bytesOf(data: FileData): Buffer {
  return typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data.buffer, data.byteOffset, data.length);
}

function badDescriptor(syscall: string): Error {
  return Object.assign(new Error(`EBADF: bad file descriptor, ${syscall}`), { code: "EBADF", errno: -9, syscall });
}

export function createDescriptors(context: DescriptorContext) {
  const { fs } = context;
  const table = new Map<number, Open>();
  let next = 3;
  const entry = (fd: unknown, syscall: string): Open => {
    const open = typeof fd === "number" ? table.get(fd) : undefined;
    if (!open) throw badDescriptor(syscall);
    return open;
  };

  const openSync = (path: unknown, flags?: unknown): number => {
    const p = context.abs(path);
    const mode = parseFlags(flags);
    const node = fs.stat(p);
    if (node?.kind === "dir" && mode.write) throw new SandboxFsError("EISDIR", "open", p);
    if (node && mode.exclusive && mode.create) throw new SandboxFsError("EEXIST", "open", p);
    if (!node && !mode.create) throw new SandboxFsError("ENOENT", "open", p);
    if (!node || mode.truncate) {
      fs.writeFile(p, "");
      context.notify(p, node ? "change" : "rename");
    }
    const fd = next++;
    table.set(fd, { path: p, readable: mode.read, writable: mode.write, append: mode.append, position: 0 });
    return fd;
  };

  const closeSync = (fd: unknown): void => {
    entry(fd, "close");
    table.delete(fd as number);
  };

  /** writeSync(fd, buffer[, offset[, length[, position]]]) or writeSync(fd, string[, position[, encoding]]). */
  const writeSync = (fd: unknown, data: unknown, a?: unknown, b?: unknown, c?: unknown): number => {
    const open = entry(fd, "write");
    if (!open.writable) throw badDescriptor("write");
    let chunk: Buffer;
    let position: unknown;
    if (typeof data === "string") {
      chunk = Buffer.from(data, (typeof b === "string" ? b : "utf8") as BufferEncoding);
      position = a;
    } else if (ArrayBuffer.isView(data)) {
      const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const offset = typeof a === "number" ? a : 0;
      const length = typeof b === "number" ? b : view.length - offset;
      chunk = view.subarray(offset, offset + length);
      position = c;
    } else throw Object.assign(new TypeError(`The "buffer" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${typeof data}`), { code: "ERR_INVALID_ARG_TYPE" });
    const current = fs.readFile(open.path, "write");
    const size = typeof current === "string" ? encoder.encode(current).length : current.length;
    const at = open.append ? size : typeof position === "number" && position >= 0 ? position : open.position;
    let content: FileData;
    // The common case, text written in order, stays text (as writeFileSync keeps it).
    if (typeof current === "string" && typeof data === "string" && at === size && (typeof b !== "string" || /^utf-?8$/i.test(b))) content = current + data;
    else {
      const bytes = bytesOf(current);
      const out = Buffer.alloc(Math.max(bytes.length, at + chunk.length));
      bytes.copy(out, 0);
      chunk.copy(out, at);
      content = Uint8Array.from(out);
    }
    fs.writeFile(open.path, content);
    context.notify(open.path, "change");
    if (!(typeof position === "number" && position >= 0) || open.append) open.position = at + chunk.length;
    return chunk.length;
  };

  /** readSync(fd, buffer, offset, length, position) or readSync(fd, buffer, { offset, length, position }). */
  const readSync = (fd: unknown, buffer: Uint8Array, a?: unknown, b?: unknown, c?: unknown): number => {
    const open = entry(fd, "read");
    if (!open.readable) throw badDescriptor("read");
    const options = typeof a === "object" && a !== null ? (a as { offset?: number; length?: number; position?: number | null }) : { offset: a as number, length: b as number, position: c as number | null };
    const offset = options.offset ?? 0;
    const length = options.length ?? buffer.byteLength - offset;
    const explicit = typeof options.position === "number" && options.position >= 0;
    const at = explicit ? (options.position as number) : open.position;
    let data: FileData;
    try {
      data = fs.readFile(open.path, "read");
    } catch (error) {
      // A descriptor's errors name no path (Node's read(2) has none).
      if (error instanceof SandboxFsError && error.code === "EISDIR") throw Object.assign(new Error("EISDIR: illegal operation on a directory, read"), { errno: -21, code: "EISDIR", syscall: "read" });
      throw error;
    }
    const bytes = bytesOf(data);
    const count = Math.max(0, Math.min(length, bytes.length - at));
    new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).set(bytes.subarray(at, at + count), offset);
    if (!explicit) open.position = at + count;
    return count;
  };

  const fstatSync = (fd: unknown) => context.stat(entry(fd, "fstat").path, "fstat");
  const ftruncateSync = (fd: unknown, length = 0) => {
    const open = entry(fd, "ftruncate");
    const bytes = bytesOf(fs.readFile(open.path, "ftruncate"));
    const out = Buffer.alloc(length);
    bytes.copy(out, 0, 0, Math.min(length, bytes.length));
    fs.writeFile(open.path, Uint8Array.from(out));
    context.notify(open.path, "change");
  };
  const fsyncSync = (fd: unknown) => void entry(fd, "fsync");

  return { openSync, closeSync, writeSync, readSync, fstatSync, ftruncateSync, fsyncSync, fdatasyncSync: fsyncSync };
}
