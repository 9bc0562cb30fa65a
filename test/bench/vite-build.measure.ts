// Issue 29 point 5: `npm run build` (= `tsc -b && vite build`) of the Vite React + TypeScript
// starter, typed in the terminal of the built app on the plain URL, from Enter to its exit: cold (the
// page's first build: Rolldown's and Lightning CSS's wasm compiled, tsc's 9 MB loaded) and warm (the
// next run in the same page). Beside it, the machine's Node running `npm run build` on the same
// starter with the same packages (native Rolldown), in the same run. The packages come from a fake
// registry serving this repository's installed ones (test/support/installed-packages.ts).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, it } from "vitest";
import { runInTerminal, runToExit, waitForTerminal, waitForWorkbench } from "../support/browser";
import { startFakeRegistry, type FakeRegistry } from "../support/fake-registry";
import { installedRegistryFixtures } from "../support/installed-packages";
import { importZip } from "../support/preview-sites";
import { shellEnvironment, STARTER_PACKAGES, viteReactTsStarter, writeNativeStarter } from "../support/vite-react-ts-starter";
import { useBuiltApp } from "./built-app";
import { median, report } from "./report";

const app = useBuiltApp();
let registry: FakeRegistry;

beforeAll(async () => {
  registry = await startFakeRegistry(installedRegistryFixtures(STARTER_PACKAGES));
}, 120_000);
afterAll(async () => registry?.close());

/** `npm run build` with the machine's Node: the first run and the median of the next two. */
function nativeBuilds(): { cold: number; warm: number } {
  const folder = mkdtempSync(path.join(tmpdir(), "webcode-bench-vite-build-"));
  try {
    writeNativeStarter(folder);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const run = spawnSync("npm", ["run", "build"], { cwd: folder, encoding: "utf8", env: shellEnvironment() });
      if (run.status !== 0) throw new Error(`native npm run build failed:\n${run.stdout}${run.stderr}`);
      times.push(performance.now() - started);
    }
    return { cold: times[0]!, warm: median(times.slice(1)) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

it("vite build of the React + TypeScript starter: npm run build in the terminal, cold and warm, beside native", async () => {
  const { context, page } = await app.open();
  try {
    await waitForWorkbench(page);
    await importZip(page, "vite-react-ts.zip", Object.entries(viteReactTsStarter()).map(([name, data]) => ({ name: `vite-react-ts/${name}`, data })));
    await waitForTerminal(page);
    await runInTerminal(page, `echo 'registry=${registry.url}' > .npmrc`);
    const install = await runToExit(page, "npm install", "npm", 240_000);
    if (install.code !== 0) throw new Error(`npm install failed:\n${install.text}`);
    const cold = await runToExit(page, "npm run build", "build", 600_000);
    if (cold.code !== 0) throw new Error(`npm run build failed:\n${cold.text}`);
    const warm = await runToExit(page, "npm run build", "build", 600_000);
    if (warm.code !== 0) throw new Error(`npm run build failed:\n${warm.text}`);
    const tsc = await runToExit(page, "rm -rf node_modules/.tmp && npx tsc -b", "tsc", 600_000);
    const native = nativeBuilds();
    report({
      name: "vite-build: npm run build of the React + TS starter in Chromium, cold",
      value: seconds(cold.ms),
      unit: "s",
      note: `Enter to exit, the page's first build; native Node ${seconds(native.cold)} s (${(cold.ms / native.cold).toFixed(1)}×); npm install before it ${seconds(install.ms)} s`,
    });
    report({
      name: "vite-build: npm run build of the React + TS starter in Chromium, warm",
      value: seconds(warm.ms),
      unit: "s",
      note: `the next run in the same page; native Node ${seconds(native.warm)} s warm (${(warm.ms / native.warm).toFixed(1)}×); of it, tsc -b alone (no build info) ${seconds(tsc.ms)} s`,
    });
  } finally {
    await context.close();
  }
}, 1_800_000);
