// The page's python3: the isolated execution host with the python worker bundle, and Pyodide's
// start files, which Vite copies into the build (served from webcode's own origin, never a CDN) and
// the page fetches on the first python3 command. Nothing here loads before that.
import { SandboxHost, iframeEndpointFactory } from "../sandbox";
import pythonWorkerUrl from "./worker?worker&url";
import wasmUrl from "pyodide/pyodide.asm.wasm?url";
import stdlibUrl from "pyodide/python_stdlib.zip?url";
import lockUrl from "pyodide/pyodide-lock.json?url";
import { fetchAsset } from "./assets";
import type { PythonCommandOptions } from "./python-command";

let shared: PythonCommandOptions | undefined;


/** The page's one python host and asset loader, shared by every workspace's shell. */
export function pagePython(): PythonCommandOptions {
  shared ??= {
    host: new SandboxHost(
      iframeEndpointFactory({
        sandboxUrl: new URL(`${import.meta.env.BASE_URL}sandbox.html`, location.href).href,
        workerSource: async () => new TextDecoder().decode(await fetchAsset(pythonWorkerUrl)),
      }),
      // A spare worker costs nothing until a run: Pyodide starts with the run request.
      { keepSpare: true },
    ),
    assets: async () => {
      const [wasm, stdlib, lock] = await Promise.all([fetchAsset(wasmUrl), fetchAsset(stdlibUrl), fetchAsset(lockUrl)]);
      return new Map([
        ["pyodide.asm.wasm", wasm],
        ["python_stdlib.zip", stdlib],
        ["pyodide-lock.json", lock],
      ]);
    },
  };
  return shared;
}
