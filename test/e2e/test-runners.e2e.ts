// Test runners in the browser runtime, in a real browser: mocha from node_modules (its CLI parses
// its options with util.parseArgs, sets describe/it on the global object and runs every hook and
// test through setImmediate), and a program's global names next to the runtime's own bundle.
import { expect, it } from "vitest";
import { installedPackageFiles } from "../support/installed-packages";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";
import { importZip } from "../support/preview-sites";

const browser = useBrowser();

const SPEC = `const assert = require("node:assert");
describe("numbers", () => {
  let seen = 0;
  beforeEach(() => { seen += 1; });
  it("adds", () => assert.strictEqual(1 + 1, 2));
  it("waits", async () => { await new Promise((resolve) => setTimeout(resolve, 5)); assert.strictEqual(seen, 2); });
  it("fails", () => assert.strictEqual(2 * 2, 5));
});
`;

it("a program's globals are its own: names the runtime's minified bundle uses (it, r, et) are free", async () => {
  const { page } = await browser.open("?runtime=browser");
  await waitForWorkbench(page);
  await waitForTerminal(page);
  await runInTerminal(page, `node -e "globalThis.it = () => 'mine'; r = 'set'; console.log('globals', it(), r, typeof et)"`);
  await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^globals mine set undefined$/m);
});

it("npx mocha runs a suite: passing, async and failing tests, hooks, the summary and exit code 1", async () => {
  const { page } = await browser.open("?runtime=browser");
  await waitForWorkbench(page);
  const files: Record<string, string> = {
    ...installedPackageFiles(["mocha"]),
    "node_modules/.bin/mocha": `#!/bin/sh\nnode "$(dirname "$0")/../mocha/bin/mocha.js" "$@"\n`,
    "package.json": JSON.stringify({ name: "suite", private: true, scripts: { test: "mocha" } }),
    "test/numbers.spec.js": SPEC,
  };
  await importZip(page, "suite.zip", Object.entries(files).map(([name, data]) => ({ name, data })));
  await waitForTerminal(page);
  await runInTerminal(page, `npx mocha > out.txt; echo "exit=$?"`);
  await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/^exit=1$/m);
  await runInTerminal(page, `clear; grep -E "passing|failing|AssertionError|at " out.txt`);
  await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/failing/);
  const text = await terminalText(page);
  expect(text).toMatch(/^ {2}2 passing \(\d+ms\)$/m);
  expect(text).toMatch(/^ {2}1 failing$/m);
  expect(text).toMatch(/AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal:/);
  // The failure's stack: the test's line, then the runtime's frames named as Node's internals are.
  expect(text).toMatch(/^ {6}at Context\.\S+ \(test\/numbers\.spec\.js:7:\d+\)$/m);
  expect(text).not.toContain("blob:");
  expect(text).toMatch(/\(node:internal\/webcode-runtime:\d+:\d+\)$/m);
});
