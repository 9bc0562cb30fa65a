// Node's module resolution over the sandbox's files: relative and absolute paths with extensions
// and directory index files, node_modules lookup up the tree, package.json `exports`/`imports`
// (conditions and subpath patterns, by resolve.exports), `main`, and the format of each file
// (.mjs/.cjs or the nearest package.json "type"; a file that declares none is detected by the loader).
import { exports as resolveExports, imports as resolveImports } from "resolve.exports";
import type { SandboxFs } from "../sandbox/sandbox-fs";
import { resolvePath } from "../sandbox/sandbox-fs";
import type { ModuleFormat } from "./transform";
import { wasmSubstituteFor } from "./native-substitutes";

export type ResolveMode = "require" | "import";

interface PackageJson {
  name?: string;
  main?: string;
  module?: string;
  type?: string;
  exports?: unknown;
  imports?: unknown;
}

const EXTENSIONS = [".js", ".json", ".cjs", ".mjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", ".node"];

/** Node's "Cannot find module" error (a plain Error with code and requireStack, as Node's is). */
export function moduleNotFound(specifier: string, from: string, mode: ResolveMode): Error & { code: string; requireStack?: string[] } {
  const message =
    mode === "require"
      ? `Cannot find module '${specifier}'\nRequire stack:\n- ${from}`
      : `Cannot find ${specifier.startsWith(".") || specifier.startsWith("/") ? "module" : "package"} '${specifier.startsWith(".") ? resolvePath(dirOf(from), specifier) : specifier}' imported from ${from}`;
  const error = new Error(message) as Error & { code: string; requireStack?: string[] };
  error.code = mode === "require" ? "MODULE_NOT_FOUND" : "ERR_MODULE_NOT_FOUND";
  if (mode === "require") error.requireStack = [from];
  return error;
}

export function dirOf(path: string): string {
  const index = path.lastIndexOf("/");
  return index <= 0 ? "/" : path.slice(0, index);
}

export class ModuleResolver {
  private readonly packageCache = new Map<string, PackageJson | null>();

  constructor(private readonly fs: SandboxFs) {}

  private isFile(path: string): boolean {
    return this.fs.stat(path)?.kind === "file";
  }

  readPackage(dir: string): PackageJson | null {
    const cached = this.packageCache.get(dir);
    if (cached !== undefined) return cached;
    let value: PackageJson | null = null;
    const file = `${dir === "/" ? "" : dir}/package.json`;
    if (this.isFile(file)) {
      const data = this.fs.readFile(file);
      try {
        value = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data)) as PackageJson;
      } catch (error) {
        throw Object.assign(new Error(`Invalid package config ${file}: ${(error as Error).message}`), { code: "ERR_INVALID_PACKAGE_CONFIG" });
      }
    }
    this.packageCache.set(dir, value);
    return value;
  }

  /** The folder of the nearest package.json above a file, with its content. */
  packageScope(path: string): { dir: string; pkg: PackageJson } | undefined {
    for (let dir = dirOf(path); ; dir = dirOf(dir)) {
      if (!dir.endsWith("/node_modules")) {
        const pkg = this.readPackage(dir);
        if (pkg) return { dir, pkg };
      }
      if (dir === "/") return undefined;
    }
  }

  /**
   * The format a file declares: .json, .mjs/.mts, .cjs/.cts, or a .js/.ts file's nearest package.json
   * "type" ("module" or "commonjs"). Undefined when nothing declares one: Node 22 then detects it from
   * the syntax (module-loader.ts, detectFormat).
   */
  formatOf(filename: string): ModuleFormat | undefined {
    if (filename.endsWith(".json")) return "json";
    if (/\.m[jt]s$/.test(filename)) return "module";
    if (/\.c[jt]s$/.test(filename)) return "commonjs";
    const type = this.packageScope(filename)?.pkg.type;
    if (type === "module") return "module";
    if (type === "commonjs") return "commonjs";
    return undefined;
  }

  /** The file a specifier names from `from` (a file path), or throws moduleNotFound(). */
  resolve(specifier: string, from: string, mode: ResolveMode): string {
    const base = dirOf(from);
    if (specifier.startsWith("file://")) specifier = decodeURIComponent(new URL(specifier).pathname);
    if (specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("/") || specifier === "." || specifier === "..") {
      const target = resolvePath(base, specifier);
      const found = this.loadAsFile(target) ?? this.loadAsDirectory(target, mode);
      if (found) return found;
      throw moduleNotFound(specifier, from, mode);
    }
    if (specifier.startsWith("#")) {
      const scope = this.packageScope(from);
      const targets = scope?.pkg.imports ? this.safe(() => resolveImports(scope.pkg, specifier, { require: mode === "require" })) : undefined;
      for (const target of targets ?? []) {
        if (target.startsWith("./")) {
          const file = resolvePath(scope!.dir, target);
          if (this.isFile(file)) return file;
        } else return this.resolve(target, from, mode);
      }
      throw Object.assign(moduleNotFound(specifier, from, mode), { code: "ERR_PACKAGE_IMPORT_NOT_DEFINED" });
    }
    const [name, subpath] = splitPackage(specifier);
    // A native platform package is replaced by its WebAssembly build when that is installed (native-substitutes.ts).
    const substitute = subpath === "." ? wasmSubstituteFor(name) : undefined;
    if (substitute) {
      const found = this.safe(() => this.resolve(substitute.specifier, from, mode));
      if (found) return found;
    }
    // A package may name itself through its own exports.
    const self = this.packageScope(from);
    if (self && self.pkg.name === name && self.pkg.exports !== undefined) {
      const found = this.fromExports(self.dir, self.pkg, subpath, specifier, from, mode);
      if (found) return found;
    }
    for (let dir = base; ; dir = dirOf(dir)) {
      if (!dir.endsWith("/node_modules")) {
        const pkgDir = `${dir === "/" ? "" : dir}/node_modules/${name}`;
        if (this.fs.stat(pkgDir)?.kind === "dir") {
          const pkg = this.readPackage(pkgDir);
          if (pkg && pkg.exports !== undefined && pkg.exports !== null) {
            const found = this.fromExports(pkgDir, pkg, subpath, specifier, from, mode);
            if (found) return found;
          } else {
            const target = subpath === "." ? pkgDir : `${pkgDir}/${subpath.slice(2)}`;
            const found = this.loadAsFile(target) ?? this.loadAsDirectory(target, mode);
            if (found) return found;
          }
        }
      }
      if (dir === "/") break;
    }
    const error = moduleNotFound(specifier, from, mode);
    if (substitute) {
      // The first line stays Node's (loaders match it); the reason follows it.
      const [first, ...rest] = error.message.split("\n");
      error.message = [first, `(a native build, which the browser runtime cannot run; its WebAssembly build ${substitute.wasmPackage} is not installed: npm install it, or run this project with WebContainer)`, ...rest].join("\n");
    }
    throw error;
  }

  private fromExports(pkgDir: string, pkg: PackageJson, subpath: string, specifier: string, from: string, mode: ResolveMode): string | undefined {
    let targets: string[] | void;
    try {
      targets = resolveExports(pkg, subpath, { require: mode === "require" });
    } catch {
      const error = new Error(
        `Package subpath '${subpath}' is not defined by "exports" in ${pkgDir}/package.json${mode === "import" ? ` imported from ${from}` : ""}`,
      );
      throw Object.assign(error, { code: "ERR_PACKAGE_PATH_NOT_EXPORTED" });
    }
    for (const target of targets ?? []) {
      const file = resolvePath(pkgDir, target);
      if (this.isFile(file)) return file;
    }
    throw moduleNotFound(specifier, from, mode);
  }

  private safe<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch {
      return undefined;
    }
  }

  private loadAsFile(path: string): string | undefined {
    if (this.isFile(path)) return path;
    for (const extension of EXTENSIONS) if (this.isFile(path + extension)) return path + extension;
    // TypeScript sources import each other as ".js"; the file on disk is ".ts".
    const ts = path.replace(/\.([cm]?)js$/, ".$1ts");
    if (ts !== path && this.isFile(ts)) return ts;
    return undefined;
  }

  private loadAsDirectory(path: string, mode: ResolveMode): string | undefined {
    if (this.fs.stat(path)?.kind !== "dir") return undefined;
    const pkg = this.readPackage(path);
    const main = pkg?.main ?? (mode === "import" ? pkg?.module : undefined) ?? pkg?.module;
    if (main) {
      const target = resolvePath(path, main);
      const found = this.loadAsFile(target) ?? this.loadIndex(target);
      if (found) return found;
    }
    return this.loadIndex(path);
  }

  private loadIndex(path: string): string | undefined {
    for (const extension of EXTENSIONS) if (this.isFile(`${path}/index${extension}`)) return `${path}/index${extension}`;
    return undefined;
  }
}

/** "@scope/name/sub/path" → ["@scope/name", "./sub/path"]; "name" → ["name", "."]. */
export function splitPackage(specifier: string): [string, string] {
  const parts = specifier.split("/");
  const length = specifier.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, length).join("/");
  const rest = parts.slice(length).join("/");
  return [name, rest === "" ? "." : `./${rest}`];
}
