// node:worker_threads in the browser runtime: loads as the main thread (isMainThread, threadId 0);
// MessageChannel/MessagePort have Node's shape (message-ports.ts); BroadcastChannel is the
// platform's; new Worker still throws the one line naming WebContainer (issue 29).
import type { EventLoop } from "../../event-loop";
import { createMessagePorts } from "../message-ports";
import { unsupportedModule } from "../unsupported";

export function createWorkerThreads(loop: EventLoop): Record<string, unknown> {
  const environment = new Map<unknown, unknown>();
  const ports = createMessagePorts(loop);
  return unsupportedModule("worker_threads", { functions: ["moveMessagePortToContext", "postMessageToThread"], classes: ["Worker"] }, {
    isMainThread: true,
    parentPort: null,
    workerData: null,
    threadId: 0,
    resourceLimits: {},
    SHARE_ENV: Symbol.for("nodejs.worker_threads.SHARE_ENV"),
    MessageChannel: ports.MessageChannel,
    MessagePort: ports.MessagePort,
    BroadcastChannel: globalThis.BroadcastChannel,
    markAsUntransferable: () => undefined,
    receiveMessageOnPort: () => undefined,
    setEnvironmentData: (key: unknown, value: unknown) => (value === undefined ? environment.delete(key) : environment.set(key, value)),
    getEnvironmentData: (key: unknown) => environment.get(key),
  });
}
