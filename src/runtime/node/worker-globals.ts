// Imported first by the worker entry: the Node ports bundled into the worker (util, assert) read
// `process` while they load, before the program's own process exists (node-main.ts replaces it).
const scope = globalThis as unknown as Record<string, unknown>;
scope.global ??= globalThis;
scope.process ??= {
  env: {},
  argv: [],
  version: "",
  versions: {},
  platform: "linux",
  browser: false,
  cwd: () => "/",
  nextTick: (callback: (...args: unknown[]) => void, ...args: unknown[]) => queueMicrotask(() => callback(...args)),
};
// A worker's `self` is a getter of WorkerGlobalScope; Node has no such getter, and code written for
// Node's threads assigns it (napi-rs's wasi-worker.mjs: Object.assign(globalThis, { self: globalThis,
// … }), which throws in a browser worker). An own, writable `self` keeps the value and takes writes.
Object.defineProperty(globalThis, "self", { value: globalThis, writable: true, configurable: true, enumerable: true });
export {};
