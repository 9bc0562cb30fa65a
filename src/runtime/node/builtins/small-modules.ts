// Node built-ins that are small enough to write here over the worker's own APIs: os, crypto
// (hashes and HMAC by @noble/hashes, randomness and UUIDs by the Web Crypto API), readline over
// stdin, timers/promises and url's file URL helpers.
import { Buffer } from "buffer/";
import { EventEmitter } from "events/";
import { hmac } from "@noble/hashes/hmac.js";
import { md5, sha1 } from "@noble/hashes/legacy.js";
import { sha224, sha256, sha384, sha512 } from "@noble/hashes/sha2.js";
import type { NodeProcess } from "../node-process";
import type { NodeTimers } from "../event-loop";

// Linux's numbers, which os.constants gives on the Linux that the runtime presents itself as.
const SIGNALS = {
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7, SIGFPE: 8, SIGKILL: 9, SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12,
  SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGCHLD: 17, SIGSTKFLT: 16, SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20, SIGTTIN: 21, SIGTTOU: 22, SIGURG: 23,
  SIGXCPU: 24, SIGXFSZ: 25, SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28, SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31,
};
const ERRNO = {
  E2BIG: 7, EACCES: 13, EADDRINUSE: 98, EADDRNOTAVAIL: 99, EAFNOSUPPORT: 97, EAGAIN: 11, EALREADY: 114, EBADF: 9, EBADMSG: 74, EBUSY: 16,
  ECANCELED: 125, ECHILD: 10, ECONNABORTED: 103, ECONNREFUSED: 111, ECONNRESET: 104, EDEADLK: 35, EDESTADDRREQ: 89, EDOM: 33, EDQUOT: 122,
  EEXIST: 17, EFAULT: 14, EFBIG: 27, EHOSTUNREACH: 113, EIDRM: 43, EILSEQ: 84, EINPROGRESS: 115, EINTR: 4, EINVAL: 22, EIO: 5, EISCONN: 106,
  EISDIR: 21, ELOOP: 40, EMFILE: 24, EMLINK: 31, EMSGSIZE: 90, EMULTIHOP: 72, ENAMETOOLONG: 36, ENETDOWN: 100, ENETRESET: 102, ENETUNREACH: 101,
  ENFILE: 23, ENOBUFS: 105, ENODATA: 61, ENODEV: 19, ENOENT: 2, ENOEXEC: 8, ENOLCK: 37, ENOLINK: 67, ENOMEM: 12, ENOMSG: 42, ENOPROTOOPT: 92,
  ENOSPC: 28, ENOSR: 63, ENOSTR: 60, ENOSYS: 38, ENOTCONN: 107, ENOTDIR: 20, ENOTEMPTY: 39, ENOTSOCK: 88, ENOTSUP: 95, ENOTTY: 25, ENXIO: 6,
  EOPNOTSUPP: 95, EOVERFLOW: 75, EPERM: 1, EPIPE: 32, EPROTO: 71, EPROTONOSUPPORT: 93, EPROTOTYPE: 91, ERANGE: 34, EROFS: 30, ESPIPE: 29,
  ESRCH: 3, ESTALE: 116, ETIME: 62, ETIMEDOUT: 110, ETXTBSY: 26, EWOULDBLOCK: 11, EXDEV: 18,
};

export function createOs(process: NodeProcess) {
  const cpus = Math.max(1, Number(globalThis.navigator?.hardwareConcurrency) || 2);
  return {
    EOL: "\n",
    platform: () => "linux",
    type: () => "Linux",
    arch: () => "x64",
    machine: () => "x86_64",
    release: () => "6.0.0-webcode",
    version: () => "#1 SMP webcode browser runtime",
    hostname: () => "webcode",
    homedir: () => process.env.HOME ?? "/workspace",
    tmpdir: () => "/tmp",
    endianness: () => "LE",
    uptime: () => Math.round(performance.now() / 1000),
    loadavg: () => [0, 0, 0],
    totalmem: () => 4 * 1024 ** 3,
    freemem: () => 2 * 1024 ** 3,
    availableParallelism: () => cpus,
    cpus: () => Array.from({ length: cpus }, () => ({ model: "browser", speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } })),
    networkInterfaces: () => ({}),
    userInfo: () => ({ username: process.env.USER ?? "webcode", uid: 1000, gid: 1000, shell: "/bin/bash", homedir: process.env.HOME ?? "/workspace" }),
    constants: { signals: SIGNALS, errno: ERRNO, priority: { PRIORITY_LOW: 19, PRIORITY_BELOW_NORMAL: 10, PRIORITY_NORMAL: 0, PRIORITY_ABOVE_NORMAL: -7, PRIORITY_HIGH: -14, PRIORITY_HIGHEST: -20 } },
    devNull: "/dev/null",
  };
}

type HashFn = { create(): unknown };
const HASHES: Record<string, HashFn> = { md5, sha1, sha224, sha256, sha384, sha512 };

function hashOf(algorithm: string): HashFn {
  const fn = HASHES[String(algorithm).toLowerCase().replace("-", "")];
  if (!fn) throw Object.assign(new Error("Digest method not supported"), { code: "ERR_CRYPTO_INVALID_DIGEST" });
  return fn;
}

function bytes(data: unknown, encoding?: BufferEncoding): Uint8Array {
  if (typeof data === "string") return Buffer.from(data, encoding ?? "utf8");
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw Object.assign(new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${typeof data}`), { code: "ERR_INVALID_ARG_TYPE" });
}

interface Updatable {
  update(data: Uint8Array): unknown;
  digest(): Uint8Array;
}

function digestObject(state: Updatable) {
  let finished = false;
  const object = {
    update(data: unknown, encoding?: BufferEncoding) {
      if (finished) throw Object.assign(new Error("Digest already called"), { code: "ERR_CRYPTO_HASH_FINALIZED" });
      state.update(bytes(data, encoding));
      return object;
    },
    digest(encoding?: BufferEncoding) {
      if (finished) throw Object.assign(new Error("Digest already called"), { code: "ERR_CRYPTO_HASH_FINALIZED" });
      finished = true;
      const out = Buffer.from(state.digest());
      return encoding ? out.toString(encoding) : out;
    },
  };
  return object;
}

/** How Node's ERR_INVALID_ARG_TYPE messages name what they were given. */
function received(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "function") return `function ${value.name}`;
  if (typeof value === "object") return value.constructor?.name ? `an instance of ${value.constructor.name}` : "[object Object]";
  return `type ${typeof value} (${typeof value === "string" ? `'${value.length > 25 ? `${value.slice(0, 25)}...` : value}'` : String(value)})`;
}

function outOfRange(name: string, range: string, value: unknown): RangeError {
  return Object.assign(new RangeError(`The value of "${name}" is out of range. It must be ${range}. Received ${String(value)}`), { code: "ERR_OUT_OF_RANGE" });
}

export function createCrypto() {
  const webcrypto = globalThis.crypto;
  /** Random bytes into `bytes` (getRandomValues takes 65,536 bytes at most a call). */
  const fill = (bytes: Uint8Array) => {
    for (let offset = 0; offset < bytes.length; offset += 65536) webcrypto.getRandomValues(bytes.subarray(offset, Math.min(bytes.length, offset + 65536)) as Uint8Array<ArrayBuffer>);
  };
  const randomBytes = (size: number, callback?: (error: Error | null, buf: Buffer) => void) => {
    const out = Buffer.alloc(size);
    fill(out);
    if (callback) queueMicrotask(() => callback(null, out));
    return out;
  };
  /** Node's randomFillSync: `offset` and `size` count the view's elements; the buffer itself is returned. */
  const randomFillSync = <T extends ArrayBuffer | ArrayBufferView>(buf: T, offset = 0, size?: number): T => {
    if (!(buf instanceof ArrayBuffer) && !ArrayBuffer.isView(buf)) {
      throw Object.assign(new TypeError(`The "buf" argument must be an instance of ArrayBuffer or ArrayBufferView. Received ${received(buf)}`), { code: "ERR_INVALID_ARG_TYPE" });
    }
    const bytes = buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    const element = "BYTES_PER_ELEMENT" in buf ? (buf as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
    // Node checks (and reports) them in bytes.
    const start = offset * element;
    if (!Number.isInteger(offset) || start < 0 || start > bytes.length) throw outOfRange("offset", `>= 0 && <= ${bytes.length}`, start);
    const length = size === undefined ? bytes.length - start : size * element;
    if (!Number.isInteger(length) || length < 0 || start + length > bytes.length) throw outOfRange("size + offset", `<= ${bytes.length}`, start + length);
    fill(bytes.subarray(start, start + length));
    return buf;
  };
  return {
    webcrypto,
    randomFillSync,
    randomFill(buf: ArrayBuffer | ArrayBufferView, ...rest: unknown[]) {
      const callback = rest.pop();
      if (typeof callback !== "function") throw Object.assign(new TypeError(`The "callback" argument must be of type function. Received ${typeof callback}`), { code: "ERR_INVALID_ARG_TYPE" });
      const filled = randomFillSync(buf, ...(rest as [number?, number?]));
      queueMicrotask(() => (callback as (error: Error | null, buf: unknown) => void)(null, filled));
    },
    subtle: webcrypto.subtle,
    getRandomValues: (array: ArrayBufferView<ArrayBuffer>) => webcrypto.getRandomValues(array),
    randomUUID: () => webcrypto.randomUUID(),
    randomBytes,
    randomInt(min: number, max?: number) {
      if (max === undefined) [min, max] = [0, min];
      const range = max - min;
      const [value] = webcrypto.getRandomValues(new Uint32Array(1));
      return min + ((value ?? 0) % range);
    },
    createHash: (algorithm: string) => digestObject(hashOf(algorithm).create() as unknown as Updatable),
    /** Node 20.12's one-shot digest (Vite hashes its assets' names with it): hex unless told, "buffer" for a Buffer. */
    hash(algorithm: string, data: unknown, outputEncoding = "hex") {
      const hash = digestObject(hashOf(algorithm).create() as unknown as Updatable) as unknown as { update(data: unknown): { digest(encoding?: string): unknown } };
      return hash.update(data).digest(outputEncoding === "buffer" ? undefined : outputEncoding);
    },
    createHmac: (algorithm: string, key: unknown) => digestObject(hmac.create(hashOf(algorithm) as typeof sha256, bytes(key)) as unknown as Updatable),
    getHashes: () => Object.keys(HASHES),
    timingSafeEqual(a: Uint8Array, b: Uint8Array) {
      if (a.length !== b.length) throw Object.assign(new RangeError("Input buffers must have the same byte length"), { code: "ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH" });
      let diff = 0;
      for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
      return diff === 0;
    },
  };
}

/** readline over a readable stream (stdin): 'line' events, question(), async iteration. */
export function createReadline(process: NodeProcess) {
  class Interface extends EventEmitter {
    private buffer = "";
    private closed = false;
    private readonly input: NodeJS.ReadableStream;
    private readonly output: { write(text: string): unknown } | undefined;
    private readonly waiting: Array<(line: string) => void> = [];
    private prompt = "> ";
    terminal = false;
    line = "";
    constructor(options: { input?: NodeJS.ReadableStream; output?: { write(text: string): unknown }; prompt?: string } | NodeJS.ReadableStream) {
      super();
      const opts = "on" in options && !("input" in options) ? { input: options as NodeJS.ReadableStream } : (options as { input?: NodeJS.ReadableStream; output?: { write(text: string): unknown }; prompt?: string });
      this.input = opts.input ?? (process.stdin as unknown as NodeJS.ReadableStream);
      this.output = opts.output;
      if (opts.prompt !== undefined) this.prompt = opts.prompt;
      this.input.on("data", (chunk: Buffer | string) => this.feed(String(chunk)));
      this.input.on("end", () => {
        if (this.buffer !== "") this.emitLine(this.buffer);
        this.buffer = "";
        this.close();
      });
    }
    private feed(text: string) {
      this.buffer += text;
      let index: number;
      while (!this.closed && (index = this.buffer.search(/\r?\n/)) >= 0) {
        const line = this.buffer.slice(0, index);
        this.buffer = this.buffer.slice(this.buffer[index] === "\r" ? index + 2 : index + 1);
        this.emitLine(line);
      }
    }
    private emitLine(line: string) {
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else this.emit("line", line);
    }
    setPrompt(prompt: string) {
      this.prompt = prompt;
    }
    getPrompt() {
      return this.prompt;
    }
    prompt_() {
      this.output?.write(this.prompt);
    }
    question(query: string, options?: unknown, callback?: (answer: string) => void) {
      const cb = typeof options === "function" ? (options as (answer: string) => void) : callback;
      this.output?.write(query);
      if (cb) this.waiting.push(cb);
    }
    write(data: string) {
      this.output?.write(data);
    }
    pause() {
      this.input.pause();
      return this;
    }
    resume() {
      this.input.resume();
      return this;
    }
    close() {
      if (this.closed) return;
      this.closed = true;
      this.input.pause();
      this.emit("close");
    }
    async *[Symbol.asyncIterator](): AsyncGenerator<string> {
      const queue: string[] = [];
      let wake: (() => void) | undefined;
      this.on("line", (line: string) => {
        queue.push(line);
        wake?.();
      });
      this.on("close", () => wake?.());
      while (true) {
        if (queue.length > 0) yield queue.shift()!;
        else if (this.closed) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    }
  }
  Object.defineProperty(Interface.prototype, "prompt", {
    value(this: Interface) {
      this.prompt_();
    },
  });
  const createInterface = (options: ConstructorParameters<typeof Interface>[0]) => new Interface(options);
  const promises = {
    Interface,
    createInterface(options: ConstructorParameters<typeof Interface>[0]) {
      const rl = new Interface(options);
      const question = rl.question.bind(rl);
      return Object.assign(rl, { question: (query: string) => new Promise<string>((resolve) => question(query, resolve)) });
    },
  };
  return {
    Interface,
    createInterface,
    promises,
    clearLine: () => true,
    cursorTo: () => true,
    moveCursor: () => true,
    clearScreenDown: () => true,
    emitKeypressEvents: () => undefined,
  };
}

export function createTimersPromises(timers: NodeTimers) {
  return {
    setTimeout: (ms?: number, value?: unknown, options?: { signal?: AbortSignal }) =>
      new Promise((resolve, reject) => {
        const timer = timers.setTimeout(() => resolve(value), ms);
        options?.signal?.addEventListener("abort", () => {
          timers.clearTimeout(timer);
          reject(Object.assign(new Error("The operation was aborted"), { name: "AbortError", code: "ABORT_ERR" }));
        });
      }),
    setImmediate: (value?: unknown) => new Promise((resolve) => timers.setImmediate(() => resolve(value))),
    async *setInterval(ms?: number, value?: unknown) {
      while (true) {
        await new Promise((resolve) => timers.setTimeout(resolve, ms));
        yield value;
      }
    },
    scheduler: {
      wait: (ms: number) => new Promise((resolve) => timers.setTimeout(resolve, ms)),
      yield: () => new Promise((resolve) => timers.setImmediate(resolve)),
    },
  };
}

export function fileUrlHelpers(cwd: () => string) {
  const fileURLToPath = (url: string | URL) => {
    const parsed = typeof url === "string" ? new URL(url) : url;
    if (parsed.protocol !== "file:") throw Object.assign(new TypeError("The URL must be of scheme file"), { code: "ERR_INVALID_URL_SCHEME" });
    return decodeURIComponent(parsed.pathname);
  };
  const pathToFileURL = (path: string) => {
    const absolute = path.startsWith("/") ? path : `${cwd()}/${path}`;
    return new URL(`file://${absolute.split("/").map(encodeURIComponent).join("/")}`);
  };
  return { fileURLToPath, pathToFileURL };
}
