// Test runners in the browser runtime against the machine's own tools, in the same run (issue 29
// point 5), in-process (test/support/run-node.ts, run-python.ts: the same runtime code the sandboxed
// worker runs, without the page, the worker and their messages): a node:test suite (10 files × 20
// tests, some async; target <= 2× this machine's Node) and `python3 -m pytest` on a 6-test file (the
// real pytest, warm: Pyodide loaded, pytest in the .venv; target <= 5× CPython warm). The user's
// figure is test-runners-browser.measure.ts (the commands typed into the built app's terminal in
// Chromium), which also runs mocha: mocha keeps the global setTimeout/setImmediate it finds, which
// in-process are this Node's and not the program's event loop, so it cannot be measured here.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { localSitePackages } from "../support/local-wheels";
import { runNodeInProcess } from "../support/run-node";
import { runPythonInProcess } from "../support/run-python";
import { sitePackagesFiles, PYTEST_DISTRIBUTIONS } from "../support/site-packages";
import { SUITE_FILES, SUITE_TESTS, nodeTestSuite, pytestSuite } from "../support/test-runner-suites";
import { median, report } from "./report";

const RUNS = 5;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "webcode-bench-test-runners-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeProject(name: string, files: Record<string, string>): string {
  const root = path.join(dir, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** Wall time of a native command, in ms; throws when it did not do what the suite expects. */
function nativeRun(command: string, args: string[], cwd: string, expect: RegExp, env: Record<string, string> = {}): number {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...env } });
  const ms = performance.now() - started;
  if (!expect.test(result.stdout)) throw new Error(`${command} ${args.join(" ")} printed:\n${result.stdout}\n${result.stderr}`);
  return ms;
}

const ratio = (ours: number, native: number) => Math.round((ours / native) * 100) / 100;
const rounded = (values: number[]) => values.map((v) => Math.round(v)).join(", ");

describe("test runners in the browser runtime (in-process) vs this machine's tools", () => {
  it(`node --test: ${SUITE_FILES} files × ${SUITE_TESTS} tests`, async () => {
    const suite = nodeTestSuite();
    const root = writeProject("node-test", suite);
    const total = SUITE_FILES * SUITE_TESTS;
    const passing = new RegExp(`pass ${total}`);
    const ours: number[] = [];
    const native: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const run = await runNodeInProcess(["--test", "--test-reporter=spec"], suite, { timeoutMs: 120_000 });
      ours.push(performance.now() - started);
      if (run.exitCode !== 0 || !passing.test(run.stdout)) throw new Error(`node --test in the browser runtime:\n${run.stdout}\n${run.stderr}`);
      native.push(nativeRun(process.execPath, ["--test", "--test-reporter=spec"], root, passing));
    }
    report({
      name: `node --test, ${total} tests in ${SUITE_FILES} files: browser runtime (in-process) ÷ this machine's Node (medians of ${RUNS})`,
      value: ratio(median(ours), median(native)),
      unit: "×",
      target: "<= 2",
      note: `browser runtime ${rounded(ours)} ms; Node ${process.version} ${rounded(native)} ms (Node runs each file in a process of its own)`,
    });
  }, 600_000);

  const site = localSitePackages("pytest");
  it.runIf(site)("python3 -m pytest on a 6-test file, warm", async () => {
    const suite = pytestSuite();
    const root = writeProject("pytest", suite);
    const files = { ...suite, ...sitePackagesFiles(site!, PYTEST_DISTRIBUTIONS) };
    const args = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "test_calc.py"];
    const passing = /6 passed/;
    // The first run loads Pyodide (shared by every in-process run) and is not measured.
    const first = await runPythonInProcess(args, files);
    if (first.exitCode !== 0 || !passing.test(first.stdout)) throw new Error(`pytest in the browser runtime:\n${first.stdout}\n${first.stderr}`);
    // The workspace has pytest and no plugin: the machine's CPython loads none either (it has hypothesis and pytest-benchmark).
    const noPlugins = { PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" };
    nativeRun("python3", args, root, passing, noPlugins);
    const ours: number[] = [];
    const native: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const run = await runPythonInProcess(args, files);
      ours.push(performance.now() - started);
      if (run.exitCode !== 0 || !passing.test(run.stdout)) throw new Error(`pytest in the browser runtime:\n${run.stdout}\n${run.stderr}`);
      native.push(nativeRun("python3", args, root, passing, noPlugins));
    }
    report({
      name: `python3 -m pytest, 6 tests, warm: browser runtime (in-process) ÷ this machine's CPython (medians of ${RUNS})`,
      value: ratio(median(ours), median(native)),
      unit: "×",
      target: "<= 5",
      note: `browser runtime ${rounded(ours)} ms; CPython ${rounded(native)} ms (process start included; plugin autoload off as the workspace has none)`,
    });
  }, 600_000);
});
