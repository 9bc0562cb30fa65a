// Entry of the node runtime's worker, started by the isolated execution host in its sandboxed
// iframe (docs/architecture.md "Isolated execution host"); one worker runs one program.
import "./worker-globals";
import { browserWorkerConnection, serveProgram } from "../sandbox/worker-kit";
import { runNode } from "./node-main";
import type { ThreadHandle } from "./builtins/worker-threads";

interface WorkerScope {
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  addEventListener(type: "unhandledrejection", listener: (event: PromiseRejectionEvent) => void): void;
  addEventListener(type: "error", listener: (event: ErrorEvent) => void): void;
}

const scope = self as unknown as WorkerScope;

/**
 * A thread of the program (worker_threads): this same script in a nested dedicated worker, which
 * stays in the sandbox's opaque origin and agent cluster (so SharedArrayBuffers are shared). It
 * waits for the "connect" the frame would send, with its port to this program.
 */
function startThread(): ThreadHandle {
  const worker = new Worker((self as unknown as { location: { href: string } }).location.href, { name: "thread" });
  const crashListeners: Array<(message: string) => void> = [];
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    for (const listener of crashListeners) listener(event.message || "The thread's worker stopped.");
  });
  return {
    connect: (port, mailbox) => worker.postMessage({ type: "connect", mailbox }, [port]),
    terminate: () => worker.terminate(),
    onCrash: (listener) => void crashListeners.push(listener),
  };
}

serveProgram(browserWorkerConnection(scope), (context) =>
  runNode(context, {
    installGlobals: true,
    startThread,
    onUnhandledRejection(listener) {
      scope.addEventListener("unhandledrejection", (event) => {
        event.preventDefault();
        listener(event.reason);
      });
    },
    onUncaughtException(listener) {
      scope.addEventListener("error", (event) => {
        event.preventDefault();
        listener(event.error ?? new Error(event.message));
      });
    },
  }),
);
