// worker_threads' Workers for programs run in-process (run-node.ts, in-process-endpoint.ts): each
// thread is another instance of the node runtime in this process, behind a real MessageChannel, so
// values are structured-cloned and SharedArrayBuffers shared as between the browser's workers. It
// cannot be ended while it runs (terminate() closes its port); the browser's threads are real
// workers (src/runtime/node/worker.ts).
import { runNode, type NodeHostHooks } from "../../src/runtime/node/node-main";
import type { ThreadHandle } from "../../src/runtime/node/builtins/worker-threads";
import { portConnection, serveProgram } from "../../src/runtime/sandbox/worker-kit";

export function inProcessThreads(hooks: Omit<NodeHostHooks, "startThread">): () => ThreadHandle {
  const start = (): ThreadHandle => {
    let port: MessagePort | undefined;
    return {
      connect(given) {
        port = given;
        serveProgram(portConnection(given), (context) => runNode(context, { ...hooks, startThread: start }));
        // A Node MessagePort keeps the test process alive; the programs' own refs decide when they end.
        (given as { unref?: () => void }).unref?.();
      },
      terminate: () => port?.close(),
      onCrash: () => undefined,
    };
  };
  return start;
}
