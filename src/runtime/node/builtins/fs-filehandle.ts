// fs.promises.open's FileHandle: Node's promise API over the descriptor table of fs-descriptors.ts,
// so a handle's writes land on the file at once, through the same SandboxFs writes (and the same
// replay to the workspace) as writeFileSync. Each method answers on a later microtask, as Node's
// promises never settle synchronously.
import { Buffer } from "buffer/";
import type { createDescriptors } from "./fs-descriptors";
import type { FsLinks } from "./fs";
import type { createStreams } from "./fs-streams";

type Descriptors = ReturnType<typeof createDescriptors>;
type Encoding = BufferEncoding | "buffer" | null | undefined;

const CHUNK = 64 * 1024;

function encodingOf(options: unknown): Encoding {
  if (typeof options === "string") return options as BufferEncoding;
  if (options && typeof options === "object" && "encoding" in options) return (options as { encoding?: Encoding }).encoding;
  return undefined;
}

/** Node's results are null-prototype objects ({ bytesRead, buffer }), which is how inspect shows them. */
function result<T extends object>(fields: T): T {
  return Object.assign(Object.create(null) as T, fields);
}

/** What a handle's streams and lines are made with: fs's streams over its descriptor, and readline. */
type HandleStreams = ReturnType<typeof createStreams> & Pick<FsLinks, "readline">;

export function createFileHandles(descriptors: Descriptors, streams: HandleStreams) {
  class FileHandle {
    #fd: number;

    constructor(fd: number) {
      this.#fd = fd;
    }

    /** -1 once closed, as in Node. */
    get fd(): number {
      return this.#fd;
    }

    /** The open descriptor; a closed handle throws as Node's does ("file closed", the method's syscall name). */
    #open(syscall: string): number {
      if (this.#fd === -1) throw Object.assign(new Error("file closed"), { code: "EBADF", syscall });
      return this.#fd;
    }

    /** Runs `work` with the open descriptor on a later microtask; a closed handle rejects. */
    async #use<T>(syscall: string, work: (fd: number) => T): Promise<T> {
      await Promise.resolve();
      return work(this.#open(syscall));
    }

    /** read(buffer, offset, length, position), read(buffer, options), read(options) or read(). */
    read(a?: unknown, b?: unknown, c?: unknown, d?: unknown) {
      return this.#use("read", (fd) => {
        let options: { buffer?: Uint8Array; offset?: number; length?: number; position?: number | null };
        if (ArrayBuffer.isView(a)) options = typeof b === "object" && b !== null ? { buffer: a as Uint8Array, ...(b as object) } : { buffer: a as Uint8Array, offset: b as number, length: c as number, position: d as number | null };
        else options = (a as typeof options | undefined) ?? {};
        const buffer = options.buffer ?? Buffer.alloc(16384);
        const offset = options.offset ?? 0;
        const length = options.length ?? buffer.byteLength - offset;
        const bytesRead = descriptors.readSync(fd, buffer, offset, length, options.position ?? null);
        return result({ bytesRead, buffer });
      });
    }

    /** write(buffer[, offset[, length[, position]]]), write(buffer, options) or write(string[, position[, encoding]]). */
    write(data: unknown, a?: unknown, b?: unknown, c?: unknown) {
      return this.#use("write", (fd) => {
        if (ArrayBuffer.isView(data) && typeof a === "object" && a !== null) {
          const options = a as { offset?: number; length?: number; position?: number | null };
          return result({ bytesWritten: descriptors.writeSync(fd, data, options.offset, options.length, options.position), buffer: data });
        }
        return result({ bytesWritten: descriptors.writeSync(fd, data, a, b, c), buffer: data });
      });
    }

    /** The rest of the file from the handle's position (Node reads on from there too). */
    readFile(options?: unknown) {
      return this.#use("readFile", (fd) => {
        const chunks: Buffer[] = [];
        for (;;) {
          const chunk = Buffer.alloc(CHUNK);
          const count = descriptors.readSync(fd, chunk, 0, CHUNK, null);
          if (count === 0) break;
          chunks.push(chunk.subarray(0, count));
        }
        const bytes = Buffer.concat(chunks);
        const encoding = encodingOf(options);
        return encoding && encoding !== "buffer" ? bytes.toString(encoding) : bytes;
      });
    }

    /** Writes at the handle's position (Node neither truncates nor seeks here). */
    writeFile(data: unknown, options?: unknown) {
      return this.#use("writeFile", (fd) => {
        const encoding = encodingOf(options);
        if (typeof data === "string") descriptors.writeSync(fd, data, null, encoding && encoding !== "buffer" ? encoding : "utf8");
        else descriptors.writeSync(fd, data);
      });
    }

    appendFile(data: unknown, options?: unknown) {
      return this.writeFile(data, options);
    }

    stat() {
      return this.#use("fstat", (fd) => descriptors.fstatSync(fd));
    }

    truncate(length = 0) {
      return this.#use("ftruncate", (fd) => descriptors.ftruncateSync(fd, length));
    }

    sync() {
      return this.#use("fsync", (fd) => descriptors.fsyncSync(fd));
    }

    datasync() {
      return this.#use("fdatasync", (fd) => descriptors.fdatasyncSync(fd));
    }

    chmod() {
      return this.#use("fchmod", () => undefined);
    }

    utimes() {
      return this.#use("futimes", () => undefined);
    }

    /** A read stream over this handle (from `start`, or on from the handle's position); it closes the handle when done unless `autoClose: false`. */
    createReadStream(options?: Record<string, unknown>) {
      this.#open("read");
      return streams.createReadStream(null, { ...options, fd: this });
    }

    /** A write stream over this handle; it closes the handle when done unless `autoClose: false`. */
    createWriteStream(options?: Record<string, unknown>) {
      this.#open("write");
      return streams.createWriteStream(null, { ...options, fd: this });
    }

    /** readline over the handle's contents: 'line' events and `for await (const line of handle.readLines())`. */
    readLines(options?: Record<string, unknown>) {
      return streams.readline().createInterface({ input: this.createReadStream({ ...options, encoding: "utf8" }), crlfDelay: Infinity });
    }

    async close(): Promise<void> {
      await Promise.resolve();
      if (this.#fd === -1) return;
      const fd = this.#fd;
      this.#fd = -1;
      descriptors.closeSync(fd);
    }
  }
  // `await using handle = await fs.promises.open(…)` where the engine has explicit resource management.
  const asyncDispose = (Symbol as { asyncDispose?: symbol }).asyncDispose;
  if (asyncDispose) Object.defineProperty(FileHandle.prototype, asyncDispose, { value: FileHandle.prototype.close, configurable: true, writable: true });

  /** fs.promises.open(path[, flags[, mode]]). */
  const open = async (path: unknown, flags?: unknown): Promise<FileHandle> => {
    await Promise.resolve();
    return new FileHandle(descriptors.openSync(path, flags ?? "r"));
  };
  return { FileHandle, open };
}
