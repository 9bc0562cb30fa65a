// Runs the browser runtime's `node` in this process (no worker, no page): the same runtime code the
// sandboxed worker runs, for unit tests of modules, built-ins and output. Ending it from outside
// (Ctrl-C, timeouts, memory) is the sandbox host's part, tested with real threads.
import type { FileData } from "../../src/runtime/sandbox";
import { runNode } from "../../src/runtime/node/node-main";
import { inProcessThreads } from "./in-process-threads";
import { runProgramInProcess, type ProgramRun, type ProgramRunOptions } from "./run-program";

export type NodeRun = ProgramRun;

export function runNodeInProcess(args: string[], files: Record<string, FileData> = {}, options: ProgramRunOptions = {}): Promise<NodeRun> {
  const hooks = { installGlobals: false, onUnhandledRejection: () => undefined };
  return runProgramInProcess("node", (context) => runNode(context, { ...hooks, startThread: inProcessThreads(hooks) }), args, files, options, 5000);
}
