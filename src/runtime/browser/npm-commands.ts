// `npm` and `npx` in the browser runtime's shell. The implementation (src/runtime/npm) is loaded on
// first use. Progress lines go straight to the terminal's stderr sink while the command runs (as
// npm's progress goes to the terminal, not into a pipe); scripts and binaries run through the shell.
import { defineCommand, type CustomCommand, type IFileSystem } from "just-bash";
import type { ChangeSource } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { OUTPUT_SINK_DIR } from "./output-routing";
import type { RegistryFetch } from "../npm";

export interface NpmCommandOptions {
  files: WorkspaceFiles;
  fetch: RegistryFetch;
  /** Who the shell running the command writes as (terminal, agent, runtime). */
  sourceOf: (fs: IFileSystem) => ChangeSource;
}

export function npmCommands(options: NpmCommandOptions): CustomCommand[] {
  const load = () => import("../npm");
  type Ctx = Parameters<Parameters<typeof defineCommand>[1]>[1];
  const context = (ctx: Ctx) => ({
    files: options.files,
    source: options.sourceOf(ctx.fs),
    cwd: ctx.cwd,
    env: ctx.env,
    fetch: options.fetch,
    signal: ctx.signal,
    exec: ctx.exec
      ? async (script: string, run: { cwd: string; env: Record<string, string>; signal?: AbortSignal }) => {
          const result = await ctx.exec!(script, { cwd: run.cwd, env: run.env, signal: run.signal ?? ctx.signal });
          return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
        }
      : undefined,
    progress: (text: string) => void ctx.fs.appendFile(`${OUTPUT_SINK_DIR}/2`, text).catch(() => undefined),
  });
  return [
    defineCommand("npm", async (args, ctx) => (await load()).runNpm(args, context(ctx))),
    defineCommand("npx", async (args, ctx) => (await load()).runNpx(args, context(ctx))),
  ];
}
