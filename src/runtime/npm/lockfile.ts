// package-lock.json version 3 (npm 7+ without the v1 `dependencies` section): written after every
// install, and read back to install exactly what it records when it still matches package.json.
import { isWasmBuild, nameOf, rootEdges, satisfies, sortTree } from "./resolve";
import type { PlacedPackage, ProjectManifest, Tree } from "./types";

export interface LockEntry {
  name?: string;
  version?: string;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  optional?: boolean;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  license?: string;
  hasInstallScript?: boolean;
  os?: string[];
  cpu?: string[];
}

export interface Lockfile {
  name?: string;
  version?: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

/** `kept`: entries of the lockfile that was followed which the tree leaves out (other platforms' builds), written as they were. */
export function writeLockfile(root: ProjectManifest, tree: Tree, kept: Record<string, LockEntry> = {}): string {
  const packages: Record<string, LockEntry> = {};
  const top: LockEntry = {};
  if (root.name !== undefined) top.name = root.name;
  if (root.version !== undefined) top.version = root.version;
  for (const key of ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const) {
    const deps = root[key];
    if (deps && Object.keys(deps).length > 0) top[key] = { ...deps };
  }
  packages[""] = top;
  for (const placed of sortTree(tree).values()) packages[placed.location] = entryOf(placed);
  for (const [location, entry] of Object.entries(kept)) if (!(location in packages)) packages[location] = entry;
  const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const lock: Lockfile = { name: root.name, version: root.version, lockfileVersion: 3, requires: true, packages: sorted };
  return `${JSON.stringify(lock, null, 2)}\n`;
}

function entryOf(placed: PlacedPackage): LockEntry {
  const entry: LockEntry = { version: placed.version, resolved: placed.resolved };
  if (placed.integrity) entry.integrity = placed.integrity;
  if (placed.dev) entry.dev = true;
  if (placed.optional) entry.optional = true;
  const required = Object.fromEntries(Object.entries(placed.dependencies).filter(([name]) => !(name in placed.optionalDependencies)));
  if (Object.keys(required).length > 0) entry.dependencies = required;
  if (Object.keys(placed.optionalDependencies).length > 0) entry.optionalDependencies = { ...placed.optionalDependencies };
  if (placed.bin) entry.bin = placed.bin;
  if (placed.hasInstallScript) entry.hasInstallScript = true;
  if (placed.engines) entry.engines = placed.engines;
  if (placed.license) entry.license = placed.license;
  return entry;
}

/** Parses a lockfile; undefined when it is not one this page follows (then dependencies are resolved anew). */
export function parseLockfile(text: string): Lockfile | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== "object") return undefined;
  const lock = parsed as Lockfile;
  if (typeof lock.lockfileVersion !== "number" || lock.lockfileVersion < 2 || !lock.packages || typeof lock.packages !== "object") return undefined;
  return lock;
}

/** node_modules/NAME(/node_modules/NAME)*: a lockfile is untrusted, its keys become folders. */
const VALID_LOCATION = /^node_modules\/(@[\w.-]+\/)?[\w.-]+(\/node_modules\/(@[\w.-]+\/)?[\w.-]+)*$/;

/** The tree a lockfile records (registry packages only). */
/**
 * The packages a lockfile records. An optional build for a platform (os/cpu, as a lockfile made by
 * npm elsewhere lists one per platform) is left out, as resolveTree leaves it out, and its name goes
 * to `skipped` (writeLockfile keeps its entry); a WebAssembly build (cpu "wasm32") stays.
 */
export function treeFromLockfile(lock: Lockfile, skipped?: Array<{ location: string; name: string; version: string }>): Tree {
  const tree: Tree = new Map();
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (!VALID_LOCATION.test(location) || location.split("/").some((part) => part === "." || part === "..")) continue;
    if (entry.link || typeof entry.version !== "string" || typeof entry.resolved !== "string") continue;
    if (entry.optional === true && (entry.os || entry.cpu) && !isWasmBuild(entry)) {
      skipped?.push({ location, name: entry.name ?? nameOf(location), version: entry.version });
      continue;
    }
    tree.set(location, {
      location,
      name: entry.name ?? nameOf(location),
      version: entry.version,
      resolved: entry.resolved,
      integrity: entry.integrity,
      dependencies: { ...entry.dependencies, ...entry.optionalDependencies },
      optionalDependencies: { ...entry.optionalDependencies },
      bin: entry.bin,
      dev: entry.dev === true,
      optional: entry.optional === true,
      hasInstallScript: entry.hasInstallScript === true,
      license: entry.license,
      engines: entry.engines,
    });
  }
  return sortTree(tree);
}

/** Versions the lockfile chose, per package name (preferred when resolving anew). */
export function lockedVersions(lock: Lockfile | undefined): Map<string, string[]> {
  const versions = new Map<string, string[]>();
  for (const placed of lock ? treeFromLockfile(lock).values() : []) {
    versions.set(placed.name, [...(versions.get(placed.name) ?? []), placed.version]);
  }
  return versions;
}

/**
 * Why the lockfile does not match package.json, or undefined when it does: the dependency lists
 * recorded for the root are the same and every one of them is locked to a version in its range.
 */
export function lockMismatch(lock: Lockfile, root: ProjectManifest): string | undefined {
  const top = lock.packages[""] ?? {};
  for (const key of ["dependencies", "devDependencies", "optionalDependencies"] as const) {
    const mine = root[key] ?? {};
    const locked = top[key] ?? {};
    const names = new Set([...Object.keys(mine), ...Object.keys(locked)]);
    for (const name of names) {
      if (mine[name] !== locked[name]) return `${key} of package.json lists ${name}@${mine[name] ?? "(nothing)"}, the lockfile ${name}@${locked[name] ?? "(nothing)"}`;
    }
  }
  for (const edge of rootEdges(root)) {
    const entry = lock.packages[`node_modules/${edge.name}`];
    if (!entry?.version) {
      if (edge.kind === "optional") continue;
      return `${edge.name} is missing from the lockfile`;
    }
    if (!satisfies(entry.version, edge.range)) return `the lockfile has ${edge.name}@${entry.version}, package.json wants ${edge.range}`;
  }
  return undefined;
}
