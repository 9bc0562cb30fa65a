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

/** Node's fs.ReadStream and fs.WriteStream classes: what the streams are made from, so `instanceof` holds. */
class FileReadStream extends Readable {}
class FileWriteStream extends Writable {}

/**
 * A stream class as fs exports it: `new fs.ReadStream(path, options)` (or without `new`) is
 * `fs.createReadStream(path, options)`, and a stream it makes is `instanceof` it (the `destroy`
 * package, used by compression and send, tells file streams apart this way).
 */
function exportedClass<T extends object>(base: abstract new (...args: never[]) => T, create: (path: unknown, options?: unknown) => T) {
  function Exported(path: unknown, options?: unknown): T {
    const stream = create(path, options);
    // A subclass (`class Tail extends fs.ReadStream`) gets its own prototype on the stream.
    if (new.target && new.target !== Exported) Object.setPrototypeOf(stream, (new.target as { prototype: object }).prototype);
    return stream;
  }
  Exported.prototype = base.prototype;
  Object.defineProperty(Exported, "name", { value: base.name.replace(/^File/, "") });
  return Exported as unknown as { new (path: unknown, options?: unknown): T; (path: unknown, options?: unknown): T; prototype: T };
}

export function createStreams(descriptors: Descriptors, openSync: (path: unknown, flags?: unknown) => number, pathOf: (path: unknown) => string) {
  /**
   * A file stream's life: `construct` opens `path` and emits 'open' and 'ready' (a given descriptor
   * or FileHandle is taken as it is, with neither, as in Node); `destroy` closes it, a handle as a
   * handle. `autoClose: false` only keeps the end of the stream (or an error) from closing it.
   */
  const lifecycle = (path: unknown, options: StreamOptions, defaultFlags: string, stream: () => Readable | Writable) => {
    const given = options.fd;
    const autoClose = options.autoClose !== false;
    let fd = isHandle(given) ? given.fd : typeof given === "number" ? given : -1;
    const close = (open: number, callback: (error?: Error | null) => void): void => {
      if (isHandle(given)) {
        given.close().then(() => callback(), callback);
        return;
      }
      try {
        descriptors.closeSync(open);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    };
    return {
      autoClose,
      given: fd === -1 ? null : fd,
      fd: () => fd,
      construct(callback: (error?: Error | null) => void): void {
        if (fd !== -1) {
          callback();
          return;
        }
        try {
          fd = openSync(path, options.flags ?? defaultFlags);
        } catch (error) {
          callback(error as Error);
          return;
        }
        Object.assign(stream(), { fd, pending: false });
        stream().emit("open", fd);
        stream().emit("ready");
        callback();
      },
      destroy(error: Error | null, callback: (error?: Error | null) => void): void {
        if (fd === -1) {
          callback(error);
          return;
        }
        const open = fd;
        fd = -1;
        close(open, (closeError) => {
          Object.assign(stream(), { fd: null });
          callback(error ?? closeError ?? null);
        });
      },
    };
  };

  /** Node's fields of a file stream: its path, its descriptor (null until open), and close(). */
  const fields = (path: unknown, stream: Readable | Writable, given: number | null, close: () => void) => ({
    path: typeof path === "string" ? path : path == null ? undefined : pathOf(path),
    pending: given === null,
    fd: given,
    close(callback?: (error?: Error | null) => void) {
      if (callback) {
        if (stream.closed) queueMicrotask(() => callback());
        else stream.once("close", () => callback());
      }
      close();
    },
  });

  const createReadStream = (path: unknown, rawOptions?: unknown) => {
    const options = optionsOf(rawOptions);
    checkPosition("start", options.start);
    if (options.end !== Infinity) checkPosition("end", options.end);
    if (options.start !== undefined && options.end !== undefined && options.start > options.end) {
      throw Object.assign(new RangeError(`The value of "start" is out of range. It must be <= "end" (here: ${options.end}). Received ${options.start}`), { code: "ERR_OUT_OF_RANGE" });
    }
    const file = lifecycle(path, options, "r", () => stream);
    const chunkSize = options.highWaterMark ?? READ_CHUNK;
    /** The bytes still to deliver, read once on the first read (a descriptor read copies the whole file). */
    let pending: Buffer | undefined;
    let offset = 0;
    const stream: Readable = new FileReadStream({
      highWaterMark: chunkSize,
      emitClose: options.emitClose !== false,
      autoDestroy: file.autoClose,
      construct: file.construct,
      read() {
        try {
          if (!pending) {
            const fd = file.fd();
            const size = (descriptors.fstatSync(fd) as { size: number }).size;
            const from = options.start ?? null;
            // `end` is inclusive. Without `start`, from the descriptor's position on, `end + 1` bytes
            // at most: the descriptor moves on by what the stream delivers, as in Node.
            const span = (options.end ?? Number.POSITIVE_INFINITY) + 1 - (from ?? 0);
            const buffer = Buffer.alloc(Math.max(0, Math.min(size - (from ?? 0), span)));
            pending = buffer.subarray(0, descriptors.readSync(fd, buffer, 0, buffer.length, from));
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
          // Node leaves a stream that must not close itself open after a read error.
          if (file.autoClose) stream.destroy(error as Error);
          else stream.emit("error", error);
        }
      },
      destroy: file.destroy,
    });
    if (options.encoding && options.encoding !== "buffer") stream.setEncoding(options.encoding);
    return Object.assign(stream, fields(path, stream, file.given, () => stream.destroy()), { bytesRead: 0 });
  };

  const createWriteStream = (path: unknown, rawOptions?: unknown) => {
    const options = optionsOf(rawOptions);
    checkPosition("start", options.start);
    const file = lifecycle(path, options, "w", () => stream);
    let position = options.start ?? null;
    const stream: Writable = new FileWriteStream({
      emitClose: options.emitClose !== false,
      autoDestroy: file.autoClose,
      decodeStrings: false,
      construct: file.construct,
      write(chunk: unknown, encoding: string, callback: (error?: Error | null) => void) {
        try {
          const written =
            typeof chunk === "string"
              ? descriptors.writeSync(file.fd(), chunk, position, encoding === "buffer" ? "utf8" : encoding)
              : descriptors.writeSync(file.fd(), chunk, 0, (chunk as Uint8Array).byteLength, position);
          if (position !== null) position += written;
          (stream as unknown as { bytesWritten: number }).bytesWritten += written;
          callback();
        } catch (error) {
          callback(error as Error);
        }
      },
      destroy: file.destroy,
    });
    if (options.encoding && options.encoding !== "buffer") stream.setDefaultEncoding(options.encoding);
    const close = () => {
      // close() closes the file also where the end of the stream would not.
      if (!file.autoClose) stream.once("finish", () => stream.destroy());
      stream.end();
    };
    return Object.assign(stream, fields(path, stream, file.given, close), { bytesWritten: 0 });
  };

  const ReadStream = exportedClass(FileReadStream, createReadStream);
  const WriteStream = exportedClass(FileWriteStream, createWriteStream);
  return { createReadStream, createWriteStream, ReadStream, WriteStream };
}
