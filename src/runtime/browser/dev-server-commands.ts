// The front-end tools people and agents type (vite, webpack serve, serve, next build, parcel build …)
// and python3 -m http.server. The browser runtime runs no Node.js server and most bundlers cannot
// run in it, so it maps each command line to one of three answers, and never to a false success:
//   - a dev server of static files or front-end sources starts the built-in preview of its folder
//     (the Preview compiles TypeScript, JSX, CSS imports and node_modules packages on the way out);
//     `vite preview` is the Preview of the build's output folder;
//   - `vite build` runs the installed vite with node (its Rolldown is the WebAssembly build,
//     node/native-substitutes.ts);
//   - anything else these tools do (other bundlers, a framework's own server) fails with one line
//     naming what is missing and what would run it (WebContainer).
// `frontEndTool` is the one place that decides; docs/architecture.md lists its table. The tools are
// shell commands of their own, so they answer wherever they are typed (npm scripts run through the
// shell: `tsc -b && vite build` runs tsc, then vite build), and `node` hands them the runs of an
// installed package's binary (node_modules/.bin/vite is `node …/vite/bin/vite.js`), except those the
// answer is to run with node.
import { defineCommand, type CommandContext, type CustomCommand, type ExecResult as BashResult, type IFileSystem } from "just-bash";
import type { PreviewStart, PreviewStartOptions } from "../types";
import { WORKSPACE_MOUNT } from "./bash-host";
import { configNotices, POSTCSS_CONFIGS, postcssPluginsOf } from "../preview/unsupported";
import { execScript } from "./script-exec";
import { reachesTerminal, TERMINAL_ENV } from "./output-routing";
import { shellLine } from "../../base";

export interface DevServerRequest {
  /** The folder to serve, relative to the command's working folder ("." for it). */
  dir: string;
  port?: number;
  /** What to say the preview stands in for ("vite", "npm run dev"). */
  label: string;
}

/**
 * What the runtime does with a tool's command line: serve a folder in the Preview, run the
 * installed package's binary with node (`args` after the binary), or refuse it saying why.
 */
export type ToolAnswer =
  | { kind: "serve"; request: DevServerRequest }
  | { kind: "node"; packageName: string; line: string; args: string[] }
  | { kind: "refuse"; message: string };

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

/** Options of vite's command line that take a value (so the value is not taken for the root folder). */
const VITE_VALUED_OPTIONS = ["--port", "--host", "--mode", "-m", "--config", "-c", "--base", "--logLevel", "-l", "--outDir"];

/** The value of option `name` (`--name value` or `--name=value`), if given. */
function valueOf(args: string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1];
    if (args[i]!.startsWith(`${name}=`)) return args[i]!.slice(name.length + 1);
  }
  return undefined;
}

const RUN_IT_ELSEWHERE = "Turn on WebContainer (Settings → Runtime) to run it";
const NO_BUILD_NEEDED = "; the built-in Preview serves the sources without a build (vite, npm run dev)";

function refuse(line: string, what: string, hint = ""): ToolAnswer {
  return { kind: "refuse", message: `${line}: not available in the browser runtime: ${what}. ${RUN_IT_ELSEWHERE}${hint}.` };
}

const BUNDLER = "it is a bundler, and bundlers need Node.js's native tools (esbuild, swc, Rolldown), which only WebContainer has";
const FRAMEWORK_SERVER = "it needs a Node.js server process, which only WebContainer has";

/** Tools whose every use is refused: what they need. */
// rollup is not among them: it runs with node, its native build replaced by @rollup/wasm-node
// (node/native-substitutes.ts), as an npm script or through npx like any installed package's binary.
const REFUSED_TOOLS: Record<string, string> = {
  esbuild: BUNDLER,
  tsup: BUNDLER,
  next: FRAMEWORK_SERVER,
  nuxt: FRAMEWORK_SERVER,
  astro: FRAMEWORK_SERVER,
  remix: FRAMEWORK_SERVER,
  "react-scripts": FRAMEWORK_SERVER,
  "vue-cli-service": FRAMEWORK_SERVER,
  ng: FRAMEWORK_SERVER,
};

/** Static file servers: every use serves the folder named (or the working folder). */
const STATIC_SERVERS: Record<string, { valued: string[]; port: string[] }> = {
  serve: { valued: ["-l", "--listen", "-p", "--port", "-a"], port: ["-p", "--port", "-l", "--listen"] },
  "http-server": { valued: ["-p", "--port", "-a", "-c"], port: ["-p", "--port"] },
  "live-server": { valued: [], port: ["--port"] },
  "lite-server": { valued: ["-c", "--config"], port: [] },
};

/** The tools `frontEndTool` knows, by command name. */
export const FRONT_END_TOOLS = ["vite", "webpack", "webpack-dev-server", "parcel", ...Object.keys(STATIC_SERVERS), ...Object.keys(REFUSED_TOOLS)];

/**
 * What the browser runtime does with `tool args` (the tool's command name), or undefined when
 * `tool` is not a front-end tool it maps.
 */
export function frontEndTool(tool: string, args: string[]): ToolAnswer | undefined {
  // How the refusal names the command: the tool and its subcommand, if the first word is one.
  const line = args[0] !== undefined && !args[0].startsWith("-") ? `${tool} ${args[0]}` : tool;
  if (tool === "vite") {
    const [first] = args;
    const sub = first === undefined || first.startsWith("-") ? undefined : first;
    // vite's own --version and --help (a dev server's would be the Preview's answer instead of vite's).
    if (sub === undefined && args.some((arg) => ["-v", "--version", "-h", "--help"].includes(arg))) return { kind: "node", packageName: "vite", line: "vite", args };
    if (sub === undefined || sub === "dev" || sub === "serve") {
      const rest = sub === undefined ? args : args.slice(1);
      return { kind: "serve", request: { dir: positional(rest, VITE_VALUED_OPTIONS) ?? ".", port: portOption(rest, ["--port"]), label: "vite" } };
    }
    // Vite 8 builds with Rolldown, whose WebAssembly build the runtime's node loads in place of the
    // native one, on node:wasi and worker threads sharing WebAssembly memory (docs/architecture.md,
    // Native packages): the installed vite runs as on a desktop.
    if (sub === "build") return { kind: "node", packageName: "vite", line: "vite build", args };
    if (sub === "preview") {
      // The build's output folder (--outDir, else dist) of the project root (the first positional).
      const rest = args.slice(1);
      const root = positional(rest, VITE_VALUED_OPTIONS) ?? ".";
      const outDir = valueOf(rest, "--outDir") ?? "dist";
      return { kind: "serve", request: { dir: outDir.startsWith("/") ? outDir : `${root}/${outDir}`, port: portOption(rest, ["--port"]), label: "vite preview" } };
    }
    // The dependency pre-bundling of Vite's dev server, which the built-in Preview stands in for.
    if (sub === "optimize") return refuse("vite optimize", BUNDLER, NO_BUILD_NEEDED);
    // Any other word is the folder to serve (vite web), as for vite itself.
    return { kind: "serve", request: { dir: sub, port: portOption(args, ["--port"]), label: "vite" } };
  }
  if (tool === "webpack" || tool === "webpack-cli") {
    if (args[0] === "serve" || args[0] === "s") return { kind: "serve", request: { dir: ".", port: portOption(args, ["--port"]), label: `${tool} serve` } };
    return refuse(line, BUNDLER, NO_BUILD_NEEDED);
  }
  if (tool === "webpack-dev-server") return { kind: "serve", request: { dir: ".", port: portOption(args, ["--port"]), label: tool } };
  if (tool === "parcel") {
    const sub = args.find((arg) => !arg.startsWith("-"));
    if (sub === "build" || sub === "watch") return refuse(`parcel ${sub}`, BUNDLER, NO_BUILD_NEEDED);
    return { kind: "serve", request: { dir: ".", port: portOption(args, ["--port", "-p"]), label: "parcel" } };
  }
  const server = STATIC_SERVERS[tool];
  if (server) return { kind: "serve", request: { dir: positional(args, server.valued) ?? ".", port: portOption(args, server.port), label: tool } };
  const refused = REFUSED_TOOLS[tool];
  if (refused) return refuse(line, refused);
  return undefined;
}

/**
 * Packages whose binaries are the tools above: `node` hands a run of one of their files (through
 * node_modules/.bin) to the tool's command instead of running the package's own code, which would
 * fail somewhere inside for want of Node.js's native parts.
 */
const TOOL_PACKAGES: Record<string, string> = {
  vite: "vite",
  webpack: "webpack",
  "webpack-cli": "webpack",
  "webpack-dev-server": "webpack-dev-server",
  parcel: "parcel",
  esbuild: "esbuild",
  tsup: "tsup",
  next: "next",
  nuxt: "nuxt",
  astro: "astro",
  "@remix-run/dev": "remix",
  "react-scripts": "react-scripts",
  "@vue/cli-service": "vue-cli-service",
  "@angular/cli": "ng",
  serve: "serve",
  "http-server": "http-server",
  "live-server": "live-server",
  "lite-server": "lite-server",
};

/** The tool a program file belongs to ("/workspace/node_modules/vite/bin/vite.js" → "vite"), if any. */
export function toolOfProgramFile(file: string): string | undefined {
  const parts = file.split("/");
  const at = parts.lastIndexOf("node_modules");
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const name = parts[at + 1]!.startsWith("@") ? `${parts[at + 1]}/${parts[at + 2] ?? ""}` : parts[at + 1]!;
  return TOOL_PACKAGES[name];
}

/**
 * Is `name args` a command that starts a static or front-end dev server? For npx (its first
 * argument is the tool), python3 -m http.server, and pnpm/yarn running a package.json script
 * (`packageScripts`, of the working folder) that is one dev-server command.
 */
export function matchDevServerCommand(name: string, args: string[], packageScripts: Record<string, string> = {}): DevServerRequest | { script: string; missing: boolean } | undefined {
  if (name === "pnpm" || name === "yarn") {
    const [first, second] = args;
    const script = first === "run" || first === "run-script" ? second : first === "start" || first === "dev" ? first : undefined;
    if (script === undefined) return undefined;
    const text = packageScripts[script];
    if (text === undefined) return { script, missing: true };
    const answer = singleToolLine(text);
    if (answer?.kind !== "serve") return { script, missing: false };
    return { ...answer.request, label: `${name} run ${script} (${text})` };
  }
  if (name === "npx") {
    const [tool, ...rest] = args;
    const answer = tool === undefined ? undefined : frontEndTool(tool.replace(/@latest$/, ""), rest);
    return answer?.kind === "serve" ? answer.request : undefined;
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

/** A script that is one simple command of a front-end tool (no &&, ;, pipes or substitutions): its answer. */
function singleToolLine(script: string): ToolAnswer | undefined {
  if (/[;&|<>`$()]/.test(script)) return undefined;
  const words = script.trim().split(/\s+/);
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) words.shift();
  const [tool, ...args] = words;
  return tool === undefined ? undefined : frontEndTool(tool, args);
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
  // What it does not do that Vite would (PostCSS, Tailwind, Vite plugins): said here as on the page.
  const read = async (name: string) => fs.readFile(fs.resolvePath(folder, name)).catch(() => undefined);
  const notices = await configNotices(read, { postcssRuns: started.postcssRuns });
  const warnings = notices.map((n) => `  Warning  ${n}\n`).join("");
  const postcss = started.postcssRuns ? await postcssLine(read) : "";
  return { stdout: stdout + postcss + warnings, stderr: "", exitCode: 0 };
}

/** The line that says the project's PostCSS config is applied (by node, with the workspace's packages), or "" when there is none. */
async function postcssLine(read: (name: string) => Promise<string | undefined>): Promise<string> {
  for (const name of POSTCSS_CONFIGS) {
    const text = await read(name);
    if (text === undefined) continue;
    const plugins = postcssPluginsOf(text);
    return `  PostCSS  ${name}${plugins.length ? ` (${plugins.join(", ")})` : ""} runs on every build, with node and the workspace's node_modules\n`;
  }
  return "";
}

/** What a tool's answer needs of the command that answers: its folder, file system, environment and `exec`. */
export type ToolContext = Pick<CommandContext, "cwd" | "fs" | "env" | "exec" | "signal">;

/** The answer of a tool's command line typed in folder `ctx.cwd`. */
export async function answerTool(answer: ToolAnswer, ctx: ToolContext, start: PreviewStarter | undefined): Promise<BashResult> {
  if (answer.kind === "refuse") return { stdout: "", stderr: `${answer.message}\n`, exitCode: 1 };
  if (answer.kind === "node") return runInstalledBinary(answer, ctx);
  if (!start) {
    const { label } = answer.request;
    return { stdout: "", stderr: `${label}: not available in this page: no Node.js dev server runs in the browser runtime, and this page has no built-in Preview. ${RUN_IT_ELSEWHERE}.\n`, exitCode: 1 };
  }
  return startDevServerPreview(answer.request, ctx.cwd, ctx.fs, start);
}

/**
 * Runs the package's binary with node, found as Node finds the package from the working folder
 * (its node_modules, then the parents'), in this shell: `node` streams to the terminal as typed,
 * and what this command's own routing captures is captured (script-exec.ts).
 */
async function runInstalledBinary(answer: Extract<ToolAnswer, { kind: "node" }>, ctx: ToolContext): Promise<BashResult> {
  const bin = await installedBinary(ctx.fs, ctx.cwd, answer.packageName);
  if (bin === undefined) {
    return { stdout: "", stderr: `${answer.line}: ${answer.packageName} is not installed in ${ctx.cwd} or a folder above it: run npm install (with ${answer.packageName} in package.json's devDependencies) first.\n`, exitCode: 1 };
  }
  if (!ctx.exec) return { stdout: "", stderr: `${answer.line}: needs the browser runtime's shell to run node\n`, exitCode: 1 };
  const line = shellLine(["node", bin, ...answer.args]);
  return execScript(ctx, line, { cwd: ctx.cwd, env: { [TERMINAL_ENV]: "" } }, reachesTerminal(ctx.env, 1), reachesTerminal(ctx.env, 2));
}

/** The file of a package's (first) binary installed where node would resolve it from `cwd`, or undefined. */
async function installedBinary(fs: IFileSystem, cwd: string, name: string): Promise<string | undefined> {
  for (let dir = cwd; ; dir = fs.resolvePath(dir, "..")) {
    const folder = fs.resolvePath(dir, `node_modules/${name}`);
    const manifest = await fs.readFile(`${folder}/package.json`).catch(() => undefined);
    if (manifest !== undefined) {
      try {
        const bin = (JSON.parse(manifest) as { bin?: unknown }).bin;
        const file = typeof bin === "string" ? bin : bin !== null && typeof bin === "object" ? (bin as Record<string, unknown>)[name.replace(/^@[^/]+\//, "")] : undefined;
        if (typeof file === "string") return fs.resolvePath(folder, file);
      } catch {
        // An unreadable package.json: not an installed package; look further up, as Node would not find it either.
      }
    }
    if (dir === "/" || dir === fs.resolvePath(dir, "..")) return undefined;
  }
}

/**
 * The front-end tools as shell commands (vite, webpack, serve, next …): each answers as
 * `frontEndTool` says. `start` opens the built-in preview (absent: dev servers say there is none).
 */
export function frontEndToolCommands(start: PreviewStarter | undefined): CustomCommand[] {
  return FRONT_END_TOOLS.map((name) => defineCommand(name, async (args, ctx) => answerTool(frontEndTool(name, args)!, ctx, start)));
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
 * npx, pnpm, yarn, python and python3 for the browser runtime: dev-server command lines start the
 * preview, and npx of a tool that is refused says so; any other use answers as `otherwise` does.
 * (npm's scripts run through the shell, where the tools' own commands answer.)
 */
export function devServerCommands(start: PreviewStarter, otherwise: (name: string) => CustomCommand | undefined): CustomCommand[] {
  return ["npx", "pnpm", "yarn", "python", "python3"].map((name) =>
    defineCommand(name, async (args, ctx) => {
      const scripts = name === "pnpm" || name === "yarn" ? await packageScripts(ctx.fs, ctx.cwd) : {};
      const match = matchDevServerCommand(name, args, scripts ?? {});
      if (match && "dir" in match) return startDevServerPreview(match, ctx.cwd, ctx.fs, start);
      if (match && match.missing && scripts !== undefined) {
        return { stdout: "", stderr: `npm error Missing script: "${match.script}"\nnpm error To see a list of scripts, run: npm run\n`, exitCode: 1 };
      }
      if (name === "npx" && args[0] !== undefined) {
        const answer = frontEndTool(args[0].replace(/@latest$/, ""), args.slice(1));
        if (answer) return answerTool(answer, ctx, start);
      }
      const fallback = otherwise(name);
      if (fallback && "execute" in fallback) return fallback.execute(args, ctx);
      return { stdout: "", stderr: `${name}: command not found\n`, exitCode: 127 };
    }),
  );
}
