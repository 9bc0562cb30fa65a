// `python3` and `python` in the browser runtime's shell: the command line, environment, working
// folder, piped input and the workspace's files go to the isolated execution host, where Pyodide
// runs the program (worker.ts); its file changes come back through the shell's file system. The
// first use loads Pyodide's files (about 12 MB) from webcode's own origin; later runs reuse them.
import { defineCommand, type CustomCommand } from "just-bash";
import { applyFsOp, type RunMessage, type SandboxHost } from "../sandbox";
import type { WorkspaceFiles } from "../workspace-files";
import { snapshot } from "../node";
import { programStdio, type ProgramIo } from "../browser/program-command";

/** Pyodide's start files by name (see assets.ts); loaded once per page, kept in memory. */
export type PythonAssets = () => Promise<Map<string, Uint8Array>>;

export interface PythonCommandOptions {
  host: SandboxHost;
  assets: PythonAssets;
}

export function pythonCommands(files: WorkspaceFiles, options: PythonCommandOptions, io: ProgramIo = {}): CustomCommand[] {
  let loaded: Promise<Map<string, Uint8Array>> | undefined;
  const assets = () => {
    loaded ??= options.assets().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  const run = defineCommand("python3", async (args, ctx) => {
    const first = loaded === undefined;
    // The worker (sandbox frame, worker script) starts while Pyodide's files are fetched.
    if (first) options.host.warm();
    let start: Map<string, Uint8Array>;
    try {
      start = await assets();
    } catch (error) {
      return {
        stdout: "",
        stderr: `python3: Python could not be loaded (${error instanceof Error ? error.message : String(error)}). Check the connection and try again; after one load it works offline.\n`,
        exitCode: 1,
      };
    }
    const workspace = snapshot(files);
    const stdio = programStdio(ctx, io);
    const message: RunMessage = {
      type: "run",
      files: workspace.files,
      boot: [...start],
      dirs: workspace.dirs,
      args,
      env: stdio.env,
      cwd: ctx.cwd,
      stdin: stdio.stdin,
      terminal: stdio.terminal,
    };
    if (first) stdio.status(`Loading Python (Pyodide, ${megabytes(start)} MB, once per page)…\n`);
    const result = await options.host.run(message, {
      signal: ctx.signal,
      onStdout: stdio.out,
      onStderr: stdio.err,
      onFsOp: (op) => applyFsOp(ctx.fs, op),
      stdin: stdio.input,
    });
    stdio.note(result.end === "aborted" ? "KeyboardInterrupt" : stdio.closing("python3", result));
    return stdio.finish(result.exitCode);
  });
  const alias = defineCommand("python", (args, ctx) => run.execute(args, ctx));
  return [run, alias];
}

function megabytes(assets: Map<string, Uint8Array>): string {
  let total = 0;
  for (const bytes of assets.values()) total += bytes.length;
  return (total / 1_000_000).toFixed(1);
}
