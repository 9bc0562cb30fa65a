// Runs a browser-runtime program (node, python3) in this process (no worker, no page): the same
// runtime code the sandboxed worker runs, for unit tests. Ending it from outside (Ctrl-C, timeouts,
// memory) is the sandbox host's part, tested with real threads.
import type { FileData, FsOp, SandboxEvent } from "../../src/runtime/sandbox";
import { serveProgram } from "../../src/runtime/sandbox/worker-kit";

export interface ProgramRun {
  stdout: string;
  stderr: string;
  exitCode: number;
  ops: FsOp[];
}

export interface ProgramRunOptions {
  cwd?: string;
  stdin?: string | null;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Standard input is the terminal: what the user types, one answer per read (null: Ctrl-D; after the last, the end). */
  terminal?: Array<string | null>;
}

type Program = Parameters<typeof serveProgram>[1];

/** Runs `program` with `args` over `files` (relative paths are inside the working folder). */
export async function runProgramInProcess(
  name: string,
  program: Program,
  args: string[],
  files: Record<string, FileData>,
  options: ProgramRunOptions,
  defaultTimeoutMs: number,
): Promise<ProgramRun> {
  const run: ProgramRun = { stdout: "", stderr: "", exitCode: -1, ops: [] };
  let deliver!: (message: Parameters<Parameters<Parameters<typeof serveProgram>[0]["onMessage"]>[0]>[0]) => void;
  const ended = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} ${args.join(" ")} did not end; output so far:\n${run.stdout}\n${run.stderr}`)), options.timeoutMs ?? defaultTimeoutMs);
    serveProgram(
      {
        send(event: SandboxEvent) {
          if (event.type === "stdout" || event.type === "stderr") run[event.type] += event.data;
          else if (event.type === "stdin-read") {
            const next = options.terminal?.length ? options.terminal.shift()! : null;
            const data = next === null ? null : new TextEncoder().encode(next);
            setTimeout(() => deliver({ type: "stdin", data, sync: false }), 5);
          }
          else if (event.type === "fs") run.ops.push(event.op);
          // The page's port registry, as far as one program needs it: every port is free (0: the first
          // ephemeral one), and no other run serves anything.
          else if (event.type === "server-listen") setTimeout(() => deliver({ type: "server-listen-answer", asked: event.port, port: event.port || 32768 }), 1);
          else if (event.type === "http-fetch") setTimeout(() => deliver({ type: "http-fetch-answer", part: { type: "http-error", id: event.id, message: `connect ECONNREFUSED ${event.url}` } }), 1);
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
      program,
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
    terminal: options.terminal !== undefined,
  });
  await ended;
  return run;
}
