// Resolves the import specifiers of previewed code to workspace files, as Vite and Node would:
// relative and root-absolute paths with extension and index probing, and bare package names through
// node_modules (package.json "exports" with browser/import/development conditions, then "module",
// "browser", "main"). Written here rather than taken from a library: the resolvers on npm
// (resolve.exports aside) read Node's file system, and this one reads the workspace's.
import { COMPILED_EXTENSIONS } from "./content-types";
import { dirnameOf, joinPath } from "./preview-paths";

/** The part of the workspace file service the preview reads. */
export interface PreviewFiles {
  stat(path: string): Promise<{ kind: "file" | "dir" } | undefined>;
  readText(path: string): Promise<string>;
  readFile(path: string): Promise<Uint8Array>;
  /** A folder's entries, with their workspace paths (import.meta.glob lists folders with it). */
  list?(dir: string): Promise<Array<{ path: string; kind: "file" | "dir" }>>;
}

export class ResolveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResolveError";
  }
}

const PROBE_EXTENSIONS = ["", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".json", ".mts"];
const CONDITIONS = ["browser", "import", "module", "development", "default", "require"];

interface PackageJson {
  name?: string;
  type?: string;
  main?: string;
  module?: string;
  browser?: unknown;
  exports?: unknown;
}

export class ModuleResolver {
  private readonly packages = new Map<string, Promise<PackageJson | undefined>>();

  constructor(
    private readonly files: PreviewFiles,
    /** The served folder: "/x" in an import names `<root>/x` (Vite's rule), and node_modules are looked up to it. */
    private readonly root: string,
  ) {}

  /** The workspace path `specifier` names when imported from the workspace file `from`. */
  async resolve(specifier: string, from: string): Promise<string> {
    const clean = specifier.replace(/[?#].*$/, "");
    if (/^(node:|https?:|data:)/.test(clean)) {
      throw new ResolveError(`"${specifier}" cannot be imported in the preview (only workspace files and node_modules packages are served)`);
    }
    if (clean.startsWith("/") || clean.startsWith("./") || clean.startsWith("../") || clean === "." || clean === "..") {
      const base = clean.startsWith("/") ? this.root : dirnameOf(from);
      const target = joinPath(base, clean);
      let found = target === undefined ? undefined : await this.probe(target, true);
      // "/vite.svg": Vite serves public/ at the root of the site (files only, as they are).
      const fromPublic = clean.startsWith("/") ? joinPath(this.root, "public", clean) : undefined;
      if (found === undefined && fromPublic !== undefined && (await this.files.stat(fromPublic))?.kind === "file") found = fromPublic;
      if (found === undefined) throw new ResolveError(`"${specifier}" was not found (imported from ${from})`);
      return found;
    }
    return this.resolvePackage(clean, from, specifier);
  }

  /** Is `path` an ES module by its package's "type" (for .js files without import/export)? */
  async packageType(path: string): Promise<string | undefined> {
    for (let dir = dirnameOf(path); ; dir = dirnameOf(dir)) {
      const pkg = await this.packageJson(dir);
      if (pkg) return pkg.type;
      if (dir === "" || dir.endsWith("node_modules")) return undefined;
    }
  }

  private async resolvePackage(specifier: string, from: string, original: string): Promise<string> {
    const parts = specifier.split("/");
    const nameLength = specifier.startsWith("@") ? 2 : 1;
    const name = parts.slice(0, nameLength).join("/");
    const subpath = parts.slice(nameLength).join("/");
    for (let dir = dirnameOf(from); ; dir = dirnameOf(dir)) {
      const pkgDir = joinPath(dir, "node_modules", name);
      if (pkgDir !== undefined && (await this.files.stat(pkgDir))?.kind === "dir") {
        const found = await this.resolveInPackage(pkgDir, subpath);
        if (found !== undefined) return found;
        throw new ResolveError(`"${original}" was not found in node_modules/${name} (imported from ${from})`);
      }
      if (dir === "") break;
    }
    throw new ResolveError(`the package "${name}" is not installed (imported from ${from}): run npm install ${name}`);
  }

  private async resolveInPackage(pkgDir: string, subpath: string): Promise<string | undefined> {
    const pkg = (await this.packageJson(pkgDir)) ?? {};
    if (pkg.exports !== undefined && pkg.exports !== null) {
      const target = exportTarget(pkg.exports, subpath === "" ? "." : `./${subpath}`);
      if (target === undefined) return undefined;
      const path = joinPath(pkgDir, target);
      return path !== undefined && (await this.isFile(path)) ? path : undefined;
    }
    if (subpath !== "") {
      const path = joinPath(pkgDir, subpath);
      return path === undefined ? undefined : this.probe(path, false);
    }
    const browser = typeof pkg.browser === "string" ? pkg.browser : undefined;
    for (const entry of [pkg.module, browser, pkg.main, "index.js"]) {
      if (typeof entry !== "string") continue;
      const path = joinPath(pkgDir, entry);
      const found = path === undefined ? undefined : await this.probe(path, false);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** A file as named, with an extension, or a folder's index; TypeScript's "./a.js" for "./a.ts" too. */
  private async probe(path: string, ownCode: boolean): Promise<string | undefined> {
    for (const ext of PROBE_EXTENSIONS) if (await this.isFile(path + ext)) return path + ext;
    if (ownCode) {
      const js = /\.(m?)jsx?$/.exec(path);
      if (js) {
        const stem = path.slice(0, -js[0].length);
        for (const ext of COMPILED_EXTENSIONS) if (await this.isFile(`${stem}.${ext}`)) return `${stem}.${ext}`;
      }
    }
    if ((await this.files.stat(path))?.kind === "dir") {
      const pkg = await this.packageJson(path);
      const main = pkg?.module ?? pkg?.main;
      if (typeof main === "string") {
        const entry = joinPath(path, main);
        const found = entry === undefined ? undefined : await this.probe(entry, false);
        if (found !== undefined) return found;
      }
      for (const ext of PROBE_EXTENSIONS.slice(1)) if (await this.isFile(`${path}/index${ext}`)) return `${path}/index${ext}`;
    }
    return undefined;
  }

  private async isFile(path: string): Promise<boolean> {
    return (await this.files.stat(path))?.kind === "file";
  }

  private packageJson(dir: string): Promise<PackageJson | undefined> {
    let cached = this.packages.get(dir);
    if (!cached) {
      const path = dir === "" ? "package.json" : `${dir}/package.json`;
      cached = this.isFile(path).then(async (exists) => {
        if (!exists) return undefined;
        try {
          const parsed: unknown = JSON.parse(await this.files.readText(path));
          return parsed !== null && typeof parsed === "object" ? (parsed as PackageJson) : {};
        } catch {
          return {};
        }
      });
      this.packages.set(dir, cached);
    }
    return cached;
  }
}

/** Node's package "exports" lookup for `subpath` ("." or "./x"), with the preview's conditions. */
export function exportTarget(exports: unknown, subpath: string): string | undefined {
  let map: Record<string, unknown>;
  if (typeof exports === "string" || Array.isArray(exports)) map = { ".": exports };
  else if (exports !== null && typeof exports === "object") {
    const keys = Object.keys(exports);
    map = keys.length > 0 && keys.every((k) => !k.startsWith(".")) ? { ".": exports } : (exports as Record<string, unknown>);
  } else return undefined;
  if (subpath in map) return conditionTarget(map[subpath], "");
  let best: { key: string; star: string } | undefined;
  for (const key of Object.keys(map)) {
    const star = key.indexOf("*");
    if (star < 0) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= key.length - 1) {
      if (!best || prefix.length > best.key.indexOf("*")) best = { key, star: subpath.slice(prefix.length, subpath.length - suffix.length) };
    }
  }
  return best ? conditionTarget(map[best.key], best.star) : undefined;
}

function conditionTarget(value: unknown, star: string): string | undefined {
  if (typeof value === "string") return value.replaceAll("*", star);
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = conditionTarget(item, star);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [condition, target] of Object.entries(value)) {
      if (!CONDITIONS.includes(condition)) continue;
      const found = conditionTarget(target, star);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
