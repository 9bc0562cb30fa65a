// Native packages in the browser runtime's node: a package that asks for its native build for the
// platform (a platform package, a .node file) gets the published WebAssembly build in its place when
// that is installed; without one, the load fails with one line naming the package and WebContainer.
import { describe, expect, it } from "vitest";
import { wasmSubstituteFor } from "../../src/runtime/node/native-substitutes";
import { installedPackages } from "../support/preview-sites";
import { runNodeInProcess } from "../support/run-node";

const pkg = (value: object) => JSON.stringify(value);
const NATIVE_BYTES = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]);

// A napi-rs package as napi-rs generates its loader: the platform package, then the local .node
// file, then the wasm32-wasi package; the first that loads wins.
const napiPackage = {
  "node_modules/fastlib/package.json": pkg({ name: "fastlib", version: "1.0.0", main: "index.js" }),
  "node_modules/fastlib/index.js": [
    "const target = `${process.platform}-${process.arch}-gnu`;",
    "const errors = [];",
    "let binding;",
    "for (const id of [`fastlib-${target}`, `./fastlib.${target}.node`]) {",
    "  try { binding = require(id); break; } catch (error) { errors.push(error); }",
    "}",
    "if (!binding) { const error = new Error('Cannot find native binding'); error.cause = errors; throw error; }",
    "module.exports = binding;",
  ].join("\n"),
  "node_modules/fastlib/fastlib.linux-x64-gnu.node": NATIVE_BYTES,
};
const wasmSibling = {
  "node_modules/fastlib-wasm32-wasi/package.json": pkg({ name: "fastlib-wasm32-wasi", version: "1.0.0", cpu: ["wasm32"], main: "fastlib.wasi.cjs" }),
  "node_modules/fastlib-wasm32-wasi/fastlib.wasi.cjs": "exports.kind = 'wasm'; exports.add = (a, b) => a + b;",
};

describe("native packages in node", () => {
  it("knows which wasm build stands in for which native package", () => {
    expect(wasmSubstituteFor("@rolldown/binding-linux-x64-gnu")).toEqual({ wasmPackage: "@rolldown/binding-wasm32-wasi", specifier: "@rolldown/binding-wasm32-wasi", added: false });
    expect(wasmSubstituteFor("@tailwindcss/oxide-darwin-arm64")?.wasmPackage).toBe("@tailwindcss/oxide-wasm32-wasi");
    expect(wasmSubstituteFor("lightningcss-linux-x64-musl")).toEqual({ wasmPackage: "lightningcss-wasm", specifier: "lightningcss-wasm", added: true });
    expect(wasmSubstituteFor("@rollup/rollup-win32-x64-msvc")).toEqual({ wasmPackage: "@rollup/wasm-node", specifier: "@rollup/wasm-node/dist/native.js", added: true });
    expect(wasmSubstituteFor("@rolldown/binding-wasm32-wasi")).toBeUndefined();
    expect(wasmSubstituteFor("left-pad")).toBeUndefined();
    expect(wasmSubstituteFor("@esbuild/linux-x64")).toBeUndefined();
  });

  it("resolves the platform package to its installed wasm32-wasi build, for require and import", async () => {
    const files = { ...napiPackage, ...wasmSibling, "main.mjs": "import fast from 'fastlib-linux-x64-gnu';\nconsole.log(fast.kind, fast.add(2, 3));" };
    const required = await runNodeInProcess(["-p", "const f = require('fastlib'); f.kind + ' ' + f.add(1, 2) + ' ' + require.resolve('fastlib-linux-x64-gnu')"], files);
    expect(required.stderr).toBe("");
    expect(required.stdout).toBe("wasm 3 /workspace/node_modules/fastlib-wasm32-wasi/fastlib.wasi.cjs\n");
    const imported = await runNodeInProcess(["main.mjs"], files);
    expect(imported.stderr).toBe("");
    expect(imported.stdout).toBe("wasm 5\n");
  });

  it("refuses a .node file in one line naming its package and WebContainer (Node's ERR_DLOPEN_FAILED)", async () => {
    const run = await runNodeInProcess(["-e", "try { require('fastlib') } catch (e) { for (const c of e.cause) console.log(c.code + ': ' + c.message.split('\\n').slice(0, 2).join(' | ')) }"], napiPackage);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      "MODULE_NOT_FOUND: Cannot find module 'fastlib-linux-x64-gnu' | (a native build, which the browser runtime cannot run; its WebAssembly build fastlib-wasm32-wasi is not installed: npm install it, or run this project with WebContainer)\n" +
        "ERR_DLOPEN_FAILED: fastlib needs its native module fastlib.linux-x64-gnu.node, and the browser runtime runs no native code; run this project with WebContainer.\n",
    );
    const direct = await runNodeInProcess(["-e", "require('fastlib/fastlib.linux-x64-gnu.node')"], napiPackage);
    expect(direct.exitCode).toBe(1);
    expect(direct.stderr).toContain("Error: fastlib needs its native module fastlib.linux-x64-gnu.node, and the browser runtime runs no native code; run this project with WebContainer.\n");
  });

  it("an installed native platform package is still not loaded when its wasm build is there", async () => {
    const files = {
      ...wasmSibling,
      "node_modules/fastlib-linux-x64-gnu/package.json": pkg({ name: "fastlib-linux-x64-gnu", main: "fastlib.linux-x64-gnu.node", os: ["linux"], cpu: ["x64"] }),
      "node_modules/fastlib-linux-x64-gnu/fastlib.linux-x64-gnu.node": NATIVE_BYTES,
    };
    const run = await runNodeInProcess(["-p", "require('fastlib-linux-x64-gnu').kind"], files);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("wasm\n");
  });

  it("Lightning CSS's platform package becomes lightningcss-wasm, Rollup's becomes @rollup/wasm-node's native.js", async () => {
    const files = {
      "node_modules/lightningcss-wasm/package.json": pkg({
        name: "lightningcss-wasm",
        exports: { ".": { node: { import: "./wasm-node.mjs", require: "./wasm-node.cjs" }, default: { import: "./index.mjs", require: "./index.cjs" } } },
      }),
      "node_modules/lightningcss-wasm/wasm-node.cjs": "exports.transform = () => 'lightningcss-wasm node build';",
      "node_modules/@rollup/wasm-node/package.json": pkg({ name: "@rollup/wasm-node", exports: { ".": "./dist/rollup.js", "./dist/*": "./dist/*" } }),
      "node_modules/@rollup/wasm-node/dist/native.js": "exports.parse = () => 'rollup wasm parse';",
    };
    const run = await runNodeInProcess(["-p", "require('lightningcss-linux-x64-gnu').transform() + ', ' + require('@rollup/rollup-linux-x64-gnu').parse()"], files);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("lightningcss-wasm node build, rollup wasm parse\n");
  });

  it("the real rollup bundles with its native build replaced by @rollup/wasm-node (installed beside it, as npm leaves them on Linux x64)", async () => {
    const files: Record<string, Uint8Array | string> = {};
    for (const entry of installedPackages(["rollup", "@rollup/wasm-node", "@rollup/rollup-linux-x64-gnu"], "w")) files[entry.name.slice("w/".length)] = entry.data ?? "";
    expect(Object.keys(files)).toContain("node_modules/@rollup/wasm-node/dist/wasm-node/bindings_wasm_bg.wasm");
    Object.assign(files, {
      "src/main.js": "import { twice } from './lib.js';\nconsole.log(twice(21));\n",
      "src/lib.js": "export const twice = (n) => n * 2;\nexport const unused = () => 'tree-shaken';\n",
      "build.mjs": [
        "import { rollup } from 'rollup';",
        "import { readFileSync } from 'node:fs';",
        "import { createRequire } from 'node:module';",
        "const bundle = await rollup({ input: 'src/main.js' });",
        "await bundle.write({ file: 'dist/out.js', format: 'es' });",
        "process.stdout.write(readFileSync('dist/out.js', 'utf8'));",
        "console.log(createRequire(import.meta.url).resolve('@rollup/rollup-linux-x64-gnu'));",
      ].join("\n"),
    });
    const run = await runNodeInProcess(["build.mjs"], files);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("const twice = (n) => n * 2;\n\nconsole.log(twice(21));\n/workspace/node_modules/@rollup/wasm-node/dist/native.js\n");
    expect(run.exitCode).toBe(0);
  }, 30_000);
});
