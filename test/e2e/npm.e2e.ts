// npm in the browser runtime, in a real browser: packuments and tarballs fetched by the page from a
// fake registry on 127.0.0.1 (named in .npmrc), progress in the terminal, the hoisted tree, npm run
// with node_modules/.bin on PATH, node requiring what was installed, npx running a bin, and a 404
// and a CORS refusal that leave node_modules as they were.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";
import { startFakeRegistry, type FakeRegistry } from "../support/fake-registry";

const browser = useBrowser();
let registry: FakeRegistry;

beforeAll(async () => {
  registry = await startFakeRegistry();
});
afterAll(async () => {
  registry.noCors = false;
  await registry.close();
});

/** The terminal's text with its line wraps undone (long lines wrap at the terminal's width). */
async function unwrapped(page: Parameters<typeof terminalText>[0]): Promise<string> {
  return (await terminalText(page)).replace(/\n/g, "");
}

describe("npm in the browser runtime", () => {
  it("installs from the registry in .npmrc with progress, lists the hoisted tree, runs scripts, node requires the packages, npx runs a bin; a 404 and a CORS refusal keep node_modules", async () => {
    const { page } = await browser.open();
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, `echo 'registry=${registry.url}' > .npmrc`);
    await runInTerminal(page, `echo '{"name":"demo","version":"1.0.0","scripts":{"hi":"echo hi-from-script && which hello-bin"}}' > package.json`);
    await runInTerminal(page, "npm install app-a app-b hello-bin @fixture/scoped");
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/added 7 packages, audited 7 packages/);
    const installText = await terminalText(page);
    expect(installText).toMatch(/npm: fetched 7\/7 packages/);
    // The page asked the registry itself, in the abbreviated packument form.
    expect(registry.requests.find((r) => r.path === "/app-a")?.accept).toContain("application/vnd.npm.install-v1+json");

    await runInTerminal(page, "npm ls --all");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/├─┬ app-b@1\.0\.0/);
    expect(await terminalText(page)).toMatch(/shared@2\.0\.0/);
    await runInTerminal(page, "cat node_modules/app-b/node_modules/shared/index.js");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain("module.exports = { version: '2.0.0' };");

    await runInTerminal(page, "npm run hi");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/^hi-from-script$/m);
    expect(await terminalText(page)).toMatch(/^\/workspace\/node_modules\/\.bin\/hello-bin$/m);

    // node loads the installed packages (the nested version under app-b), npx runs the bin through node.
    await runInTerminal(page, `node -e "console.log(require('app-b'), require('@fixture/scoped').hello('page'))"`);
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^b uses shared 2\.0\.0 hello page from @fixture\/scoped$/m);
    await runInTerminal(page, "npx hello-bin from npx");
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^hello from hello-bin from npx$/m);

    await runInTerminal(page, "ls node_modules | wc -l > before.txt && npm install no-such-package; echo exit=$?");
    await expect.poll(() => unwrapped(page), { timeout: 15_000 }).toContain("npm error 404 Not Found: no-such-package is not in the registry");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/^exit=1$/m);
    await runInTerminal(page, "ls node_modules | wc -l | diff - before.txt && grep -c no-such package.json; echo same=$?");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/^same=1$/m);

    // A registry that does not allow requests from web pages: the browser refuses, npm says why.
    registry.noCors = true;
    await runInTerminal(page, "clear; npm install cjs-only; echo exit=$?");
    await expect.poll(() => unwrapped(page), { timeout: 15_000 }).toContain("npm error code ENETWORK");
    expect(await unwrapped(page)).toContain("the registry refused a request from this page (CORS)");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/^exit=1$/m);
    await runInTerminal(page, "ls node_modules | wc -l | diff - before.txt && grep -c cjs-only package.json; echo unchanged=$?");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/^unchanged=1$/m);
  });
});
