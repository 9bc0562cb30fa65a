// The `npm` and `npx` commands of the browser runtime: argument parsing and the small commands
// (ls, run, test, start, npx); installs are in install.ts. Scripts and binaries run through the
// runtime's own shell with node_modules/.bin on PATH, as npm runs them through sh.
import { errorMessage, isAbortError, shellLine } from "../../base";
import type { ChangeSource } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { install, type InstallRequest } from "./install";
import { Project } from "./project";
import { NpmError, registryFromNpmrc, type RegistryFetch } from "./registry";
import { scriptEnv } from "./script-env";
import { satisfies } from "./resolve";
import type { NpmOutput } from "./types";

export const NPM_VERSION = "10.9.0-webcode";

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface NpmContext {
  files: WorkspaceFiles;
  source: ChangeSource;
  /** The shell's working folder ("/workspace/app"). */
  cwd: string;
  env: Map<string, string>;
  fetch: RegistryFetch;
  signal?: AbortSignal;
  /** Runs a shell script (the runtime's shell), for npm run and npx. */
  exec?: (script: string, options: { cwd: string; env: Record<string, string>; signal?: AbortSignal }) => Promise<CommandResult>;
  /** Writers to the terminal while the command runs, for the streams that reach it (progress, script banners). */
  live?: { out?: (text: string) => void; err?: (text: string) => void };
  now?: () => number;
}

const HELP = `npm (browser runtime) ${NPM_VERSION}
Usage: npm <command>
  npm install [NAME[@range]...] [-D] [-E]  install package.json's dependencies, or add packages
  npm ci                               install exactly package-lock.json
  npm uninstall NAME...                remove packages
  npm ls [--all]                       list installed packages
  npm run [SCRIPT] [-- ARGS]           run a package.json script (no SCRIPT: list them)
  npm test, npm start                  run the test / start script
  npx BIN [ARGS]                       run an installed package's binary
Pure-JavaScript packages work here; install scripts are not run, and packages with native code
need the WebContainer runtime. The registry is the registry= line of .npmrc (default: the npm registry).
`;

export async function runNpm(args: string[], ctx: NpmContext): Promise<CommandResult> {
  const result: CommandResult = { stdout: "", stderr: "", exitCode: 0 };
  const output: NpmOutput = {
    out: (text) => void (result.stdout += text),
    err: (text) => {
      if (ctx.live?.err) ctx.live.err(text);
      else result.stderr += text;
    },
  };
  const [command = "", ...rest] = args;
  try {
    switch (command) {
      case "":
      case "help":
      case "-h":
      case "--help":
        result.stdout = HELP;
        return result;
      case "-v":
      case "--version":
      case "version":
        result.stdout = `${NPM_VERSION}\n`;
        return result;
      case "install":
      case "i":
      case "in":
      case "add":
      case "isntall":
        return await doInstall({ mode: "install" }, rest, ctx, output, result);
      case "ci":
      case "clean-install":
      case "install-clean":
        return await doInstall({ mode: "ci" }, rest, ctx, output, result);
      case "uninstall":
      case "un":
      case "remove":
      case "rm":
      case "r":
      case "unlink":
        return await doInstall({ mode: "install" }, rest, ctx, output, result, true);
      case "ls":
      case "list":
      case "la":
      case "ll":
        return list(rest, ctx, result);
      case "run":
      case "run-script":
      case "rum":
      case "urn": {
        // As npm: options may come before the script's name (npm run --silent build); the name is
        // the first argument that is not an option, before any "--".
        const end = rest.indexOf("--") === -1 ? rest.length : rest.indexOf("--");
        const at = rest.slice(0, end).findIndex((arg) => !arg.startsWith("-"));
        if (at === -1) return await runScript(undefined, rest, ctx, result);
        return await runScript(rest[at], [...rest.slice(0, at), ...rest.slice(at + 1)], ctx, result);
      }
      case "test":
      case "t":
      case "tst":
        return await runScript("test", rest, ctx, result);
      case "start":
        return await runScript("start", rest, ctx, result);
      case "stop":
      case "restart":
        return await runScript(command, rest, ctx, result);
      case "exec":
      case "x":
        return await runNpx(rest[0] === "--" ? rest.slice(1) : rest, ctx);
      default:
        return fail(result, `Unknown command: "${command}" (the browser runtime's npm knows: install, ci, uninstall, ls, run, test, start, exec). Other npm commands need the WebContainer runtime.`, "EUSAGE");
    }
  } catch (error) {
    if (isAbortError(error) || ctx.signal?.aborted) return fail(result, "Stopped.", "EABORT", 130);
    if (error instanceof NpmError) return fail(result, error.message, error.code);
    return fail(result, errorMessage(error), "EUNKNOWN");
  }
}

function fail(result: CommandResult, message: string, code: string, exitCode = 1): CommandResult {
  result.stderr += `npm error code ${code}\n${message.split("\n").map((line) => `npm error ${line}`).join("\n")}\n`;
  result.exitCode = exitCode;
  return result;
}

function projectFor(ctx: NpmContext): Project {
  if (ctx.cwd !== "/workspace" && !ctx.cwd.startsWith("/workspace/")) {
    throw new NpmError(`npm works on projects in the workspace (/workspace); ${ctx.cwd} is outside it.`, "ENOWORKSPACE");
  }
  return Project.find(ctx.files, ctx.cwd.slice("/workspace/".length), ctx.source);
}

async function doInstall(base: InstallRequest, args: string[], ctx: NpmContext, output: NpmOutput, result: CommandResult, uninstall = false): Promise<CommandResult> {
  const names: string[] = [];
  let saveDev = false;
  let saveExact = false;
  for (const arg of args) {
    if (arg === "-D" || arg === "--save-dev") saveDev = true;
    else if (arg === "-E" || arg === "--save-exact") saveExact = true;
    else if (arg === "-g" || arg === "--global") throw new NpmError("Global installs are not available in the browser runtime; install into the project instead.", "EUSAGE");
    else if (arg === "-P" || arg === "--save-prod" || arg === "-S" || arg === "--save" || arg === "--no-audit" || arg === "--no-fund" || arg === "--ignore-scripts" || arg === "--silent" || arg === "--no-progress") continue;
    else if (arg.startsWith("-")) throw new NpmError(`The option ${arg} is not supported by the browser runtime's npm.`, "EUSAGE");
    else names.push(arg);
  }
  if (base.mode === "ci" && names.length > 0) throw new NpmError("npm ci takes no package names.", "EUSAGE");
  if (uninstall && names.length === 0) throw new NpmError("npm uninstall needs the names of packages to remove.", "EUSAGE");
  const project = projectFor(ctx);
  const request: InstallRequest = uninstall ? { mode: "install", remove: names } : { ...base, add: names, saveDev, saveExact };
  await install(project, request, { fetch: ctx.fetch, signal: ctx.signal, output, now: ctx.now });
  return result;
}

function list(args: string[], ctx: NpmContext, result: CommandResult): CommandResult {
  const unknown = args.find((arg) => arg.startsWith("-") && !["--all", "-a"].includes(arg));
  if (unknown) throw new NpmError(`The option ${unknown} is not supported by the browser runtime's npm ls (it knows --all).`, "EUSAGE");
  const all = args.includes("--all") || args.includes("-a");
  const project = projectFor(ctx);
  const root = project.manifest();
  const installed = project.installed();
  const lines = [`${root.name ?? "(unnamed)"}@${root.version ?? ""} ${project.shellPath()}`];
  const problems: string[] = [];
  const find = (from: string, name: string): string | undefined => {
    let at = from;
    for (;;) {
      const location = at === "" ? `node_modules/${name}` : `${at}/node_modules/${name}`;
      if (installed.has(location)) return location;
      if (at === "") return undefined;
      const cut = at.lastIndexOf("/node_modules/");
      at = cut < 0 ? "" : at.slice(0, cut);
    }
  };
  const seen = new Set<string>();
  const depsOf = (location: string): Array<[string, string]> => {
    if (location === "") return Object.entries({ ...root.dependencies, ...root.devDependencies, ...root.optionalDependencies }).sort(([a], [b]) => (a < b ? -1 : 1));
    const text = project.readText(`${location}/package.json`);
    if (!text) return [];
    try {
      const parsed = JSON.parse(text) as { dependencies?: Record<string, string> };
      return Object.entries(parsed.dependencies ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
    } catch {
      return [];
    }
  };
  const walk = (from: string, prefix: string, depth: number) => {
    const deps = depsOf(from);
    deps.forEach(([name, range], index) => {
      const last = index === deps.length - 1;
      const location = find(from, name);
      const branch = prefix + (last ? "└─" : "├─");
      if (!location) {
        const optional = from === "" && root.optionalDependencies?.[name] !== undefined;
        if (!optional) {
          lines.push(`${branch}─ UNMET DEPENDENCY ${name}@${range}`);
          problems.push(`missing: ${name}@${range}, required by ${from === "" ? "the project" : from}`);
        }
        return;
      }
      const version = installed.get(location)!.version;
      const invalid = satisfies(version, range) ? "" : ` invalid: "${range}" from ${from === "" ? "the root project" : from}`;
      if (invalid) problems.push(`invalid: ${name}@${version} ${invalid.trim()}`);
      const deduped = seen.has(location) ? " deduped" : "";
      const hasChildren = all && !deduped && depsOf(location).length > 0;
      lines.push(`${prefix}${last ? "└" : "├"}─${hasChildren ? "┬" : "─"} ${name}@${version}${invalid}${deduped}`);
      seen.add(location);
      if (hasChildren && depth < 50) walk(location, prefix + (last ? "  " : "│ "), depth + 1);
    });
  };
  walk("", "", 0);
  if (lines.length === 1) lines.push("└── (empty)");
  result.stdout = `${lines.join("\n")}\n`;
  if (problems.length > 0) {
    result.stderr = problems.map((problem) => `npm error ${problem}`).join("\n") + "\n";
    result.exitCode = 1;
  }
  return result;
}

/** PATH for scripts: node_modules/.bin of the project and of every folder above it, then the shell's. */
function scriptPath(project: Project, ctx: NpmContext): string {
  const dirs: string[] = [];
  let at = project.dir;
  for (;;) {
    dirs.push(at === "" ? "/workspace/node_modules/.bin" : `/workspace/${at}/node_modules/.bin`);
    if (at === "") break;
    at = at.includes("/") ? at.slice(0, at.lastIndexOf("/")) : "";
  }
  return [...dirs, ctx.env.get("PATH") ?? "/usr/bin:/bin"].join(":");
}

/** npm's own options on a `npm run` line (before `--`): npm reads them, the script never sees them. */
function scriptOptions(args: string[]): { positional: string[]; silent: boolean; ifPresent: boolean; config: Record<string, string> } {
  const positional: string[] = [];
  const config: Record<string, string> = {};
  let silent = false;
  let ifPresent = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-s" || arg === "--silent" || arg === "--loglevel=silent") silent = true;
    else if (arg === "--if-present") ifPresent = true;
    else if (arg.startsWith("--") && arg.length > 2) {
      // As npm: an option it does not know becomes configuration (npm_config_NAME), not an argument.
      const [name, value] = arg.includes("=") ? [arg.slice(2, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg.slice(2), "true"];
      if (name.startsWith("no-")) config[name.slice(3)] = "";
      else config[name] = value;
    } else positional.push(arg);
  }
  return { positional, silent, ifPresent, config };
}

async function runScript(name: string | undefined, args: string[], ctx: NpmContext, result: CommandResult): Promise<CommandResult> {
  const project = projectFor(ctx);
  const root = project.manifest();
  const scripts = root.scripts ?? {};
  if (name === undefined) {
    const names = Object.keys(scripts);
    result.stdout = names.length === 0 ? "" : `Scripts available in ${root.name ?? "the project"} via \`npm run\`:\n${names.map((n) => `  ${n}\n    ${scripts[n]}`).join("\n")}\n`;
    return result;
  }
  const options = scriptOptions(args);
  const passed = options.positional;
  let script = scripts[name];
  if (script === undefined && name === "start" && project.readText("server.js") !== undefined) script = "node server.js";
  if (script === undefined && (name === "stop" || name === "restart")) return result;
  if (script === undefined && options.ifPresent) return result;
  if (script === undefined) {
    return fail(result, `Missing script: "${name}"\n\nTo see a list of scripts, run:\n  npm run`, "ENOSCRIPT");
  }
  if (!ctx.exec) throw new NpmError("This shell cannot run scripts.", "ENOEXEC");
  const home = ctx.env.get("HOME") ?? "/workspace";
  const env: Record<string, string> = {
    ...scriptEnv({
      manifest: root,
      projectDir: project.shellPath(),
      initCwd: ctx.cwd,
      command: name === "test" || name === "start" || name === "stop" || name === "restart" ? name : "run",
      npmVersion: NPM_VERSION,
      home,
      registry: registryFromNpmrc([project.readText(".npmrc"), project.atRoot().readText(".npmrc")]),
      config: options.config,
    }),
    PATH: scriptPath(project, ctx),
  };
  // A script's programs see these as npm's children do: exported, not only set in the shell.
  const exported = `export ${[...Object.keys(env), "npm_lifecycle_event", "npm_lifecycle_script"].join(" ")}\n`;
  const steps: Array<[string, string]> = [];
  if (scripts[`pre${name}`] !== undefined) steps.push([`pre${name}`, scripts[`pre${name}`]!]);
  steps.push([name, passed.length > 0 ? `${script} ${shellLine(passed)}` : script]);
  if (scripts[`post${name}`] !== undefined) steps.push([`post${name}`, scripts[`post${name}`]!]);
  for (const [event, text] of steps) {
    const banner = `\n> ${root.name ?? ""}${root.version ? `@${root.version}` : ""} ${event}\n> ${text}\n\n`;
    if (!options.silent) {
      if (ctx.live?.out) ctx.live.out(banner);
      else result.stdout += banner;
    }
    const ran = await ctx.exec(exported + text, { cwd: project.shellPath(), env: { ...env, npm_lifecycle_event: event, npm_lifecycle_script: text }, signal: ctx.signal });
    result.stdout += ran.stdout;
    result.stderr += ran.stderr;
    if (ran.exitCode !== 0) {
      if (!options.silent) {
        result.stderr += `npm error Lifecycle script \`${event}\` failed with error:\nnpm error code ${ran.exitCode}\nnpm error path ${project.shellPath()}\nnpm error command failed\nnpm error command sh -c ${text}\n`;
      }
      result.exitCode = ran.exitCode;
      return result;
    }
  }
  return result;
}

/** npx BIN: an installed package's binary (the browser runtime does not download packages for npx). */
export async function runNpx(args: string[], ctx: NpmContext): Promise<CommandResult> {
  const result: CommandResult = { stdout: "", stderr: "", exitCode: 0 };
  const rest = args.filter((arg, i) => !(i === 0 && (arg === "--yes" || arg === "-y" || arg === "--no-install")));
  const [bin, ...binArgs] = rest;
  if (!bin) {
    result.stderr = "npx: name a binary to run, e.g. npx tsc --version\n";
    result.exitCode = 1;
    return result;
  }
  try {
    const project = projectFor(ctx);
    const name = bin.startsWith("@") ? bin.slice(bin.indexOf("/") + 1).split("@")[0]! : bin.split("@")[0]!;
    const path = scriptPath(project, ctx)
      .split(":")
      .filter((dir) => dir.startsWith("/workspace"))
      .map((dir) => `${dir}/${name}`)
      .find((candidate) => ctx.files.statSync(candidate.slice("/workspace/".length))?.kind === "file");
    if (!path) {
      result.stderr = `npx: ${name} is not installed in this project. Install it first (npm install ${bin.startsWith("@") ? bin : name}); npx in the browser runtime runs installed binaries only.\n`;
      result.exitCode = 127;
      return result;
    }
    if (!ctx.exec) throw new NpmError("This shell cannot run binaries.", "ENOEXEC");
    const ran = await ctx.exec(shellLine([path, ...binArgs]), { cwd: ctx.cwd, env: { PATH: scriptPath(project, ctx) }, signal: ctx.signal });
    return ran;
  } catch (error) {
    result.stderr = `npx: ${errorMessage(error)}\n`;
    result.exitCode = 1;
    return result;
  }
}
