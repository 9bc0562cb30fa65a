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
export {};
