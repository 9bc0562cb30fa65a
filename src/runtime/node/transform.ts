// Source to runnable code: TypeScript's types stripped and ES module syntax turned into calls the
// module loader provides, with every line kept where it was (stack traces point at the source).
// sucrase does both in one fast pass and keeps lines; what it leaves (import(), import.meta) is
// renamed here, where es-module-lexer finds them (not inside strings, comments or regular
// expressions: TypeScript's compiler quotes `import(` in its messages). A CommonJS file keeps
// import.meta as written: it is a syntax error there, which is how Node tells an ES module apart.
import { parse as lexModule } from "es-module-lexer/js";
import { sucrase } from "./lazy-modules";

export type ModuleFormat = "commonjs" | "module" | "json";

export interface TransformResult {
  code: string;
  /** Static import specifiers of an ES module, in source order (evaluated before its body). */
  imports: string[];
}

/** The names the loader passes into every module's wrapper (see module-loader.ts). */
export const DYNAMIC_IMPORT = "__webcode_import";
export const IMPORT_META = "__webcode_import_meta";
/** What an ES module's import statements call (an ES module has no `require` of its own). */
export const STATIC_IMPORT = "__webcode_static_import";

const TS_EXTENSION = /\.[cm]?tsx?$/;
const DYNAMIC_IMPORT_CALL = /(?<![\w$.])import\s*\(/g;
const IMPORT_META_ACCESS = /(?<![\w$.])import\.meta(?![\w$])/g;
// The require() calls sucrase writes for import statements: `var _x = require('x')`, wrapped in its
// interop helpers, or a bare statement for a side-effect import. A program's own `require` (from
// createRequire) keeps its name.
const GENERATED_REQUIRE = /(var _[\w$]* = |_interopRequire\w*\(|^\s*|;\s*)require\((['"])([^'"\n]+)\2\)/gm;
// On the first line, also a side-effect import right after the interop helpers sucrase puts there:
// `…obj : { default: obj }; }require('node:module');` (Vite's bundled config). Looked for on the first
// line only: elsewhere `}require('…')` is code that writes CommonJS, in a template (rollup's).
const FIRST_LINE_REQUIRE = /(var _[\w$]* = |_interopRequire\w*\(|^\s*|[;}]\s*)require\((['"])([^'"\n]+)\2\)/g;

export function isTypeScript(filename: string): boolean {
  return TS_EXTENSION.test(filename);
}

/** import() calls (and in an ES module import.meta) renamed to what the loader passes in. */
export function renameImports(code: string, format: "commonjs" | "module"): string {
  DYNAMIC_IMPORT_CALL.lastIndex = 0;
  IMPORT_META_ACCESS.lastIndex = 0;
  // Most files have neither: no lexing then (a plain CommonJS file runs as written).
  if (!DYNAMIC_IMPORT_CALL.test(code) && !(format === "module" && IMPORT_META_ACCESS.test(code))) return code;
  let found: ReturnType<typeof lexModule>[0];
  try {
    found = lexModule(code)[0];
  } catch {
    // The lexer gave up on this syntax; the compile reports real errors, so rename by pattern.
    const renamed = code.replace(DYNAMIC_IMPORT_CALL, `${DYNAMIC_IMPORT}(`);
    return format === "module" ? renamed.replace(IMPORT_META_ACCESS, IMPORT_META) : renamed;
  }
  let out = "";
  let at = 0;
  for (const entry of found) {
    if (entry.type === "dynamic") {
      out += `${code.slice(at, entry.importStart)}${DYNAMIC_IMPORT}`;
      at = entry.importStart + "import".length;
    } else if (entry.type === "import-meta" && format === "module") {
      out += `${code.slice(at, entry.importStart)}${IMPORT_META}`;
      at = entry.importEnd;
    }
  }
  return out + code.slice(at);
}

/**
 * The Function constructor a module sees: as the realm's, except that a body with import() gets the
 * loader's import (resolved from the module that made the function, as Node resolves it), which a
 * worker's native import() cannot give (its origin is opaque and the files are the workspace's).
 * Prettier's CLI loads plugins and configs through `new Function("s", "return import(s)")`.
 * Reaching the realm's own constructor (`(function () {}).constructor`, indirect eval) is not covered.
 */
export function functionWithImport(dynamicImport: (id: unknown) => Promise<unknown>): FunctionConstructor {
  const RealFunction = globalThis.Function;
  const withImport = function Function(this: unknown, ...args: unknown[]) {
    // A subclass (`class Callable extends Function`) gets the realm's constructor with its own prototype.
    if (new.target !== undefined && new.target !== withImport) return Reflect.construct(RealFunction, args, new.target) as unknown;
    const body = args.length > 0 ? String(args[args.length - 1]) : "";
    DYNAMIC_IMPORT_CALL.lastIndex = 0;
    if (!DYNAMIC_IMPORT_CALL.test(body)) return RealFunction(...(args as string[]));
    const params = args.slice(0, -1).map(String).join(",");
    const make = RealFunction(DYNAMIC_IMPORT, `return function anonymous(${params}\n) {\n${renameImports(body, "commonjs")}\n}`) as (hook: unknown) => unknown;
    return make(dynamicImport);
  };
  withImport.prototype = RealFunction.prototype;
  return withImport as unknown as FunctionConstructor;
}

// Sucrase 3 passes an export's string name (ES2022 `export { a as "module.exports" }`, which
// @vitejs/plugin-react 6 has) through as written: `exports."module.exports" = a`, and a re-export's
// as `'"name"'`. Both made into the property access and name they stand for.
const STRING_EXPORT_ASSIGNMENT = /\bexports\.("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/g;
const STRING_REEXPORT_NAME = /(_createNamedExportFrom\([\w$]+, )'("(?:[^"\\\n']|\\.)*")'/g;

function stringExportNames(code: string): string {
  return code.replace(STRING_EXPORT_ASSIGNMENT, "exports[$1]").replace(STRING_REEXPORT_NAME, "$1$2");
}

export function transformModule(source: string, filename: string, format: "commonjs" | "module"): TransformResult {
  const typescript = isTypeScript(filename);
  // A hashbang line (package bins) is a comment for Node; kept as one so lines stay where they were.
  let code = source.startsWith("#!") ? `//${source.slice(2)}` : source;
  if (typescript || format === "module") {
    const transforms: Array<"typescript" | "imports" | "jsx"> = [];
    if (typescript) transforms.push("typescript");
    if (filename.endsWith("x")) transforms.push("jsx");
    if (format === "module") transforms.push("imports");
    code = sucrase().transform(code, {
      transforms,
      filePath: filename,
      preserveDynamicImport: true,
      disableESTransforms: true,
      keepUnusedImports: true,
      // Node's type stripping keeps a TS file's import/export syntax as written.
      injectCreateRequireForImportRequire: false,
    }).code;
  }
  if (format === "module") code = stringExportNames(code);
  code = renameImports(code, format);
  const imports: string[] = [];
  if (format === "module") {
    const toStaticImport = (_whole: string, before: string, quote: string, specifier: string) => {
      imports.push(specifier);
      return `${before}${STATIC_IMPORT}(${quote}${specifier}${quote})`;
    };
    const lineEnd = code.indexOf("\n") < 0 ? code.length : code.indexOf("\n");
    // One pass per part, so the imports are listed in the order they come.
    const first = code.slice(0, lineEnd).replace(FIRST_LINE_REQUIRE, toStaticImport);
    code = first + code.slice(lineEnd).replace(GENERATED_REQUIRE, toStaticImport);
  }
  return { code, imports };
}
