// The `pip` command of the browser runtime (also `pip3` and `python3 -m pip`): install (names,
// specifiers, extras, -r requirements files), uninstall, list, freeze, show, --version. Packages go
// to the workspace's .venv site-packages, which python3 puts on sys.path.
import { errorMessage, isAbortError, joinPath, normalizePath } from "../../base";
import type { ChangeSource } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { DEFAULT_INDEX, IndexClient, PipError, indexFromConfig, withSlash, type IndexFetch } from "./index-client";
import { flush, install, readInstalled, removeDist, type Site } from "./install";
import { PYTHON_VERSION, RequirementError, normalizeName, parseRequirement, type Requirement } from "./requirement";

export const PIP_VERSION = "25.0-webcode";
/** Workspace path of the site-packages folder python3 reads. */
export const SITE_PACKAGES = `.venv/lib/python${PYTHON_VERSION}/site-packages`;

export interface PipContext {
  files: WorkspaceFiles;
  source: ChangeSource;
  /** The shell's working folder ("/workspace/app"). */
  cwd: string;
  env: Map<string, string>;
  fetch: IndexFetch;
  signal?: AbortSignal;
  /** Writer to the terminal while the command runs (progress), when stdout reaches it. */
  live?: (text: string) => void;
}

export interface PipResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const HELP = `Usage: pip <command> [options]   (browser runtime, pip ${PIP_VERSION})
  pip install NAME[extras][spec]...   install pure-Python wheels and their dependencies
  pip install -r requirements.txt     install what a requirements file lists
      -U/--upgrade  --no-deps  --pre  -i/--index-url URL  -q
  pip uninstall [-y] NAME...          remove installed packages
  pip list [--format=freeze]          list installed packages
  pip freeze                          installed packages as requirements
  pip show NAME...                    details of installed packages
Packages go to /workspace/${SITE_PACKAGES}, which python3 reads. The index is index-url in
pip.conf ([global]) or PIP_INDEX_URL (default ${DEFAULT_INDEX}). Only pure-Python wheels install:
packages with native code need a CPython with a compiler, which this page does not have.
`;

export async function runPip(args: string[], ctx: PipContext): Promise<PipResult> {
  const result: PipResult = { stdout: "", stderr: "", exitCode: 0 };
  const out = (text: string) => {
    if (ctx.live) ctx.live(text);
    else result.stdout += text;
  };
  const site: Site = { files: ctx.files, source: ctx.source, dir: SITE_PACKAGES };
  const [command = "", ...rest] = args;
  try {
    switch (command) {
      case "":
      case "help":
      case "-h":
      case "--help":
        result.stdout = HELP;
        return result;
      case "-V":
      case "--version":
        result.stdout = `pip ${PIP_VERSION} from /workspace/${SITE_PACKAGES} (python ${PYTHON_VERSION})\n`;
        return result;
      case "install":
        await doInstall(rest, ctx, site, out);
        return result;
      case "uninstall":
        refuseOptions(rest, ["-y", "--yes", "-q", "--quiet"]);
        uninstall(rest, site, out);
        await flush(site);
        return result;
      case "list":
      {
        const at = rest.indexOf("--format");
        const format = rest.find((arg) => arg.startsWith("--format="))?.slice("--format=".length) ?? (at >= 0 ? rest[at + 1] : "columns");
        if (format !== "freeze" && format !== "columns") throw new PipError(`the list format "${format}" is not supported in the browser runtime (columns and freeze are)`);
        refuseOptions(rest.filter((arg, index) => !arg.startsWith("--format=") && index !== at), []);
        result.stdout = list(site, format === "freeze");
        return result;
      }
      case "freeze":
        refuseOptions(rest, []);
        result.stdout = list(site, true);
        return result;
      case "show":
        refuseOptions(rest, []);
        return show(rest, site, result);
      default:
        result.stderr = `ERROR: unknown command "${command}" (this pip knows: install, uninstall, list, freeze, show)\n`;
        result.exitCode = 1;
        return result;
    }
  } catch (error) {
    if (isAbortError(error) || ctx.signal?.aborted) {
      result.stderr += "ERROR: Operation cancelled by user\n";
      result.exitCode = 130;
      return result;
    }
    result.stderr += `ERROR: ${error instanceof PipError || error instanceof RequirementError ? error.message : errorMessage(error)}\n`;
    result.exitCode = 1;
    return result;
  }
}

/** Workspace path of a path the user typed, relative to the shell's working folder. */
function workspacePath(cwd: string, path: string): string {
  const absolute = path.startsWith("/") ? normalizePath(path) : joinPath(cwd, path);
  const clean = absolute.replace(/^\/+/, "");
  if (clean !== "workspace" && !clean.startsWith("workspace/")) throw new PipError(`${path} is outside the workspace (/workspace).`);
  return clean === "workspace" ? "" : clean.slice("workspace/".length);
}

function readText(files: WorkspaceFiles, path: string): string | undefined {
  if (files.statSync(path)?.kind !== "file") return undefined;
  const data = files.readSync(path);
  return typeof data === "string" ? data : new TextDecoder().decode(data);
}

async function doInstall(args: string[], ctx: PipContext, site: Site, out: (text: string) => void): Promise<void> {
  const requirements: Requirement[] = [];
  let upgrade = false;
  let noDeps = false;
  let pre = false;
  let quiet = false;
  let index: string | undefined;
  const readRequirements = (file: string, seen: Set<string>) => {
    const path = workspacePath(ctx.cwd, file);
    if (seen.has(path)) return;
    seen.add(path);
    const content = readText(ctx.files, path);
    if (content === undefined) throw new PipError(`Could not open requirements file: [Errno 2] No such file or directory: '${file}'`);
    const dir = `/workspace/${path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ""}`;
    for (const raw of content.replace(/\\\r?\n/g, "").split(/\r?\n/)) {
      const line = raw.replace(/(^|\s)#.*$/, "").trim();
      if (line === "") continue;
      const option = /^(-r|--requirement|-i|--index-url|-c|--constraint|-e|--editable|--extra-index-url|--pre)(?:\s*=?\s*(.*))?$/.exec(line);
      if (option) {
        const [, flag, value = ""] = option;
        if (flag === "-r" || flag === "--requirement") readRequirements(value.startsWith("/") ? value : `${dir}/${value}`, seen);
        else if (flag === "-i" || flag === "--index-url") index = value;
        else if (flag === "--pre") pre = true;
        else throw new PipError(`${file}: "${line}" is not supported in the browser runtime (only names with versions, -r, -i and --pre).`);
        continue;
      }
      if (line.startsWith("-")) throw new PipError(`${file}: the option "${line}" is not supported in the browser runtime.`);
      requirements.push(parseRequirement(line));
    }
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-r" || arg === "--requirement") readRequirements(args[++i] ?? "", new Set());
    else if (arg.startsWith("--requirement=")) readRequirements(arg.slice("--requirement=".length), new Set());
    else if (arg === "-U" || arg === "--upgrade") upgrade = true;
    else if (arg === "--no-deps") noDeps = true;
    else if (arg === "--pre") pre = true;
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (arg === "-i" || arg === "--index-url") index = args[++i];
    else if (arg.startsWith("--index-url=")) index = arg.slice("--index-url=".length);
    else if (arg === "--user" || arg === "--no-cache-dir" || arg === "--disable-pip-version-check" || arg === "-y") continue;
    else if (arg.startsWith("-")) throw new PipError(`no such option: ${arg} (the browser runtime's pip knows -r, -U, --no-deps, --pre, -i, -q)`);
    else requirements.push(parseRequirement(arg));
  }
  if (requirements.length === 0) throw new PipError("You must give at least one requirement to install (see \"pip help\").");
  const configured = index ?? ctx.env.get("PIP_INDEX_URL") ?? indexFromConfig([readText(ctx.files, "pip.conf"), readText(ctx.files, ".config/pip/pip.conf"), readText(ctx.files, ".pip/pip.conf")]);
  const url = withSlash(configured ?? DEFAULT_INDEX);
  try {
    new URL(url);
  } catch {
    throw new PipError(`The index URL "${configured}" is not a URL (pip.conf index-url, PIP_INDEX_URL or -i).`);
  }
  const print = quiet ? () => undefined : out;
  if (url !== DEFAULT_INDEX) print(`Looking in indexes: ${url}\n`);
  await install(requirements, site, new IndexClient(url, ctx.fetch, ctx.signal), { upgrade, noDeps, pre, out: print });
}

/** An option this pip does not act on is an error, as pip's own unknown options are (never ignored). */
function refuseOptions(args: string[], known: string[]): void {
  for (const arg of args) {
    if (arg.startsWith("-") && !known.includes(arg)) throw new PipError(`no such option: ${arg} (the browser runtime's pip knows ${known.length > 0 ? known.join(", ") : "no options"} here)`);
  }
}

function uninstall(args: string[], site: Site, out: (text: string) => void): void {
  const names = args.filter((arg) => !arg.startsWith("-"));
  if (names.length === 0) throw new PipError('You must give at least one requirement to uninstall (see "pip help").');
  const installed = readInstalled(site);
  for (const name of names) {
    const dist = installed.get(normalizeName(parseRequirement(name).name));
    if (!dist) {
      out(`WARNING: Skipping ${name} as it is not installed.\n`);
      continue;
    }
    out(`Found existing installation: ${dist.name} ${dist.version}\nUninstalling ${dist.name}-${dist.version}:\n`);
    removeDist(site, dist);
    out(`  Successfully uninstalled ${dist.name}-${dist.version}\n`);
  }
}

function list(site: Site, freeze: boolean): string {
  const dists = [...readInstalled(site).values()].sort((a, b) => normalizeName(a.name).localeCompare(normalizeName(b.name)));
  if (freeze) return dists.map((dist) => `${dist.name}==${dist.version}\n`).join("");
  const width = Math.max("Package".length, ...dists.map((dist) => dist.name.length));
  const versionWidth = Math.max("Version".length, ...dists.map((dist) => dist.version.length));
  const row = (a: string, b: string) => `${a.padEnd(width)} ${b}`.trimEnd() + "\n";
  return row("Package", "Version") + row("-".repeat(width), "-".repeat(versionWidth)) + dists.map((dist) => row(dist.name, dist.version)).join("");
}

function show(args: string[], site: Site, result: PipResult): PipResult {
  const names = args.filter((arg) => !arg.startsWith("-"));
  if (names.length === 0) {
    result.stderr = "ERROR: Please provide a package name or names.\n";
    result.exitCode = 1;
    return result;
  }
  const installed = readInstalled(site);
  const missing: string[] = [];
  const blocks: string[] = [];
  for (const name of names) {
    const dist = installed.get(normalizeName(name));
    if (!dist) {
      missing.push(name);
      continue;
    }
    const field = (key: string) => dist.metadata.get(key)?.[0] ?? "";
    const requires = (dist.metadata.get("requires-dist") ?? []).map((line) => parseRequirement(line)).filter((req) => !req.marker || !/extra/.test(JSON.stringify(req.marker))).map((req) => req.name);
    const key = normalizeName(dist.name);
    const requiredBy = [...installed.values()]
      .filter((other) => (other.metadata.get("requires-dist") ?? []).some((line) => normalizeName(parseRequirement(line).name) === key))
      .map((other) => other.name)
      .sort();
    blocks.push(
      [
        `Name: ${dist.name}`,
        `Version: ${dist.version}`,
        `Summary: ${field("summary")}`,
        `Home-page: ${field("home-page")}`,
        `Author: ${field("author")}`,
        `Author-email: ${field("author-email")}`,
        `License: ${field("license-expression") || field("license")}`,
        `Location: /workspace/${site.dir}`,
        `Requires: ${[...new Set(requires)].join(", ")}`,
        `Required-by: ${requiredBy.join(", ")}`,
      ].join("\n") + "\n",
    );
  }
  result.stdout = blocks.join("---\n");
  if (missing.length > 0) {
    result.stderr = `WARNING: Package(s) not found: ${missing.join(", ")}\n`;
    result.exitCode = 1;
  }
  return result;
}
