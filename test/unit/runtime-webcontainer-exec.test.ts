// The agent's commands in the fake container (issue 17 points 2, 6, 7): unattended environment,
// input at end-of-file, a prompt nobody can answer stopped and explained, clean text for the
// model, the end of long output kept, dev servers left running in the background, errors reported.
import { describe, expect, it } from "vitest";
import type { RuntimeProblem } from "../../src/runtime";
import { CommandOutput, EXEC_ENV_DEFAULTS } from "../../src/runtime/webcontainer";
import { FAKE_JSH_PROMPT, FakeWebContainer } from "../support/fake-webcontainer";
import { setup, sleep } from "./webcontainer-harness";

describe("exec: commands never wait on a prompt nobody sees", () => {
  it("runs with CI, npm yes and no colours by default; the caller's env wins", async () => {
    const { fake, runtime } = await setup();
    await runtime.exec("npx vitest");
    expect(fake.spawned[0]!.env).toMatchObject({ CI: "1", npm_config_yes: "true", NO_COLOR: "1", FORCE_COLOR: "0" });
    await runtime.exec("npm test", { env: { CI: "0", FOO: "bar" } });
    expect(fake.spawned[1]!.env).toMatchObject({ ...EXEC_ENV_DEFAULTS, CI: "0", FOO: "bar" });
  });

  it("a test runner that watches unless CI is set runs once and exits", async () => {
    const { fake, runtime } = await setup();
    // Like vitest and jest (react-scripts): watch mode unless CI is set.
    fake.onSpawn = (proc, _container, _args, _cwd, record) => {
      proc.print("✓ 3 tests passed\n");
      if (record?.env?.CI) proc.end(0);
      else proc.print("Waiting for file changes... press q to quit\n");
    };
    const result = await runtime.exec("npx vitest", { timeoutMs: 2000 });
    expect(result).toMatchObject({ exitCode: 0 });
    expect(result.timedOut).toBeUndefined();
  });

  it("its input is at end-of-file: a line prompt gets no answer and the command goes on", async () => {
    const { fake, runtime } = await setup();
    fake.onSpawn = (proc) => {
      void proc.prompt("Ok to proceed? (y)").then((answer) => {
        proc.print(answer === null ? "\nnpm ERR! canceled\n" : `\nanswered ${answer}\n`);
        proc.end(answer === null ? 1 : 0);
      });
    };
    const result = await runtime.exec("npx create-thing", { timeoutMs: 2000 });
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain("canceled");
    expect(result.timedOut).toBeUndefined();
  });

  it("a prompt that ignores end-of-file is stopped once it waits silently, and the model is told why", async () => {
    const { fake, runtime } = await setup(undefined, { promptIdleMs: 60 });
    fake.onSpawn = (proc) => {
      proc.print("\x1b[?25l");
      proc.print("\x1b[36m◆\x1b[39m  Select a framework:\n");
      proc.print("\x1b[32m?\x1b[39m \x1b[1mProject name\x1b[22m \x1b[90m›\x1b[39m "); // raw-mode prompt: reads keys, not lines
    };
    const started = Date.now();
    const result = await runtime.exec("npm create vite@latest", { timeoutMs: 5000 });
    // Well before the 5 s timeout: the silent prompt ended it (loose for a loaded machine).
    expect(Date.now() - started).toBeLessThan(4000);
    expect(fake.spawned[0]!.proc.killed).toBe(true);
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toMatch(/stopped at a prompt waiting for input \("\? Project name ›"\)/);
    expect(result.output).toMatch(/--yes/);
    expect(result.output).not.toContain("\x1b");
  });

  it("a command that is just slow (no question on its last line) is not taken for a prompt", async () => {
    const { fake, runtime } = await setup(undefined, { promptIdleMs: 30 });
    fake.onSpawn = (proc) => {
      proc.print("building");
      setTimeout(() => {
        proc.print(" done\n");
        proc.end(0);
      }, 150);
    };
    const result = await runtime.exec("npm run build");
    expect(result).toEqual({ output: "building done\n", exitCode: 0 });
  });

  it("writes end-of-input (Ctrl-D) to the command's terminal at once", async () => {
    const { fake, runtime } = await setup();
    await runtime.exec("cat");
    expect(fake.spawned[0]!.proc.typed.join("")).toBe("\x04");
  });
});

describe("exec: clean text for the model", () => {
  it("strips colours, OSC titles and links, and redrawn spinner frames; streams the same clean text", async () => {
    const { fake, runtime } = await setup();
    fake.onSpawn = (proc) => {
      proc.print("\x1b]0;npm install\x07");
      for (const frame of ["⠋", "⠙", "⠹", "⠸"]) proc.print(`\r\x1b[K${frame} reify: timing`);
      proc.print("\r\x1b[K");
      proc.print("\x1b[32madded\x1b[39m 3 packages in 2s\r\n");
      proc.print("see \x1b]8;;https://docs.npmjs.com\x1b\\the docs\x1b]8;;\x1b\\\n");
      proc.print("⠧\n");
      proc.print("\x1b[1mdone\x1b[");
      setTimeout(() => {
        proc.print("22m\n");
        proc.end(0);
      }, 5);
    };
    const chunks: string[] = [];
    const result = await runtime.exec("npm install", { onOutput: (c) => chunks.push(c) });
    expect(result.output).toBe("added 3 packages in 2s\nsee the docs\ndone\n");
    expect(chunks.join("")).toBe(result.output);
  });

  it("keeps the end of a huge output", async () => {
    const { fake, runtime } = await setup();
    fake.onSpawn = (proc) => {
      const line = "x".repeat(1023) + "\n";
      for (let i = 0; i < 1100; i++) proc.print(line);
      proc.print("THE END\n");
      proc.end(0);
    };
    const result = await runtime.exec("cat big.log");
    expect(result.output.length).toBeLessThan(1024 * 1024 + 200);
    expect(result.output.endsWith("THE END\n")).toBe(true);
    expect(result.output).toMatch(/^\(earlier output dropped/);
  });

  it("the terminal keeps its colours", async () => {
    const { runtime } = await setup();
    const shell = runtime.openShell({ cols: 80, rows: 24 });
    let out = "";
    shell.onData((data) => (out += data));
    await sleep(5);
    expect(out).toBe(FAKE_JSH_PROMPT);
    shell.dispose();
  });
});

describe("CommandOutput", () => {
  it("reduces log-update style redraws (cursor up, erase line) to the last frame", () => {
    const output = new CommandOutput();
    output.push("Downloading\n");
    output.push("progress 10%\nfile a\n");
    output.push("\x1b[2K\x1b[1A\x1b[2K\x1b[1A\x1b[2K\x1b[Gprogress 100%\nfile b\n");
    expect(output.finish()).toBe("");
    expect(output.text).toBe("Downloading\nprogress 100%\nfile b\n");
  });

  it("treats backspace and a lone carriage return like a terminal, and drops stray control bytes", () => {
    const output = new CommandOutput();
    output.push("abc\bd\x07\n50%\r");
    output.push("\n");
    expect(output.text).toBe("abd\n50%\n");
  });
});

describe("dev servers", () => {
  it("`cmd &` returns when the server is ready and leaves it running until the runtime goes", async () => {
    const { fake, runtime } = await setup();
    fake.onSpawn = (proc, container) => {
      proc.print("\x1b[32mVITE\x1b[39m v6 ready\n");
      setTimeout(() => container.emit("server-ready", 5173, "https://x--5173.webcontainer-api.io"), 20);
    };
    const result = await runtime.exec("npm run dev &", { timeoutMs: 5000 });
    expect(fake.spawned[0]!.args).toEqual(["-c", "npm run dev"]);
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain("VITE v6 ready");
    expect(result.output).toMatch(/ready on port 5173 .* keeps running in the background/);
    expect(fake.spawned[0]!.proc.killed).toBe(false);
    runtime.dispose();
    expect(fake.spawned[0]!.proc.killed).toBe(true);
  });

  it("`cmd &` that serves nothing returns after a while, still running; one that fails returns its error", async () => {
    const { fake, runtime } = await setup(undefined, { backgroundWaitMs: 50 });
    fake.onSpawn = (proc) => proc.print("watching\n");
    const running = await runtime.exec("npm run watch &");
    expect(running.output).toMatch(/keeps running in the background \(no server became ready yet\)/);
    expect(fake.spawned[0]!.proc.killed).toBe(false);
    fake.onSpawn = (proc) => {
      proc.print("Error: port in use\n");
      proc.end(1);
    };
    const failed = await runtime.exec("npm run dev &");
    expect(failed).toEqual({ output: "Error: port in use\n", exitCode: 1 });
    fake.onSpawn = (proc) => proc.end(0);
    expect((await runtime.exec("a && b")).exitCode).toBe(0);
    expect(fake.spawned[2]!.args).toEqual(["-c", "a && b"]);
  });

  it("reports a server that stops", async () => {
    const { fake, runtime } = await setup();
    const closed: number[] = [];
    runtime.onServerClosed((port) => closed.push(port));
    fake.emit("port", 4000, "close", ""); // never reported ready: nothing to say
    fake.emit("server-ready", 5173, "https://x");
    fake.emit("port", 5173, "close", "https://x");
    expect(closed).toEqual([5173]);
  });
});

describe("errors are visible", () => {
  it("WebContainer's error event and file-sync failures reach onDidReportProblem", async () => {
    const { files, fake, runtime } = await setup();
    const problems: RuntimeProblem[] = [];
    runtime.onDidReportProblem((problem) => problems.push(problem));
    fake.emit("error", { message: "Unable to create more instances" });
    expect(problems).toEqual([{ kind: "container", message: "Unable to create more instances" }]);

    fake.fs.writeFile = async () => {
      throw new Error("ENOSPC: no space left on device");
    };
    await files.writeFile("src/a.ts", "x", { source: "editor" });
    await runtime.sync.settle();
    expect(problems[1]).toMatchObject({ kind: "file-sync" });
    expect(problems[1]!.message).toMatch(/"src\/a\.ts" could not be copied into WebContainer.*ENOSPC/);

    // A path that cannot be read is reported, not taken for deleted.
    await files.writeFile("keep.txt", "precious", { source: "editor" });
    await sleep(5);
    fake.fs.readFile = async () => {
      throw new Error("EIO: i/o error, read");
    };
    fake.write("keep.txt", "changed in the container");
    await sleep(10);
    await runtime.sync.settle();
    expect(await files.readText("keep.txt")).toBe("precious");
    expect(problems.at(-1)!.message).toMatch(/"keep\.txt" changed in WebContainer but could not be brought into the workspace: EIO/);
  });
});

describe("the fake behaves like the real API", () => {
  it("boot() refuses a second instance until the first is torn down", async () => {
    const first = await FakeWebContainer.boot();
    await expect(FakeWebContainer.boot()).rejects.toThrow(/Only a single WebContainer instance/);
    first.teardown();
    expect(() => first.teardown()).toThrow(/already torn down/);
    const second = await FakeWebContainer.boot();
    second.teardown();
  });

  it("two boots at once: the second waits for the first, then fails", async () => {
    FakeWebContainer.bootDelayMs = 20;
    try {
      const results = await Promise.allSettled([FakeWebContainer.boot(), FakeWebContainer.boot()]);
      expect(results[0]!.status).toBe("fulfilled");
      expect(results[1]!.status).toBe("rejected");
      (results[0] as PromiseFulfilledResult<FakeWebContainer>).value.teardown();
    } finally {
      FakeWebContainer.bootDelayMs = 0;
    }
  });
});
