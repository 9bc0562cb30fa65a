// The build's python_stdlib.zip (scripts/python-stdlib-plugin.ts): Pyodide loads the modules of its
// start from the bytecode beside their sources, other modules from source, and tracebacks through
// the standard library still name the source file and show its lines.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { loadPyodide } from "pyodide";
import { stdlibWithBytecode } from "../../scripts/python-stdlib-plugin";

const dir = mkdtempSync(path.join(tmpdir(), "webcode-stdlib-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("holds bytecode for the start's modules that Pyodide uses, with sources for tracebacks", async () => {
  const shipped = path.dirname(createRequire(import.meta.url).resolve("pyodide/package.json"));
  for (const name of readdirSync(shipped)) copyFileSync(path.join(shipped, name), path.join(dir, name));
  writeFileSync(path.join(dir, "python_stdlib.zip"), await stdlibWithBytecode());
  const py = await loadPyodide({ indexURL: `${dir}/` });
  const answer = py.runPython(String.raw`
import asyncio, json, re, traceback, fractions
try:
    json.loads("{")
except ValueError as e:
    text = "".join(traceback.format_exception(e))
"|".join([asyncio.__file__, json.__file__, fractions.__file__, str("json/decoder.py" in text), str(bool(re.search(r'decoder\.py", line \d+, in \w+\n +\S', text)))])
`) as string;
  expect(answer.split("|")).toEqual([
    "/lib/python314.zip/asyncio/__init__.pyc",
    "/lib/python314.zip/json/__init__.pyc",
    "/lib/python314.zip/fractions.py",
    "True",
    "True",
  ]);
}, 120_000);
