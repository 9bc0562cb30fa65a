// Source to runnable code: TypeScript's types stripped and ES module syntax turned into calls the
// module loader provides, with every line kept where it was (stack traces point at the source).
// sucrase does both in one fast pass and keeps lines; what it leaves (import(), import.meta) is
// renamed here.
import { transform } from "sucrase";

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
const ESM_SYNTAX = /^\s*(?:import\s*(?:[\w$*{]|["'])|export\s+(?:\*|\{|default\b|const\b|let\b|var\b|function\b|async\b|class\b|type\b|interface\b|enum\b))/m;

export function isTypeScript(filename: string): boolean {
  return TS_EXTENSION.test(filename);
}

/** Whether a file without a declared format has ES module syntax (Node's detection). */
export function looksLikeModule(source: string): boolean {
  return ESM_SYNTAX.test(source);
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
    code = transform(code, {
      transforms,
      filePath: filename,
      preserveDynamicImport: true,
      disableESTransforms: true,
      keepUnusedImports: true,
      // Node's type stripping keeps a TS file's import/export syntax as written.
      injectCreateRequireForImportRequire: false,
    }).code;
  }
  code = code.replace(DYNAMIC_IMPORT_CALL, `${DYNAMIC_IMPORT}(`).replace(IMPORT_META_ACCESS, IMPORT_META);
  const imports: string[] = [];
  if (format === "module") {
    code = code.replace(GENERATED_REQUIRE, (_whole, before: string, quote: string, specifier: string) => {
      imports.push(specifier);
      return `${before}${STATIC_IMPORT}(${quote}${specifier}${quote})`;
    });
  }
  return { code, imports };
}
