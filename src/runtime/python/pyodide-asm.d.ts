// pyodide/pyodide.asm.mjs (Emscripten's module factory) ships without types; loadPyodide takes it as
// its createPyodideModule option.
declare module "pyodide/pyodide.asm.mjs" {
  const createPyodideModule: (settings: unknown) => Promise<unknown>;
  export default createPyodideModule;
}
