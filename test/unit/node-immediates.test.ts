// setImmediate in the browser runtime: its own task queue, not a zero-delay timer (timers scheduled
// from timers are clamped: to 4 ms in browsers, 1 ms in Node), with Node's order, clearImmediate,
// unref and the end of the program as the machine's Node has them.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runNodeInProcess } from "../support/run-node";

const ORDER = [
  "const out = [];",
  "setImmediate(() => { out.push('a'); setImmediate(() => out.push('c')); process.nextTick(() => out.push('tick')); Promise.resolve().then(() => out.push('promise')); });",
  "setImmediate((x, y) => out.push('b' + x + y), 1, 2);",
  "const cleared = setImmediate(() => out.push('never'));",
  "clearImmediate(cleared);",
  "const kept = setImmediate(() => out.push('unref then ref'));",
  "kept.unref(); console.log(kept.hasRef()); kept.ref();",
  "setImmediate(() => out.push('unref alone')).unref();",
  "process.on('exit', () => console.log(out.join(' ')));",
].join("\n");

describe("setImmediate", () => {
  it("runs in Node's order, clears, refs and unrefs as the machine's Node", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "webcode-immediates-"));
    try {
      writeFileSync(path.join(dir, "main.js"), ORDER);
      const real = spawnSync(process.execPath, ["main.js"], { cwd: dir, encoding: "utf8" });
      const ours = await runNodeInProcess(["main.js"], { "main.js": ORDER });
      expect({ stdout: ours.stdout, stderr: ours.stderr, exitCode: ours.exitCode }).toEqual({ stdout: real.stdout, stderr: real.stderr, exitCode: real.status });
      expect(ours.stdout).toContain("a tick promise b12 unref then ref unref alone c");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a chain of 1,000 immediates does not wait on timers (a 1 ms timer each would take over a second)", async () => {
    const run = await runNodeInProcess(["-e", "const started = performance.now(); let n = 0; const next = () => (++n < 1000 ? setImmediate(next) : console.log(n, Math.round(performance.now() - started)));\nsetImmediate(next);"]);
    const [count, ms] = run.stdout.trim().split(" ").map(Number);
    expect(count).toBe(1000);
    expect(ms).toBeLessThan(600);
  });
});
