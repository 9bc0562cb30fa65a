// The TypeScript compiler options that the editor's squiggles (src/ui/editor/monaco-setup.ts) and the
// agent's code service (code-service.ts) share, so the agent sees what the editor shows. Each passes
// its own TypeScript's enums (Monaco's bundled copy, or the code service's own); module resolution
// stays with each, since the two copies name it differently.

/** The enums the options are built from: any TypeScript version's. */
interface TypeScriptEnums {
  ScriptTarget: { ESNext: number };
  ModuleKind: { ESNext: number };
  JsxEmit: { ReactJSX: number };
}

/** The options both checkers use, with `ts`'s enum values. */
export function sharedCompilerOptions<T extends TypeScriptEnums>(ts: T) {
  return {
    target: ts.ScriptTarget.ESNext as T["ScriptTarget"]["ESNext"],
    module: ts.ModuleKind.ESNext as T["ModuleKind"]["ESNext"],
    jsx: ts.JsxEmit.ReactJSX as T["JsxEmit"]["ReactJSX"],
    allowJs: true,
    checkJs: false,
    allowNonTsExtensions: true,
    esModuleInterop: true,
    allowSyntheticDefaultImports: true,
    resolveJsonModule: true,
    isolatedModules: true,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  };
}
