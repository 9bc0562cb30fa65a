// Entry of the python3 worker, started by the isolated execution host in its sandboxed iframe
// (docs/architecture.md "Isolated execution host"): one worker runs one program. The sandbox may
// not fetch anything, so Pyodide's files (fetched by the page from its own origin) arrive with the
// run request, and Pyodide's own requests for them are answered from memory.
import { loadPyodide } from "pyodide";
import createPyodideModule from "pyodide/pyodide.asm.mjs";
import { browserWorkerConnection, serveProgram } from "../sandbox/worker-kit";
import { runPython, type PythonRuntime } from "./python-main";
import { ASSET_DIR, ASSET_NAMES, ASSET_TYPES } from "./assets";

const INDEX_URL = "https://webcode.invalid/pyodide/";

interface WorkerScope {
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

const scope = self as unknown as WorkerScope;
serveProgram(browserWorkerConnection(scope), (context) =>
  runPython(context, async () => {
    const assets = new Map<string, Uint8Array>();
    for (const name of ASSET_NAMES) {
      const data = context.fs.stat(`${ASSET_DIR}/${name}`);
      if (data?.kind !== "file" || typeof data.data === "string") throw new Error(`Python's file ${name} did not arrive.`);
      assets.set(name, data.data);
    }
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
  }),
);
