// Node's module system for a program in the sandboxed worker: CommonJS (require, module.exports,
// require.cache, require.resolve) and ES modules (static and dynamic import, top-level await,
// import.meta) over the sandbox's files, with Node's interop both ways: an ES module importing
// CommonJS gets module.exports as its default export plus its properties by name; require() of an
// ES module returns its namespace. Every module runs in a wrapper on its first line, so stack
// traces name the workspace file and the right line. Hand-written: no library runs Node's module
// semantics on a synchronous in-worker file system; resolution is in module-resolve.ts.
import { parse as parseForError } from "./syntax-error";
import { ModuleResolver, dirOf, type ResolveMode } from "./module-resolve";
import { nativeModuleError } from "./native-substitutes";
import { DYNAMIC_IMPORT, IMPORT_META, STATIC_IMPORT, functionWithImport, transformModule, type ModuleFormat } from "./transform";
import type { SandboxFs } from "../sandbox/sandbox-fs";

export interface LoaderOptions {
  fs: SandboxFs;
  /** A built-in module by name (without "node:"), or undefined when it is not one. Throws for built-ins the runtime cannot provide. */
  builtin(name: string): unknown;
  isBuiltin(name: string): boolean;
  /** Values every module sees as free names (process, Buffer, console, timers, global). */
  globals: Record<string, unknown>;
  /** Called when a CommonJS main module has run, before any promise callback (Node runs process.nextTick's queue there). */
  afterScript?(): void;
  /** transformModule, or one that reuses what earlier runs compiled (transform-cache.ts). */
  transform?: typeof transformModule;
}

export class NodeModule {
  exports: unknown = {};
  loaded = false;
  readonly children: NodeModule[] = [];
  readonly paths: string[];
  require!: NodeRequire;
  /** Set while an ES module (or its imports) is still evaluating. */
  evaluation: Promise<void> | undefined;
  format: ModuleFormat = "commonjs";
  constructor(
    readonly id: string,
    readonly filename: string,
    readonly parent: NodeModule | null | undefined,
  ) {
    this.paths = nodeModulePaths(dirOf(filename));
  }
  get path(): string {
    return dirOf(this.filename);
  }
}

export type NodeRequire = ((id: string) => unknown) & {
  resolve: ((id: string, options?: { paths?: string[] }) => string) & { paths(id: string): string[] | null };
  cache: Record<string, NodeModule>;
  main: NodeModule | undefined;
  extensions: Record<string, unknown>;
};

// `Function` is the realm's with import() working in the bodies it compiles (functionWithImport).
const PARAMS = ["exports", "require", "module", "__filename", "__dirname", DYNAMIC_IMPORT, IMPORT_META, STATIC_IMPORT, "Function"];
const BODY_DONE = "__webcode_module_done";

// Node 22's syntax detection for a file whose format nothing declares: it is compiled as CommonJS,
// and these errors mean ES module syntax (import/export statements) ...
const ESM_SYNTAX_ERROR = /^(?:Cannot use import statement outside a module|Unexpected token 'export'|Cannot use 'import\.meta' outside a module)/;
// ... while these mean an ES module only if the file then compiles as one (top-level await, or
// declaring a name the CommonJS wrapper provides).
const MAYBE_ESM_SYNTAX_ERROR = /^(?:(?:for )?await is only valid in async functions and the top level bodies of modules|Identifier '(?:require|module|exports|__filename|__dirname)' has already been declared)/;

function nodeModulePaths(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = dirOf(d)) {
    if (!d.endsWith("/node_modules")) out.push(`${d === "/" ? "" : d}/node_modules`);
    if (d === "/") return out;
  }
}

function text(data: string | Uint8Array): string {
  return typeof data === "string" ? data : new TextDecoder().decode(data);
}

export class ModuleLoader {
  readonly cache: Record<string, NodeModule> = Object.create(null) as Record<string, NodeModule>;
  readonly resolver: ModuleResolver;
  main: NodeModule | undefined;
  private readonly globalNames: string[];
  private readonly globalValues: unknown[];
  /** The source of every file the program ran, for error headers. */
  readonly sources = new Map<string, string>();
  /** How many characters the wrapper adds in front of a file's first line (stack columns on line 1 are shifted by it). */
  readonly firstLineOffsets = new Map<string, number>();
  /** CommonJS bodies compiled while detecting a file's format, run on evaluation (a large file is parsed once). */
  private readonly precompiled = new WeakMap<NodeModule, () => unknown>();

  private readonly transform: typeof transformModule;

  constructor(private readonly options: LoaderOptions) {
    this.transform = options.transform ?? transformModule;
    this.resolver = new ModuleResolver(options.fs);
    this.globalNames = Object.keys(options.globals);
    this.globalValues = Object.values(options.globals);
  }

  /** Runs the program's entry file: CommonJS at once, an ES module with its imports awaited. */
  async runMain(filename: string): Promise<void> {
    const module = this.moduleFor(filename, null);
    this.main = module;
    if (module.format === "module") await this.evaluateAsync(module);
    else {
      this.evaluateSync(module);
      this.options.afterScript?.();
    }
  }

  makeRequire(module: NodeModule): NodeRequire {
    const require = ((id: string) => {
      if (typeof id !== "string") {
        throw Object.assign(new TypeError(`The "id" argument must be of type string. Received ${id === null ? "null" : typeof id}`), { code: "ERR_INVALID_ARG_TYPE" });
      }
      if (id === "") throw Object.assign(new TypeError("The argument 'id' must be a non-empty string. Received ''"), { code: "ERR_INVALID_ARG_VALUE" });
      return this.requireFrom(id, module, "require");
    }) as NodeRequire;
    const resolve = ((id: string, opts?: { paths?: string[] }) => {
      if (this.isBuiltinSpecifier(id)) return id;
      if (opts?.paths) {
        for (const base of opts.paths) {
          try {
            return this.resolver.resolve(id, `${base}/_`, "require");
          } catch {
            // next base
          }
        }
      }
      return this.resolver.resolve(id, module.filename, "require");
    }) as NodeRequire["resolve"];
    resolve.paths = (id: string) => (this.isBuiltinSpecifier(id) ? null : module.paths);
    require.resolve = resolve;
    require.cache = this.cache;
    require.extensions = { ".js": null, ".json": null, ".node": null };
    Object.defineProperty(require, "main", { get: () => this.main, enumerable: true });
    return require;
  }

  isBuiltinSpecifier(id: string): boolean {
    return id.startsWith("node:") || this.options.isBuiltin(id);
  }

  private builtin(id: string): unknown {
    return this.options.builtin(id.startsWith("node:") ? id.slice(5) : id);
  }

  /** require() from a module, or a static import (mode "import") of an ES module. */
  requireFrom(id: string, parent: NodeModule, mode: ResolveMode): unknown {
    if (this.isBuiltinSpecifier(id)) return this.builtin(id);
    const filename = this.resolveFrom(id, parent.filename, mode);
    const cached = this.cache[filename];
    if (cached) return cached.exports;
    const module = this.moduleFor(filename, parent);
    if (module.format === "module") {
      // require(esm) as Node 22: the namespace once its body ran; one that awaits at top level is refused.
      const pending = this.evaluateModule(module);
      if (pending) {
        pending.catch(() => undefined);
        throw Object.assign(new Error(`require() cannot be used on an ESM graph with top-level await. Use import() instead. To see where the top-level await comes from, use --experimental-print-required-tla.\n  From ${parent.filename}\n  Requiring ${filename}`), { code: "ERR_REQUIRE_ASYNC_MODULE" });
      }
    } else this.evaluateSync(module);
    return module.exports;
  }

  /** import(): resolves, evaluates (awaiting top-level await) and returns the namespace. */
  async importFrom(id: string, parentFilename: string): Promise<unknown> {
    if (this.isBuiltinSpecifier(id)) return namespaceOf(this.builtin(id), "commonjs");
    const filename = this.resolveFrom(id, parentFilename, "import");
    const module = this.cache[filename] ?? this.moduleFor(filename, this.cache[parentFilename]);
    if (!module.loaded && module.evaluation === undefined) {
      if (module.format === "module") await this.evaluateAsync(module);
      else this.evaluateSync(module);
    } else if (module.evaluation) await module.evaluation;
    return namespaceOf(module.exports, module.format);
  }

  /** Modules given as data: URLs (import("data:text/javascript;base64,…"), as ESLint's --concurrency does): their source, by URL. */
  private readonly dataSources = new Map<string, string>();

  /** The resolver's answer, or for a data: URL the URL itself (its source kept for source()). */
  private resolveFrom(specifier: string, from: string, mode: ResolveMode): string {
    if (!specifier.startsWith("data:")) return this.resolver.resolve(specifier, from, mode);
    const comma = specifier.indexOf(",");
    if (comma < 0) throw Object.assign(new TypeError(`Invalid URL: ${specifier.slice(0, 40)}`), { code: "ERR_INVALID_URL" });
    const meta = specifier.slice(5, comma);
    const body = specifier.slice(comma + 1);
    this.dataSources.set(specifier, meta.endsWith(";base64") ? new TextDecoder().decode(Uint8Array.from(atob(body), (c) => c.charCodeAt(0))) : decodeURIComponent(body));
    return specifier;
  }

  /** A module record for a file, registered in the cache (not evaluated yet). */
  private moduleFor(filename: string, parent: NodeModule | null | undefined): NodeModule {
    // A .node file is native code: refused in one line (its package's wasm build is resolved in its place when installed).
    if (filename.endsWith(".node")) throw nativeModuleError(filename);
    const module = new NodeModule(filename, filename, parent);
    module.require = this.makeRequire(module);
    module.format = filename.startsWith("data:")
      ? /^data:application\/json[;,]/.test(filename) ? "json" : "module"
      : (this.resolver.formatOf(filename) ?? this.detectFormat(module));
    this.cache[filename] = module;
    parent?.children.push(module);
    return module;
  }

  /**
   * Node 22's format detection for a .js/.ts file no package.json "type" declares: CommonJS unless it
   * fails to compile as CommonJS for ES module syntax (so `import` inside a string or a comment, or
   * an optional require() in a try block, leave a CommonJS file CommonJS).
   */
  private detectFormat(module: NodeModule): ModuleFormat {
    const source = this.source(module);
    try {
      this.precompiled.set(module, this.compile(module, "commonjs", source));
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      if (ESM_SYNTAX_ERROR.test(error.message)) return "module";
      if (MAYBE_ESM_SYNTAX_ERROR.test(error.message) && this.compilesAsModule(module, source)) return "module";
      // A plain syntax error: CommonJS, and evaluating it reports the error.
      this.precompiled.set(module, () => {
        throw error;
      });
      return "commonjs";
    }
    return "commonjs";
  }

  private compilesAsModule(module: NodeModule, source: string): boolean {
    try {
      this.wrap(module, this.transform(source, module.filename, "module").code, true);
      return true;
    } catch {
      return false;
    }
  }

  private source(module: NodeModule): string {
    const source = this.dataSources.get(module.filename) ?? text(this.options.fs.readFile(module.filename));
    this.sources.set(module.filename, source);
    return source;
  }

  private evaluateSync(module: NodeModule): void {
    try {
      if (module.format === "json") {
        const source = this.source(module);
        try {
          module.exports = JSON.parse(source);
        } catch (error) {
          throw Object.assign(new SyntaxError(`${module.filename}: ${(error as Error).message}`), {});
        }
      } else {
        const run = this.precompiled.get(module) ?? this.compile(module, "commonjs");
        this.precompiled.delete(module);
        run();
      }
      module.loaded = true;
    } catch (error) {
      delete this.cache[module.filename];
      throw error;
    }
  }

  /** Evaluates an ES module after its static imports; undefined when all of it finished synchronously (no top-level await on the way). */
  private evaluateModule(module: NodeModule): Promise<void> | undefined {
    if (module.loaded) return undefined;
    if (module.evaluation) return module.evaluation;
    let compiled: { run: () => { done: boolean; promise: Promise<unknown> }; imports: string[] };
    try {
      compiled = this.compileModule(module);
    } catch (error) {
      delete this.cache[module.filename];
      throw error;
    }
    const { run, imports } = compiled;
    let index = 0;
    module.evaluation = Promise.resolve();
    // Static imports are evaluated before the body, in order, each awaited (top-level await).
    const step = (): Promise<void> | undefined => {
      for (; index < imports.length; index++) {
        const specifier = imports[index]!;
        if (this.isBuiltinSpecifier(specifier)) continue;
        const filename = this.resolveFrom(specifier, module.filename, "import");
        const dependency = this.cache[filename] ?? this.moduleFor(filename, module);
        // Already done, or part of a cycle that is evaluating now.
        if (dependency.loaded || dependency.evaluation) continue;
        if (dependency.format === "module") {
          const pending = this.evaluateModule(dependency);
          if (pending) {
            index += 1;
            return pending.then(step);
          }
        } else this.evaluateSync(dependency);
      }
      const { done, promise } = run();
      if (done) {
        module.loaded = true;
        return undefined;
      }
      return promise.then(() => void (module.loaded = true));
    };
    let pending: Promise<void> | undefined;
    try {
      pending = step();
    } catch (error) {
      module.evaluation = undefined;
      delete this.cache[module.filename];
      throw error;
    }
    if (!pending) {
      module.evaluation = undefined;
      return undefined;
    }
    module.evaluation = pending;
    pending.then(
      () => (module.evaluation = undefined),
      () => undefined,
    );
    return pending;
  }

  private evaluateAsync(module: NodeModule): Promise<void> {
    try {
      return this.evaluateModule(module) ?? Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private compileModule(module: NodeModule): { run: () => { done: boolean; promise: Promise<unknown> }; imports: string[] } {
    const source = this.source(module);
    const { code, imports } = this.transform(source, module.filename, "module");
    let done = false;
    let failure: { error: unknown } | undefined;
    const body = this.wrap(module, code, true, (...error: unknown[]) => {
      done = true;
      if (error.length > 0) failure = { error: error[0] };
    });
    return {
      imports,
      run: () => {
        const promise = body() as Promise<unknown>;
        if (failure) {
          promise.catch(() => undefined);
          throw failure.error;
        }
        return { done, promise };
      },
    };
  }

  private compile(module: NodeModule, format: "commonjs", source = this.source(module)): () => unknown {
    const { code } = this.transform(source, module.filename, format);
    return this.wrap(module, code, false);
  }

  private wrap(module: NodeModule, code: string, esm: boolean, onBodyDone?: (...error: unknown[]) => void): () => unknown {
    const url = esm ? `file://${module.filename}` : module.filename;
    // An ES module's body ends by calling BODY_DONE: when that happened before the wrapper returned,
    // the module finished synchronously (require(esm) and cycles need to know).
    const body = esm ? `"use strict";try {${code}\n;${BODY_DONE}();} catch (error) { ${BODY_DONE}(error); throw error; }` : code;
    // The globals (process, Buffer, console, timers) are bound by an outer function, so a module may
    // declare its own `const process = require("process")` as it may in Node.
    const prefix = `(function (${this.globalNames.join(", ")}) { return ${esm ? "async " : ""}function (${[...PARAMS, BODY_DONE].join(", ")}) {${esm ? '"use strict";try {' : ""}`;
    const wrapper = `${prefix}${body.slice(esm ? '"use strict";try {'.length : 0)}\n} })\n//# sourceURL=${url}`;
    this.firstLineOffsets.set(module.filename, prefix.length);
    let fn: (...args: unknown[]) => unknown;
    try {
      fn = ((0, eval)(wrapper) as (...globals: unknown[]) => (...args: unknown[]) => unknown)(...this.globalValues);
    } catch (error) {
      throw this.locateSyntaxError(error, module.filename);
    }
    const requireForModule = esm
      ? (id: string) => {
          const exports = this.requireFrom(id, module, "import");
          if (this.isBuiltinSpecifier(id)) return namespaceOf(exports, "commonjs");
          const target = this.cache[this.resolveFrom(id, module.filename, "import")];
          return namespaceOf(exports, target?.format ?? "commonjs");
        }
      : undefined;
    const dynamicImport = (id: unknown) => this.importFrom(String(id), module.filename);
    const meta = {
      url: `file://${module.filename}`,
      filename: module.filename,
      dirname: dirOf(module.filename),
      resolve: (id: string) => (this.isBuiltinSpecifier(id) ? (id.startsWith("node:") ? id : `node:${id}`) : `file://${this.resolver.resolve(id, module.filename, "import")}`),
    };
    return () =>
      esm
        ? fn.call(undefined, module.exports, undefined, undefined, undefined, undefined, dynamicImport, meta, requireForModule, functionWithImport(dynamicImport), onBodyDone)
        : fn.call(module.exports, module.exports, module.require, module, module.filename, dirOf(module.filename), dynamicImport, meta, undefined, functionWithImport(dynamicImport), undefined);
  }

  private locateSyntaxError(error: unknown, filename: string): unknown {
    if (!(error instanceof SyntaxError)) return error;
    const where = parseForError(this.sources.get(filename) ?? "", filename);
    if (where) Object.defineProperty(error, "webcodeLocation", { value: { file: filename, line: where.line, column: where.column }, enumerable: false });
    return error;
  }
}

/** What an ES module sees when it imports a module: an ES module's own exports, or CommonJS's module.exports as default plus its properties by name. */
export function namespaceOf(exports: unknown, format: ModuleFormat): unknown {
  if (format === "module") return exports;
  const namespace: Record<string, unknown> = {};
  if (exports !== null && (typeof exports === "object" || typeof exports === "function")) {
    for (const key of Object.keys(exports)) {
      if (key !== "default" && key !== "__esModule") namespace[key] = (exports as Record<string, unknown>)[key];
    }
  }
  namespace.default = exports;
  Object.defineProperty(namespace, "__esModule", { value: true });
  return namespace;
}
