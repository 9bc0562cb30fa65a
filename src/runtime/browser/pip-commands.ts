// `pip` and `pip3` in the browser runtime's shell, and `python3 -m pip` routed to them. The
// implementation (src/runtime/pip) is loaded on first use; the index is fetched by the page (the
// programs' sandbox cannot reach the network). Progress streams to the terminal when stdout
// reaches it (the routing marker, see output-routing.ts), and is captured otherwise.
import { defineCommand, type CustomCommand, type IFileSystem } from "just-bash";
import type { ChangeSource } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { terminalWriter } from "./output-routing";
import type { PipContext } from "../pip";
import type { CommandFetch } from "./curl-command";

export interface PipCommandOptions {
  files: WorkspaceFiles;
  fetch: CommandFetch;
  /** Who the shell running the command writes as (terminal, agent, runtime). */
  sourceOf: (fs: IFileSystem) => ChangeSource;
}

type Command = ReturnType<typeof defineCommand>;
type Ctx = Parameters<Parameters<typeof defineCommand>[1]>[1];

export function pipCommands(options: PipCommandOptions): [Command, Command] {
  const load = () => import("../pip");
  const context = (ctx: Ctx, argv: string[]): PipContext => {
    return {
      files: options.files,
      source: options.sourceOf(ctx.fs),
      cwd: ctx.cwd,
      env: ctx.env,
      fetch: options.fetch(ctx.fs, argv),
      signal: ctx.signal,
      live: terminalWriter(ctx.env, ctx.fs, 1),
    };
  };
  const pip = defineCommand("pip", async (args, ctx) => (await load()).runPip(args, context(ctx, ["pip", ...args])));
  const pip3 = defineCommand("pip3", (args, ctx) => pip.execute(args, ctx));
  return [pip, pip3];
}

/** python3 / python with `-m pip …` handed to pip (Pyodide has no pip of its own); everything else runs Python. */
export function withPythonPip(python: CustomCommand[], pip: Command): CustomCommand[] {
  return python.map((command) =>
    !("execute" in command) ? command : defineCommand(command.name, (args, ctx) => {
      const at = args.findIndex((arg) => !/^-[uBEsSIq]$/.test(arg));
      if (args[at] === "-m" && args[at + 1] === "pip") return pip.execute(args.slice(at + 2), ctx);
      return command.execute(args, ctx);
    }),
  );
}
