// Entry of the node runtime's worker, started by the isolated execution host in its sandboxed
// iframe (docs/architecture.md "Isolated execution host"); one worker runs one program.
import "./worker-globals";
import { browserWorkerConnection, serveProgram } from "../sandbox/worker-kit";
import { runNode } from "./node-main";

interface WorkerScope {
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  addEventListener(type: "unhandledrejection", listener: (event: PromiseRejectionEvent) => void): void;
  addEventListener(type: "error", listener: (event: ErrorEvent) => void): void;
}

const scope = self as unknown as WorkerScope;
serveProgram(browserWorkerConnection(scope), (context) =>
  runNode(context, {
    installGlobals: true,
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
