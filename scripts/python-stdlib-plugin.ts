// The build's copy of Pyodide's standard library (python_stdlib.zip) with compiled bytecode beside
// the sources of the modules every python3 start imports. Pyodide ships sources only, so each start
// compiled ~200 modules (asyncio, typing, inspect, pathlib, logging, ...) before the first line ran:
// about 2/3 of its start time (docs/architecture.md "python3 in the browser runtime"). The bytecode
// is made by the same Pyodide (so it fits its CPython exactly), as unchecked hash-based .pyc files
// (PEP 552) next to the .py in the zip, which zipimport loads without compiling; the sources stay for
// tracebacks (a module's __file__ names its .pyc). Written here because no package does this for Pyodide; cached per Pyodide version in
// node_modules/.cache. The dev server and the tests use the zip as shipped.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";

const SHIPPED = "pyodide/python_stdlib.zip";

/** Imports the python3 driver and common `-m` modules make beyond Pyodide's own start. */
const WARM_UP = "import atexit, runpy, traceback, pkgutil, argparse, unittest, doctest, json.tool";

const COMPILE = String.raw`
import sys, io, zipfile, importlib.util, importlib._bootstrap_external as be
${WARM_UP}
ARCHIVE = "/lib/python314.zip"
prefix = ARCHIVE + "/"
wanted = set()
for module in list(sys.modules.values()):
    origin = getattr(getattr(module, "__spec__", None), "origin", None)
    if isinstance(origin, str) and origin.startswith(prefix) and origin.endswith(".py"):
        wanted.add(origin[len(prefix):])
source = zipfile.ZipFile(ARCHIVE)
out = io.BytesIO()
target = zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9)
for info in source.infolist():
    data = source.read(info)
    target.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    if info.filename in wanted:
        code = compile(data, prefix + info.filename, "exec", dont_inherit=True)
        pyc = zipfile.ZipInfo(info.filename[:-3] + ".pyc", info.date_time)
        target.writestr(pyc, bytes(be._code_to_hash_pyc(code, importlib.util.source_hash(data), False)), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
target.close()
open("/tmp/python_stdlib.zip", "wb").write(out.getvalue())
len(wanted)
`;

/** Pyodide's python_stdlib.zip with the bytecode of the modules a python3 start imports. */
export async function stdlibWithBytecode(): Promise<Uint8Array> {
  const { loadPyodide } = await import("pyodide");
  const py = (await loadPyodide()) as unknown as { runPython(code: string): unknown; FS: { readFile(path: string): Uint8Array } };
  py.runPython(COMPILE);
  return py.FS.readFile("/tmp/python_stdlib.zip");
}

async function generate(file: string): Promise<void> {
  const bytes = await stdlibWithBytecode();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.part`, bytes);
  renameSync(`${file}.part`, file);
}

export function pythonStdlibPlugin(root: string): Plugin {
  const require = createRequire(path.join(root, "package.json"));
  const version = (JSON.parse(readFileSync(require.resolve("pyodide/package.json"), "utf8")) as { version: string }).version;
  const file = path.join(root, "node_modules", ".cache", "webcode", `python_stdlib-${version}.zip`);
  return {
    name: "webcode:python-stdlib-bytecode",
    apply: "build",
    enforce: "pre",
    async buildStart() {
      if (!existsSync(file)) await generate(file);
    },
    resolveId(id) {
      const [bare, query] = id.split("?", 2);
      return bare === SHIPPED ? `${file}${query === undefined ? "" : `?${query}`}` : undefined;
    },
  };
}
