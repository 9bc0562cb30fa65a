// Stands in for the npm "process" package inside the node runtime's worker (vite.config.ts, worker
// build only): the stream ports' process.nextTick then is the program's own, which keeps the
// program alive while stream work is pending and reports its errors as uncaught exceptions.
type Tick = (callback: (...args: unknown[]) => void, ...args: unknown[]) => void;

const current = () => (globalThis as unknown as { process?: { nextTick?: Tick; env?: Record<string, string> } }).process;

const shim = {
  nextTick: ((callback, ...args) => {
    const tick = current()?.nextTick;
    if (tick && tick !== shim.nextTick) tick(callback, ...args);
    else queueMicrotask(() => callback(...args));
  }) as Tick,
  get env() {
    return current()?.env ?? {};
  },
  browser: false,
  version: "",
  versions: {},
  platform: "linux",
  cwd: () => "/",
};

export default shim;
