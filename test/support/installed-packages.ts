// The repository's own installed packages for tests that run real tools in the browser runtime:
// as a test workspace's files (no registry), or as a fake registry's fixtures (test/support/
// fake-registry.ts) that the browser's npm installs from. A package and its dependencies are
// resolved as Node resolves them (nested node_modules first, then the parent folders').
// The WebAssembly builds of native packages (Rolldown's, Lightning CSS's) are not in the root
// node_modules: npm installs them only for `--cpu=wasm32`, into test/fixtures/wasm-builds
// (scripts/test.mjs does so before the browser tests).
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { FixtureVersion } from "./fake-registry";

/** Where the WebAssembly builds are installed, and the command that installs them (as scripts/test.mjs runs it). */
export const WASM_BUILDS = "test/fixtures/wasm-builds";
export const WASM_BUILDS_INSTALL = `npm ci --prefix ${WASM_BUILDS} --cpu=wasm32 --no-audit --no-fund`;

/** A package installed under `root` (a folder holding node_modules) at `dir` (relative to root). */
interface Installed {
  root: string;
  dir: string;
}

/** The folder of package `name` as Node finds it from folder `from` (relative to `root`), or undefined. */
export function resolveIn(root: string, name: string, from: string): string | undefined {
  for (let at = from; ; at = path.dirname(path.dirname(at))) {
    const candidate = path.join(at, "node_modules", name);
    if (existsSync(path.join(root, candidate, "package.json"))) return candidate;
    if (at === "." || at === "" || at === path.dirname(at)) return undefined;
  }
}

/** The package's files (its nested node_modules left out: those are packages of their own), paths relative to the package. */
export function walkPackage(folder: string, keep: (file: string) => boolean, read: (file: string) => string | Uint8Array): Record<string, string | Uint8Array> {
  const out: Record<string, string | Uint8Array> = {};
  const walk = (sub: string) => {
    for (const entry of readdirSync(path.join(folder, sub))) {
      const relative = sub ? `${sub}/${entry}` : entry;
      if (statSync(path.join(folder, relative)).isDirectory()) {
        if (entry !== "node_modules") walk(relative);
      } else if (keep(relative)) out[relative] = read(path.join(folder, relative));
    }
  };
  walk("");
  return out;
}

interface Manifest {
  name: string;
  version: string;
  os?: string[];
  cpu?: string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

function manifestOf(at: Installed): Manifest {
  return JSON.parse(readFileSync(path.join(at.root, at.dir, "package.json"), "utf8")) as Manifest;
}

/** Each named package and its dependencies' .js/.cjs/.mjs/.json files, keyed `node_modules/…` (relative to the workspace). */
export function installedPackageFiles(names: string[], root = process.cwd()): Record<string, string> {
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    const dir = resolveIn(root, name, from);
    if (!dir) throw new Error(`${name} is not installed in ${root}/node_modules`);
    if (seen.has(dir)) return;
    seen.add(dir);
    const files = walkPackage(path.join(root, dir), (file) => /\.(js|cjs|mjs|json)$/.test(file), (file) => readFileSync(file, "utf8"));
    for (const [file, text] of Object.entries(files)) out[`${dir}/${file}`] = text as string;
    for (const dependency of Object.keys(manifestOf({ root, dir }).dependencies ?? {})) visit(dependency, dir);
  };
  for (const name of names) visit(name, ".");
  return out;
}

/** Text files are served as text, anything else (.wasm, images) as bytes. */
const TEXT_FILE = /\.(js|cjs|mjs|ts|cts|mts|tsx|jsx|json|map|md|markdown|txt|css|html|d\.ts|yml|yaml)$|(^|\/)(LICENSE|README|CHANGELOG)[^/]*$/i;

/** A platform's native build (os/cpu other than wasm32): what the browser's npm skips. */
function isNativeBuild(manifest: Manifest): boolean {
  return (manifest.os !== undefined || manifest.cpu !== undefined) && !manifest.cpu?.includes("wasm32");
}

/**
 * Each named package and what it depends on (dependencies, optional dependencies that are
 * installed, required peers), as the fake registry's fixtures: every file of each package, text as
 * text and the rest (.wasm) as bytes. Packages are looked up in the root node_modules, then in
 * test/fixtures/wasm-builds. A platform's native build (os/cpu, not wasm32) is served as its
 * manifest only: the browser's npm reads it to skip it and never fetches its binary. An optional
 * dependency installed nowhere (another platform's build) is left out: the registry answers 404,
 * which npm skips as it does any optional package it cannot get.
 */
export function installedRegistryFixtures(names: string[], roots = [process.cwd(), path.resolve(WASM_BUILDS)]): FixtureVersion[] {
  if (!existsSync(path.join(path.resolve(WASM_BUILDS), "node_modules"))) {
    throw new Error(`The WebAssembly builds the fake registry serves are not installed. Run:\n  ${WASM_BUILDS_INSTALL}`);
  }
  const out: FixtureVersion[] = [];
  const seen = new Set<string>();
  const find = (name: string, from: Installed | undefined): Installed | undefined => {
    // Node's resolution inside the package's own install first, then the other installs' top level.
    if (from) {
      const dir = resolveIn(from.root, name, from.dir);
      if (dir) return { root: from.root, dir };
    }
    for (const root of roots) {
      const dir = resolveIn(root, name, ".");
      if (dir) return { root, dir };
    }
    return undefined;
  };
  const visit = (name: string, from: Installed | undefined, optional: boolean) => {
    const at = find(name, from);
    if (!at) {
      if (optional) return;
      throw new Error(`${name} is not installed in ${roots.map((root) => `${root}/node_modules`).join(" or ")}`);
    }
    const manifest = manifestOf(at);
    const id = `${manifest.name}@${manifest.version}`;
    if (seen.has(id)) return;
    seen.add(id);
    const { name: _name, version, scripts: _scripts, devDependencies: _dev, ...rest } = manifest;
    // npm's own bookkeeping fields of an installed package.json are not the published manifest's.
    const published = Object.fromEntries(Object.entries(rest).filter(([field]) => !field.startsWith("_")));
    const folder = path.join(at.root, at.dir);
    const read = (file: string) => (TEXT_FILE.test(file) ? readFileSync(file, "utf8") : new Uint8Array(readFileSync(file)));
    const files = isNativeBuild(manifest) ? {} : walkPackage(folder, (file) => file !== "package.json", read);
    // Bundled dependencies travel inside the package's tarball (lightningcss-wasm bundles napi-wasm).
    const bundled = new Set<string>(Array.isArray(manifest.bundledDependencies) ? manifest.bundledDependencies : Array.isArray(manifest.bundleDependencies) ? manifest.bundleDependencies : []);
    for (const name of bundled) {
      const nested = path.join(folder, "node_modules", name);
      for (const [file, data] of Object.entries(walkPackage(nested, () => true, read))) files[`node_modules/${name}/${file}`] = data;
    }
    out.push({ name: manifest.name, version, manifest: published, files });
    if (isNativeBuild(manifest)) return;
    for (const dependency of Object.keys(manifest.dependencies ?? {})) if (!bundled.has(dependency)) visit(dependency, at, false);
    for (const dependency of Object.keys(manifest.optionalDependencies ?? {})) visit(dependency, at, true);
    for (const dependency of Object.keys(manifest.peerDependencies ?? {})) {
      if (!manifest.peerDependenciesMeta?.[dependency]?.optional) visit(dependency, at, false);
    }
  };
  for (const name of names) visit(name, undefined, false);
  return out;
}
