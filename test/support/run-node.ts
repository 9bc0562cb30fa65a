// Runs the browser runtime's `node` in this process (no worker, no page): the same runtime code the
// sandboxed worker runs, for unit tests of modules, built-ins and output. Ending it from outside
// (Ctrl-C, timeouts, memory) is the sandbox host's part, tested with real threads.
import type { FileData, FsOp, SandboxEvent } from "../../src/runtime/sandbox";
import { serveProgram } from "../../src/runtime/sandbox/worker-kit";
import { runNode } from "../../src/runtime/node/node-main";

export interface NodeRun {
  stdout: string;
  stderr: string;
  exitCode: number;
  ops: FsOp[];
}

export async function runNodeInProcess(
  args: string[],
  files: Record<string, FileData> = {},
  options: { cwd?: string; stdin?: string | null; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<NodeRun> {
  const run: NodeRun = { stdout: "", stderr: "", exitCode: -1, ops: [] };
  let deliver!: (message: Parameters<Parameters<Parameters<typeof serveProgram>[0]["onMessage"]>[0]>[0]) => void;
  const ended = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node ${args.join(" ")} did not end; output so far:\n${run.stdout}\n${run.stderr}`)), options.timeoutMs ?? 5000);
    serveProgram(
      {
        send(event: SandboxEvent) {
          if (event.type === "stdout" || event.type === "stderr") run[event.type] += event.data;
          else if (event.type === "fs") run.ops.push(event.op);
          else if (event.type === "exit") {
            run.exitCode = event.code;
            clearTimeout(timer);
            resolve();
          } else if (event.type === "fatal" || event.type === "oom") {
            clearTimeout(timer);
            reject(new Error(event.type === "fatal" ? event.message : "out of memory"));
          }
        },
        onMessage: (listener) => (deliver = listener),
      },
      (context) => runNode(context, { installGlobals: false, onUnhandledRejection: () => undefined }),
    );
  });
  const cwd = options.cwd ?? "/workspace";
  deliver({
    type: "run",
    files: Object.entries(files).map(([path, data]) => [path.startsWith("/") ? path : `${cwd}/${path}`, data]),
    dirs: [cwd, "/tmp"],
    args,
    env: options.env ?? { HOME: "/workspace" },
    cwd,
    stdin: options.stdin ?? null,
  });
  await ended;
  return run;
}
