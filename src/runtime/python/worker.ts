// Entry of the python3 worker, started by the isolated execution host in its sandboxed iframe
// (docs/architecture.md "Isolated execution host"). The sandbox may
// not fetch anything, so Pyodide's files (fetched by the page from its own origin) arrive with the
// run request (or ahead of it, in a "prepare" message), and Pyodide's own requests for them are
// answered from memory. After a normal exit the worker keeps Pyodide for the next run.
import { loadPyodide } from "pyodide";
import createPyodideModule from "pyodide/pyodide.asm.mjs";
import { browserWorkerConnection, serveProgram } from "../sandbox/worker-kit";
import { runPython, type PythonRuntime } from "./python-main";
import { ASSET_NAMES, ASSET_TYPES } from "./assets";

const INDEX_URL = "https://webcode.invalid/pyodide/";

interface WorkerScope {
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

const scope = self as unknown as WorkerScope;

/** Pyodide, started once per worker: the worker keeps it for the runs after the first (python-fresh.ts). */
let started: Promise<PythonRuntime> | undefined;

function start(boot: Array<[string, Uint8Array]> | undefined): Promise<PythonRuntime> {
  started ??= (async () => {
    const assets = new Map(boot ?? []);
    for (const name of ASSET_NAMES) if (!assets.has(name)) throw new Error(`Python's file ${name} did not arrive.`);
    const pageFetch = globalThis.fetch;
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const name = url.startsWith(INDEX_URL) ? url.slice(INDEX_URL.length) : undefined;
      const bytes = name ? assets.get(name) : undefined;
      if (bytes) return new Response(bytes.slice().buffer as ArrayBuffer, { status: 200, headers: { "Content-Type": ASSET_TYPES[name!] ?? "application/octet-stream" } });
      return pageFetch(input, init);
    };
    const lock = JSON.parse(new TextDecoder().decode(assets.get("pyodide-lock.json"))) as unknown;
    return (await loadPyodide({
      indexURL: INDEX_URL,
      lockFileContents: lock as never,
      createPyodideModule: createPyodideModule as never,
      env: { HOME: "/workspace" },
    })) as unknown as PythonRuntime;
  })();
  return started;
}

serveProgram(browserWorkerConnection(scope), (context) => runPython(context, () => start(context.request.boot)), {
  // A spare worker starts Pyodide in the background, so that the next run only executes.
  prepare: (boot) => void start(boot).catch(() => undefined),
});
