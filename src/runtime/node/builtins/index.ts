// The built-in modules a program can require or import, created once per run on first use: every
// one of Node 20's (NODE_20_BUILTINS, as Node 20 prints require("module").builtinModules) plus the
// ones only taken with "node:" (node:test, node:sea). The Node ports on npm (buffer, events, util,
// assert, readable-stream, string_decoder, url, querystring-es3, path-browserify, punycode,
// node-inspect-extracted for util.inspect/format) are used as they are; fs, process, os, crypto,
// readline, timers, node:test, zlib (on fflate), vm, v8, async_hooks, diagnostics_channel,
// perf_hooks, dns and tty are ours (see their files). A module that needs an operating system
// (needs-os/) loads, and what it cannot do throws one line naming WebContainer when called.
import * as bufferModule from "buffer/";
import events from "events/";
import pathPosix from "path-browserify";
import stream from "readable-stream";
import { StringDecoder } from "string_decoder";
import { format, formatWithOptions, inspect, stripVTControlCharacters } from "node-inspect-extracted";
import type { NodeTimers } from "../event-loop";
import type { NodeProcess } from "../node-process";
import { createFs, type FsContext, type FsLinks } from "./fs";
import type { ServerBridge } from "../../sandbox/worker-kit";
import { createHttp } from "./http";
import { createHttpClient } from "./http-client";
import { createChildProcess, type ChildProcessContext } from "./child-process";
import { createCrypto, createOs, createReadline, createTimersPromises, fileUrlHelpers } from "./small-modules";
import type { TestModule } from "./test-runner";
import { assertModule, parseArgsModule, punycodeModule, querystringModule, urlModule, utilModule } from "../lazy-modules";
import { LEGACY_CONSTANTS } from "./legacy-constants";
import { createAsyncHooks, createDiagnosticsChannel, createDns, createDomain, createEventEmitterAsyncResource, createPerfHooks, createTty } from "./more-modules";
import { createV8 } from "./v8";
import { createVm } from "./vm";
import { createZlib } from "./zlib";
import { unsupportedClass, unsupportedFunction } from "./unsupported";
import { createNet } from "./needs-os/net";
import { createWorkerThreads, type WorkerThreadsContext } from "./worker-threads";
import { createCluster, createDgram, createHttp2, createInspector, createRepl, createSea, createTls, createTraceEvents } from "./needs-os/others";
import { createWasi } from "./wasi";

/** require("module").builtinModules of Node 20, in its order. */
export const NODE_20_BUILTINS = [
  "_http_agent", "_http_client", "_http_common", "_http_incoming", "_http_outgoing", "_http_server", "_stream_duplex", "_stream_passthrough",
  "_stream_readable", "_stream_transform", "_stream_wrap", "_stream_writable", "_tls_common", "_tls_wrap", "assert", "assert/strict", "async_hooks",
  "buffer", "child_process", "cluster", "console", "constants", "crypto", "dgram", "diagnostics_channel", "dns", "dns/promises", "domain", "events",
  "fs", "fs/promises", "http", "http2", "https", "inspector", "inspector/promises", "module", "net", "os", "path", "path/posix", "path/win32",
  "perf_hooks", "process", "punycode", "querystring", "readline", "readline/promises", "repl", "stream", "stream/consumers", "stream/promises",
  "stream/web", "string_decoder", "sys", "timers", "timers/promises", "tls", "trace_events", "tty", "url", "util", "util/types", "v8", "vm",
  "wasi", "worker_threads", "zlib",
];
/** Taken only with the "node:" prefix, as in Node 20. */
const PREFIX_ONLY = ["test", "sea"];

export interface BuiltinContext extends FsContext {
  process: NodeProcess;
  console: Console;
  timers: NodeTimers;
  tests: () => TestModule;
  /** Starts a child through the page (child_process). */
  spawnChild: ChildProcessContext["spawn"];
  /** Runs a child while the program waits (execSync, spawnSync). */
  spawnChildSync: ChildProcessContext["spawnSync"];
  /** Starts a thread of the program (worker_threads' Worker), where the host can. */
  startThread?: WorkerThreadsContext["startThread"];
  /** This run is a thread: its start and its link to the program that started it. */
  thread?: WorkerThreadsContext["thread"];
  execPath: string;
  /** node:module, which needs the loader (created after the built-ins). */
  moduleModule: () => unknown;
  /** Where the program's servers listen (the page's port registry) and its local requests go. */
  servers: ServerBridge;
}

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  try {
    const assert: ReturnType<typeof assertModule> = assertModule();
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

function parseQuery(...args: Parameters<ReturnType<typeof querystringModule>["parse"]>) {
  return Object.assign(Object.create(null) as Record<string, unknown>, querystringModule().parse(...args));
}

export function createBuiltins(context: BuiltinContext) {
  const cache = new Map<string, unknown>();
  const path = Object.assign({}, pathPosix, {
    resolve: (...segments: string[]) => pathPosix.resolve(context.cwd(), ...segments),
  });
  Object.assign(path, { posix: path, win32: path, default: undefined });
  // util.promisify(setTimeout) resolves after the delay, as in Node: under Node's symbol (which
  // util.promisify.custom is there) and, once util is loaded, the npm port's own.
  const promisified = {
    setTimeout: (ms?: number, value?: unknown) => new Promise((resolve) => context.timers.setTimeout(() => resolve(value), ms)),
    setImmediate: (value?: unknown) => new Promise((resolve) => context.timers.setImmediate(() => resolve(value))),
  };
  const addPromisified = (custom: symbol) => {
    Object.assign(context.timers.setTimeout, { [custom]: promisified.setTimeout });
    Object.assign(context.timers.setImmediate, { [custom]: promisified.setImmediate });
  };
  addPromisified(Symbol.for("nodejs.util.promisify.custom"));
  const nodeUtil = () => {
    const util = utilModule();
    addPromisified(util.promisify.custom);
    return Object.assign({}, util, {
      format,
      formatWithOptions,
      inspect,
      stripVTControlCharacters,
      isDeepStrictEqual,
      types: util.types,
      styleText: (_format: unknown, text: string) => text,
      // Without `args`, Node parses the program's own arguments: after the script, or after -e/-p's code.
      // (The polyfill predates `allowNegative`: with it, `--no-NAME` is still an unknown option, an error.)
      parseArgs: (config: { args?: string[] } = {}) =>
        parseArgsModule().parseArgs({ ...config, args: config.args ?? context.process.argv.slice(context.process.execArgv.some((arg) => /^-(?:e|p|pe|-eval|-print)$/.test(arg)) ? 1 : 2) }),
    });
  };
  const http = () => get("http") as Record<string, unknown>;
  const tls = () => get("tls") as Record<string, unknown>;
  const streamClasses = stream as unknown as Record<string, unknown>;
  const factories: Record<string, () => unknown> = {
    _http_agent: () => ({ Agent: http().Agent, globalAgent: http().globalAgent }),
    _http_client: () => ({ ClientRequest: http().ClientRequest }),
    _http_common: () => ({ methods: http().METHODS, chunkExpression: /(?:^|\W)chunked(?:$|\W)/i, continueExpression: /(?:^|\W)100-continue(?:$|\W)/i, CRLF: "\r\n" }),
    _http_incoming: () => ({ IncomingMessage: http().IncomingMessage, readStart: () => undefined, readStop: () => undefined }),
    _http_outgoing: () => ({ OutgoingMessage: http().OutgoingMessage, validateHeaderName: http().validateHeaderName, validateHeaderValue: http().validateHeaderValue }),
    _http_server: () => ({ STATUS_CODES: http().STATUS_CODES, Server: http().Server, ServerResponse: http().ServerResponse }),
    _stream_duplex: () => streamClasses.Duplex,
    _stream_passthrough: () => streamClasses.PassThrough,
    _stream_readable: () => streamClasses.Readable,
    _stream_transform: () => streamClasses.Transform,
    _stream_wrap: () => unsupportedClass("_stream_wrap", "JSStreamSocket"),
    _stream_writable: () => streamClasses.Writable,
    _tls_common: () => ({ SecureContext: tls().SecureContext, createSecureContext: tls().createSecureContext, translatePeerCertificate: unsupportedFunction("_tls_common", "translatePeerCertificate") }),
    _tls_wrap: () => ({ TLSSocket: tls().TLSSocket, Server: tls().Server, createServer: tls().createServer, connect: tls().connect }),
    async_hooks: () => createAsyncHooks(context.loop.asyncContext),
    cluster: () => createCluster(),
    constants: () => ({ ...LEGACY_CONSTANTS }),
    dgram: () => createDgram(),
    diagnostics_channel: () => createDiagnosticsChannel(),
    dns: () => createDns((callback) => context.timers.setImmediate(callback)),
    "dns/promises": () => (get("dns") as { promises: unknown }).promises,
    domain: () => createDomain(),
    http: () => createHttp({ loop: context.loop, servers: context.servers }, createHttpClient({ loop: context.loop, servers: context.servers }, "http:")),
    http2: () => createHttp2(),
    https: () => createHttp({ loop: context.loop, servers: context.servers }, createHttpClient({ loop: context.loop, servers: context.servers }, "https:")),
    inspector: () => createInspector(),
    "inspector/promises": () => createInspector(),
    net: () => createNet(),
    punycode: () => punycodeModule(),
    repl: () => createRepl(() => [...NODE_20_BUILTINS]),
    sea: () => createSea(),
    "stream/consumers": () => streamConsumers(),
    sys: () => {
      context.process.emitWarning("sys is deprecated. Use util instead.", "DeprecationWarning", "DEP0025");
      return get("util");
    },
    tls: () => createTls(),
    trace_events: () => createTraceEvents(),
    v8: () => createV8(),
    vm: () => createVm(),
    wasi: () => createWasi({ fs: () => get("fs"), write: (name, text) => (context.process[name] as { write(text: string): unknown }).write(text) }),
    worker_threads: () =>
      createWorkerThreads({
        loop: context.loop,
        fs: context.fs,
        cwd: context.cwd,
        resolve: context.resolve,
        env: () => context.process.env as Record<string, string | undefined>,
        write: (name, text) => (context.process[name] as { write(text: string): unknown }).write(text),
        spawn: context.spawnChild,
        servers: context.servers,
        startThread: context.startThread,
        thread: context.thread,
      }),
    zlib: () => createZlib({ setImmediate: (callback) => context.timers.setImmediate(callback) }),
    "path/win32": () => path,
    assert: () => assertModule(),
    "assert/strict": () => assertModule().strict,
    buffer: () => ({ ...bufferModule, Blob: globalThis.Blob, atob: globalThis.atob, btoa: globalThis.btoa, constants: { MAX_LENGTH: bufferModule.kMaxLength, MAX_STRING_LENGTH: 2 ** 29 - 24 } }),
    child_process: () =>
      createChildProcess({
        loop: context.loop,
        cwd: context.cwd,
        resolve: context.resolve,
        env: () => context.process.env as Record<string, string | undefined>,
        execPath: context.execPath,
        write: (name, text) => (context.process[name] as { write(text: string): unknown }).write(text),
        spawn: context.spawnChild,
        spawnSync: context.spawnChildSync,
      }),
    console: () => context.console,
    crypto: () => createCrypto(),
    // Node's EventEmitter has it as a static; the class takes this run's AsyncResource.
    events: () => Object.assign(events, { EventEmitterAsyncResource: createEventEmitterAsyncResource((get("async_hooks") as { AsyncResource: never }).AsyncResource) }),
    fs: () => createFs(context, { readline: () => get("readline") as ReturnType<FsLinks["readline"]> }),
    "fs/promises": () => (get("fs") as { promises: unknown }).promises,
    module: () => context.moduleModule(),
    os: () => createOs(context.process),
    path: () => path,
    "path/posix": () => path,
    perf_hooks: () => createPerfHooks(),
    process: () => context.process,
    // Node's parse() returns an object without a prototype (so "__proto__" is just a key).
    querystring: () => ({ ...querystringModule(), decode: parseQuery, parse: parseQuery }),
    readline: () => createReadline(context.process),
    "readline/promises": () => (get("readline") as { promises: unknown }).promises,
    stream: () => stream,
    "stream/promises": () => (stream as unknown as { promises: unknown }).promises,
    "stream/web": () => ({ ReadableStream, WritableStream, TransformStream, TextEncoderStream, TextDecoderStream }),
    string_decoder: () => ({ StringDecoder }),
    test: () => context.tests().module,
    timers: () => ({ ...context.timers, promises: get("timers/promises") }),
    "timers/promises": () => createTimersPromises(context.timers),
    tty: () => createTty((fd) => [context.process.stdin, context.process.stdout, context.process.stderr][fd]?.isTTY === true),
    url: () => ({ ...urlModule(), URL, URLSearchParams, ...fileUrlHelpers(context.cwd) }),
    util: () => nodeUtil(),
    "util/types": () => utilModule().types,
  };
  const get = (name: string): unknown => {
    if (cache.has(name)) return cache.get(name);
    const factory = factories[name];
    if (!factory) return undefined;
    const value = factory();
    cache.set(name, value);
    return value;
  };
  return {
    get,
    /** Names require() takes without "node:" (node:test and node:sea only with the prefix, as in Node). */
    has: (name: string) => !PREFIX_ONLY.includes(name) && name in factories,
    /** require("module").builtinModules: Node 20's list. */
    names: () => [...NODE_20_BUILTINS],
  };
}

/** node:stream/consumers over any async iterable of chunks. */
function streamConsumers() {
  const collect = async (source: AsyncIterable<unknown>) => {
    const chunks: Uint8Array[] = [];
    for await (const chunk of source) chunks.push(typeof chunk === "string" ? bufferModule.Buffer.from(chunk) : (chunk as Uint8Array));
    return bufferModule.Buffer.concat(chunks);
  };
  return {
    arrayBuffer: async (source: AsyncIterable<unknown>) => {
      const bytes = await collect(source);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    },
    blob: async (source: AsyncIterable<unknown>) => new Blob([await collect(source)]),
    buffer: collect,
    text: async (source: AsyncIterable<unknown>) => (await collect(source)).toString(),
    json: async (source: AsyncIterable<unknown>) => JSON.parse((await collect(source)).toString()) as unknown,
  };
}

export type Builtins = ReturnType<typeof createBuiltins>;
