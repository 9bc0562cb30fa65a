// A SandboxEndpoint that runs the node runtime in this process (no thread): for tests of the shell's
// node command and the file changes it replays. Ending programs from outside is tested with real
// threads (node-worker-endpoint.ts) and in the browser.
import type { HostMessage, SandboxEndpoint, SandboxEvent } from "../../src/runtime/sandbox";
import { serveProgram } from "../../src/runtime/sandbox/worker-kit";
import { runNode } from "../../src/runtime/node/node-main";
import { inProcessThreads } from "./in-process-threads";

const HOOKS = { installGlobals: false, onUnhandledRejection: () => undefined };

export function inProcessNodeEndpoint(): SandboxEndpoint {
  const listeners: Array<(event: SandboxEvent) => void> = [];
  let deliver: ((message: HostMessage) => void) | undefined;
  const queued: SandboxEvent[] = [];
  let ended = false;
  serveProgram(
    {
      send: (event) => {
        if (ended) return;
        if (listeners.length === 0) queued.push(event);
        for (const listener of listeners) listener(event);
      },
      onMessage: (listener) => (deliver = listener),
    },
    (context) => runNode(context, { ...HOOKS, startThread: inProcessThreads(HOOKS) }),
  );
  return {
    send: (message) => setTimeout(() => deliver?.(message), 0),
    onEvent(listener) {
      listeners.push(listener);
      for (const event of queued.splice(0)) listener(event);
    },
    onCrash: () => undefined,
    terminate: () => void (ended = true),
  };
}
