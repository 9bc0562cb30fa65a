// node:worker_threads in the browser runtime: loads as the main thread (isMainThread, threadId 0,
// MessageChannel and BroadcastChannel are the platform's); new Worker throws the one line naming
// WebContainer. Replaced by issue 29's workers (one factory per module).
import { unsupportedModule } from "../unsupported";

export function createWorkerThreads(): Record<string, unknown> {
  const environment = new Map<unknown, unknown>();
  return unsupportedModule("worker_threads", { functions: ["moveMessagePortToContext", "postMessageToThread"], classes: ["Worker"] }, {
    isMainThread: true,
    parentPort: null,
    workerData: null,
    threadId: 0,
    resourceLimits: {},
    SHARE_ENV: Symbol.for("nodejs.worker_threads.SHARE_ENV"),
    MessageChannel: globalThis.MessageChannel,
    MessagePort: globalThis.MessagePort,
    BroadcastChannel: globalThis.BroadcastChannel,
    markAsUntransferable: () => undefined,
    receiveMessageOnPort: () => undefined,
    setEnvironmentData: (key: unknown, value: unknown) => (value === undefined ? environment.delete(key) : environment.set(key, value)),
    getEnvironmentData: (key: unknown) => environment.get(key),
  });
}
