// The built-in modules a program can require or import, created once per run on first use. The
// Node ports on npm (buffer, events, util, assert, readable-stream, string_decoder, url,
// querystring-es3, path-browserify, node-inspect-extracted for util.inspect/format) are used as
// they are; fs, process, os, crypto, readline, timers and node:test are ours (see their files).
// Modules that need an operating system fail with one line naming WebContainer.
import * as bufferModule from "buffer/";
import events from "events/";
import pathPosix from "path-browserify";
import stream from "readable-stream";
import { StringDecoder } from "string_decoder";
import { format, formatWithOptions, inspect, stripVTControlCharacters } from "node-inspect-extracted";
import type { NodeTimers } from "../event-loop";
import type { NodeProcess } from "../node-process";
import { createFs, type FsContext, type FsLinks } from "./fs";
import { createChildProcess, type ChildProcessContext } from "./child-process";
import { createCrypto, createOs, createReadline, createTimersPromises, fileUrlHelpers } from "./small-modules";
import type { TestModule } from "./test-runner";
import { assertModule, querystringModule, urlModule, utilModule } from "../lazy-modules";

/** Modules that need what only an operating system gives: WebContainer (Node.js) runs them. */
export const NEEDS_WEBCONTAINER = [
  "cluster", "dgram", "dns", "dns/promises", "http", "http2", "https", "inspector", "inspector/promises",
  "net", "repl", "tls", "v8", "vm", "wasi", "worker_threads", "zlib", "async_hooks", "diagnostics_channel", "trace_events",
  "domain", "sqlite", "sea",
];

export class UnsupportedModuleError extends Error {
  readonly code = "ERR_WEBCODE_NEEDS_WEBCONTAINER";
  constructor(name: string) {
    super(`The module "node:${name}" is not available in the browser runtime: it needs Node.js, which the WebContainer runtime runs.`);
  }
}

export interface BuiltinContext extends FsContext {
  process: NodeProcess;
  console: Console;
  timers: NodeTimers;
  tests: () => TestModule;
  /** Starts a child through the page (child_process). */
  spawnChild: ChildProcessContext["spawn"];
  execPath: string;
  /** node:module, which needs the loader (created after the built-ins). */
  moduleModule: () => unknown;
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
      parseArgs: undefined,
    });
  };
  const factories: Record<string, () => unknown> = {
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
      }),
    console: () => context.console,
    crypto: () => createCrypto(),
    events: () => events,
    fs: () => createFs(context, { readline: () => get("readline") as ReturnType<FsLinks["readline"]> }),
    "fs/promises": () => (get("fs") as { promises: unknown }).promises,
    module: () => context.moduleModule(),
    os: () => createOs(context.process),
    path: () => path,
    "path/posix": () => path,
    perf_hooks: () => ({ performance: globalThis.performance, PerformanceObserver: globalThis.PerformanceObserver }),
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
    tty: () => ({ isatty: () => false }),
    url: () => ({ ...urlModule(), URL, URLSearchParams, ...fileUrlHelpers(context.cwd) }),
    util: () => nodeUtil(),
    "util/types": () => utilModule().types,
  };
  const get = (name: string): unknown => {
    if (cache.has(name)) return cache.get(name);
    const factory = factories[name];
    if (!factory) {
      if (NEEDS_WEBCONTAINER.includes(name)) throw new UnsupportedModuleError(name);
      return undefined;
    }
    const value = factory();
    cache.set(name, value);
    return value;
  };
  return {
    get,
    /** Names require() takes without "node:" (node:test only with the prefix, as in Node). */
    has: (name: string) => name !== "test" && (name in factories || NEEDS_WEBCONTAINER.includes(name)),
    names: () => [...Object.keys(factories), ...NEEDS_WEBCONTAINER].sort(),
  };
}

export type Builtins = ReturnType<typeof createBuiltins>;
