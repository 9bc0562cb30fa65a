// npm and node together in the browser runtime: packages installed from the fake registry are
// loaded by node (the hoisted layout, a nested version, a scoped package, an exports map, ESM-only
// and CJS-only packages), npx runs an installed bin through node, and npm test runs node --test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { SandboxHost } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { startFakeRegistry, type FakeRegistry } from "../support/fake-registry";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";

let registry: FakeRegistry;
let counter = 0;

beforeAll(async () => {
  registry = await startFakeRegistry();
});
afterAll(async () => {
  await registry.close();
});

async function setup(packageJson: Record<string, unknown>) {
  const storage = await openStorage({ name: `npm-node-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  await files.writeFile(".npmrc", `registry=${registry.url}\n`);
  await files.writeFile("package.json", JSON.stringify(packageJson));
  const runtime = createBrowserRuntime(files, { node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false }) });
  return { files, runtime };
}

describe("npm install, then node", () => {
  it("node loads what npm installed: hoisted, nested, scoped, exports map, ESM-only and CJS-only", async () => {
    const { files, runtime } = await setup({
      name: "demo",
      dependencies: { "app-a": "^1.0.0", "app-b": "^1.0.0", "@fixture/scoped": "^1.0.0", "exports-map": "1.0.0", "esm-only": "1.0.0", "cjs-only": "1.0.0" },
    });
    const installed = await runtime.exec("npm install");
    expect(installed.exitCode, installed.output).toBe(0);
    const required = await runtime.exec(
      `node -e "console.log(require('app-a')); console.log(require('app-b')); console.log(require('@fixture/scoped').hello('you')); console.log(require('exports-map').kind, require('exports-map/feature')); console.log(require('cjs-only')())"`,
    );
    expect(required.output).toBe("a uses shared 1.1.0\nb uses shared 2.0.0\nhello you from @fixture/scoped\ncjs feature\ncjs-only\n");
    expect(required.exitCode).toBe(0);
    await files.writeFile("main.mjs", "import greet from 'esm-only';\nimport { kind } from 'exports-map';\nimport scoped from '@fixture/scoped';\nconsole.log(greet(), kind, scoped.hello('esm'));\n");
    const imported = await runtime.exec("node main.mjs");
    expect(imported.output).toBe("esm-only esm hello esm from @fixture/scoped\n");
  });

  it("npx runs an installed bin through node, with its arguments", async () => {
    const { runtime } = await setup({ name: "demo", devDependencies: { "hello-bin": "1.0.0" } });
    expect((await runtime.exec("npm install")).exitCode).toBe(0);
    const npx = await runtime.exec("npx hello-bin one 'two three'");
    expect(npx.output).toBe("hello from hello-bin one two three\n");
    expect(npx.exitCode).toBe(0);
  });

  it("npm test runs node --test and returns its exit code", async () => {
    const { files, runtime } = await setup({ name: "demo", scripts: { test: "node --test" } });
    await files.writeFile("test/answer.test.js", "const test = require('node:test');\nconst assert = require('node:assert');\ntest('answer', () => assert.strictEqual(require('../answer.js'), 42));\n");
    await files.writeFile("answer.js", "module.exports = 41;\n");
    const failing = await runtime.exec("npm test");
    expect(failing.exitCode).toBe(1);
    expect(failing.output).toMatch(/not ok 1 - answer|✖ answer/);
    await files.writeFile("answer.js", "module.exports = 42;\n");
    const passing = await runtime.exec("npm test");
    expect(passing.exitCode, passing.output).toBe(0);
    expect(passing.output).toMatch(/pass 1/);
  });
});
