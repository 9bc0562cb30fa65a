// Runs a shell line on behalf of a command that is itself run by the shell (npm's scripts, the vite
// command's `node …/vite.js build`): the line is routed to the terminal as if typed at the top
// (output-routing.ts), so what reaches the terminal streams; the streams the calling command's
// own output does not bring to the terminal (`npm test > log`, `$(vite build)`) are captured
// through files in /tmp and returned with its result.
import type { CommandContext } from "just-bash";

let captures = 0;

/** Runs `script`; the streams that do not reach the terminal are captured through files in /tmp. */
export async function execScript(
  ctx: Pick<CommandContext, "exec" | "fs" | "signal">,
  script: string,
  run: { cwd: string; env: Record<string, string>; signal?: AbortSignal },
  toOut: boolean,
  toErr: boolean,
): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const id = `${Date.now().toString(36)}-${captures++}`;
  const outFile = `/tmp/.webcode-script-${id}.out`;
  const errFile = `/tmp/.webcode-script-${id}.err`;
  const wrapped = toOut && toErr ? script : `{ ${script}\n}${toOut ? "" : ` >${outFile}`}${toErr ? "" : ` 2>${errFile}`}`;
  const result = await ctx.exec!(wrapped, { cwd: run.cwd, env: run.env, signal: run.signal ?? ctx.signal });
  const take = async (file: string, skip: boolean) => {
    if (skip) return "";
    const text = await ctx.fs.readFile(file).catch(() => "");
    await ctx.fs.rm(file, { force: true }).catch(() => undefined);
    return text;
  };
  return { stdout: result.stdout + (await take(outFile, toOut)), stderr: result.stderr + (await take(errFile, toErr)), exitCode: result.exitCode };
}
