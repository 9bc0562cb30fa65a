// The node runtime on a Node worker thread (bundled by node-thread-runtime.ts): what the sandboxed
// worker runs in the browser, with Node's thread messaging in place of the frame's. A thread that
// the program starts (worker_threads) is another thread of this same file, connected with a port.
import { parentPort, workerData, Worker, type MessagePort as NodeMessagePort } from "node:worker_threads";
import { runNode, type NodeHostHooks } from "../../src/runtime/node/node-main";
import type { ThreadHandle } from "../../src/runtime/node/builtins/worker-threads";
import type { HostMessage, SandboxEvent } from "../../src/runtime/sandbox/protocol";
import { portConnection, serveProgram, type WorkerConnection } from "../../src/runtime/sandbox/worker-kit";

/** This bundle's own file (threads are started from it), the frame's mailbox, and whether this is a thread. */
const data = workerData as { file: string; mailbox?: SharedArrayBuffer; thread?: boolean };

function startThread(): ThreadHandle {
  const worker = new Worker(data.file, { workerData: { file: data.file, thread: true } });
  const crashes: Array<(message: string) => void> = [];
  worker.on("error", (error) => crashes.forEach((listener) => listener(error.message)));
  return {
    connect: (port, mailbox) => worker.postMessage({ type: "connect", port, mailbox }, [port as unknown as NodeMessagePort]),
    terminate: () => void worker.terminate(),
    onCrash: (listener) => void crashes.push(listener),
  };
}

const hooks: NodeHostHooks = {
  installGlobals: false,
  onUnhandledRejection: (listener) => process.on("unhandledRejection", listener),
  startThread,
};

if (data.thread) {
  parentPort!.once("message", (message: { port: MessagePort; mailbox?: SharedArrayBuffer }) => serveProgram(portConnection(message.port, message.mailbox), (context) => runNode(context, hooks)));
} else {
  const listeners: Array<(message: HostMessage) => void> = [];
  parentPort!.on("message", (message: HostMessage) => listeners.forEach((listener) => listener(message)));
  const connection: WorkerConnection = {
    send: (event: SandboxEvent, transfer) => parentPort!.postMessage(event, (transfer ?? []) as never),
    onMessage: (listener) => void listeners.push(listener),
    mailbox: () => data.mailbox,
  };
  serveProgram(connection, (context) => runNode(context, hooks));
}
