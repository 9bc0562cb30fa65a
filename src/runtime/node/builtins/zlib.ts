// node:zlib on fflate (already the app's zip library; small, pure JavaScript and synchronous, which
// a sandboxed worker needs: no Web Workers of its own). gzip, deflate (zlib format), deflateRaw and
// their inverses, plus unzip (gzip or zlib by header), as sync calls, callbacks, promisify and
// Transform streams. Brotli is brotli-wasm (brotli-codec.ts), loaded with the first Brotli call.
// Compressed bytes are valid streams that Node's zlib reads, not byte-identical to Node's.
import * as fflate from "fflate";
import { Buffer } from "buffer/";
import type { Transform as NodeTransform } from "stream";
import stream from "readable-stream";
import { ZLIB_CONSTANTS } from "./zlib-constants";
import { BrotliDecoder, BrotliEncoder, brotliQuality } from "./brotli-codec";
import { crc32 } from "../../../base";

type Kind = "Deflate" | "Inflate" | "Gzip" | "Gunzip" | "DeflateRaw" | "InflateRaw" | "Unzip" | "BrotliCompress" | "BrotliDecompress";
type Input = string | ArrayBufferView | ArrayBuffer;
type Callback = (error: Error | null, result?: Buffer) => void;
interface ZlibOptions {
  level?: number;
  info?: boolean;
  chunkSize?: number;
  windowBits?: number;
  memLevel?: number;
  strategy?: number;
  dictionary?: ArrayBufferView;
  finishFlush?: number;
  flush?: number;
  maxOutputLength?: number;
  params?: Record<string, unknown>;
}
interface Engine {
  ondata: fflate.FlateStreamHandler;
  push(chunk: Uint8Array, final?: boolean): void;
  flush?(sync?: boolean): void;
  close?(): void;
}

const { Transform } = stream as unknown as { Transform: typeof NodeTransform };
/** Brotli output is taken from the codec in pieces of this size (Node's default chunkSize). */
const BROTLI_OUTPUT_CHUNK = ZLIB_CONSTANTS.Z_DEFAULT_CHUNK;

function toBuffer(data: Uint8Array): Buffer {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

function toBytes(input: Input, name = "buffer"): Uint8Array {
  if (typeof input === "string") return Buffer.from(input);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw Object.assign(new TypeError(`The "${name}" argument must be of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer. Received ${input === null ? "null" : typeof input}`), { code: "ERR_INVALID_ARG_TYPE" });
}

function levelOf(options: ZlibOptions | undefined): fflate.DeflateOptions {
  const level = options?.level ?? -1;
  if (!Number.isInteger(level) || level < -1 || level > 9) {
    throw Object.assign(new RangeError(`The value of "options.level" is out of range. It must be >= -1 and <= 9. Received ${level}`), { code: "ERR_OUT_OF_RANGE" });
  }
  const result: fflate.DeflateOptions = { level: (level === -1 ? 6 : level) as fflate.DeflateOptions["level"] };
  if (options?.dictionary) result.dictionary = toBytes(options.dictionary);
  return result;
}

// fflate's error codes as zlib's messages and codes (what programs and tests match on).
const FFLATE_ERRORS: Record<number, [string, string]> = {
  0: ["unexpected end of file", "Z_BUF_ERROR"],
  1: ["invalid block type", "Z_DATA_ERROR"],
  2: ["invalid literal/length code", "Z_DATA_ERROR"],
  3: ["invalid distance too far back", "Z_DATA_ERROR"],
  6: ["incorrect header check", "Z_DATA_ERROR"],
};

function zlibError(error: unknown): Error {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "number") return error as Error;
  const [message, name] = FFLATE_ERRORS[code] ?? [(error as Error).message, "Z_DATA_ERROR"];
  return Object.assign(new Error(message), { errno: ZLIB_CONSTANTS[name as keyof typeof ZLIB_CONSTANTS], code: name });
}

function engineFor(kind: Kind, options: ZlibOptions | undefined): Engine {
  switch (kind) {
    case "Deflate": return new fflate.Zlib(levelOf(options));
    case "Gzip": return new fflate.Gzip(levelOf(options));
    case "DeflateRaw": return new fflate.Deflate(levelOf(options));
    case "Inflate": return new fflate.Unzlib(options?.dictionary ? { dictionary: toBytes(options.dictionary) } : {});
    case "InflateRaw": return new fflate.Inflate(options?.dictionary ? { dictionary: toBytes(options.dictionary) } : {});
    case "Gunzip": return new fflate.Gunzip();
    case "Unzip": return new GzipOrZlib();
    case "BrotliCompress": return new BrotliCompressEngine(options);
    case "BrotliDecompress": return new BrotliDecompressEngine(options);
  }
}

class BrotliCompressEngine implements Engine {
  ondata: fflate.FlateStreamHandler = () => undefined;
  private readonly encoder: BrotliEncoder;
  constructor(options: ZlibOptions | undefined) {
    this.encoder = new BrotliEncoder(brotliQuality(options?.params), options?.chunkSize ?? BROTLI_OUTPUT_CHUNK);
  }
  push(chunk: Uint8Array, final = false): void {
    const emit = (data: Uint8Array) => this.ondata(data as Uint8Array<ArrayBuffer>, false);
    if (chunk.length > 0) this.encoder.write(chunk, emit);
    if (final) {
      this.encoder.end(emit);
      this.ondata(new Uint8Array(0), true);
    }
  }
  // No flush(): brotli-wasm's encoder has no flush operation, so a Brotli stream's flush() emits
  // nothing early; what was written comes out when the stream ends.
  close(): void {
    this.encoder.close();
  }
}

/** Decodes as the input comes (not buffered): output is emitted chunk by chunk. */
class BrotliDecompressEngine implements Engine {
  ondata: fflate.FlateStreamHandler = () => undefined;
  private readonly decoder: BrotliDecoder;
  constructor(options: ZlibOptions | undefined) {
    brotliQuality(options?.params); // Node checks a decoder's params too
    this.decoder = new BrotliDecoder(options?.chunkSize ?? BROTLI_OUTPUT_CHUNK);
  }
  push(chunk: Uint8Array, final = false): void {
    this.decoder.write(chunk, (data) => this.ondata(data as Uint8Array<ArrayBuffer>, false));
    if (final) {
      this.decoder.end();
      this.ondata(new Uint8Array(0), true);
    }
  }
  close(): void {
    this.decoder.close();
  }
}

/** Node's unzip: a gzip or a zlib stream, told apart by the first byte (fflate's Decompress would also take raw deflate, which Node refuses). */
class GzipOrZlib implements Engine {
  ondata: fflate.FlateStreamHandler = () => undefined;
  private inner: Engine | undefined;
  private pending = new Uint8Array(0);
  push(chunk: Uint8Array, final = false): void {
    if (!this.inner) {
      const joined = new Uint8Array(this.pending.length + chunk.length);
      joined.set(this.pending);
      joined.set(chunk, this.pending.length);
      if (joined.length < 2 && !final) {
        this.pending = joined;
        return;
      }
      if (joined.length === 0) throw Object.assign(new Error("unexpected end of file"), { code: 0 });
      const [first = 0, second = 0] = joined;
      const gzip = first === 0x1f && second === 0x8b;
      const zlib = (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0;
      if (!gzip && !zlib) throw Object.assign(new Error("incorrect header check"), { code: 6 });
      this.inner = gzip ? new fflate.Gunzip() : new fflate.Unzlib();
      this.inner.ondata = (data, isFinal) => this.ondata(data, isFinal);
      chunk = joined;
    }
    this.inner.push(chunk, final);
  }
}

function processSync(kind: Kind, input: Input, options?: ZlibOptions): Buffer {
  const data = toBytes(input);
  const parts: Uint8Array[] = [];
  const engine = engineFor(kind, options);
  const limit = options?.maxOutputLength;
  let total = 0;
  // Stops as soon as the output passes maxOutputLength, so a small input that inflates to gigabytes is never held whole.
  engine.ondata = (chunk) => {
    total += chunk.length;
    if (limit !== undefined && total > limit) {
      throw Object.assign(new RangeError(`Cannot create a Buffer larger than ${limit} bytes`), { code: "ERR_BUFFER_TOO_LARGE" });
    }
    parts.push(chunk);
  };
  try {
    engine.push(data, true);
  } catch (error) {
    engine.close?.();
    throw zlibError(error);
  }
  return Buffer.concat(parts.map(toBuffer));
}

export interface ZlibContext {
  /** The program's setImmediate, so a pending callback keeps the program running as in Node. */
  setImmediate: (callback: () => void) => unknown;
}

export function createZlib(context: ZlibContext) {
  class ZlibBase extends Transform {
    bytesWritten = 0;
    readonly _kind: Kind;
    private readonly engine: Engine;
    private output: Buffer[] = [];
    constructor(kind: Kind, options?: ZlibOptions) {
      super({ ...(options as object), highWaterMark: options?.chunkSize ?? ZLIB_CONSTANTS.Z_DEFAULT_CHUNK });
      this._kind = kind;
      this.engine = engineFor(kind, options);
      this.engine.ondata = (data) => {
        if (data.length > 0) this.output.push(toBuffer(data));
      };
    }
    private drainOutput(): void {
      for (const chunk of this.output) this.push(chunk);
      this.output = [];
    }
    override _transform(chunk: Input, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, encoding) : toBytes(chunk, "chunk");
      try {
        this.engine.push(bytes, false);
      } catch (error) {
        return callback(zlibError(error));
      }
      this.bytesWritten += bytes.length;
      this.drainOutput();
      callback();
    }
    override _flush(callback: (error?: Error | null) => void): void {
      try {
        this.engine.push(new Uint8Array(0), true);
      } catch (error) {
        return callback(zlibError(error));
      }
      this.drainOutput();
      callback();
    }
    /** Emits what was compressed so far (a sync flush on deflate streams); the callback runs once it is out. */
    flush(kindOrCallback?: number | (() => void), callback?: () => void): void {
      const done = typeof kindOrCallback === "function" ? kindOrCallback : callback;
      try {
        this.engine.flush?.(true);
      } catch (error) {
        this.destroy(zlibError(error));
        return;
      }
      this.drainOutput();
      if (done) context.setImmediate(done);
    }
    params(_level: number, _strategy: number, callback?: () => void): void {
      if (callback) context.setImmediate(callback);
    }
    override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
      this.engine.close?.();
      callback(error);
    }
    reset(): void {}
    close(callback?: () => void): void {
      if (callback) this.once("close", callback);
      this.destroy();
    }
  }
  const api: Record<string, unknown> = {};
  const lower = (kind: Kind) => kind.charAt(0).toLowerCase() + kind.slice(1);
  for (const kind of ["Deflate", "Inflate", "Gzip", "Gunzip", "DeflateRaw", "InflateRaw", "Unzip", "BrotliCompress", "BrotliDecompress"] as Kind[]) {
    const named = {
      [kind]: class extends ZlibBase {
        constructor(options?: ZlibOptions) {
          super(kind, options);
        }
      },
    }[kind]!;
    const name = lower(kind);
    const sync = (input: Input, options?: ZlibOptions) => {
      const buffer = processSync(kind, input, options);
      return options?.info ? { buffer, engine: new named(options) } : buffer;
    };
    const callbackStyle = (input: Input, optionsOrCallback: ZlibOptions | Callback, maybeCallback?: Callback) => {
      const callback = typeof optionsOrCallback === "function" ? optionsOrCallback : maybeCallback;
      const options = typeof optionsOrCallback === "function" ? undefined : optionsOrCallback;
      if (typeof callback !== "function") throw Object.assign(new TypeError(`The "callback" argument must be of type function. Received ${callback === undefined ? "undefined" : typeof callback}`), { code: "ERR_INVALID_ARG_TYPE" });
      let result: Buffer;
      try {
        result = processSync(kind, input, options);
      } catch (error) {
        context.setImmediate(() => callback(error as Error));
        return;
      }
      context.setImmediate(() => callback(null, result));
    };
    api[kind] = named;
    api[name] = callbackStyle;
    api[`${name}Sync`] = sync;
    api[`create${kind}`] = (options?: ZlibOptions) => new named(options);
  }
  const codes: Record<string, string | number> = {};
  for (const name of ["Z_OK", "Z_STREAM_END", "Z_NEED_DICT", "Z_ERRNO", "Z_STREAM_ERROR", "Z_DATA_ERROR", "Z_MEM_ERROR", "Z_BUF_ERROR", "Z_VERSION_ERROR"] as const) {
    codes[name] = ZLIB_CONSTANTS[name];
    codes[String(ZLIB_CONSTANTS[name])] = name;
  }
  Object.assign(api, {
    constants: { ...ZLIB_CONSTANTS },
    codes: Object.freeze(codes),
    crc32: (data: string | ArrayBufferView, value = 0) => crc32(toBytes(data, "data"), value),
  });
  // The legacy zlib.Z_* names, not enumerable as in Node.
  for (const [name, value] of Object.entries(ZLIB_CONSTANTS)) {
    if (name.startsWith("Z_")) Object.defineProperty(api, name, { value, enumerable: false });
  }
  return api;
}
