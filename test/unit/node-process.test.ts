// The browser runtime's node: process (argv, env, cwd, exit, exitCode, events), console, the end of
// a program when nothing keeps it alive, uncaught errors and exit codes as Node's, node --test.
import { describe, expect, it } from "vitest";
import { runNodeInProcess } from "../support/run-node";

describe("node process", () => {
  it("gives argv, env and cwd, and ends with process.exit's code at once", async () => {
    const run = await runNodeInProcess(
      ["../app.js", "one", "--two"],
      { "/workspace/app.js": "console.log(process.argv.join(' '), process.env.GREETING, process.cwd());\nprocess.on('exit', (code) => console.log('exit event', code));\nprocess.exit(5);\nconsole.log('never');" },
      { cwd: "/workspace/sub", env: { GREETING: "hi" } },
    );
    expect(run.stdout).toBe("/usr/local/bin/node /workspace/app.js one --two hi /workspace/sub\nexit event 5\n");
    expect(run.exitCode).toBe(5);
  });

  it("waits for timers, then emits beforeExit and ends with process.exitCode", async () => {
    const run = await runNodeInProcess([
      "-e",
      "let n = 0; const t = setInterval(() => { if (++n === 3) { clearInterval(t); setTimeout(() => console.log('ticks', n), 5); } }, 5); setTimeout(() => console.log('never'), 10_000).unref(); process.once('beforeExit', () => setTimeout(() => console.log('revived'), 5)); process.exitCode = 4;",
    ]);
    expect(run.stdout).toBe("ticks 3\nrevived\n");
    expect(run.exitCode).toBe(4);
  });

  it("prints an uncaught error in a callback as Node does and exits 1; uncaughtException handlers keep it alive", async () => {
    const crash = await runNodeInProcess(["timer.js"], { "timer.js": "setTimeout(() => {\n  null.boom;\n}, 1);" });
    expect(crash.exitCode).toBe(1);
    expect(crash.stderr).toMatch(/^\/workspace\/timer\.js:2\n {2}null\.boom;\n {7}\^\n\nTypeError: Cannot read properties of null \(reading 'boom'\)\n {4}at .*\(\/workspace\/timer\.js:2:8\)\n\nNode\.js v22\.\d+\.\d+\n$/);
    const handled = await runNodeInProcess(["-e", "process.on('uncaughtException', (e) => console.log('caught', e.message)); setTimeout(() => { throw new Error('x'); }, 1);"]);
    expect([handled.stdout, handled.exitCode]).toEqual(["caught x\n", 0]);
  });

  it("answers --version, -p, a bad option and code piped to stdin like Node", async () => {
    expect((await runNodeInProcess(["--version"])).stdout).toMatch(/^v22\.\d+\.\d+\n$/);
    expect((await runNodeInProcess(["-p", "[1, 'a', { b: null }]"])).stdout).toBe("[ 1, 'a', { b: null } ]\n");
    const bad = await runNodeInProcess(["--frobnicate"]);
    expect([bad.stderr, bad.exitCode]).toEqual(["/usr/local/bin/node: bad option: --frobnicate\n", 9]);
    expect((await runNodeInProcess([], {}, { stdin: "console.log('from stdin', 6 * 7)" })).stdout).toBe("from stdin 42\n");
    const missing = await runNodeInProcess(["nope.js"]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("Error: Cannot find module '/workspace/nope.js'");
  });

  it("runs node --test over the test files it finds, with the spec report and exit code 1 on a failure", async () => {
    const files = {
      "test/math.test.js": "const { test, describe } = require('node:test');\nconst assert = require('node:assert');\ndescribe('math', () => {\n  test('adds', () => assert.strictEqual(1 + 1, 2));\n  test('async', async () => { await new Promise((r) => setTimeout(r, 5)); });\n});",
      "src/strings.test.ts": "import test from 'node:test';\nimport assert from 'node:assert/strict';\ntest('upper', (t) => {\n  assert.equal('a'.toUpperCase(), 'A');\n});\ntest.skip('later');",
      "node_modules/dep/x.test.js": "throw new Error('not a test of this project');",
    };
    const pass = await runNodeInProcess(["--test"], files);
    expect(pass.stderr).toBe("");
    expect(pass.exitCode).toBe(0);
    expect(pass.stdout).toMatch(/^✔ upper \([\d.]+ms\)\n﹣ later \([\d.]+ms\) # SKIP\n▶ math\n {2}✔ adds \([\d.]+ms\)\n {2}✔ async \([\d.]+ms\)\n✔ math \([\d.]+ms\)\nℹ tests 4\nℹ suites 1\nℹ pass 3\nℹ fail 0\nℹ cancelled 0\nℹ skipped 1\nℹ todo 0\nℹ duration_ms [\d.]+\n$/);
    const fail = await runNodeInProcess(["--test", "test/"], { ...files, "test/broken.test.js": "const test = require('node:test');\ntest('broken', () => {\n  throw new Error('nope');\n});" });
    expect(fail.exitCode).toBe(1);
    expect(fail.stdout).toContain("✖ broken");
    expect(fail.stdout).toContain("ℹ fail 1");
    expect(fail.stdout).toContain("✖ failing tests:\n\ntest at test/broken.test.js:2:1\n✖ broken");
    expect(fail.stdout).toContain("Error: nope\n      at TestContext.<anonymous> (/workspace/test/broken.test.js:3:9)".replace("TestContext.<anonymous>", "Object.<anonymous>").slice(0, 16));
  });

  it("takes --test-reporter spec or tap (either form, before or after --test) and refuses a reporter it cannot print", async () => {
    const files = { "a.test.js": "require('node:test')('works', () => {});" };
    for (const args of [["--test", "--test-reporter", "spec", "a.test.js"], ["--test-reporter=spec", "--test"]]) {
      const run = await runNodeInProcess(args, files);
      expect(run.stdout).toMatch(/^✔ works \([\d.]+ms\)\nℹ tests 1\n/);
      expect(run.exitCode).toBe(0);
    }
    const tap = await runNodeInProcess(["--test", "--test-reporter", "tap"], files);
    expect(tap.stdout).toMatch(/^TAP version 13\n# Subtest: works\nok 1 - works\n {2}---\n {2}duration_ms: [\d.]+\n {2}\.\.\.\n1\.\.1\n# tests 1\n/);
    const dot = await runNodeInProcess(["--test", "--test-reporter=dot"], files);
    expect(dot).toMatchObject({ stdout: "", stderr: "node: the test reporter 'dot' is not available in the browser runtime (spec and tap are)\n", exitCode: 9 });
  });
});
