// A SandboxEndpoint on a Node worker thread, for unit tests of the sandbox host: a real thread, so
// ending an endless loop and running out of memory are real (the page uses iframe-endpoint.ts).
import { Worker, type ResourceLimits } from "node:worker_threads";
import type { SandboxEndpoint, SandboxEvent } from "../../src/runtime/sandbox";

export interface NodeWorkerEndpoint extends SandboxEndpoint {
  /** Resolves when the thread has ended (terminated, crashed or returned). */
  readonly exited: Promise<number>;
}

/** `source` is CommonJS run in the thread with `parentPort` in scope; it speaks the sandbox protocol. */
export function nodeWorkerEndpoint(source: string, resourceLimits?: ResourceLimits): NodeWorkerEndpoint {
  const worker = new Worker(`const { parentPort } = require("node:worker_threads");\n${source}`, { eval: true, resourceLimits });
  const eventListeners: Array<(event: SandboxEvent) => void> = [];
  const crashListeners: Array<(message: string) => void> = [];
  let terminated = false;
  worker.on("message", (event: SandboxEvent) => {
    for (const listener of eventListeners) listener(event);
  });
  worker.on("error", (error: Error & { code?: string }) => {
    if (terminated) return;
    const message = error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "out of memory" : error.message;
    for (const listener of crashListeners) listener(message);
  });
  const exited = new Promise<number>((resolve) => worker.once("exit", resolve));
  return {
    exited,
    send: (message) => worker.postMessage(message),
    onEvent: (listener) => void eventListeners.push(listener),
    onCrash: (listener) => void crashListeners.push(listener),
    terminate() {
      terminated = true;
      void worker.terminate();
    },
  };
}
