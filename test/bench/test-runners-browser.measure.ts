// Test runners as a user runs them (issue 29 point 5): typed into the terminal of the built app in
// Chromium on the plain URL (WebContainer's boot held, so the browser runtime runs them), timed from
// Enter to the runner's summary on screen; the machine's Node and CPython run the same files in the
// same run, alternating, timed from spawn to exit. `npx mocha` and `node --test` on 10 files × 20
// tests (target <= 2× Node), `python3 -m pytest` on a 6-test file warm (the second and later runs in
// the page: Pyodide started, pytest in the workspace's .venv; target <= 5× CPython).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { it } from "vitest";
import { runInTerminal, terminalText, waitForTerminal, waitForWorkbench } from "../support/browser";
import { installedPackageFiles } from "../support/installed-packages";
import { localSitePackages } from "../support/local-wheels";
import { importZip } from "../support/preview-sites";
import { PYTEST_DISTRIBUTIONS, sitePackagesFiles } from "../support/site-packages";
import { SUITE_FILES, SUITE_TESTS, mochaSuite, nodeTestSuite, pytestSuite } from "../support/test-runner-suites";
import { useBuiltApp } from "./built-app";
import { median, report } from "./report";

const app = useBuiltApp();
const RUNS = 5;
const TOTAL = SUITE_FILES * SUITE_TESTS;

/** Each project in a folder of its own; the .venv at the workspace's root, where python3 looks. */
function workspace(site: string | undefined): Record<string, string | Uint8Array> {
  const out: Record<string, string | Uint8Array> = {};
  const add = (folder: string, files: Record<string, string | Uint8Array>) => {
    for (const [file, data] of Object.entries(files)) out[folder ? `${folder}/${file}` : file] = data;
  };
  // The .bin entry as the browser runtime's npm writes it (npx finds it there).
  const bin = `#!/bin/sh\nnode "$(dirname "$0")/../mocha/bin/mocha.js" "$@"\n`;
  add("mocha-suite", { ...mochaSuite(), ...installedPackageFiles(["mocha"]), "node_modules/.bin/mocha": bin });
  add("node-test-suite", nodeTestSuite());
  add("pytest-suite", pytestSuite());
  if (site) add("", sitePackagesFiles(site, PYTEST_DISTRIBUTIONS));
  return out;
}

/** Types `command` at the prompt and resolves with the ms from Enter until `done` matches the screen. */
async function timed(page: Page, command: string, done: RegExp): Promise<number> {
  await runInTerminal(page, "clear");
  await page.waitForFunction(() => !/passing|passed|pass \d/.test(document.querySelector(".terminal-host .xterm-rows")?.textContent ?? ""), undefined, { timeout: 10_000 });
  await page.locator(".terminal-host").click();
  await page.keyboard.type(command);
  const started = await page.evaluate(() => performance.now());
  await page.keyboard.press("Enter");
  // Polled every 20 ms: often enough for the figure, rarely enough not to take the measured program's CPU.
  const handle = await page.waitForFunction(
    (source) => (new RegExp(source).test(((document.querySelector(".terminal-host .xterm-rows") as HTMLElement | null)?.innerText ?? "").replace(/\u00a0/g, " ")) ? performance.now() : false),
    done.source,
    { timeout: 120_000, polling: 20 },
  );
  return ((await handle.jsonValue()) as number) - started;
}

function native(command: string, args: string[], cwd: string, done: RegExp, env: Record<string, string> = {}): number {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...env } });
  const ms = performance.now() - started;
  if (!done.test(result.stdout)) throw new Error(`${command} ${args.join(" ")} printed:\n${result.stdout}\n${result.stderr}`);
  return ms;
}

const rounded = (values: number[]) => values.map((v) => Math.round(v)).join(", ");

it("mocha, node --test and python3 -m pytest typed in the terminal vs this machine's Node and CPython", async () => {
  const site = localSitePackages("pytest");
  const dir = mkdtempSync(path.join(tmpdir(), "webcode-bench-runners-"));
  const files = workspace(site);
  for (const [file, data] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), data);
  }
  const { context, page } = await app.open();
  try {
    await waitForWorkbench(page);
    await importZip(page, "runners.zip", Object.entries(files).map(([name, data]) => ({ name, data })));
    await waitForTerminal(page);
    // The app's offline cache downloads the whole app a few seconds after start-up: measured after it.
    await page.evaluate(() => Promise.race([navigator.serviceWorker?.ready, new Promise((resolve) => setTimeout(resolve, 15_000))]));

    const cases = [
      {
        name: `npx mocha, ${TOTAL} tests in ${SUITE_FILES} files`,
        folder: "mocha-suite",
        ours: "npx mocha",
        native: [process.execPath, [path.resolve("node_modules/mocha/bin/mocha.js")]] as const,
        done: new RegExp(`${TOTAL} passing`),
        target: "<= 2",
        against: `Node ${process.version}`,
      },
      {
        name: `node --test, ${TOTAL} tests in ${SUITE_FILES} files`,
        folder: "node-test-suite",
        ours: "node --test --test-reporter=spec",
        native: [process.execPath, ["--test", "--test-reporter=spec"]] as const,
        done: new RegExp(`pass ${TOTAL}`),
        target: "<= 2",
        against: `Node ${process.version} (a process per file)`,
      },
      ...(site
        ? [
            {
              name: "python3 -m pytest, 6 tests, warm",
              folder: "pytest-suite",
              ours: "python3 -m pytest -q -p no:cacheprovider test_calc.py",
              native: ["python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider", "test_calc.py"]] as const,
              done: /6 passed/,
              target: "<= 5",
              against: "CPython (pytest's plugins from entry points off: the machine's hypothesis and benchmark plugins are not in the workspace)",
              env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" },
            },
          ]
        : []),
    ];
    for (const test of cases) {
      await runInTerminal(page, `cd /workspace/${test.folder}`);
      // The first run is not in the figure (python3's starts Pyodide and compiles pytest; mocha's is the page's first program, which fetches the runtime): its time is in the note.
      const first = await timed(page, test.ours, test.done);
      native(test.native[0], [...test.native[1]], path.join(dir, test.folder), test.done, "env" in test ? test.env : {});
      const ours: number[] = [];
      const theirs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        ours.push(await timed(page, test.ours, test.done));
        theirs.push(native(test.native[0], [...test.native[1]], path.join(dir, test.folder), test.done, "env" in test ? test.env : {}));
      }
      report({
        name: `${test.name}: browser runtime in Chromium ÷ this machine's ${test.against.split(" ")[0]} (medians of ${RUNS})`,
        value: Math.round((median(ours) / median(theirs)) * 100) / 100,
        unit: "×",
        target: test.target,
        note: `typed in the terminal, Enter to summary: ${rounded(ours)} ms (first run of the page ${Math.round(first)} ms); ${test.against}: ${rounded(theirs)} ms`,
      });
    }
    if (!site) console.warn("python3 -m pytest not measured: the machine's python3 has no pytest");
  } catch (error) {
    console.error(await terminalText(page));
    throw error;
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 900_000);
