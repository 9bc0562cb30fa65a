// The shell's node command: the program sees the workspace at /workspace, its writes land in the
// one workspace file service (attributed to the command's source), piped input reaches its stdin,
// and its exit code is the command's.
import { describe, expect, it } from "vitest";
import { WorkspaceFiles, type FileChange } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { SandboxHost } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";

let counter = 0;

async function setup() {
  const storage = await openStorage({ name: `node-command-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  const runtime = createBrowserRuntime(files, { node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false }) });
  return { files, runtime };
}

describe("the node command", () => {
  it("runs a workspace file whose writes reach the workspace file service, attributed to the runner", async () => {
    const { files, runtime } = await setup();
    await files.writeFile("src/make.js", "const fs = require('fs');\nfs.mkdirSync('out', { recursive: true });\nfs.writeFileSync('out/result.txt', String(6 * 7));\nfs.renameSync('stale.txt', 'out/moved.txt');\nconsole.log('wrote');");
    await files.writeFile("stale.txt", "old");
    const changes: FileChange[] = [];
    files.onDidChange((batch) => changes.push(...batch));
    const result = await runtime.exec("node src/make.js && cat out/result.txt", { source: "agent" });
    expect(result).toEqual({ output: "wrote\n42", exitCode: 0 });
    expect(await files.readText("out/result.txt")).toBe("42");
    expect(await files.readText("out/moved.txt")).toBe("old");
    expect(await files.exists("stale.txt")).toBe(false);
    expect(changes.filter((change) => change.path === "out/result.txt").map((change) => change.source)).toEqual(["agent"]);
    expect(runtime.capabilities.node).toBe(true);
  });

  it("reads piped input and returns the program's exit code", async () => {
    const { runtime } = await setup();
    const result = await runtime.exec(`printf 'a\\nb\\n' | node -e "let s=''; process.stdin.on('data', (d) => s += d).on('end', () => { console.log(s.trim().split(String.fromCharCode(10)).length); process.exitCode = 7; })"; echo "code=$?"`);
    expect(result.output).toBe("2\ncode=7\n");
  });
});

describe("signals on Ctrl-C and Stop", () => {
  /** Runs `command`, interrupting it once it printed "ready": Stop (the agent's abort) or, with source "terminal", Ctrl-C. */
  const interrupted = async (runtime: Awaited<ReturnType<typeof setup>>["runtime"], command: string, source?: "terminal") => {
    const controller = new AbortController();
    let output = "";
    const started = performance.now();
    const result = await runtime.exec(command, {
      source,
      signal: controller.signal,
      onOutput: (chunk) => {
        output += chunk;
        if (output.includes("ready")) controller.abort();
      },
    });
    return { ...result, ms: performance.now() - started };
  };
  const serving = (signal: string) =>
    `process.on('${signal}', (name) => { console.log('cleaning up after ' + name); require('fs').writeFileSync('state.txt', 'saved'); process.exit(0); });\nconsole.log('ready');\nsetInterval(() => {}, 1000);\n`;

  it("Stop sends SIGTERM: the program's SIGTERM handler runs, its output and file changes are kept, and its own exit code stands", async () => {
    const { files, runtime } = await setup();
    await files.writeFile("serve.js", serving("SIGTERM"));
    const result = await interrupted(runtime, "node serve.js");
    expect(result.output).toContain("ready\ncleaning up after SIGTERM\n");
    expect(result.exitCode).toBe(0);
    expect(await files.readText("state.txt")).toBe("saved");
  });

  it("Ctrl-C in the terminal sends SIGINT: the program's SIGINT handler runs", async () => {
    const { files, runtime } = await setup();
    await files.writeFile("serve.js", serving("SIGINT"));
    const result = await interrupted(runtime, "node serve.js", "terminal");
    expect(result.output).toContain("ready\ncleaning up after SIGINT\n");
    expect(result.exitCode).toBe(0);
    expect(await files.readText("state.txt")).toBe("saved");
  });

  it("a program that handles only the other signal is ended at once: Stop with 143, Ctrl-C with 130", async () => {
    const { files, runtime } = await setup();
    await files.writeFile("on-int.js", serving("SIGINT"));
    await files.writeFile("on-term.js", serving("SIGTERM"));
    const stopped = await interrupted(runtime, "node on-int.js");
    expect([stopped.exitCode, stopped.aborted]).toEqual([143, true]);
    expect(stopped.output).not.toContain("cleaning up");
    const ctrlC = await interrupted(runtime, "node on-term.js", "terminal");
    expect([ctrlC.exitCode, ctrlC.aborted]).toEqual([130, true]);
    expect(ctrlC.output).not.toContain("cleaning up");
    expect(await files.exists("state.txt")).toBe(false);
    // Ended at once, not after the grace period (3 s).
    expect(Math.max(stopped.ms, ctrlC.ms)).toBeLessThan(2_500);
  }, 30_000);

  it("ends a program without a handler at once (Stop: 143), and one whose handler does not end it after the grace period", async () => {
    const { files, runtime } = await setup();
    await files.writeFile("plain.js", "console.log('ready');\nsetInterval(() => {}, 1000);\n");
    await files.writeFile("stubborn.js", "process.on('SIGTERM', () => console.log('not yet'));\nconsole.log('ready');\nsetInterval(() => {}, 1000);\n");
    const plain = await interrupted(runtime, "node plain.js");
    expect(plain.exitCode).toBe(143);
    expect(plain.output).not.toContain("not yet");
    const stubborn = await interrupted(runtime, "node stubborn.js");
    expect(stubborn.output).toContain("not yet");
    // Forced after the grace period: the program's status is a SIGTERM'd child's (128 + 15).
    expect(stubborn.exitCode).toBe(143);
    // Ended by the grace period (3 s), not left running.
    expect(stubborn.ms).toBeGreaterThanOrEqual(2_900);
  }, 30_000);

  it("a timeout sends SIGTERM: the handler runs and the run is reported timed out (124)", async () => {
    const { files, runtime } = await setup();
    await files.writeFile("serve.js", serving("SIGTERM"));
    const result = await runtime.exec("node serve.js", { timeoutMs: 1_500 });
    expect(result.output).toContain("ready\ncleaning up after SIGTERM\n");
    expect([result.exitCode, result.timedOut]).toEqual([124, true]);
    expect(await files.readText("state.txt")).toBe("saved");
  }, 30_000);

  it("Ctrl-C typed in the interactive terminal runs the program's SIGINT handler", async () => {
    const { files, runtime } = await setup();
    await files.writeFile("serve.js", serving("SIGINT"));
    const shell = runtime.openShell({ cols: 120, rows: 24 });
    let raw = "";
    const ready = new Promise<void>((resolve) =>
      shell.onData((data) => {
        raw += data;
        if (raw.includes("ready")) resolve();
      }),
    );
    shell.write("node serve.js; echo status=$?\r");
    await ready;
    shell.write("\x03");
    await (shell as unknown as { whenIdle(): Promise<void> }).whenIdle();
    const text = raw.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
    expect(text).toContain("ready\ncleaning up after SIGINT\n");
    expect(await files.readText("state.txt")).toBe("saved");
    shell.dispose();
  }, 30_000);

  it("Ctrl-C typed during a flood of output stops it at once: the prompt is back within half a second and nothing is printed after it", async () => {
    const { runtime } = await setup();
    const shell = runtime.openShell({ cols: 120, rows: 24 });
    let raw = "";
    let flooding!: () => void;
    const flood = new Promise<void>((resolve) => (flooding = resolve));
    shell.onData((data) => {
      raw += data;
      if (/flood 20000\b/.test(raw)) flooding();
    });
    // Batches of lines between turns of the event loop: a flood that never ends by itself.
    shell.write(`node -e "let i = 0; (function more() { for (let k = 0; k < 2000; k++) console.log('flood ' + i++); setImmediate(more); })()"\r`);
    await flood;
    const pressed = performance.now();
    shell.write("\x03");
    await (shell as unknown as { whenIdle(): Promise<void> }).whenIdle();
    expect(performance.now() - pressed).toBeLessThan(500);
    const text = raw.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
    // The line stops with the program (`echo` after it does not run); the lines shown are the flood's, in order.
    expect(text).toMatch(/\nflood \d+\n\^C\nwebcode:~\$ $/);
    const shown = [...text.matchAll(/^flood (\d+)$/gm)].map((match) => Number(match[1]));
    expect(shown).toEqual(shown.map((_, i) => i));
    const atPrompt = raw.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(raw.length).toBe(atPrompt);
    shell.write("echo status=$?\r");
    await (shell as unknown as { whenIdle(): Promise<void> }).whenIdle();
    expect(raw.slice(atPrompt)).toMatch(/\nstatus=130\r\n/);
    shell.dispose();
  }, 30_000);
});
