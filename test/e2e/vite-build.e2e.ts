// Issue 29 point 3: `vite build` of the Vite React + TypeScript starter in the browser runtime, end
// to end, on the plain URL. `npm install` from a fake registry serving the real packages installed in
// this repository (vite 8, @vitejs/plugin-react, react, typescript …) and the WebAssembly builds
// npm installs for `--cpu=wasm32` (Rolldown's, Lightning CSS's: test/fixtures/wasm-builds); then
// `npm run build` (= `tsc -b && vite build`) in the terminal writes dist/, and `npx vite preview`
// shows the built app in the Preview. The same starter built by the machine's Node (native Rolldown)
// gives the same dist file list.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInTerminal, runToExit, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";
import { startFakeRegistry, type FakeRegistry } from "../support/fake-registry";
import { installedRegistryFixtures } from "../support/installed-packages";
import { importZip } from "../support/preview-sites";
import { shellEnvironment, STARTER_PACKAGES, viteReactTsStarter, writeNativeStarter } from "../support/vite-react-ts-starter";

const browser = useBrowser();
let registry: FakeRegistry;
let native: { files: string[]; ms: number; output: string };
let nativeDir: string;

/** dist's files, sorted, with the content hashes of the assets' names made neutral. */
function neutral(files: string[]): string[] {
  return files.map((file) => file.replace(/-[A-Za-z0-9_-]{8}\.(js|css|svg)$/, "-HASH.$1")).sort();
}

function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

beforeAll(async () => {
  // The machine's Node builds the same starter with the same packages (its native Rolldown binding).
  nativeDir = mkdtempSync(path.join(tmpdir(), "webcode-vite-build-"));
  writeNativeStarter(nativeDir);
  const started = Date.now();
  const build = spawnSync("npm", ["run", "build"], { cwd: nativeDir, encoding: "utf8", env: shellEnvironment() });
  native = { files: listFiles(path.join(nativeDir, "dist")), ms: Date.now() - started, output: build.stdout + build.stderr };
  expect(build.status, native.output).toBe(0);
  registry = await startFakeRegistry(installedRegistryFixtures(STARTER_PACKAGES));
}, 120_000);

afterAll(async () => {
  await registry?.close();
  if (nativeDir) rmSync(nativeDir, { recursive: true, force: true });
});

function previewed(page: Page) {
  return page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
}

describe("vite build in the browser runtime", () => {
  it("npm install, then npm run build (tsc -b && vite build) writes dist/ with the files native Node writes, and vite preview serves the built app", async () => {
    const { page, errors } = await browser.open();
    await waitForWorkbench(page);
    const files = Object.entries(viteReactTsStarter()).map(([name, data]) => ({ name: `vite-react-ts/${name}`, data }));
    await importZip(page, "vite-react-ts.zip", files);
    await waitForTerminal(page);
    await runInTerminal(page, `echo 'registry=${registry.url}' > .npmrc`);

    const install = await runToExit(page, "npm install", "npm", 240_000);
    expect(install.code, install.text).toBe(0);
    expect(install.text).toMatch(/added \d+ packages/);

    // tsc -b type-checks the app and the config (no output when clean), then Vite prints its summary.
    const build = await runToExit(page, "npm run build", "build", 400_000);
    expect(build.code, build.text).toBe(0);
    const unwrapped = build.text.replace(/\n(?!dist\/|✓|build=)/g, "");
    expect(unwrapped).toMatch(/dist\/index\.html\s+[\d.]+ kB/);
    expect(unwrapped).toMatch(/dist\/assets\/index-[A-Za-z0-9_-]{8}\.js\s+[\d.]+ kB/);
    expect(unwrapped).toMatch(/✓ built in [\d.]+ ?m?s/);

    // tsc -b does type-check: a type error fails the build before vite runs, as with Node.
    const broken = await runToExit(page, "cp src/App.tsx App.tsx.bak && sed -i 's/useState(0)/useState<string>(0)/' src/App.tsx && npm run build; echo code=$?; cp App.tsx.bak src/App.tsx", "broken", 400_000);
    expect(broken.text.replace(/\n/g, "")).toMatch(/src\/App\.tsx\(\d+,\d+\): error TS2345/);
    expect(broken.text).toMatch(/^code=[1-9]\d*$/m);

    const listed = await runToExit(page, "find dist -type f | sort > dist-files.txt; cat dist-files.txt", "find", 30_000);
    const browserFiles = listed.text.split("\n").filter((line) => line.startsWith("dist/")).map((line) => line.slice("dist/".length).trim());
    expect(neutral(browserFiles)).toEqual(neutral(native.files));
    // Rolldown's wasm build bundles byte for byte as its native one: the content hashes in the names agree too.
    expect(browserFiles.sort()).toEqual(native.files.sort());
    console.log(`vite build of the starter: browser runtime npm run build ${(build.ms / 1000).toFixed(1)} s (npm install ${(install.ms / 1000).toFixed(1)} s); native ${(native.ms / 1000).toFixed(1)} s`);
    console.log(`dist (browser): ${browserFiles.join(", ")}\ndist (native):  ${native.files.sort().join(", ")}`);

    // vite preview serves dist/ in the Preview: the built page (its hashed script), not the sources.
    await runInTerminal(page, "npx vite preview");
    await expect.poll(async () => (await terminalText(page)).replace(/\n/g, ""), { timeout: 20_000 }).toContain("Serving  /workspace/dist");
    const site = previewed(page);
    await expect.poll(() => site.getByRole("button").textContent({ timeout: 20_000 }), { timeout: 60_000 }).toBe("count is 0");
    expect(await site.locator("h1").textContent()).toBe("Vite + React");
    const scripts = await site.locator("script").evaluateAll((elements) => elements.map((element) => element.outerHTML));
    expect(scripts.filter((script) => /assets\/index-[A-Za-z0-9_-]{8}\.js/.test(script)).length, scripts.join("\n")).toBeGreaterThan(0);
    expect(scripts.filter((script) => /main\.tsx/.test(script))).toEqual([]);
    await site.getByRole("button").click();
    await expect.poll(() => site.getByRole("button").textContent()).toBe("count is 1");
    expect(errors.filter((error) => !/favicon/.test(error))).toEqual([]);
  }, 900_000);
});
