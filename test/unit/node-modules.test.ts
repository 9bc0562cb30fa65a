// The browser runtime's node: module resolution and interop as Node does them (CommonJS and ES
// modules both ways, JSON, node_modules packages with exports conditions, subpath patterns, main,
// directory index files, #imports), TypeScript with its types stripped, top-level await.
import { describe, expect, it } from "vitest";
import { runNodeInProcess } from "../support/run-node";

const pkg = (value: object) => JSON.stringify(value);

describe("node modules", () => {
  it("requires CommonJS files, JSON, directory index files and packages through main", async () => {
    const run = await runNodeInProcess(["main.js"], {
      "main.js": "const lib = require('./lib');\nconst data = require('./data.json');\nconst dir = require('./dir');\nconst left = require('left-pad');\nconsole.log(lib.twice(2), data.name, dir, left('x'), require.resolve('left-pad'));",
      "lib.js": "exports.twice = (n) => n * 2;",
      "data.json": '{ "name": "data" }',
      "dir/index.js": "module.exports = 'from-index';",
      "node_modules/left-pad/package.json": pkg({ name: "left-pad", main: "./src/pad.js" }),
      "node_modules/left-pad/src/pad.js": "module.exports = (s) => '>' + s;",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("4 data from-index >x /workspace/node_modules/left-pad/src/pad.js\n");
    expect(run.exitCode).toBe(0);
  });

  it("picks exports conditions: require for require(), import for import, node over default, subpath patterns", async () => {
    const files = {
      "node_modules/dual/package.json": pkg({
        name: "dual",
        exports: {
          ".": { node: { import: "./esm.mjs", require: "./cjs.cjs" }, default: "./browser.js" },
          "./features/*": "./src/features/*.js",
          "./package.json": "./package.json",
        },
      }),
      "node_modules/dual/esm.mjs": "export const kind = 'esm';",
      "node_modules/dual/cjs.cjs": "exports.kind = 'cjs';",
      "node_modules/dual/browser.js": "exports.kind = 'browser';",
      "node_modules/dual/src/features/fast.js": "module.exports = 'fast';",
      "node_modules/dual/src/secret.js": "module.exports = 'secret';",
    };
    const cjs = await runNodeInProcess(["-p", "require('dual').kind + ' ' + require('dual/features/fast')"], files);
    expect(cjs.stdout).toBe("cjs fast\n");
    const esm = await runNodeInProcess(["main.mjs"], { ...files, "main.mjs": "import { kind } from 'dual';\nconsole.log(kind);" });
    expect(esm.stdout).toBe("esm\n");
    const hidden = await runNodeInProcess(["-e", "require('dual/src/secret.js')"], files);
    expect(hidden.exitCode).toBe(1);
    expect(hidden.stderr).toContain("ERR_PACKAGE_PATH_NOT_EXPORTED");
  });

  it("interops as Node: ESM importing CommonJS gets module.exports as default and its names; require(esm) gives the namespace", async () => {
    const run = await runNodeInProcess(["main.mjs"], {
      "main.mjs": [
        "import cjs, { named } from './lib.cjs';",
        "import transpiled from './transpiled.cjs';",
        "import * as ns from './lib.cjs';",
        "const { fromEsm } = await import('./bridge.cjs');",
        "console.log(typeof cjs, cjs.named, named, typeof transpiled, transpiled.default, Object.keys(ns).sort().join(','), fromEsm);",
      ].join("\n"),
      "lib.cjs": "module.exports = function main() {}; module.exports.named = 'n';",
      "transpiled.cjs": "Object.defineProperty(exports, '__esModule', { value: true }); exports.default = 'inner';",
      "bridge.cjs": "const esm = require('./esm.mjs'); exports.fromEsm = esm.default + '+' + esm.extra;",
      "esm.mjs": "export default 'esm-default'; export const extra = 'x';",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("function n n object inner default,named esm-default+x\n");
  });

  it("follows the package type: .js is an ES module under type module, and ES syntax is detected without one", async () => {
    const run = await runNodeInProcess(["app/main.js"], {
      "app/package.json": pkg({ type: "module" }),
      "app/main.js": "import { v } from './dep.js';\nimport plain from '../plain.js';\nconsole.log(v, plain, typeof require, import.meta.url);",
      "app/dep.js": "export const v = 'module';",
      "plain.js": "export default 'detected';",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("module detected undefined file:///workspace/app/main.js\n");
  });

  it("evaluates static imports in order and waits for a dependency's top-level await", async () => {
    const run = await runNodeInProcess(["main.mjs"], {
      "main.mjs": "import './a.mjs';\nimport { value } from './slow.mjs';\nimport './b.mjs';\nconsole.log('main', value);",
      "a.mjs": "console.log('a');",
      "slow.mjs": "console.log('slow start');\nexport const value = await new Promise((resolve) => setTimeout(() => resolve(42), 20));\nconsole.log('slow end');",
      "b.mjs": "console.log('b');",
    });
    expect(run.stdout).toBe("a\nslow start\nslow end\nb\nmain 42\n");
  });

  it("runs TypeScript with types stripped and line numbers kept, importing .ts through .js specifiers", async () => {
    const run = await runNodeInProcess(["src/main.ts"], {
      "src/main.ts": [
        "import { area, type Shape } from './shapes.js';",
        "interface Box { w: number; h: number }",
        "const box: Box = { w: 2, h: 3 };",
        "const shape: Shape = { kind: 'box', ...box };",
        "console.log(area(shape));",
        "function fail(message: string): never {",
        "  throw new Error(message);",
        "}",
        "fail('typed failure');",
      ].join("\n"),
      "src/shapes.ts": "export type Shape = { kind: 'box'; w: number; h: number };\nexport function area(shape: Shape): number {\n  return shape.w * shape.h;\n}",
    });
    expect(run.stdout).toBe("6\n");
    expect(run.exitCode).toBe(1);
    // An ES module's header names it by its file URL, as its stack does (Node's too).
    expect(run.stderr).toMatch(/^file:\/\/\/workspace\/src\/main\.ts:7\n {2}throw new Error\(message\);\n/);
    expect(run.stderr).toContain("Error: typed failure\n    at fail (file:///workspace/src/main.ts:7:");
    expect(run.stderr).toMatch(/\n\nNode\.js v22\.\d+\.\d+\n$/);
  });

  it("resolves #imports and a package's own name, and says which module is missing", async () => {
    const files = {
      "package.json": pkg({ name: "self", exports: { ".": "./index.js" }, imports: { "#util": "./util.js" } }),
      "index.js": "module.exports = require('#util');",
      "util.js": "module.exports = 'util';",
    };
    expect((await runNodeInProcess(["-p", "require('self')"], files)).stdout).toBe("util\n");
    const missing = await runNodeInProcess(["main.js"], { ...files, "main.js": "require('./nope');" });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("Error: Cannot find module './nope'\nRequire stack:\n- /workspace/main.js");
    expect(missing.stderr).toContain("code: 'MODULE_NOT_FOUND'");
  });

  it("strips a package bin's hashbang and reports a syntax error at its line", async () => {
    const ok = await runNodeInProcess(["bin.js"], { "bin.js": "#!/usr/bin/env node\nconsole.log('bin ran');" });
    expect(ok.stdout).toBe("bin ran\n");
    const broken = await runNodeInProcess(["broken.js"], { "broken.js": "const a = 1;\nconst b = ;\n" });
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr).toMatch(/^\/workspace\/broken\.js:2\nconst b = ;\n {10}\^\n\nSyntaxError/);
  });
});
