// Builds the hoisted node_modules tree as npm (v7+) does: edges are resolved breadth-first, level by
// level, in name order; a dependency already visible from the requester that satisfies the range is
// reused (dedupe), otherwise the new package goes to the shallowest folder on the requester's path
// where it neither conflicts with a package already there nor shadows a dependency already resolved
// past that folder. So shared dependencies sit once at the top and a version conflict nests.
import semver from "semver";
import { wasmSubstituteFor } from "../node/native-substitutes";
import { NpmError } from "./registry";
import type { Manifest, Packument, PlacedPackage, ProjectManifest, Tree } from "./types";

export interface ResolveOptions {
  packument(name: string): Promise<Packument>;
  /** Versions already chosen (by a lockfile), per name: preferred when they satisfy the range. */
  preferred?: Map<string, string[]>;
  /** Called as packages are placed (count so far, name@version). */
  onPlaced?(count: number, id: string): void;
}

export interface Resolution {
  tree: Tree;
  /** Optional dependencies left out, with why ("fsevents@2.3.3: no version for this platform"). */
  skipped: string[];
}

interface Edge {
  from: string;
  name: string;
  range: string;
  optional: boolean;
}

/** Chooses a version like npm: a dist-tag by name, `latest` when it satisfies, else the highest match. */
export function pickVersion(packument: Packument, range: string, preferred: string[] = []): Manifest | undefined {
  const spec = range.trim() === "" ? "latest" : range.trim();
  const tagged = packument["dist-tags"][spec];
  if (tagged !== undefined) return packument.versions[tagged];
  if (semver.validRange(spec) === null) {
    throw new NpmError(
      `${packument.name}@${spec}: only registry versions, ranges and tags can be installed in the browser runtime (git, file, URL and alias specs need WebContainer).`,
      "EUNSUPPORTEDSPEC",
    );
  }
  const wanted = semver.maxSatisfying(preferred, spec);
  if (wanted && packument.versions[wanted]) return packument.versions[wanted];
  const latest = packument["dist-tags"].latest;
  if (latest !== undefined && packument.versions[latest] && semver.satisfies(latest, spec)) return packument.versions[latest];
  const best = semver.maxSatisfying(Object.keys(packument.versions), spec);
  return best ? packument.versions[best] : undefined;
}

/** npm's package name rules, loosely (old names may have capitals): what can safely be a folder. */
export function isPackageName(name: string): boolean {
  return name.length <= 214 && /^(@[a-z0-9~-][\w.~-]*\/)?[a-z0-9~-][\w.~-]*$/i.test(name);
}

export function satisfies(version: string, range: string): boolean {
  const spec = range.trim();
  if (spec === "" || spec === "*" || spec === "latest") return true;
  return semver.validRange(spec) !== null && semver.satisfies(version, spec, { includePrerelease: false });
}

/** The folder a package at `location` was placed in ("" for the root's node_modules). */
export function dirOf(location: string): string {
  const at = location.lastIndexOf("/node_modules/");
  return at < 0 ? "" : location.slice(0, at);
}

/** The package name a location names (its part after the last node_modules/). */
export function nameOf(location: string): string {
  const at = location.lastIndexOf("node_modules/");
  return location.slice(at + "node_modules/".length);
}

function locationIn(dir: string, name: string): string {
  return dir === "" ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
}

/** The folders whose node_modules a package at `from` sees, nearest first, ending at the root (""). */
function chain(from: string): string[] {
  const dirs: string[] = [];
  let at = from;
  for (;;) {
    dirs.push(at);
    if (at === "") return dirs;
    at = dirOf(at);
  }
}

function inside(location: string, dir: string): boolean {
  return dir === "" || location === dir || location.startsWith(`${dir}/`);
}

export function rootEdges(root: ProjectManifest): Array<{ name: string; range: string; kind: "prod" | "dev" | "optional" | "peer" }> {
  const edges: Array<{ name: string; range: string; kind: "prod" | "dev" | "optional" | "peer" }> = [];
  const seen = new Set<string>();
  const add = (deps: Record<string, string> | undefined, kind: "prod" | "dev" | "optional" | "peer") => {
    for (const [name, range] of Object.entries(deps ?? {})) {
      if (seen.has(name)) continue;
      seen.add(name);
      edges.push({ name, range, kind });
    }
  };
  add(root.optionalDependencies, "optional");
  add(root.dependencies, "prod");
  add(root.devDependencies, "dev");
  return edges;
}

/** Dependency edges of a package version: dependencies, optional ones, and required peers (npm 7+ installs them). */
function manifestEdges(manifest: Manifest): Array<{ name: string; range: string; optional: boolean }> {
  const edges = new Map<string, { name: string; range: string; optional: boolean }>();
  for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
    if (manifest.peerDependenciesMeta?.[name]?.optional) continue;
    edges.set(name, { name, range, optional: false });
  }
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) edges.set(name, { name, range, optional: false });
  for (const [name, range] of Object.entries(manifest.optionalDependencies ?? {})) edges.set(name, { name, range, optional: true });
  return [...edges.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function binMap(manifest: { name: string; bin?: string | Record<string, string> }): Record<string, string> | undefined {
  if (typeof manifest.bin === "string") return { [manifest.name.startsWith("@") ? manifest.name.slice(manifest.name.indexOf("/") + 1) : manifest.name]: manifest.bin };
  if (manifest.bin && typeof manifest.bin === "object" && Object.keys(manifest.bin).length > 0) return { ...manifest.bin };
  return undefined;
}

/** A WebAssembly build (cpu "wasm32", any os): the browser runtime can run it, so it is installed. */
export function isWasmBuild(manifest: Pick<Manifest, "os" | "cpu">): boolean {
  return Array.isArray(manifest.cpu) && manifest.cpu.includes("wasm32") && (!manifest.os || manifest.os.length === 0);
}

export async function resolveTree(root: ProjectManifest, options: ResolveOptions): Promise<Resolution> {
  const tree: Tree = new Map();
  /** Folder → name → placed package in that folder's node_modules. */
  const folders = new Map<string, Map<string, PlacedPackage>>([["", new Map()]]);
  /** Resolved edges by name, to keep a new placement from shadowing them. */
  const resolvedEdges = new Map<string, Array<{ from: string; at: string; range: string }>>();
  /** from location → dependency name → location it resolved to (for dev/optional flags). */
  const graph = new Map<string, Map<string, { at: string; optional: boolean }>>();
  const skipped: string[] = [];
  /** "from\0wasm package" already added in place of a skipped native build. */
  const addedSubstitutes = new Set<string>();

  const prefetch = (name: string) => void options.packument(name).catch(() => undefined);
  let level: Edge[] = rootEdges(root)
    .map((edge) => ({ from: "", name: edge.name, range: edge.range, optional: edge.kind === "optional" }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const edge of level) prefetch(edge.name);

  const record = (edge: Edge, at: string) => {
    const list = resolvedEdges.get(edge.name) ?? [];
    list.push({ from: edge.from, at, range: edge.range });
    resolvedEdges.set(edge.name, list);
    const out = graph.get(edge.from) ?? new Map<string, { at: string; optional: boolean }>();
    out.set(edge.name, { at, optional: edge.optional });
    graph.set(edge.from, out);
  };

  while (level.length > 0) {
    const next: Edge[] = [];
    for (const edge of level) {
      // Names come from packuments (untrusted) and become folders: a name that is not a package name is refused.
      if (!isPackageName(edge.name)) {
        if (edge.optional) skipped.push(`${edge.name}: not a valid package name`);
        else throw new NpmError(`"${edge.name}" (a dependency of ${edge.from === "" ? "the project" : edge.from}) is not a valid package name.`, "EINVALIDPACKAGENAME");
        continue;
      }
      let target: string | undefined;
      let reused: PlacedPackage | undefined;
      for (const dir of chain(edge.from)) {
        const existing = folders.get(dir)?.get(edge.name);
        if (existing) {
          if (satisfies(existing.version, edge.range)) reused = existing;
          break;
        }
        // Placing here would hide another version from an edge already resolved past this folder.
        const shadows = (resolvedEdges.get(edge.name) ?? []).some(
          (resolved) => inside(resolved.from, dir) && !inside(resolved.at, dir) && dir !== "",
        );
        if (shadows) break;
        target = dir;
      }
      if (reused) {
        record(edge, reused.location);
        continue;
      }
      if (target === undefined) target = edge.from;
      let manifest: Manifest | undefined;
      try {
        const packument = await options.packument(edge.name);
        manifest = pickVersion(packument, edge.range, options.preferred?.get(edge.name));
        if (!manifest) throw new NpmError(`No version of ${edge.name} matches "${edge.range}" (the registry has ${latestOf(packument)}).`, "ETARGET");
        if (edge.optional && (manifest.os || manifest.cpu) && !isWasmBuild(manifest)) {
          skipped.push(`${edge.name}@${manifest.version}: a platform-specific optional build (os/cpu), not for the browser runtime`);
          // Its WebAssembly build runs in its place (node/native-substitutes.ts); napi-rs packages list
          // theirs among the same optional dependencies, others (Lightning CSS, Rollup) are added here.
          const substitute = wasmSubstituteFor(edge.name);
          const key = `${edge.from}\0${substitute?.wasmPackage}`;
          if (substitute?.added && !addedSubstitutes.has(key)) {
            addedSubstitutes.add(key);
            level.push({ from: edge.from, name: substitute.wasmPackage, range: edge.range, optional: true });
          }
          continue;
        }
      } catch (error) {
        if (edge.optional) {
          skipped.push(`${edge.name}@${edge.range}: ${error instanceof Error ? error.message : String(error)}`);
          continue;
        }
        throw error;
      }
      const location = locationIn(target, edge.name);
      const placed = place(location, manifest);
      tree.set(location, placed);
      let folder = folders.get(target);
      if (!folder) folders.set(target, (folder = new Map()));
      folder.set(edge.name, placed);
      record(edge, location);
      options.onPlaced?.(tree.size, `${manifest.name}@${manifest.version}`);
      // Bundled dependencies come inside the package's tarball (its own node_modules): not resolved.
      const bundled = new Set(bundledNames(manifest));
      for (const dep of manifestEdges(manifest)) {
        if (bundled.has(dep.name)) continue;
        prefetch(dep.name);
        next.push({ from: location, name: dep.name, range: dep.range, optional: dep.optional });
      }
    }
    level = next;
  }
  markFlags(root, tree, graph);
  return { tree: sortTree(tree), skipped };
}

/** The names a package bundles (npm's bundleDependencies, or bundledDependencies; true: every dependency). */
export function bundledNames(manifest: Pick<Manifest, "bundleDependencies" | "bundledDependencies" | "dependencies" | "optionalDependencies">): string[] {
  const listed = manifest.bundleDependencies ?? manifest.bundledDependencies;
  if (listed === true) return Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies });
  return Array.isArray(listed) ? listed.filter((name): name is string => typeof name === "string") : [];
}

function latestOf(packument: Packument): string {
  const versions = Object.keys(packument.versions);
  if (versions.length === 0) return "no versions";
  return versions.length > 3 ? `${versions.length} versions, latest ${packument["dist-tags"].latest ?? versions.at(-1)}` : versions.join(", ");
}

function place(location: string, manifest: Manifest): PlacedPackage {
  const scripts = manifest.scripts ?? {};
  return {
    location,
    name: manifest.name,
    version: manifest.version,
    resolved: manifest.dist.tarball,
    integrity: manifest.dist.integrity ?? (manifest.dist.shasum ? `sha1-${manifest.dist.shasum}` : undefined),
    dependencies: { ...manifest.dependencies },
    optionalDependencies: { ...manifest.optionalDependencies },
    bin: binMap(manifest),
    dev: false,
    optional: false,
    hasInstallScript: manifest.hasInstallScript === true || ["preinstall", "install", "postinstall"].some((name) => scripts[name] !== undefined),
    license: manifest.license,
    engines: manifest.engines,
  };
}

/** dev: reached only through devDependencies; optional: reached only through optional edges. */
function markFlags(root: ProjectManifest, tree: Tree, graph: Map<string, Map<string, { at: string; optional: boolean }>>): void {
  const walk = (starts: string[], follow: (optional: boolean) => boolean): Set<string> => {
    const seen = new Set<string>();
    const stack = [...starts];
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (seen.has(at)) continue;
      seen.add(at);
      for (const edge of graph.get(at)?.values() ?? []) if (follow(edge.optional)) stack.push(edge.at);
    }
    return seen;
  };
  const rootOut = graph.get("") ?? new Map<string, { at: string; optional: boolean }>();
  const devNames = new Set(Object.keys(root.devDependencies ?? {}).filter((name) => !(root.dependencies ?? {})[name] && !(root.optionalDependencies ?? {})[name]));
  const prodStarts = [...rootOut].filter(([name]) => !devNames.has(name)).map(([, edge]) => edge.at);
  const prod = walk(prodStarts, () => true);
  const requiredStarts = [...rootOut].filter(([, edge]) => !edge.optional).map(([, edge]) => edge.at);
  const required = walk(requiredStarts, (optional) => !optional);
  for (const placed of tree.values()) {
    placed.dev = !prod.has(placed.location);
    placed.optional = !required.has(placed.location);
  }
}

export function sortTree(tree: Tree): Tree {
  return new Map([...tree].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
