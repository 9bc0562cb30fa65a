// The dev-server commands people and agents type (npm run dev, npm start, npx vite, npx serve,
// python3 -m http.server): in the browser runtime they start the built-in preview of their folder
// instead of failing, and say where to see it. `matchDevServerCommand` is the one place that
// decides which command lines mean "serve this folder"; an npm or python command defined elsewhere
// calls it (and `startDevServerPreview`) before running anything else.
import { defineCommand, type CustomCommand, type ExecResult as BashResult, type IFileSystem } from "just-bash";
import type { PreviewStart, PreviewStartOptions } from "../types";
import { WORKSPACE_MOUNT } from "./bash-host";

export interface DevServerRequest {
  /** The folder to serve, relative to the command's working folder ("." for it). */
  dir: string;
  port?: number;
  /** What to say the preview stands in for ("vite", "npm run dev"). */
  label: string;
}

/** Front-end dev servers whose job the built-in preview does (static files, TS/JSX, node_modules). */
const STATIC_SERVER_SCRIPT = /(^|[\s;&|/])(vite|serve|http-server|live-server|lite-server|parcel|webpack-dev-server|webpack serve)(\s|$)/;

function portOption(args: string[], names: string[]): number | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    for (const name of names) {
      if (arg === name && args[i + 1]) return Number(args[i + 1]) || undefined;
      if (arg.startsWith(`${name}=`)) return Number(arg.slice(name.length + 1)) || undefined;
    }
  }
  return undefined;
}

/** The first argument that is not an option (or an option's value). */
function positional(args: string[], valued: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (valued.includes(arg)) {
      i++;
      continue;
    }
    if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

/**
 * Is `name args` a command that starts a static or front-end dev server? `packageScripts` are the
 * scripts of the package.json in the working folder (for npm run / npm start).
 */
export function matchDevServerCommand(name: string, args: string[], packageScripts: Record<string, string> = {}): DevServerRequest | { script: string; missing: boolean } | undefined {
  if (name === "npm" || name === "pnpm" || name === "yarn") {
    const [first, second] = args;
    const script = first === "run" || first === "run-script" ? second : first === "start" || (name !== "npm" && first === "dev") ? first : undefined;
    if (script === undefined) return undefined;
    const text = packageScripts[script];
    if (text === undefined) return { script, missing: true };
    if (!STATIC_SERVER_SCRIPT.test(text)) return { script, missing: false };
    return { dir: ".", port: portOption(text.split(/\s+/), ["--port", "-p"]), label: `${name} run ${script} (${text})` };
  }
  if (name === "npx") {
    const [tool, ...rest] = args;
    if (tool === "vite" || tool === "vite@latest") {
      const sub = rest[0] === "dev" || rest[0] === "serve" ? rest.slice(1) : rest;
      return { dir: positional(sub, ["--port", "--host", "--mode", "-m", "--config", "-c"]) ?? ".", port: portOption(sub, ["--port"]), label: "vite" };
    }
    if (tool === "serve" || tool === "http-server" || tool === "live-server") {
      return { dir: positional(rest, ["-l", "--listen", "-p", "--port", "-a"]) ?? ".", port: portOption(rest, ["-p", "--port", "-l", "--listen"]), label: tool };
    }
    return undefined;
  }
  if ((name === "python3" || name === "python") && args[0] === "-m" && args[1] === "http.server") {
    const rest = args.slice(2);
    const dirIndex = rest.findIndex((a) => a === "-d" || a === "--directory");
    const dir = dirIndex >= 0 ? rest[dirIndex + 1] : rest.find((a) => a.startsWith("--directory="))?.slice(12);
    const portText = positional(rest, ["-d", "--directory", "-b", "--bind"]);
    return { dir: dir ?? ".", port: portText ? Number(portText) || undefined : 8000, label: "python3 -m http.server" };
  }
  return undefined;
}

/** The workspace path of a shell path; undefined outside /workspace. */
function workspacePathOf(shellPath: string): string | undefined {
  if (shellPath === WORKSPACE_MOUNT) return "";
  return shellPath.startsWith(`${WORKSPACE_MOUNT}/`) ? shellPath.slice(WORKSPACE_MOUNT.length + 1) : undefined;
}

/** `shellFs`: the file system of the command's run, which tells who ran it (BashHost.sourceOf). */
export type PreviewStarter = (options: PreviewStartOptions, shellFs: IFileSystem) => Promise<PreviewStart>;

/** Starts the preview for `request` run in shell folder `cwd`; the terminal's answer. */
export async function startDevServerPreview(request: DevServerRequest, cwd: string, fs: IFileSystem, start: PreviewStarter): Promise<BashResult> {
  const folder = fs.resolvePath(cwd, request.dir);
  const root = workspacePathOf(folder);
  if (root === undefined) return { stdout: "", stderr: `${request.label}: ${folder} is outside the workspace; the preview serves workspace folders only.\n`, exitCode: 1 };
  const stat = await fs.stat(folder).catch(() => undefined);
  if (!stat?.isDirectory) return { stdout: "", stderr: `${request.label}: ${folder} is not a folder.\n`, exitCode: 1 };
  const started = await start({ root, port: request.port }, fs);
  const stdout =
    `No Node.js dev server runs in the browser runtime: ${request.label} is served by the browser runtime's built-in preview instead.\n` +
    `  Serving  ${folder}\n  Preview  the Preview tab, or ${started.url} in this browser while webcode stays open\n` +
    `  It reloads when files change. TypeScript, JSX, CSS imports and node_modules packages are compiled on the way out.\n`;
  return { stdout, stderr: "", exitCode: 0 };
}

async function packageScripts(fs: IFileSystem, cwd: string): Promise<Record<string, string> | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(fs.resolvePath(cwd, "package.json"))) as { scripts?: unknown };
    const scripts = parsed.scripts;
    return scripts !== null && typeof scripts === "object" ? Object.fromEntries(Object.entries(scripts).filter(([, v]) => typeof v === "string")) : {};
  } catch {
    return undefined;
  }
}

/**
 * npm, npx, pnpm, yarn, python and python3 for the browser runtime: dev-server command lines start
 * the preview; any other use answers as `otherwise` does (the "needs WebContainer" message).
 */
export function devServerCommands(start: PreviewStarter, otherwise: (name: string) => CustomCommand | undefined): CustomCommand[] {
  return ["npm", "npx", "pnpm", "yarn", "python", "python3"].map((name) =>
    defineCommand(name, async (args, ctx) => {
      const scripts = name === "npm" || name === "pnpm" || name === "yarn" ? await packageScripts(ctx.fs, ctx.cwd) : {};
      const match = matchDevServerCommand(name, args, scripts ?? {});
      if (match && "dir" in match) return startDevServerPreview(match, ctx.cwd, ctx.fs, start);
      if (match && match.missing && scripts !== undefined) {
        return { stdout: "", stderr: `npm error Missing script: "${match.script}"\nnpm error To see a list of scripts, run: npm run\n`, exitCode: 1 };
      }
      const fallback = otherwise(name);
      if (fallback && "execute" in fallback) return fallback.execute(args, ctx);
      return { stdout: "", stderr: `${name}: command not found\n`, exitCode: 127 };
    }),
  );
}
