// A real TypeScript compiler (this repository's own node_modules/typescript, packed for the fake
// registry) installed by npm and run by the browser runtime's node: `npm run build` with
// "build": "tsc --noEmit" reports type errors as file(line,col) with exit code 2 and passes with 0
// once they are fixed, and `npx tsc` writes the JavaScript. TypeScript's lib/_tsc.js declares no
// "type" and quotes import syntax in its messages: it must load as CommonJS, with its optional
// require of source-map-support left to run time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { SandboxHost } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { startFakeRegistry, type FakeRegistry } from "../support/fake-registry";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";
import { typescriptFixture } from "../support/typescript-fixture";

let registry: FakeRegistry;
beforeAll(async () => {
  registry = await startFakeRegistry([typescriptFixture()]);
}, 60_000);
afterAll(async () => {
  await registry.close();
});

describe("tsc in the browser runtime", () => {
  it("npm run build (tsc --noEmit) fails with the type errors and exit code 2, passes once fixed, and npx tsc emits JavaScript", async () => {
    const storage = await openStorage({ name: `node-tsc-${Date.now()}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    await files.writeFile(".npmrc", `registry=${registry.url}\n`);
    await files.writeFile("package.json", JSON.stringify({ name: "typed", version: "1.0.0", scripts: { build: "tsc --noEmit" } }));
    await files.writeFile("tsconfig.json", JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "nodenext", rootDir: "src", outDir: "dist" }, include: ["src"] }));
    await files.writeFile("src/a.ts", "import { b } from './b.js';\nexport const a: number = b + 1;\n");
    await files.writeFile("src/b.ts", "export const b: number = 'two';\n");
    await files.writeFile("src/c.ts", "export function c(x: string): number {\n  return x.length;\n}\n");
    const runtime = createBrowserRuntime(files, { node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false }) });
    try {
      const missing = await runtime.exec("tsc --noEmit");
      expect(missing.output).toBe("tsc is not installed in this project: install it with npm install -D typescript, then run npx tsc or an npm script.\n");
      expect(missing.exitCode).toBe(127);
      const installed = await runtime.exec("npm install -D typescript");
      expect(installed.exitCode, installed.output).toBe(0);

      let started = Date.now();
      const failing = await runtime.exec("npm run build");
      console.log(`tsc --noEmit on 3 files, in-process: ${Date.now() - started} ms`);
      expect(failing.output).toContain("src/b.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.");
      expect(failing.output).not.toContain("source-map-support");
      expect(failing.exitCode).toBe(2);

      await files.writeFile("src/b.ts", "export const b: number = 2;\n");
      const passing = await runtime.exec("npm run build");
      expect(passing.output).toBe("\n> typed@1.0.0 build\n> tsc --noEmit\n\n");
      expect(passing.exitCode).toBe(0);

      started = Date.now();
      const emitted = await runtime.exec("npx tsc");
      console.log(`tsc emitting 3 files, in-process: ${Date.now() - started} ms`);
      expect(emitted.output).toBe("");
      expect(emitted.exitCode).toBe(0);
      // module "nodenext" in a package without "type": "module" emits CommonJS, as tsc does under Node.
      expect(files.readSync("dist/c.js")).toContain("exports.c = c;\nfunction c(x) {\n    return x.length;\n}\n");
      expect(files.readSync("dist/a.js")).toContain("exports.a = b_js_1.b + 1;");
      const ran = await runtime.exec("node -p \"require('./dist/a.js').a\"");
      expect(ran.output).toBe("3\n");
    } finally {
      runtime.dispose();
      files.dispose();
    }
  }, 180_000);
});
