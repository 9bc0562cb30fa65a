// The program workers (node's, python3's) are minified; what they print must still name classes as
// Node does. With the worker build's output options (vite.config.ts), a minified class keeps its
// name; without them it printed as "ih [Error]: …" (issue 28 point 3).
import { build } from "rolldown";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import viteConfig from "../../vite.config";

async function workerOutputOptions(): Promise<Record<string, unknown>> {
  const config = typeof viteConfig === "function" ? await viteConfig({ mode: "production", command: "build" }) : await viteConfig;
  return (config.worker?.rolldownOptions as { output?: Record<string, unknown> } | undefined)?.output ?? {};
}

describe("the worker build", () => {
  it("keeps class and function names through minification", async () => {
    const options = await workerOutputOptions();
    expect(options.keepNames).toBe(true);
    const folder = mkdtempSync(path.join(tmpdir(), "webcode-names-"));
    try {
      const input = path.join(folder, "program.js");
      writeFileSync(input, "class SandboxFsError extends Error {}\nfunction thrower() { throw new SandboxFsError('x'); }\ntry { thrower(); } catch (error) { globalThis.seen = [error.constructor.name, thrower.name]; }\n");
      const bundle = await build({ input, write: false, logLevel: "silent", output: { ...options, format: "iife", minify: true } });
      const scope: { seen?: string[] } = {};
      new Function("globalThis", bundle.output[0].code)(scope);
      expect(scope.seen).toEqual(["SandboxFsError", "thrower"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
