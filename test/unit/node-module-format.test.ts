// Which files the browser runtime's node runs as CommonJS and which as ES modules, as Node 22 decides:
// .cjs/.cts CommonJS, .mjs/.mts ES modules, .js/.ts by the nearest package.json "type", and a file
// nothing declares is CommonJS unless it fails to compile as CommonJS for ES module syntax.
import { describe, expect, it } from "vitest";
import { runNodeInProcess } from "../support/run-node";

/** Prints how the module runs: CommonJS has a `module` object, an ES module has none. */
const KIND = "console.log(require('path').basename(__filename), typeof module === 'object' ? 'commonjs' : 'module');";
const ESM_KIND = "console.log(import.meta.filename.split('/').pop(), typeof module === 'object' ? 'commonjs' : 'module');";

describe("node module format", () => {
  it("runs .cjs as CommonJS and .mjs as an ES module whatever package.json says", async () => {
    const files = {
      "package.json": JSON.stringify({ type: "module" }),
      "a.cjs": KIND,
      "b.mjs": ESM_KIND,
      "main.cjs": "require('./a.cjs'); import('./b.mjs');",
    };
    const run = await runNodeInProcess(["main.cjs"], files);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("a.cjs commonjs\nb.mjs module\n");
  });

  it("an ES module whose side-effect import of a built-in comes before a default import runs (the shape of Vite's bundled config)", async () => {
    // Sucrase puts its interop helper on the first line, right before the side-effect import's
    // require('node:module'): that call was left as require, which an ES module does not have.
    const files = {
      "node_modules/@vitejs/plugin-react/package.json": JSON.stringify({ name: "@vitejs/plugin-react", type: "module", exports: "./index.js" }),
      "node_modules/@vitejs/plugin-react/index.js": "export default function react() { return 'react plugin'; }\n",
      "vite.config.ts.timestamp-1-2.mjs": [
        'import "node:module";',
        'import react from "file:///workspace/node_modules/%40vitejs/plugin-react/index.js";',
        "var vite_config_default = { plugins: [react()] };",
        "export { vite_config_default as default };",
        "",
      ].join("\n"),
      "main.mjs": "console.log((await import('./vite.config.ts.timestamp-1-2.mjs')).default.plugins);",
    };
    const run = await runNodeInProcess(["main.mjs"], files);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("[ 'react plugin' ]\n");
    expect(run.exitCode).toBe(0);
  });

  it("leaves `}require('…')` in a module's own code as written (rollup writes CommonJS through such templates)", async () => {
    const files = {
      "gen.mjs": "import path from 'node:path';\nconst id = path.basename('/x/dep.js');\nconst code = `${';'}require('${id}')`;\nconsole.log(code, `{}require('other')`);\n",
    };
    const run = await runNodeInProcess(["gen.mjs"], files);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(";require('dep.js') {}require('other')\n");
  });

  it("exports under string names (ES2022: @vitejs/plugin-react's `as \"module.exports\"`), re-exports too", async () => {
    const files = {
      "m.mjs": 'const plugin = () => "plugin";\nconst forCjs = () => "for cjs";\nexport { plugin as default, forCjs as "module.exports", plugin as "x-y" };\nexport { q as "r s" } from "./q.mjs";\n',
      "q.mjs": "export const q = 'q';\n",
      "main.mjs": "import plugin, * as ns from './m.mjs';\nconsole.log(plugin(), ns['module.exports'](), ns['x-y'] === plugin, ns['r s']);\n",
    };
    const run = await runNodeInProcess(["main.mjs"], files);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("plugin for cjs true q\n");
  });

  it("import() in -e and -p code loads through the runtime's loader, resolved from the working folder as Node does", async () => {
    const files = {
      "node_modules/dep/package.json": JSON.stringify({ name: "dep", type: "module", exports: "./index.js" }),
      "node_modules/dep/index.js": "export const version = '1.2.3';\n",
      "m.mjs": "export const x = 'from m';\n",
    };
    const run = await runNodeInProcess(["-e", "import('dep').then((d) => console.log(d.version)); import('./m.mjs').then((m) => console.log(m.x))"], files);
    expect(run.stderr).toBe("");
    expect(run.stdout.split("\n").sort()).toEqual(["", "1.2.3", "from m"]);
    const printed = await runNodeInProcess(["-p", "typeof import('./m.mjs').then"], files);
    expect(printed.stdout).toBe("function\n");
  });

    it("follows the nearest package.json type for .js: module, commonjs, and a nested package overriding its parent", async () => {
    const run = await runNodeInProcess(["main.cjs"], {
      "main.cjs": "import('./esm/a.js').then(() => require('./esm/nested/b.js'));",
      "esm/package.json": JSON.stringify({ type: "module" }),
      "esm/a.js": "console.log('a.js', typeof module === 'object' ? 'commonjs' : 'module');",
      "esm/nested/package.json": JSON.stringify({ name: "nested", type: "commonjs" }),
      "esm/nested/b.js": KIND,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("a.js module\nb.js commonjs\n");
  });

  it("keeps a .js file CommonJS when import/export only appear in strings, comments and templates, and requires optional modules lazily", async () => {
    // The shape of TypeScript's lib/_tsc.js: no "type", ES-looking lines inside a template, and an
    // optional require of source-map-support in a try block that must not be resolved at load.
    const run = await runNodeInProcess(["node_modules/tool/lib/tool.js"], {
      "node_modules/tool/package.json": JSON.stringify({ name: "tool", main: "./lib/tool.js" }),
      "node_modules/tool/lib/tool.js": [
        "const help = `",
        "import x from 'y';",
        "export default x;",
        "`;",
        "// export const nothing = 1;",
        "function tryMaps() {",
        "  try {",
        "    require('source-map-support').install();",
        "    return 'installed';",
        "  } catch {",
        "    return 'no source maps';",
        "  }",
        "}",
        KIND,
        "console.log(tryMaps(), help.split('\\n').length);",
      ].join("\n"),
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("tool.js commonjs\nno source maps 4\n");
    expect(run.exitCode).toBe(0);
  });

  it("detects ES module syntax in a .js file nothing declares: import/export statements, import.meta, top-level await, a declared require", async () => {
    const run = await runNodeInProcess(["main.js"], {
      "main.js": "import { a } from './a.js';\nimport './b.js';\nimport './c.js';\nimport './d.js';\nconsole.log('main', a, typeof module);",
      "a.js": "export const a = 1;",
      "b.js": "console.log('b', import.meta.url.endsWith('/b.js'));",
      "c.js": "await Promise.resolve();\nconsole.log('c awaited');",
      "d.js": "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nconsole.log('d', typeof require('./a.js'));",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("b true\nc awaited\nd object\nmain 1 undefined\n");
  });

  it("leaves import( and import.meta inside strings, templates and regular expressions as written, and still runs real import() calls", async () => {
    const source = [
      "const quoted = [\"use an 'import(\\\"x\\\")' call\", `import.meta is ${'ESM'} only`, /import\\(/.source];",
      "console.log(quoted.join(' | '));",
    ].join("\n");
    const run = await runNodeInProcess(["main.cjs"], {
      "main.cjs": `${source}\nimport('./esm.mjs').then((m) => console.log(m.where));`,
      "esm.mjs": `${source}\nexport const where = import.meta.url.split('/').pop();`,
    });
    expect(run.stderr).toBe("");
    const line = "use an 'import(\"x\")' call | import.meta is ESM only | import\\(";
    expect(run.stdout).toBe(`${line}\n${line}\nesm.mjs\n`);
  });

  it("reports ES syntax in a package that declares commonjs as Node does, and a plain syntax error with its file", async () => {
    const declared = await runNodeInProcess(["main.js"], { "package.json": JSON.stringify({ type: "commonjs" }), "main.js": "import fs from 'fs';\nconsole.log(fs);" });
    expect(declared.exitCode).toBe(1);
    expect(declared.stderr).toContain("SyntaxError: Cannot use import statement outside a module");
    const broken = await runNodeInProcess(["main.js"], { "main.js": "const x = ;" });
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr).toContain("/workspace/main.js:1");
    expect(broken.stderr).toContain("SyntaxError");
  });

  it("lets a module declare the names of Node's globals (process, Buffer) as in Node", async () => {
    const cjs = await runNodeInProcess(["main.js"], {
      "main.js": "const process = require('process');\nconst { Buffer } = require('buffer');\nconsole.log(typeof process.cwd, Buffer.from('hi').length);",
    });
    expect(cjs.stderr).toBe("");
    expect(cjs.stdout).toBe("function 2\n");
    const esm = await runNodeInProcess(["main.mjs"], { "main.mjs": "import process from 'node:process';\nconst Buffer = 'own';\nconsole.log(typeof process.exit, Buffer);" });
    expect(esm.stderr).toBe("");
    expect(esm.stdout).toBe("function own\n");
    const evaluated = await runNodeInProcess(["-e", "const process = require('process'); console.log(process.argv.length)"]);
    expect(evaluated.stdout).toBe("1\n");
  });
});
