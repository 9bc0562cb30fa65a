// The `node` command of the browser runtime's shell: hands the workspace's files, the command line,
// environment, working folder and standard input (piped, or the terminal) to the isolated execution
// host, streams the program's output (program-command.ts), and replays the
// program's file changes through the shell's file system (so the workspace file service, the tree,
// open editors and IndexedDB see them, attributed to whoever ran the command).
import { defineCommand, type CommandContext, type CustomCommand, type ExecResult } from "just-bash";
import { diffSnapshots } from "../sandbox/sync-answer";
import { IPC_CHANNEL_ENV, applyFsOp, type ChildResult, type FileData, type RunMessage, type SandboxHost, type SpawnRequest } from "../sandbox";
import { TERMINAL_ENV } from "../browser/output-routing";
import type { WorkspaceFiles } from "../workspace-files";
import { programStdio, type ProgramIo } from "../browser/program-command";
import { toolOfProgramFile } from "../browser/dev-server-commands";
import { CompiledStore } from "./compiled-store";

/** Where the workspace is mounted in the shell (bash-host.ts WORKSPACE_MOUNT). */
const MOUNT = "/workspace";

/**
 * Answers a front-end tool's command line (dev-server-commands.ts), for runs of its installed
 * binary; undefined when the answer is to run the binary with node (vite build).
 */
export type ToolRunner = (tool: string, args: string[], ctx: CommandContext) => Promise<ExecResult> | undefined;

export function nodeCommand(host: SandboxHost, files: WorkspaceFiles, io: ProgramIo = {}, tools?: ToolRunner): CustomCommand {
  const compiled = new CompiledStore();
  return defineCommand("node", async (args, ctx) => {
    // An installed front-end tool's binary (node_modules/.bin/vite runs node …/vite/bin/vite.js):
    // its own code needs Node.js's native parts; the tool's shell command answers instead (the
    // Preview for a dev server, a clear refusal for what cannot run), as it does when typed; what
    // runs with node (vite build) runs here.
    const main = args[0] !== undefined && !args[0].startsWith("-") ? ctx.fs.resolvePath(ctx.cwd, args[0]) : undefined;
    const tool = main !== undefined ? toolOfProgramFile(main) : undefined;
    const answered = tool && tools ? tools(tool, args.slice(1), ctx) : undefined;
    if (answered) return answered;
    const stdio = programStdio(ctx, io);
    // A forked child (child_process.fork) joins its IPC channel; the token is not its children's.
    const { [IPC_CHANNEL_ENV]: ipc, ...env } = stdio.env;
    const message: RunMessage = {
      type: "run",
      ...snapshot(files),
      args,
      env,
      ...(ipc !== undefined ? { ipc: true } : {}),
      cwd: ctx.cwd,
      stdin: stdio.stdin,
      terminal: stdio.terminal,
      compiled: compiled.all(),
    };
    const result = await host.run(message, {
      onCompiled: (entries) => compiled.add(entries),
      signal: ctx.signal,
      interrupt: io.interruptOf?.(ctx.fs),
      onHandlesSignals: () => io.handlesSignals?.(ctx.fs),
      onStdout: stdio.out,
      onStderr: stdio.err,
      onFsOp: (op) => applyFsOp(ctx.fs, op),
      stdin: stdio.input,
      ipc,
      onSpawn: async (request, signal, sync) => {
        if (!sync) return { result: await runChild(ctx, request, signal), files: snapshot(files) };
        // The blocked program takes only what the child changed (sync-answer.ts).
        const before = view(files);
        const result = await runChild(ctx, request, signal);
        const after = view(files);
        return { result, changes: diffSnapshots(before.files, after.files, before.dirs, after.dirs) };
      },
    });
    stdio.note(stdio.closing("node", result));
    return stdio.finish(result.exitCode);
  });
}

let children = 0;

/**
 * A child of the program (child_process): its command line runs in this shell (ctx.exec), so the
 * run's gate sees every command it runs, and its file changes go through the shell's file system.
 * Its output is captured through files in /tmp (as npm-commands.ts does for scripts) and handed to
 * the program when it ends.
 */
async function runChild(ctx: CommandContext, request: SpawnRequest, signal: AbortSignal): Promise<ChildResult> {
  if (!ctx.exec) return { exitCode: 127, signal: null, stdout: "", stderr: "child processes need the browser runtime's shell\n" };
  const id = `${Date.now().toString(36)}-${children++}`;
  const outFile = `/tmp/.webcode-child-${id}.out`;
  const errFile = `/tmp/.webcode-child-${id}.err`;
  // The child's environment is exactly the one it was given (exported, so that programs see it).
  const exports = Object.keys(request.env)
    .filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    .map((name) => `export ${name}\n`)
    .join("");
  const result = await ctx.exec(`${exports}{ ${request.command}\n} >${outFile} 2>${errFile}`, {
    cwd: request.cwd,
    env: { ...request.env, [TERMINAL_ENV]: "" },
    replaceEnv: true,
    stdin: request.stdin ?? undefined,
    signal: AbortSignal.any([signal, ...(ctx.signal ? [ctx.signal] : [])]),
  });
  const take = async (file: string) => {
    const text = await ctx.fs.readFile(file).catch(() => "");
    await ctx.fs.rm(file, { force: true }).catch(() => undefined);
    return text;
  };
  const stdout = result.stdout + (await take(outFile));
  const stderr = result.stderr + (await take(errFile));
  if (signal.aborted) return { exitCode: null, signal: (typeof signal.reason === "string" ? signal.reason : "SIGTERM") as ChildResult["signal"], stdout, stderr };
  return { exitCode: result.exitCode, signal: null, stdout, stderr };
}

/** The workspace as the program sees it: every file and folder under /workspace, plus /tmp. */
export function snapshot(files: WorkspaceFiles): Pick<RunMessage, "files" | "dirs"> {
  const out: RunMessage["files"] = [];
  for (const [path, data] of files.entries()) out.push([`${MOUNT}/${path}`, data]);
  const dirs = [MOUNT, "/tmp"];
  for (const path of files.snapshotPaths()) if (files.statSync(path)?.kind === "dir") dirs.push(`${MOUNT}/${path}`);
  return { files: out, dirs };
}

/** The same as a map and a set, for diffing what a synchronous child changed. */
function view(files: WorkspaceFiles): { files: Map<string, FileData>; dirs: Set<string> } {
  const { files: list, dirs } = snapshot(files);
  return { files: new Map(list), dirs: new Set(dirs) };
}
