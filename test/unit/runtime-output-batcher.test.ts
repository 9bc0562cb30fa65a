// A program's output leaving the sandboxed worker (output-batcher.ts, worker-kit.ts): a flood of
// writes is joined into few messages, nothing is lost or reordered (stdout and stderr interleaved as
// written), writes at a terminal's pace go out at once, and everything written goes out before the
// exit or any other event of the worker.
import { describe, expect, it } from "vitest";
import { IMMEDIATE_SENDS, MAX_HELD_CHARS, OutputBatcher, WINDOW_MS, type OutputStream } from "../../src/runtime/sandbox/output-batcher";
import type { SandboxEvent } from "../../src/runtime/sandbox";
import { serveProgram } from "../../src/runtime/sandbox/worker-kit";
import { runNode } from "../../src/runtime/node/node-main";

/** A batcher on a clock the test moves, whose scheduled flushes run when the test says. */
function batcher() {
  const sent: Array<[OutputStream, string]> = [];
  let time = 1000;
  const pending: Array<() => void> = [];
  const output = new OutputBatcher({
    send: (stream, text) => sent.push([stream, text]),
    schedule: (flush) => pending.push(flush),
    now: () => time,
  });
  return {
    output,
    sent,
    advance: (ms: number) => (time += ms),
    runScheduled: () => {
      for (const flush of pending.splice(0)) flush();
    },
    scheduledCount: () => pending.length,
  };
}

describe("OutputBatcher", () => {
  it("sends writes at a terminal's pace one by one, at once", () => {
    const b = batcher();
    for (let i = 0; i < 5; i++) {
      b.output.write("stdout", `line ${i}\n`);
      expect(b.sent.length).toBe(i + 1);
      b.advance(100);
    }
    expect(b.sent.map(([, text]) => text).join("")).toBe("line 0\nline 1\nline 2\nline 3\nline 4\n");
    expect(b.scheduledCount()).toBe(0);
  });

  it("joins a flood: the first writes of the window go out, the rest are held and sent together by the scheduled flush", () => {
    const b = batcher();
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}\n`);
    for (const line of lines) b.output.write("stdout", line);
    expect(b.sent.length).toBe(IMMEDIATE_SENDS);
    expect(b.scheduledCount()).toBe(1);
    b.runScheduled();
    expect(b.sent.length).toBe(IMMEDIATE_SENDS + 1);
    expect(b.sent.map(([, text]) => text).join("")).toBe(lines.join(""));
  });

  it("sends what it holds when the window ends (at the next write), and keeps a flood joined in the next window", () => {
    const b = batcher();
    for (let i = 0; i < 20; i++) b.output.write("stdout", `a${i}\n`);
    expect(b.sent.length).toBe(IMMEDIATE_SENDS);
    b.advance(WINDOW_MS);
    for (let i = 0; i < 20; i++) b.output.write("stdout", `b${i}\n`);
    // The held a's went out at the first write of the new window; the b's are all held (still a flood).
    expect(b.sent.length).toBe(IMMEDIATE_SENDS + 1);
    expect(b.sent.at(-1)![1]).toBe(Array.from({ length: 20 - IMMEDIATE_SENDS }, (_, i) => `a${i + IMMEDIATE_SENDS}\n`).join(""));
    b.output.flush();
    expect(b.sent.at(-1)![1]).toBe(Array.from({ length: 20 }, (_, i) => `b${i}\n`).join(""));
    // After a pause, a write goes out at once again.
    b.advance(1000);
    b.output.write("stdout", "later\n");
    expect(b.sent.at(-1)).toEqual(["stdout", "later\n"]);
  });

  it("keeps stdout and stderr in the order they were written", () => {
    const b = batcher();
    const written: Array<[OutputStream, string]> = [];
    for (let i = 0; i < 500; i++) {
      const stream: OutputStream = i % 7 === 0 || i % 7 === 1 ? "stderr" : "stdout";
      written.push([stream, `${i}\n`]);
      b.output.write(stream, `${i}\n`);
    }
    b.output.flush();
    expect(b.sent.length).toBeLessThan(written.length);
    // Joined pieces, one stream each, in order: split again they are exactly the writes.
    const again = b.sent.flatMap(([stream, text]) => text.split(/(?<=\n)/).map((line) => [stream, line] as [OutputStream, string]));
    expect(again).toEqual(written);
  });

  it("sends at once when it holds MAX_HELD_CHARS", () => {
    const b = batcher();
    const chunk = "x".repeat(1024);
    for (let i = 0; i < IMMEDIATE_SENDS; i++) b.output.write("stdout", "warm\n");
    for (let i = 0; i < MAX_HELD_CHARS / 1024; i++) b.output.write("stdout", chunk);
    expect(b.sent.length).toBe(IMMEDIATE_SENDS + 1);
    expect(b.sent.at(-1)![1].length).toBe(MAX_HELD_CHARS);
  });

  it("ignores empty writes", () => {
    const b = batcher();
    b.output.write("stdout", "");
    b.output.flush();
    expect(b.sent).toEqual([]);
  });
});

describe("a program's output through the worker kit", () => {
  /** Runs the node runtime in this process; every event the worker sends, in order. */
  const events = (args: string[]) =>
    new Promise<SandboxEvent[]>((resolve, reject) => {
      const seen: SandboxEvent[] = [];
      let deliver!: Parameters<Parameters<typeof serveProgram>[0]["onMessage"]>[0];
      const timer = setTimeout(() => reject(new Error("the program did not end")), 20_000);
      serveProgram(
        {
          send: (event) => {
            seen.push(event);
            if (event.type === "exit" || event.type === "fatal") {
              clearTimeout(timer);
              // What had arrived when the exit did (a later flush would be too late for the page).
              resolve([...seen]);
            }
          },
          onMessage: (listener) => (deliver = listener),
        },
        (context) => runNode(context, { installGlobals: false, onUnhandledRejection: () => undefined }),
      );
      deliver({ type: "run", files: [], dirs: ["/workspace", "/tmp"], args, env: {}, cwd: "/workspace", stdin: null });
    });

  it("sends 100,000 lines in few messages, in order, stdout and stderr interleaved as written, all before the exit and a file change", async () => {
    const program = [
      "const fs = require('fs');",
      "for (let i = 0; i < 100000; i++) { if (i % 10000 === 5) console.error('err ' + i); else console.log('line ' + i); }",
      "fs.writeFileSync('done.txt', 'x');",
      "console.log('after the file');",
      "for (let i = 0; i < 100; i++) console.log('before the exit ' + i);",
      "process.exit(3);",
    ].join("\n");
    const seen = await events(["-e", program]);
    const output = seen.filter((event): event is Extract<SandboxEvent, { type: "stdout" | "stderr" }> => event.type === "stdout" || event.type === "stderr");
    expect(output.length).toBeLessThan(1000);
    const expected: string[] = [];
    for (let i = 0; i < 100000; i++) expected.push(i % 10000 === 5 ? `stderr:err ${i}` : `stdout:line ${i}`);
    const lines = output.flatMap((event) => event.data.split("\n").slice(0, -1).map((line) => `${event.type}:${line}`));
    expect(lines.slice(0, 100000)).toEqual(expected);
    // The file change comes after every line written before it, and the exit after everything.
    const fileAt = seen.findIndex((event) => event.type === "fs" && event.op.kind === "write");
    const lastLineAt = seen.findIndex((event) => event.type === "stdout" && event.data.includes("line 99999\n"));
    const afterAt = seen.findIndex((event) => event.type === "stdout" && event.data.includes("after the file"));
    expect(lines.slice(100000)).toEqual(["stdout:after the file", ...Array.from({ length: 100 }, (_, i) => `stdout:before the exit ${i}`)]);
    expect(lastLineAt).toBeGreaterThanOrEqual(0);
    expect(lastLineAt).toBeLessThan(fileAt);
    expect(afterAt).toBeGreaterThan(fileAt);
    expect(seen.at(-1)).toEqual({ type: "exit", code: 3 });
  });

  it("sends a line written before a long synchronous loop at once", async () => {
    const started = performance.now();
    let firstAt = 0;
    const seen: SandboxEvent[] = [];
    await new Promise<void>((resolve) => {
      let deliver!: Parameters<Parameters<typeof serveProgram>[0]["onMessage"]>[0];
      serveProgram(
        {
          send: (event) => {
            seen.push(event);
            if (event.type === "stdout" && firstAt === 0) firstAt = performance.now() - started;
            if (event.type === "exit") resolve();
          },
          onMessage: (listener) => (deliver = listener),
        },
        (context) => runNode(context, { installGlobals: false, onUnhandledRejection: () => undefined }),
      );
      deliver({ type: "run", files: [], dirs: ["/workspace", "/tmp"], args: ["-e", "console.log('working'); const end = Date.now() + 300; while (Date.now() < end) {}"], env: {}, cwd: "/workspace", stdin: null });
    });
    const total = performance.now() - started;
    expect(seen.find((event) => event.type === "stdout")).toEqual({ type: "stdout", data: "working\n" });
    expect(firstAt).toBeLessThan(total - 250);
  });
});
