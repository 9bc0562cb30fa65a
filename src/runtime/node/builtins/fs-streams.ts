// fs.createReadStream and fs.createWriteStream (and a FileHandle's) over the descriptor table of
// fs-descriptors.ts: Node's options (fd, flags, start, end, highWaterMark, encoding, autoClose), its
// 'open' and 'ready' events, bytesRead and bytesWritten. Hand-written for the reason fs.ts gives:
// every byte goes through the one SandboxFs the page replays.
import { Buffer } from "buffer/";
import { Readable, Writable } from "readable-stream";
import type { createDescriptors } from "./fs-descriptors";

type Descriptors = ReturnType<typeof createDescriptors>;
type Encoding = BufferEncoding | "buffer" | null | undefined;

/** Node's default highWaterMark for file read streams. */
const READ_CHUNK = 64 * 1024;

/** A FileHandle as the streams see it: its descriptor, and its own close (a handle is closed as a handle). */
export interface HandleLike {
  readonly fd: number;
  close(): Promise<void>;
}

interface StreamOptions {
  flags?: string;
  encoding?: Encoding;
  fd?: number | HandleLike | null;
  start?: number;
  end?: number;
  highWaterMark?: number;
  autoClose?: boolean;
  emitClose?: boolean;
}

function optionsOf(options: unknown): StreamOptions {
  if (typeof options === "string") return { encoding: options as BufferEncoding };
  return options && typeof options === "object" ? (options as StreamOptions) : {};
}

function isHandle(fd: unknown): fd is HandleLike {
  return typeof fd === "object" && fd !== null && typeof (fd as HandleLike).close === "function";
}

function checkPosition(name: string, value: unknown): void {
  if (value !== undefined && (typeof value !== "number" || !Number.isInteger(value) || value < 0)) {
    const error = new RangeError(`The value of "${name}" is out of range. It must be >= 0 && <= ${Number.MAX_SAFE_INTEGER}. Received ${String(value)}`);
    throw Object.assign(error, { code: "ERR_OUT_OF_RANGE" });
  }
}

export function createStreams(descriptors: Descriptors, openSync: (path: unknown, flags?: unknown) => number, pathOf: (path: unknown) => string) {
  /** Opens `path` (or takes the given descriptor or handle) and says how to close it again. */
  const opener = (path: unknown, options: StreamOptions, defaultFlags: string) => {
    const given = options.fd;
    return {
      open(): number {
        if (isHandle(given)) return given.fd;
        if (typeof given === "number") return given;
        return openSync(path, options.flags ?? defaultFlags);
      },
      close(fd: number, callback: (error?: Error | null) => void): void {
        if (isHandle(given)) {
          given.close().then(() => callback(), callback);
          return;
        }
        try {
          descriptors.closeSync(fd);
          callback();
        } catch (error) {
          callback(error as Error);
        }
      },
    };
  };

  const createReadStream = (path: unknown, rawOptions?: unknown) => {
    const options = optionsOf(rawOptions);
    checkPosition("start", options.start);
    checkPosition("end", options.end);
    if (options.start !== undefined && options.end !== undefined && options.start > options.end) {
      throw Object.assign(new RangeError(`The value of "start" is out of range. It must be <= "end" (here: ${options.end}). Received ${options.start}`), { code: "ERR_OUT_OF_RANGE" });
    }
    const file = opener(path, options, "r");
    const autoClose = options.autoClose !== false;
    const chunkSize = options.highWaterMark ?? READ_CHUNK;
    let fd = -1;
    /** The bytes still to deliver, read once on the first read (a descriptor read copies the whole file). */
    let pending: Buffer | undefined;
    let offset = 0;
    const stream = new Readable({
      highWaterMark: chunkSize,
      emitClose: options.emitClose !== false,
      autoDestroy: autoClose,
      construct(callback: (error?: Error | null) => void) {
        try {
          fd = file.open();
        } catch (error) {
          callback(error as Error);
          return;
        }
        Object.assign(stream, { fd, pending: false });
        stream.emit("open", fd);
        stream.emit("ready");
        callback();
      },
      read() {
        try {
          if (!pending) {
            const size = (descriptors.fstatSync(fd) as { size: number }).size;
            const from = options.start ?? null;
            const last = Math.min(size - 1, options.end ?? Number.POSITIVE_INFINITY);
            const length = Math.max(0, last + 1 - (from ?? 0));
            const buffer = Buffer.alloc(from === null ? size : length);
            const count = descriptors.readSync(fd, buffer, 0, buffer.length, from);
            pending = buffer.subarray(0, from === null && options.end !== undefined ? Math.min(count, options.end + 1) : count);
          }
          if (offset >= pending.length) {
            stream.push(null);
            return;
          }
          const chunk = pending.subarray(offset, offset + chunkSize);
          offset += chunk.length;
          (stream as unknown as { bytesRead: number }).bytesRead += chunk.length;
          stream.push(chunk);
        } catch (error) {
          stream.destroy(error as Error);
        }
      },
      destroy(error: Error | null, callback: (error?: Error | null) => void) {
        if (fd === -1 || !autoClose) {
          callback(error);
          return;
        }
        const open = fd;
        fd = -1;
        file.close(open, (closeError) => callback(error ?? closeError ?? null));
      },
    });
    if (options.encoding && options.encoding !== "buffer") stream.setEncoding(options.encoding);
    return Object.assign(stream, { path: typeof path === "string" ? path : path == null ? undefined : pathOf(path), bytesRead: 0, pending: true, fd: null as number | null, close(callback?: (error?: Error | null) => void) {
      if (callback) stream.once("close", () => callback());
      stream.destroy();
    } });
  };

  const createWriteStream = (path: unknown, rawOptions?: unknown) => {
    const options = optionsOf(rawOptions);
    checkPosition("start", options.start);
    const file = opener(path, options, "w");
    const autoClose = options.autoClose !== false;
    let fd = -1;
    let position = options.start ?? null;
    const stream = new Writable({
      emitClose: options.emitClose !== false,
      autoDestroy: autoClose,
      decodeStrings: false,
      construct(callback: (error?: Error | null) => void) {
        try {
          fd = file.open();
        } catch (error) {
          callback(error as Error);
          return;
        }
        Object.assign(stream, { fd, pending: false });
        stream.emit("open", fd);
        stream.emit("ready");
        callback();
      },
      write(chunk: unknown, encoding: string, callback: (error?: Error | null) => void) {
        try {
          const written =
            typeof chunk === "string"
              ? descriptors.writeSync(fd, chunk, position, encoding === "buffer" ? "utf8" : encoding)
              : descriptors.writeSync(fd, chunk, 0, (chunk as Uint8Array).byteLength, position);
          if (position !== null) position += written;
          (stream as unknown as { bytesWritten: number }).bytesWritten += written;
          callback();
        } catch (error) {
          callback(error as Error);
        }
      },
      destroy(error: Error | null, callback: (error?: Error | null) => void) {
        if (fd === -1 || !autoClose) {
          callback(error);
          return;
        }
        const open = fd;
        fd = -1;
        file.close(open, (closeError) => callback(error ?? closeError ?? null));
      },
    });
    if (options.encoding && options.encoding !== "buffer") stream.setDefaultEncoding(options.encoding);
    return Object.assign(stream, { path: typeof path === "string" ? path : path == null ? undefined : pathOf(path), bytesWritten: 0, pending: true, fd: null as number | null, close(callback?: (error?: Error | null) => void) {
      if (callback) stream.once("close", () => callback());
      stream.end();
    } });
  };

  return { createReadStream, createWriteStream };
}
