// Pyodide's files that python3 needs at start: the WebAssembly module, the standard library and
// the package lock. The page serves them from its own origin (copied into the build by Vite) and
// hands them to the sandboxed worker by name, beside the program's files (RunMessage.boot).
export const ASSET_NAMES = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"] as const;
export const ASSET_TYPES: Record<string, string> = {
  "pyodide.asm.wasm": "application/wasm",
  "python_stdlib.zip": "application/zip",
  "pyodide-lock.json": "application/json",
};
