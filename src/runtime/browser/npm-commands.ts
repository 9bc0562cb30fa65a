// `npm` and `npx` in the browser runtime's shell. The implementation (src/runtime/npm) is loaded on
// first use. Where the command's output reaches the terminal (the routing marker, see
// output-routing.ts), progress and the scripts it runs stream there as they are written; where it
// is captured (`npm test > log`, `$(npm ls)`, a pipe), the scripts' output is captured with it.
import { defineCommand, type CustomCommand, type IFileSystem } from "just-bash";
import type { ChangeSource } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { TERMINAL_ENV, terminalWriter } from "./output-routing";
import { execScript } from "./script-exec";
import type { NpmContext } from "../npm";
import type { CommandFetch } from "./curl-command";

export interface NpmCommandOptions {
  files: WorkspaceFiles;
  fetch: CommandFetch;
  /** Who the shell running the command writes as (terminal, agent, runtime). */
  sourceOf: (fs: IFileSystem) => ChangeSource;
}

type Ctx = Parameters<Parameters<typeof defineCommand>[1]>[1];

export function npmCommands(options: NpmCommandOptions): CustomCommand[] {
  const load = () => import("../npm");
  const context = (ctx: Ctx, argv: string[]): NpmContext => {
    const out = terminalWriter(ctx.env, ctx.fs, 1);
    const err = terminalWriter(ctx.env, ctx.fs, 2);
    return {
      files: options.files,
      source: options.sourceOf(ctx.fs),
      cwd: ctx.cwd,
      env: ctx.env,
      fetch: options.fetch(ctx.fs, argv),
      signal: ctx.signal,
      live: { out, err },
      exec: ctx.exec ? (script, run) => execScript(ctx, script, { ...run, env: { ...run.env, [TERMINAL_ENV]: "" } }, out !== undefined, err !== undefined) : undefined,
    };
  };
  return [
    defineCommand("npm", async (args, ctx) => (await load()).runNpm(args, context(ctx, ["npm", ...args]))),
    defineCommand("npx", async (args, ctx) => (await load()).runNpx(args, context(ctx, ["npx", ...args]))),
  ];
}
