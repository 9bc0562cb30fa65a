// Runs the browser runtime's `python3` in this process: the same runner the sandboxed worker uses,
// with Pyodide loaded from node_modules (the page loads the same files from its own origin).
import { loadPyodide } from "pyodide";
import type { FileData } from "../../src/runtime/sandbox";
import { runPython, type PythonRuntime } from "../../src/runtime/python/python-main";
import { runProgramInProcess, type ProgramRun, type ProgramRunOptions } from "./run-program";

export type PythonRun = ProgramRun;

let shared: Promise<PythonRuntime> | undefined;

/**
 * Loading Pyodide takes seconds; tests share one interpreter, as the page's worker keeps one between
 * runs (python-fresh.ts restores a fresh process state for each).
 */
function sharedPyodide(): Promise<PythonRuntime> {
  shared ??= loadPyodide().then((py) => py as unknown as PythonRuntime);
  return shared;
}

export function runPythonInProcess(args: string[], files: Record<string, FileData> = {}, options: ProgramRunOptions = {}): Promise<PythonRun> {
  return runProgramInProcess("python3", (context) => runPython(context, sharedPyodide), args, files, options, 120_000);
}
