// npm install / ci / uninstall in the browser runtime. Everything that can fail (packuments,
// tarballs, integrity, unpacking) happens in memory first; only a complete plan is written, in one
// synchronous pass through the workspace file service and one flush. So an install that fails offline,
// on a CORS refusal, a 404, an integrity mismatch or a corrupt tarball leaves node_modules as it was.
import { KeyedSerial, validatePath } from "../../base";
import { checkIntegrity, integrityOf } from "./integrity";
import { lockMismatch, lockedVersions, parseLockfile, treeFromLockfile, writeLockfile, type LockEntry, type Lockfile } from "./lockfile";
import type { Project } from "./project";
import { NpmError, RegistryClient, registryFromNpmrc, type RegistryFetch } from "./registry";
import { wasmSubstituteFor } from "../node/native-substitutes";
import { binMap, bundledNames, dirOf, nameOf, pickVersion, resolveTree, sortTree } from "./resolve";
import { unpackTarball, type TarFile } from "./tarball";
import type { Manifest, NpmOutput, PlacedPackage, ProjectManifest, Tree } from "./types";

const DOWNLOADS_AT_ONCE = 8;

export interface InstallRequest {
  /** `ci`: install exactly the lockfile, which must match package.json. */
  mode: "install" | "ci";
  /** Packages named on the command line ("a", "a@^1", "@s/b@latest"). */
  add?: string[];
  saveDev?: boolean;
  /** Save the exact version instead of ^version (npm's --save-exact). */
  saveExact?: boolean;
  remove?: string[];
}

export interface InstallDeps {
  fetch: RegistryFetch;
  signal?: AbortSignal;
  output: NpmOutput;
  now?: () => number;
}

interface Unpacked {
  placed: PlacedPackage;
  files: TarFile[];
  manifest: Record<string, unknown>;
}

export interface InstallSummary {
  added: number;
  removed: number;
  changed: number;
  total: number;
  needsWebContainer: string[];
  scriptsNotRun: string[];
  skipped: string[];
}

/** One install at a time per workspace: each reads node_modules, package.json and the lockfile as the one before left them. */
const installsByWorkspace = new KeyedSerial<Project["files"]>();

export function install(project: Project, request: InstallRequest, deps: InstallDeps): Promise<InstallSummary> {
  const installs = installsByWorkspace.for(project.files);
  if (installs.busy) deps.output.err("npm: waiting for another npm install in this workspace to finish…\n");
  return installs.run(() => {
    deps.signal?.throwIfAborted();
    return installNow(project, request, deps);
  });
}

/**
 * The lockfile's packages without the native builds for other platforms. Lightning CSS and Rollup
 * publish their WebAssembly builds as other packages (node/native-substitutes.ts), which a lockfile
 * made by npm on a desktop does not list: they are resolved and added, as resolveTree adds them.
 */
async function fromLockfile(lock: Lockfile, registry: RegistryClient): Promise<{ tree: Tree; kept: Record<string, LockEntry> }> {
  const platformBuilds: Array<{ location: string; name: string; version: string }> = [];
  const tree = treeFromLockfile(lock, platformBuilds);
  const kept = Object.fromEntries(platformBuilds.map(({ location }) => [location, lock.packages[location]!]));
  const present = new Set([...tree.values()].map((placed) => placed.name));
  const wanted: Record<string, string> = {};
  for (const { name, version } of platformBuilds) {
    const substitute = wasmSubstituteFor(name);
    if (substitute?.added && !present.has(substitute.wasmPackage)) wanted[substitute.wasmPackage] = version;
  }
  if (Object.keys(wanted).length === 0) return { tree, kept };
  const { tree: added } = await resolveTree({ optionalDependencies: wanted }, { packument: (name) => registry.packument(name) });
  for (const [location, placed] of added) if (!tree.has(location)) tree.set(location, { ...placed, optional: true });
  return { tree: sortTree(tree), kept };
}

async function installNow(project: Project, request: InstallRequest, deps: InstallDeps): Promise<InstallSummary> {
  const now = deps.now ?? (() => Date.now());
  const started = now();
  const npmrcs = [project.readText(".npmrc"), project.atRoot().readText(".npmrc")];
  const registry = new RegistryClient(registryFromNpmrc(npmrcs), deps.fetch, deps.signal);
  const hadManifest = project.hasManifest();
  if (!hadManifest && (request.add?.length ?? 0) === 0) project.manifest();
  const root: ProjectManifest = hadManifest ? project.manifest() : {};
  if (root.workspaces !== undefined) deps.output.err("npm warn npm workspaces are not supported in the browser runtime: only the root package's dependencies are installed.\n");
  const lockText = project.readText("package-lock.json");
  const lock = lockText === undefined ? undefined : parseLockfile(lockText);
  let skipped: string[] = [];
  /** The dependencies this command adds or removes: only they are changed in package.json. */
  const touched: string[] = [];

  let tree: Tree;
  /** Lockfile entries for other platforms' builds, kept in the lockfile written (a lockfile that was followed). */
  let kept: Record<string, LockEntry> = {};
  if (request.mode === "ci") {
    if (!lock) throw new NpmError("npm ci needs a package-lock.json (version 2 or 3). Run npm install to create one.", "EUSAGE");
    const mismatch = lockMismatch(lock, root);
    if (mismatch) throw new NpmError(`npm ci can only install when package.json and package-lock.json are in sync: ${mismatch}. Run npm install to update the lockfile.`, "EUSAGE");
    ({ tree, kept } = await fromLockfile(lock, registry));
  } else {
    for (const spec of request.add ?? []) touched.push(await addToManifest(root, spec, request, registry));
    for (const name of request.remove ?? []) {
      removeFromManifest(root, name);
      touched.push(name);
    }
    const followLock = lock !== undefined && lockMismatch(lock, root) === undefined;
    if (followLock) ({ tree, kept } = await fromLockfile(lock, registry));
    else {
      deps.output.err("npm: resolving dependencies…\n");
      const resolution = await resolveTree(root, { packument: (name) => registry.packument(name), preferred: lockedVersions(lock) });
      tree = resolution.tree;
      skipped = resolution.skipped;
    }
  }

  const installed = withoutBundled(project, tree, project.installed());
  const replaced = new Set<string>();
  for (const [location, present] of installed) {
    const wanted = tree.get(location);
    if (!wanted || wanted.name !== present.name || wanted.version !== present.version) replaced.add(location);
  }
  const underReplaced = (location: string) => [...replaced].some((gone) => location.startsWith(`${gone}/`));
  const toFetch = [...tree.values()].filter((placed) => {
    const present = installed.get(placed.location);
    return !present || replaced.has(placed.location) || underReplaced(placed.location);
  });

  const unpacked = await downloadAll(toFetch, registry, deps);
  // Stopped (Ctrl-C, the agent's timeout) while the last download finished: write nothing.
  deps.signal?.throwIfAborted();
  const summary = apply(project, { root, tree, lock, unpacked, installed, replaced, touched, kept });
  summary.skipped = skipped;
  await project.files.flush().catch((error: unknown) => {
    throw new NpmError(`The installed files could not be stored (${error instanceof Error ? error.message : String(error)}); the change was undone.`, "ESTORE");
  });
  reportSummary(summary, deps.output, now() - started);
  return summary;
}

/**
 * The installed packages less those a package of the tree bundles (in its own node_modules, from
 * its tarball): they belong to that package, and stay or go with it, never resolved on their own.
 */
function withoutBundled(project: Project, tree: Tree, installed: Map<string, { name: string; version: string }>): Map<string, { name: string; version: string }> {
  const owned: string[] = [];
  for (const location of tree.keys()) {
    const text = project.readText(`${location}/package.json`);
    if (text === undefined) continue;
    let manifest: Manifest;
    try {
      manifest = JSON.parse(text) as Manifest;
    } catch {
      continue;
    }
    for (const name of bundledNames(manifest)) owned.push(`${location}/node_modules/${name}`);
  }
  if (owned.length === 0) return installed;
  return new Map([...installed].filter(([location]) => !owned.some((prefix) => location === prefix || location.startsWith(`${prefix}/`))));
}

/** Adds `spec` to the manifest's dependencies (devDependencies with -D); returns the package name. */
async function addToManifest(root: ProjectManifest, spec: string, request: InstallRequest, registry: RegistryClient): Promise<string> {
  const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0);
  const name = at < 0 ? spec : spec.slice(0, at);
  const range = at < 0 ? "" : spec.slice(at + 1);
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name)) throw new NpmError(`"${spec}" is not a package name this page can install from a registry.`, "EINVALIDPACKAGENAME");
  const packument = await registry.packument(name);
  const manifest = pickVersion(packument, range);
  if (!manifest) throw new NpmError(`No version of ${name} matches "${range}".`, "ETARGET");
  // As npm: a tag or a bare name saves ^version; a range is saved as written.
  const byVersion = range === "" || packument["dist-tags"][range] !== undefined || /^\d+\.\d+\.\d+$/.test(range);
  const saved = request.saveExact ? manifest.version : byVersion ? `^${manifest.version}` : range;
  removeFromManifest(root, name);
  const key = request.saveDev ? "devDependencies" : "dependencies";
  root[key] = sortKeys({ ...root[key], [name]: saved });
  return name;
}

const DEPENDENCY_KEYS = ["dependencies", "devDependencies", "optionalDependencies"] as const;

/**
 * package.json as it is now (the user may have saved it during the downloads) with this command's
 * additions and removals applied to it, so nothing else in it is written over. Only the sections
 * this command changed are touched (and sorted, as npm does); a package.json deleted meanwhile is
 * written as planned.
 */
function manifestToWrite(project: Project, planned: ProjectManifest, touched: readonly string[]): ProjectManifest {
  if (!project.hasManifest()) return planned;
  const current = project.manifest();
  for (const key of DEPENDENCY_KEYS) {
    const next = { ...current[key] };
    let changed = false;
    for (const name of touched) {
      const saved = planned[key]?.[name];
      if (next[name] === saved) continue;
      changed = true;
      if (saved === undefined) delete next[name];
      else next[name] = saved;
    }
    if (changed) current[key] = sortKeys(next);
  }
  return current;
}

function removeFromManifest(root: ProjectManifest, name: string): void {
  for (const key of DEPENDENCY_KEYS) {
    if (root[key]?.[name] === undefined) continue;
    const next = { ...root[key] };
    delete next[name];
    root[key] = next;
  }
}

function sortKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

async function downloadAll(toFetch: PlacedPackage[], registry: RegistryClient, deps: InstallDeps): Promise<Unpacked[]> {
  const results: Unpacked[] = [];
  let next = 0;
  let done = 0;
  let lastReport = 0;
  const worker = async () => {
    while (next < toFetch.length) {
      const placed = toFetch[next++]!;
      const id = `${placed.name}@${placed.version}`;
      const bytes = await registry.tarball(placed.resolved, id);
      await checkIntegrity(bytes, id, placed.integrity);
      if (!placed.integrity) placed.integrity = await integrityOf(bytes);
      const files = unpackTarball(bytes, id);
      const manifestFile = files.find((file) => file.path === "package.json");
      let manifest: Record<string, unknown> = {};
      try {
        if (manifestFile) manifest = JSON.parse(new TextDecoder().decode(manifestFile.data)) as Record<string, unknown>;
      } catch {
        // A package.json that does not parse is installed as it is; only its bins are unknown.
      }
      results.push({ placed, files, manifest });
      done++;
      if (done === toFetch.length || done - lastReport >= Math.max(1, Math.ceil(toFetch.length / 10))) {
        lastReport = done;
        deps.output.err(`npm: fetched ${done}/${toFetch.length} packages\n`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(DOWNLOADS_AT_ONCE, toFetch.length) }, worker));
  return results;
}

/** Why a package needs Node.js proper (native code), or undefined. */
function nativeReason(unpacked: Unpacked): string | undefined {
  if (unpacked.manifest.gypfile === true || unpacked.files.some((file) => file.path === "binding.gyp")) return "builds a native addon (binding.gyp)";
  if (unpacked.files.some((file) => file.path.endsWith(".node"))) return "ships a prebuilt native addon (.node)";
  const scripts = (unpacked.manifest.scripts ?? {}) as Record<string, unknown>;
  const install = ["preinstall", "install", "postinstall"].map((name) => scripts[name]).filter((s): s is string => typeof s === "string");
  if (install.some((script) => /node-gyp|prebuild-install|node-pre-gyp|cmake-js/.test(script))) return "compiles native code in its install script";
  return undefined;
}

interface Plan {
  root: ProjectManifest;
  tree: Tree;
  lock: Lockfile | undefined;
  unpacked: Unpacked[];
  installed: Map<string, { name: string; version: string }>;
  replaced: Set<string>;
  kept: Record<string, LockEntry>;
  /** Dependencies this command added or removed; package.json is written when there are any. */
  touched: readonly string[];
}

/** Writes the plan in one synchronous pass (batched), so no other task sees it half done. */
function apply(project: Project, plan: Plan): InstallSummary {
  const { files } = project;
  const options = { source: project.source, batched: true };
  const manifest = plan.touched.length > 0 ? manifestToWrite(project, plan.root, plan.touched) : undefined;
  const summary: InstallSummary = { added: 0, removed: 0, changed: 0, total: plan.tree.size, needsWebContainer: [], scriptsNotRun: [], skipped: [] };
  // Every path checked before the first write: a name the workspace cannot hold is left out, named.
  const writes: Array<[string, Uint8Array]> = [];
  for (const unpacked of plan.unpacked) {
    for (const file of unpacked.files) {
      const path = project.path(`${unpacked.placed.location}/${file.path}`);
      try {
        writes.push([validatePath(path), file.data]);
      } catch {
        summary.skipped.push(`${unpacked.placed.name}: ${file.path} (a file name the workspace cannot hold)`);
      }
    }
    const bins = binMap({ name: unpacked.placed.name, bin: unpacked.manifest.bin as string | Record<string, string> | undefined });
    unpacked.placed.bin = bins;
    const reason = nativeReason(unpacked);
    if (reason) summary.needsWebContainer.push(`${unpacked.placed.name}@${unpacked.placed.version} ${reason}`);
    else if (unpacked.placed.hasInstallScript) summary.scriptsNotRun.push(`${unpacked.placed.name}@${unpacked.placed.version}`);
  }
  for (const location of [...plan.replaced].sort()) {
    if ([...plan.replaced].some((other) => location.startsWith(`${other}/`))) continue;
    const path = project.path(location);
    if (files.statSync(path)) files.removeSync(path, options);
    if (plan.tree.has(location)) summary.changed++;
    else summary.removed++;
  }
  for (const unpacked of plan.unpacked) if (!plan.installed.has(unpacked.placed.location)) summary.added++;
  for (const [path, data] of writes) files.writeSync(path, data, options);
  writeBins(project, plan.tree, options);
  if (manifest) files.writeSync(project.path("package.json"), `${JSON.stringify(manifest, null, 2)}\n`, options);
  const lockText = writeLockfile(plan.root, plan.tree, plan.kept);
  files.writeSync(project.path("package-lock.json"), lockText, options);
  const hidden = project.path("node_modules/.package-lock.json");
  if (plan.tree.size > 0) files.writeSync(hidden, lockText, options);
  else if (files.statSync(hidden)) files.removeSync(hidden, options);
  return summary;
}

/**
 * node_modules/.bin entries as small shell scripts that run the package's file with node (the
 * browser runtime has no symlinks); the shell finds them on PATH in npm run and npx.
 */
function writeBins(project: Project, tree: Tree, options: { source: Project["source"]; batched: boolean }): void {
  const wanted = new Map<string, string>();
  for (const placed of tree.values()) {
    const dir = dirOf(placed.location);
    for (const [bin, target] of Object.entries(placed.bin ?? {})) {
      // Names and paths come from the package (untrusted) and end up in a shell script: plain
      // path characters only, nothing the shell would expand, no way out of the package folder.
      const file = `${nameOf(placed.location)}/${String(target).replace(/^\.\//, "")}`;
      if (!SAFE_NAME.test(bin) || bin === "." || bin === ".." || !safeRelativePath(file)) continue;
      const path = project.path(`${dir === "" ? "" : `${dir}/`}node_modules/.bin/${bin}`);
      wanted.set(path, `#!/bin/sh\n# ${bin}: written by npm in the browser runtime\nnode "$(dirname "$0")/../${file}" "$@"\n`);
    }
  }
  const { files } = project;
  const binDirs = new Set([project.path("node_modules/.bin"), ...[...tree.keys()].map((location) => project.path(`${location}/node_modules/.bin`))]);
  for (const dir of binDirs) {
    if (files.statSync(dir)?.kind !== "dir") continue;
    for (const entry of files.listSync(dir)) if (!wanted.has(entry.path)) files.removeSync(entry.path, options);
  }
  for (const [path, text] of wanted) files.writeSync(path, text, options);
}

const SAFE_NAME = /^[\w.@+-]+$/;

function safeRelativePath(path: string): boolean {
  return path.split("/").every((segment) => SAFE_NAME.test(segment) && segment !== "." && segment !== "..");
}

function reportSummary(summary: InstallSummary, output: NpmOutput, ms: number): void {
  for (const line of summary.needsWebContainer) output.err(`npm warn needs WebContainer: ${line}; installed, but it will not run in the browser runtime.\n`);
  if (summary.scriptsNotRun.length > 0) output.err(`npm warn install scripts were not run (the browser runtime does not run them): ${summary.scriptsNotRun.join(", ")}\n`);
  for (const line of summary.skipped) output.err(`npm warn skipped ${line}\n`);
  const parts: string[] = [];
  if (summary.added) parts.push(`added ${summary.added} package${summary.added === 1 ? "" : "s"}`);
  if (summary.removed) parts.push(`removed ${summary.removed} package${summary.removed === 1 ? "" : "s"}`);
  if (summary.changed) parts.push(`changed ${summary.changed} package${summary.changed === 1 ? "" : "s"}`);
  const what = parts.length > 0 ? parts.join(", ") : "up to date";
  output.out(`\n${what}, audited ${summary.total} package${summary.total === 1 ? "" : "s"} in ${(ms / 1000).toFixed(1)}s\n`);
}
