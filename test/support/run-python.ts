// Runs the browser runtime's `python3` in this process: the same runner the sandboxed worker uses,
// with Pyodide loaded from node_modules (the page loads the same files from its own origin).
import { loadPyodide } from "pyodide";
import type { FileData, FsOp, SandboxEvent } from "../../src/runtime/sandbox";
import { serveProgram } from "../../src/runtime/sandbox/worker-kit";
import { runPython, type PythonRuntime } from "../../src/runtime/python/python-main";

export interface PythonRun {
  stdout: string;
  stderr: string;
  exitCode: number;
  ops: FsOp[];
}

let shared: Promise<PythonRuntime> | undefined;

/**
 * Loading Pyodide takes seconds; tests share one interpreter (the page's worker loads a fresh one per
 * run, so nothing of one program reaches the next there).
 */
function sharedPyodide(): Promise<PythonRuntime> {
  shared ??= loadPyodide().then((py) => py as unknown as PythonRuntime);
  return shared;
}

export async function runPythonInProcess(
  args: string[],
  files: Record<string, FileData> = {},
  options: { cwd?: string; stdin?: string | null; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<PythonRun> {
  const run: PythonRun = { stdout: "", stderr: "", exitCode: -1, ops: [] };
  let deliver!: (message: Parameters<Parameters<Parameters<typeof serveProgram>[0]["onMessage"]>[0]>[0]) => void;
  const ended = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`python3 ${args.join(" ")} did not end; output so far:\n${run.stdout}\n${run.stderr}`)), options.timeoutMs ?? 30_000);
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
      (context) => runPython(context, sharedPyodide),
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
