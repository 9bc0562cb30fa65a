// Brotli for node:zlib on brotli-wasm (Google's Brotli as ported to Rust by Dropbox, built to
// WebAssembly; Apache-2.0): a real encoder and a decoder that checks its input as Google's does,
// both incremental. The builtins are synchronous, so the wasm is compiled synchronously (a worker
// may) from bytes inlined in the worker bundle (gzipped, scripts/gzipped-base64-plugin.ts), on the
// first Brotli call only: programs that never use Brotli do not pay for unpacking and compiling
// ~1 MB of wasm. The package's own Node glue (pkg.node, wasm-bindgen's) is evaluated as given, with
// `fs.readFileSync` answering those bytes: the same code in the unit tests and in the sandbox's
// worker, and no glue of ours to drift.
import glueSource from "brotli-wasm/pkg.node/brotli_wasm.js?raw";
import wasmGzipped from "brotli-wasm/pkg.node/brotli_wasm_bg.wasm?gzip-base64";
import { gunzipSync } from "fflate";
import { fromBase64 } from "../../../base";
import { ZLIB_CONSTANTS } from "./zlib-constants";

interface StreamResult {
  readonly buf: Uint8Array;
  readonly code: number;
  readonly input_offset: number;
  free(): void;
}
interface BrotliWasm {
  CompressStream: new (quality?: number) => { compress(input: Uint8Array | undefined, outputSize: number): StreamResult; free(): void };
  DecompressStream: new () => { decompress(input: Uint8Array, outputSize: number): StreamResult; free(): void };
}

// brotli-wasm's BrotliStreamResultCode.
const SUCCESS = 1;
const NEEDS_MORE_OUTPUT = 3;

let loaded: BrotliWasm | undefined;

function brotliWasm(): BrotliWasm {
  if (loaded) return loaded;
  // fromBase64 (atob), not the buffer port's base64 decoder: 5 times faster on a cold worker.
  const bytes = gunzipSync(fromBase64(wasmGzipped));
  const module = { exports: {} as BrotliWasm };
  const requireForGlue = (id: string): unknown => {
    if (id === "util") return { TextDecoder, TextEncoder };
    if (id === "path") return { join: (...parts: string[]) => parts.join("/") };
    if (id === "fs") return { readFileSync: () => bytes };
    throw new Error(`brotli-wasm's glue asked for ${id}`);
  };
  // The package's CommonJS glue, run with our require (above).
  new Function("module", "exports", "require", "__dirname", glueSource)(module, module.exports, requireForGlue, "");
  loaded = module.exports;
  return loaded;
}

type Emit = (data: Uint8Array) => void;

/** Node's error for corrupt Brotli input: "Decompression failed", code ERR_ + the decoder's error name. */
function decodeError(error: unknown): Error {
  const text = String((error as Error)?.message ?? error);
  const errno = Number(/Error code (-\d+)/.exec(text)?.[1]);
  const name = Object.entries(ZLIB_CONSTANTS).find(([key, value]) => key.startsWith("BROTLI_DECODER_ERROR_") && value === errno)?.[0];
  if (!name) return Object.assign(new Error("Decompression failed"), { errno: ZLIB_CONSTANTS.Z_DATA_ERROR, code: "Z_DATA_ERROR" });
  return Object.assign(new Error("Decompression failed"), { errno, code: `ERR_${name.slice("BROTLI_DECODER".length)}` });
}

function take(result: StreamResult): { buf: Uint8Array; code: number; consumed: number } {
  try {
    return { buf: result.buf, code: result.code, consumed: result.input_offset };
  } finally {
    result.free();
  }
}

/** A Brotli encoder fed chunk by chunk; `end()` finishes the stream. */
export class BrotliEncoder {
  private stream: InstanceType<BrotliWasm["CompressStream"]> | undefined;
  constructor(quality: number, private readonly outputSize: number) {
    this.stream = new (brotliWasm().CompressStream)(quality);
  }
  write(input: Uint8Array, emit: Emit): void {
    const stream = this.live();
    let rest = input;
    for (;;) {
      const { buf, code, consumed } = take(stream.compress(rest, this.outputSize));
      if (buf.length > 0) emit(buf);
      rest = rest.subarray(consumed);
      if (code !== NEEDS_MORE_OUTPUT) return;
    }
  }
  end(emit: Emit): void {
    const stream = this.live();
    try {
      for (;;) {
        const { buf, code } = take(stream.compress(undefined, this.outputSize));
        if (buf.length > 0) emit(buf);
        if (code !== NEEDS_MORE_OUTPUT) return;
      }
    } finally {
      this.close();
    }
  }
  close(): void {
    this.stream?.free();
    this.stream = undefined;
  }
  private live() {
    if (!this.stream) throw new Error("write after end");
    return this.stream;
  }
}

/** A Brotli decoder fed chunk by chunk: output comes as soon as the decoder has it; bytes after the end of the stream are ignored, as Node does. */
export class BrotliDecoder {
  private stream: InstanceType<BrotliWasm["DecompressStream"]> | undefined;
  private finished = false;
  constructor(private readonly outputSize: number) {
    this.stream = new (brotliWasm().DecompressStream)();
  }
  write(input: Uint8Array, emit: Emit): void {
    if (this.finished || !this.stream) return;
    let rest = input;
    for (;;) {
      let step: ReturnType<typeof take>;
      try {
        step = take(this.stream.decompress(rest, this.outputSize));
      } catch (error) {
        this.close();
        throw decodeError(error);
      }
      if (step.buf.length > 0) emit(step.buf);
      rest = rest.subarray(step.consumed);
      if (step.code === SUCCESS) {
        this.finished = true;
        this.close();
        return;
      }
      if (step.code !== NEEDS_MORE_OUTPUT) return;
    }
  }
  /** The input has ended: an unfinished stream is Node's "unexpected end of file". */
  end(): void {
    const complete = this.finished;
    this.close();
    if (!complete) throw Object.assign(new Error("unexpected end of file"), { errno: ZLIB_CONSTANTS.Z_BUF_ERROR, code: "Z_BUF_ERROR" });
  }
  close(): void {
    this.stream?.free();
    this.stream = undefined;
  }
}

const MAX_BROTLI_PARAM = 8; // BROTLI_PARAM_NDIRECT, the highest parameter Node knows

/**
 * Node's checks of `options.params`, and the quality to use. The encoder takes only the quality:
 * BROTLI_PARAM_MODE and BROTLI_PARAM_SIZE_HINT are hints that change no byte a decoder reads, and
 * BROTLI_PARAM_LGWIN is not applied (streams use the encoder's window, up to 2^22 bytes, which
 * every decoder accepts).
 */
export function brotliQuality(params: Record<string, unknown> | undefined): number {
  let quality: number = ZLIB_CONSTANTS.BROTLI_DEFAULT_QUALITY;
  for (const [key, value] of Object.entries(params ?? {})) {
    const id = Number(key);
    if (Number.isNaN(id) || id < 0 || id > MAX_BROTLI_PARAM) {
      throw Object.assign(new RangeError(`${key} is not a valid Brotli parameter`), { code: "ERR_BROTLI_INVALID_PARAM" });
    }
    if (typeof value !== "number" && typeof value !== "boolean") {
      const received = value === undefined || value === null ? String(value) : `type ${typeof value} (${typeof value === "string" ? `'${value}'` : String(value)})`;
      throw Object.assign(new TypeError(`The "options.params[key]" property must be of type number. Received ${received}`), { code: "ERR_INVALID_ARG_TYPE" });
    }
    if (id === ZLIB_CONSTANTS.BROTLI_PARAM_QUALITY) quality = Number(value);
  }
  // The C encoder Node uses clamps the quality the same way.
  return Math.min(ZLIB_CONSTANTS.BROTLI_MAX_QUALITY, Math.max(ZLIB_CONSTANTS.BROTLI_MIN_QUALITY, Math.trunc(quality)));
}
