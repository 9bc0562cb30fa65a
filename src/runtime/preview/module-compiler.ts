// Turns the workspace files a previewed page imports into ES modules the browser can run without a
// bundler step: TypeScript and JSX through sucrase (JSX with the automatic runtime; lines kept, so
// errors point at the right line), imports rewritten to the preview's module URLs, CommonJS files
// (react, react-dom) wrapped as lazily evaluated factories behind an ESM facade with named exports,
// and CSS, JSON and assets as small modules. docs/architecture.md "Preview" describes the whole.
import { init as initEsLexer, parse as parseEsm } from "es-module-lexer";
import { init as initCjsLexer, parse as parseCjs } from "cjs-module-lexer";
import { transform, type Transform } from "sucrase";
import { contentTypeOf, extensionOf, moduleKindOf } from "./content-types";
import { compileCssModule, isCssModule } from "./css-modules";
import { cssNotice, postcssSyntaxOf } from "./unsupported";
import { expandGlobs } from "./import-glob";
import { ModuleResolver, ResolveError, type PreviewFiles } from "./module-resolution";
import { dirnameOf, joinPath } from "./preview-paths";
import type { PostcssStep } from "./postcss";

/** A problem in the previewed code, with where it is (shown in the preview's error overlay). */
export class PreviewBuildError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = "PreviewBuildError";
  }
}

export interface CompilerOptions {
  /** The module URL of a workspace path (what the import map maps to the module's code). */
  moduleUrl(path: string): string;
  /** `import.meta.env` of the previewed code. */
  env: Record<string, string | boolean>;
  /** The project's PostCSS (postcss.ts); without it CSS is used as written. */
  postcss?: PostcssStep;
}

export interface CompiledModule {
  /** The module URL the page imports it by. */
  url: string;
  code: string;
  /** The code as a data: URL (kept with the compiled code: a save re-encodes only what changed). */
  dataUrl: string;
  /** The module ids it imports (statically or by a literal import()). */
  deps: string[];
  /**
   * "esm": compiled workspace or package code whose imports can be pointed elsewhere (renderWith);
   * "leaf": CSS, JSON, assets (no imports); "cjs": a CommonJS facade or factory.
   */
  kind: ModuleKind;
  /** What the preview does not do for this module that Vite would (PostCSS syntax in a CSS file). */
  notes: string[];
  /** The code with each import naming `urlFor(dep)` instead of the dep's module URL (hot updates: hot-update.ts). */
  renderWith(urlFor: (dep: string) => string): string;
}

export type ModuleKind = "esm" | "leaf" | "cjs";

/** Where a compiled ES module names one of its imports (a module URL, quoted or not). */
interface ImportSlot {
  start: number;
  end: number;
  quoted: boolean;
  dep: string;
}

interface ScriptImport {
  specifier: string;
  start: number;
  end: number;
  quoted: boolean;
}

let lexers: Promise<unknown> | undefined;
export function initLexers(): Promise<unknown> {
  lexers ??= Promise.all([initEsLexer, initCjsLexer()]);
  return lexers;
}

const CJS_SUFFIX = "?cjs";
const FACTORY = "__webcodeFactory";

/** One compiled module per source text: a save recompiles only the file it changed. */
interface CacheEntry {
  source: string;
  code: string;
  dataUrl: string;
  deps: string[];
  kind: ModuleKind;
  notes: string[];
  /** ES modules: the compiled code before its imports were rewritten, and where they are in it. */
  compiled?: string;
  slots?: ImportSlot[];
}

export class ModuleCompiler {
  private readonly cache = new Map<string, CacheEntry>();
  private resolver: ModuleResolver;

  constructor(
    private readonly files: PreviewFiles,
    private readonly root: string,
    private readonly options: CompilerOptions,
  ) {
    this.resolver = new ModuleResolver(files, root);
  }

  /** import.meta.env changed (a .env file was saved): modules are compiled again with the new values. */
  setEnv(env: Record<string, string | boolean>): void {
    if (JSON.stringify(env) === JSON.stringify(this.options.env)) return;
    this.options.env = env;
    this.cache.clear();
  }

  /** Files were added or removed: resolutions and package.json files are read again. */
  forgetResolutions(): void {
    this.resolver = new ModuleResolver(this.files, this.root);
    // What an import.meta.glob matches may have changed too.
    for (const [id, entry] of this.cache) if (entry.source.includes("import.meta.glob")) this.cache.delete(id);
  }

  /**
   * Compiles `entries` (workspace paths, or inline scripts of the page given as source) and every
   * module they import, statically or by `import("literal")`. Throws PreviewBuildError.
   */
  async compileGraph(entries: Array<{ path: string; source?: string }>): Promise<Map<string, CompiledModule>> {
    await initLexers();
    const out = new Map<string, CompiledModule>();
    const queue: Array<{ id: string; source?: string }> = entries.map((e) => ({ id: e.path, source: e.source }));
    while (queue.length > 0) {
      const batch = queue.splice(0);
      const results = await Promise.all(
        batch.filter((item) => !out.has(item.id)).map(async (item) => ({ id: item.id, entry: await this.compile(item.id, item.source) })),
      );
      for (const { id, entry } of results) {
        if (out.has(id)) continue;
        out.set(id, {
          url: this.urlOf(id),
          code: entry.code,
          dataUrl: entry.dataUrl,
          deps: entry.deps,
          kind: entry.kind,
          notes: entry.notes,
          renderWith: (urlFor) => (entry.compiled === undefined ? entry.code : `${renderImports(entry.compiled, entry.slots ?? [], urlFor)}\n//# sourceURL=${this.urlOf(id)}`),
        });
        for (const dep of entry.deps) if (!out.has(dep)) queue.push({ id: dep });
      }
    }
    return out;
  }

  /** The URL of a module id ("src/a.ts", or "node_modules/react/index.js?cjs" for a CommonJS factory). */
  urlOf(id: string): string {
    return id.endsWith(CJS_SUFFIX) ? `${this.options.moduleUrl(id.slice(0, -CJS_SUFFIX.length))}${CJS_SUFFIX}` : this.options.moduleUrl(id);
  }

  private async compile(id: string, inlineSource?: string): Promise<CacheEntry> {
    const factory = id.endsWith(CJS_SUFFIX);
    const path = factory ? id.slice(0, -CJS_SUFFIX.length) : id;
    const query = /\?(raw|url)$/.exec(path)?.[1];
    const file = query ? path.slice(0, -query.length - 1) : path;
    const kind = inlineSource === undefined ? moduleKindOf(file) : "script";
    const read = inlineSource ?? (kind === "asset" && !query ? undefined : await this.files.readText(file));
    // CSS is compiled from what the project's PostCSS makes of it (which changes with other files: Tailwind's content).
    const processed = kind === "css" && !query && read !== undefined ? await this.processCss(file, read) : undefined;
    const text = processed?.css ?? read;
    // What PostCSS said it could not do is part of the answer too (the same CSS, another reason).
    const source = processed && processed.notes.length > 0 ? `${processed.notes.join("\n")}\u0000${processed.css}` : text;
    const cacheKey = id;
    const cached = this.cache.get(cacheKey);
    if (cached && source !== undefined && cached.source === source) return cached;
    let entry: { code: string; deps: string[]; kind: ModuleKind; compiled?: string; slots?: ImportSlot[] };
    if (query === "raw") entry = { code: `export default ${JSON.stringify(text)};`, deps: [], kind: "leaf" };
    else if (query === "url" || kind === "asset") entry = { code: `export default ${JSON.stringify(await this.dataUrl(file))};`, deps: [], kind: "leaf" };
    else if (kind === "json") entry = { code: `export default ${jsonModule(text!, file)};`, deps: [], kind: "leaf" };
    else if (kind === "css" && isCssModule(file)) entry = { ...(await this.cssModule(file, text!)), kind: "esm" };
    else if (kind === "css") entry = { code: cssModule(await this.inlineCssUrls(text!, file), file), deps: [], kind: "leaf" };
    else if (factory) entry = { ...(await this.cjsFactory(file, text!)), kind: "cjs" };
    else if (inlineSource === undefined && (await this.isCommonJs(file, text!))) entry = { ...(await this.cjsFacade(file, text!)), kind: "cjs" };
    else entry = { ...(await this.esm(path, text!)), kind: "esm" };
    const code = `${entry.code}\n//# sourceURL=${this.urlOf(id)}`;
    const result: CacheEntry = {
      source: source ?? "",
      code,
      dataUrl: `data:text/javascript;base64,${textToBase64(code)}`,
      deps: entry.deps,
      kind: entry.kind,
      notes: processed ? [...processed.notes, ...cssNotes(file, processed.css)] : [],
      compiled: entry.compiled,
      slots: entry.slots,
    };
    // A CSS module that composes from other files depends on their text too: compiled every time.
    if (text !== undefined && !(kind === "css" && entry.deps.length > 0)) this.cache.set(cacheKey, result);
    return result;
  }

  private async isCommonJs(path: string, source: string): Promise<boolean> {
    const ext = extensionOf(path);
    if (ext === "cjs") return true;
    if (ext !== "js") return false;
    if ((await this.resolver.packageType(path)) === "module") return false;
    let hasModuleSyntax: boolean;
    try {
      hasModuleSyntax = parseEsm(source)[3];
    } catch {
      return false; // the ESM path reports the syntax error with its line
    }
    return !hasModuleSyntax && /\b(module\.exports|exports\.[\w$]+\s*=|require\s*\()/.test(source);
  }

  private async esm(path: string, source: string): Promise<{ code: string; deps: string[]; compiled: string; slots: ImportSlot[] }> {
    const code = await this.globs(path, replaceDefines(compileSyntax(path, source), this.options.env));
    let imports: ScriptImport[];
    try {
      imports = parseEsm(code)[0]
        .filter((i) => i.type !== "import-meta" && typeof i.specifier === "string")
        .map((i) => ({ specifier: i.specifier!, start: i.start, end: i.end, quoted: i.type === "dynamic" }));
    } catch (error) {
      const index = (error as { idx?: number }).idx ?? 0;
      throw new PreviewBuildError(`Syntax error in ${path}`, path, lineOf(code, index));
    }
    const from = path.replace(/\?inline\d+$/, "");
    const slots: ImportSlot[] = [];
    for (const item of imports) slots.push({ start: item.start, end: item.end, quoted: item.quoted, dep: await this.resolveImport(item.specifier, from, code, item.start) });
    return { code: renderImports(code, slots, (dep) => this.urlOf(dep)), deps: slots.map((s) => s.dep), compiled: code, slots };
  }

  /** import.meta.glob calls replaced by the files they match (import-glob.ts). */
  private async globs(path: string, code: string): Promise<string> {
    if (!code.includes("import.meta.glob")) return code;
    const from = path.replace(/\?inline\d+$/, "");
    const files = this.files;
    const list = async (dir: string): Promise<string[]> => {
      if (!files.list) throw new PreviewBuildError(`import.meta.glob in ${from}: these files cannot be listed`, from);
      const out: string[] = [];
      const walk = async (folder: string) => {
        if ((await files.stat(folder))?.kind !== "dir") return;
        for (const entry of await files.list!(folder)) {
          if (entry.kind === "dir") {
            if (!/(^|\/)(node_modules|\.git)$/.test(entry.path)) await walk(entry.path);
          } else out.push(entry.path);
        }
      };
      await walk(dir);
      return out;
    };
    try {
      return await expandGlobs(code, from, this.root, list);
    } catch (error) {
      if (error instanceof PreviewBuildError) throw error;
      throw new PreviewBuildError(`import.meta.glob in ${from}: ${error instanceof Error ? error.message : String(error)}`, from, lineOf(code, code.indexOf("import.meta.glob")));
    }
  }

  private async resolveImport(specifier: string, from: string, code: string, index: number): Promise<string> {
    try {
      const query = /\?(raw|url)$/.exec(specifier)?.[0] ?? "";
      return (await this.resolver.resolve(specifier, from)) + query;
    } catch (error) {
      if (error instanceof ResolveError) throw new PreviewBuildError(`Module not found: ${error.message}`, from, lineOf(code, index));
      throw error;
    }
  }

  /** What ES modules import from a CommonJS file: its module.exports as default, and its named exports. */
  private async cjsFacade(path: string, source: string): Promise<{ code: string; deps: string[] }> {
    const names = [...(await this.cjsExportNames(path, source, 0))].filter((n) => n !== "default" && n !== "__esModule");
    const exports = names.map((name, i) => `const __e${i} = __m == null ? undefined : __m[${JSON.stringify(name)}]; export { __e${i} as ${JSON.stringify(name)} };`);
    const code = [
      `import { ${FACTORY} } from ${JSON.stringify(this.urlOf(path + CJS_SUFFIX))};`,
      `const __m = ${FACTORY}();`,
      `export default __m && __m.__esModule && "default" in __m ? __m.default : __m;`,
      ...exports,
    ].join("\n");
    return { code, deps: [path + CJS_SUFFIX] };
  }

  private async cjsExportNames(path: string, source: string, depth: number): Promise<Set<string>> {
    const names = new Set<string>();
    let parsed: { exports: string[]; reexports: string[] };
    try {
      parsed = parseCjs(source);
    } catch {
      return names;
    }
    for (const name of parsed.exports) names.add(name);
    if (depth > 8) return names;
    for (const specifier of parsed.reexports) {
      try {
        const target = await this.resolver.resolve(specifier, path);
        if (moduleKindOf(target) !== "script") continue;
        for (const name of await this.cjsExportNames(target, await this.files.readText(target), depth + 1)) names.add(name);
      } catch {
        // A re-export that does not resolve adds no names; require() says so when it runs.
      }
    }
    return names;
  }

  /**
   * The CommonJS file itself, as a factory run on first require(), so a require() in a branch not
   * taken (react's production build) is never evaluated. Its source starts on line 1.
   */
  private async cjsFactory(path: string, source: string): Promise<{ code: string; deps: string[] }> {
    const specifiers = new Set<string>();
    // Packages pick their build by process.env.NODE_ENV (react: "./cjs/react.production.js" or
    // ".development.js"); the build of the other mode is never required, so it is not sent either.
    const otherMode = this.options.env.MODE === "production" ? /\.development(\.min)?\.js$/ : /\.production(\.min)?\.js$/;
    for (const match of source.matchAll(/\brequire\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g)) if (!otherMode.test(match[2]!)) specifiers.add(match[2]!);
    const imports: string[] = [];
    const table: string[] = [];
    const deps: string[] = [];
    let i = 0;
    for (const specifier of specifiers) {
      let target: string;
      try {
        target = await this.resolver.resolve(specifier, path);
      } catch {
        continue; // require() throws "Cannot find module" if that line runs
      }
      const local = `__r${i++}`;
      if (moduleKindOf(target) === "script" && (await this.isCommonJs(target, await this.files.readText(target)))) {
        imports.push(`import { ${FACTORY} as ${local} } from ${JSON.stringify(this.urlOf(target + CJS_SUFFIX))};`);
        table.push(`${JSON.stringify(specifier)}: ${local}`);
        deps.push(target + CJS_SUFFIX);
      } else {
        imports.push(`import * as ${local} from ${JSON.stringify(this.urlOf(target))};`);
        const json = moduleKindOf(target) === "json" || moduleKindOf(target) === "asset";
        table.push(`${JSON.stringify(specifier)}: () => ${json ? `${local}.default` : local}`);
        deps.push(target);
      }
    }
    const header =
      `${imports.join(" ")} const __req = {${table.join(", ")}}; let __module; ` +
      `export function ${FACTORY}() { if (__module) return __module.exports; __module = { exports: {} }; ` +
      `const __require = (s) => { const r = __req[s]; if (!r) throw new Error("Cannot find module '" + s + "' from ${jsString(path)}"); return r(); }; ` +
      `const __process = globalThis.process || { env: { NODE_ENV: "development" } }; ` +
      `(function (module, exports, require, process, global, __filename, __dirname) {`;
    const footer = `\n}).call(__module.exports, __module, __module.exports, __require, __process, globalThis, ${JSON.stringify(`/${path}`)}, ${JSON.stringify(`/${dirnameOf(path)}`)});\nreturn __module.exports; }`;
    return { code: header + replaceDefines(source, this.options.env) + footer, deps };
  }

  /**
   * A CSS module: its scoped CSS added to the page, the names → scoped names as default export (and
   * as named exports); a file it composes from is imported (its CSS is in the page as well).
   */
  private async cssModule(path: string, text: string): Promise<{ code: string; deps: string[]; compiled: string; slots: ImportSlot[] }> {
    const { css, exports, deps } = await this.cssModuleOf(path, text, 0);
    let compiled = "";
    const slots: ImportSlot[] = [];
    for (const dep of deps) {
      compiled += `import "`;
      slots.push({ start: compiled.length, end: compiled.length + dep.length, quoted: false, dep });
      compiled += `${dep}";\n`;
    }
    compiled += cssModule(await this.inlineCssUrls(css, path), path).replace(/export default .*$/, "");
    compiled += `const __names = ${JSON.stringify(exports)};\nexport default __names;\n`;
    compiled += Object.keys(exports).map((name, i) => `const __n${i} = __names[${JSON.stringify(name)}]; export { __n${i} as ${JSON.stringify(name)} };`).join("\n");
    return { code: renderImports(compiled, slots, (dep) => this.urlOf(dep)), deps, compiled, slots };
  }

  private async cssModuleOf(path: string, text: string, depth: number): Promise<{ css: string; exports: Record<string, string>; deps: string[] }> {
    const result = compileCssModule(text, path);
    const exports = { ...result.exports };
    const deps: string[] = [];
    for (const item of result.imports) {
      let target: string;
      try {
        target = await this.resolver.resolve(item.from, path);
      } catch (error) {
        if (error instanceof ResolveError) throw new PreviewBuildError(`Module not found: ${error.message} (composes in ${path})`, path, lineOf(text, text.indexOf(item.from)));
        throw error;
      }
      if (depth > 16) throw new PreviewBuildError(`composes: ${path} and ${target} compose from each other`, path);
      if (!deps.includes(target)) deps.push(target);
      const other = (await this.cssModuleOf(target, (await this.processCss(target, await this.files.readText(target))).css, depth + 1)).exports;
      const added = item.names.map((name) => {
        if (other[name] === undefined) throw new PreviewBuildError(`composes: class "${name}" is not in ${target}`, path, lineOf(text, text.indexOf(item.from)));
        return other[name];
      });
      exports[item.into] = [exports[item.into], ...added].join(" ");
    }
    return { css: result.css, exports, deps };
  }

  /**
   * A CSS file's text after the project's PostCSS (as written when the project has none, or when
   * PostCSS could not run: `notes` say why). Throws PreviewBuildError for an error in the CSS.
   */
  async processCss(path: string, css: string): Promise<{ css: string; notes: string[] }> {
    const outcome = await this.options.postcss?.process(path, css);
    if (!outcome) return { css, notes: [] };
    if (outcome.kind === "error") throw new PreviewBuildError(`PostCSS: ${outcome.message}`, path, outcome.line, outcome.column);
    if (outcome.kind === "not-run") return { css, notes: [outcome.notice] };
    return { css: outcome.css, notes: [] };
  }

  /** CSS with its url(...) references to workspace files replaced by data: URLs. */
  async inlineCssUrls(css: string, path: string): Promise<string> {
    const matches = [...css.matchAll(/url\(\s*(["']?)([^"')]+)\1\s*\)/g)];
    let out = "";
    let last = 0;
    for (const match of matches) {
      const ref = match[2]!.trim();
      let target = localReference(ref) ? joinPath(ref.startsWith("/") ? this.root : dirnameOf(path), ref.replace(/[?#].*$/, "")) : undefined;
      // url(/bg.png): public/bg.png when the site has no such file of its own, as in Vite.
      if (target !== undefined && ref.startsWith("/") && (await this.files.stat(target))?.kind !== "file") target = joinPath(this.root, "public", ref.replace(/[?#].*$/, ""));
      const data = target !== undefined && (await this.files.stat(target))?.kind === "file" ? await this.dataUrl(target) : undefined;
      out += css.slice(last, match.index) + (data ? `url(${JSON.stringify(data)})` : match[0]);
      last = match.index! + match[0].length;
    }
    return out + css.slice(last);
  }

  async dataUrl(path: string): Promise<string> {
    const type = contentTypeOf(path);
    return `data:${type.replace(/; charset=utf-8$/, "")};base64,${bytesToBase64(await this.files.readFile(path))}`;
  }
}

function cssNotes(path: string, css: string): string[] {
  const syntax = postcssSyntaxOf(css);
  return syntax ? [cssNotice(path, syntax)] : [];
}

function renderImports(code: string, slots: ImportSlot[], urlFor: (dep: string) => string): string {
  let out = "";
  let last = 0;
  for (const slot of slots) {
    out += code.slice(last, slot.start) + (slot.quoted ? JSON.stringify(urlFor(slot.dep)) : urlFor(slot.dep));
    last = slot.end;
  }
  return out + code.slice(last);
}

/** A reference in HTML or CSS that names a file of the site (not another site, not data:). */
export function localReference(ref: string): boolean {
  return ref !== "" && !/^([a-z][a-z0-9+.-]*:|\/\/|#)/i.test(ref);
}

function compileSyntax(path: string, source: string): string {
  const ext = extensionOf(path.replace(/\?inline\d+$/, ""));
  const transforms: Transform[] | undefined =
    ext === "tsx" ? ["typescript", "jsx"] : ext === "ts" || ext === "mts" || ext === "cts" ? ["typescript"] : ext === "jsx" ? ["jsx"] : undefined;
  if (!transforms) return source;
  try {
    return transform(source, { transforms, jsxRuntime: "automatic", production: true, disableESTransforms: true, filePath: path }).code;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const at = /\((\d+):(\d+)\)/.exec(message);
    const clean = message.replace(/^Error transforming [^:]+: /, "");
    throw new PreviewBuildError(`Syntax error: ${clean}`, path, at ? Number(at[1]) : undefined, at ? Number(at[2]) + 1 : undefined);
  }
}

/** import.meta.env and process.env.NODE_ENV, as Vite defines them (same lines: no newline is added). */
function replaceDefines(code: string, env: Record<string, string | boolean>): string {
  return code.replace(/\bimport\.meta\.env\b/g, `(${JSON.stringify(env)})`).replace(/\bprocess\.env\.NODE_ENV\b/g, JSON.stringify(String(env.MODE ?? "development")));
}

function jsonModule(text: string, path: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch (error) {
    const position = /position (\d+)/.exec(String(error))?.[1];
    throw new PreviewBuildError(`Invalid JSON in ${path}: ${error instanceof Error ? error.message : String(error)}`, path, position ? lineOf(text, Number(position)) : undefined);
  }
}

function cssModule(css: string, path: string): string {
  return [
    `const style = document.createElement("style");`,
    `style.dataset.file = ${JSON.stringify(path)};`,
    `style.textContent = ${JSON.stringify(css)};`,
    `document.head.append(style);`,
    `export default ${JSON.stringify(css)};`,
  ].join("\n");
}

function jsString(text: string): string {
  return JSON.stringify(text).slice(1, -1).replace(/'/g, "\\'");
}

export function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

export function textToBase64(text: string): string {
  return bytesToBase64(new TextEncoder().encode(text));
}

