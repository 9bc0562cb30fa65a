// python3 in the browser runtime (docs/architecture.md "python3 in the browser runtime"): the shell
// commands; Pyodide itself runs in the isolated execution host's worker (worker.ts).
export { pythonCommands, type PythonAssets, type PythonCommandOptions } from "./python-command";
