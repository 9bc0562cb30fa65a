// What the node runtime compiles is kept on the page between runs (every run is a fresh worker):
// the worker reuses an entry only for the same source text, and an edited file is compiled anew.
import { describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { CompiledStore } from "../../src/runtime/node/compiled-store";
import { TransformCache } from "../../src/runtime/node/transform-cache";
import { SandboxHost, type RunMessage } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";

describe("TransformCache (worker side)", () => {
  it("reuses an entry for the same source only, keeps what it compiled anew, and leaves plain CommonJS out", () => {
    const first = new TransformCache();
    const esm = first.transform("import x from './x.js';\nexport const y = x + 1;\n", "/workspace/a.mjs", "module");
    expect(esm.imports).toEqual(["./x.js"]);
    first.transform("const a: number = 1;\nmodule.exports = a;\n", "/workspace/b.ts", "commonjs");
    first.transform("module.exports = 1;\n", "/workspace/c.js", "commonjs");
    const added = first.takeAdded();
    expect(added.map(([key]) => key)).toEqual(["module:/workspace/a.mjs", "commonjs:/workspace/b.ts"]);
    expect(first.takeAdded()).toEqual([]);

    // A later run with the page's entries: a forged entry for the same key but another source is not used.
    const entries = added.map(([key, entry]) => [key, key.endsWith("b.ts") ? { ...entry, code: "FORGED" } : entry] as (typeof added)[number]);
    const second = new TransformCache(entries);
    expect(second.transform("import x from './x.js';\nexport const y = x + 1;\n", "/workspace/a.mjs", "module")).toEqual(esm);
    expect(second.transform("const a: number = 1;\nmodule.exports = a;\n", "/workspace/b.ts", "commonjs").code).toBe("FORGED");
    expect(second.takeAdded()).toEqual([]);
    const edited = second.transform("const a: number = 2;\nmodule.exports = a;\n", "/workspace/b.ts", "commonjs");
    expect(edited.code).toContain("const a = 2;");
    expect(second.takeAdded().map(([key]) => key)).toEqual(["commonjs:/workspace/b.ts"]);
  });
});

describe("CompiledStore (page side)", () => {
  it("replaces an entry of the same key and drops the oldest past its size", () => {
    const store = new CompiledStore(30);
    const entry = (text: string) => ({ source: text, code: text, imports: [] });
    store.add([["a", entry("aaaaa")], ["b", entry("bbbbb")]]);
    store.add([["a", entry("AAAAA")]]);
    expect(store.all().map(([key, e]) => `${key}=${e.source}`)).toEqual(["b=bbbbb", "a=AAAAA"]);
    store.add([["c", entry("ccccccc")]]);
    expect(store.all().map(([key]) => key)).toEqual(["a", "c"]);
    store.add([["huge", entry("x".repeat(40))]]);
    expect(store.all().map(([key]) => key)).toEqual(["a", "c"]);
  });
});

describe("node runs hand their compiled code to the next run", () => {
  it("the second run gets the first run's ES module and TypeScript compiled; an edit is compiled anew", async () => {
    const storage = await openStorage({ name: `node-compiled-${Date.now()}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    const sent: RunMessage[] = [];
    const host = new SandboxHost(inProcessNodeEndpoint, { keepSpare: false });
    const run = host.run.bind(host);
    host.run = (message, options) => {
      sent.push(message);
      return run(message, options);
    };
    const runtime = createBrowserRuntime(files, { node: host });
    try {
      await files.writeFile("lib.ts", "export const twice = (n: number): number => n * 2;\n");
      await files.writeFile("main.mjs", "import { twice } from './lib.ts';\nconsole.log('twice', twice(21));\n");
      expect((await runtime.exec("node main.mjs")).output).toBe("twice 42\n");
      expect(sent[0]!.compiled).toEqual([]);
      expect((await runtime.exec("node main.mjs")).output).toBe("twice 42\n");
      // lib.ts has no declared format: it is compiled as CommonJS first, which fails on `export` (Node 22's detection), then as a module.
      expect(sent[1]!.compiled!.map(([key]) => key).sort()).toEqual(["commonjs:/workspace/lib.ts", "module:/workspace/lib.ts", "module:/workspace/main.mjs"]);
      await files.writeFile("lib.ts", "export const twice = (n: number): number => n * 3;\n");
      expect((await runtime.exec("node main.mjs")).output).toBe("twice 63\n");
    } finally {
      files.dispose();
    }
  });
});
