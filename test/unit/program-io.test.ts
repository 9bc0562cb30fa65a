// Programs' standard streams in the shell (program-command.ts over output-routing.ts): output that
// reaches the terminal is delivered while the program runs, in order across stdout and stderr;
// captured output comes back at the end; only a foreground program of the interactive terminal
// reads the terminal. Also the cooked terminal line (terminal-input.ts).
import { defineCommand } from "just-bash";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { BashHost } from "../../src/runtime/browser/bash-host";
import { programStdio } from "../../src/runtime/browser/program-command";
import { CookedInput, type ProgramTerminal } from "../../src/runtime/browser/terminal-input";
import { BEAT_MS, DEAD_AFTER_MS, FrameWatchdog, GAP_FACTOR, MAX_SILENCE_MS, type WatchdogClock } from "../../src/runtime/sandbox/frame-watchdog";
import { MAILBOX_CAPACITY, createMailbox, put, take } from "../../src/runtime/sandbox/stdin-mailbox";
import { openStorage } from "../../src/storage";
import { runNodeInProcess } from "../support/run-node";
import { SandboxHost, type SandboxEndpoint, type SandboxEvent } from "../../src/runtime/sandbox";

const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

let counter = 0;
async function hostWith(onProgram: (stdio: ReturnType<typeof programStdio>) => Promise<number>) {
  const storage = await openStorage({ name: `program-io-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  disposers.push(() => files.dispose());
  const shell: { host?: BashHost } = {};
  const node = defineCommand("node", async (_args, ctx) => {
    const stdio = programStdio(ctx, { terminalOf: (fs) => shell.host?.terminalOf(fs) });
    stdio.err(ctx.env.get("SHOW_SOURCE") ? `source=${shell.host?.sourceOf(ctx.fs)}\n` : "");
    return stdio.finish(await onProgram(stdio));
  });
  shell.host = new BashHost(files, [node], {});
  return shell.host;
}

describe("program output", () => {
  it("reaches the terminal while the program runs, stdout and stderr in the order written", async () => {
    let release!: () => void;
    const chunks: string[] = [];
    const host = await hostWith(async (stdio) => {
      stdio.out("one\n");
      stdio.err("two\n");
      stdio.out("three\n");
      await new Promise<void>((resolve) => (release = resolve));
      return 0;
    });
    const run = host.run("echo before; node; echo after", { source: "terminal", onOutput: (chunk) => chunks.push(`${chunk.stream}:${chunk.text}`) });
    await expect.poll(() => chunks.length).toBe(4);
    expect(chunks).toEqual(["stdout:before\n", "stdout:one\n", "stderr:two\n", "stdout:three\n"]);
    release();
    const result = await run;
    expect(chunks.at(-1)).toBe("stdout:after\n");
    expect(result.stdout).toBe("before\none\nthree\nafter\n");
    expect(result.stderr).toBe("two\n");
  });

  it("is captured where the script captures it (pipe, file, 2>&1, $(...)), and the marker stays out of the program's env", async () => {
    const host = await hostWith(async (stdio) => {
      stdio.out(`env=${"WEBCODE_STREAMS" in stdio.env}\n`);
      stdio.err("E\n");
      return 3;
    });
    expect((await host.run("node | tr a-z A-Z", { source: "agent" })).stdout).toBe("ENV=FALSE\n");
    expect((await host.run("node 2>&1 | wc -l", { source: "agent" })).stdout.trim()).toBe("2");
    const both = await host.run("node 2>&1; echo $?", { source: "agent" });
    expect(both.stdout).toBe("env=false\nE\n3\n");
    expect(both.stderr).toBe("");
    expect((await host.run('x=$(node 2>/dev/null); echo "[$x]"', { source: "agent" })).stdout).toBe("[env=false]\n");
  });
});

describe("program input", () => {
  function fakeTerminal(lines: Array<string | null>): ProgramTerminal & { opened: number } {
    const terminal = {
      opened: 0,
      open() {
        terminal.opened += 1;
        return { read: async () => (lines.length > 0 ? lines.shift()! : null), close: () => undefined };
      },
    };
    return terminal;
  }

  it("is the interactive terminal for a foreground program, not when piped, redirected or without a terminal", async () => {
    const host = await hostWith(async (stdio) => {
      const read = stdio.input ? await stdio.input.read() : null;
      stdio.out(`terminal=${stdio.terminal} piped=${stdio.stdin ? new TextDecoder().decode(stdio.stdin).trim() : "-"} read=${JSON.stringify(read)}\n`);
      return 0;
    });
    const terminal = fakeTerminal(["typed\n"]);
    expect((await host.run("node", { source: "terminal", terminal })).stdout).toBe('terminal=true piped=- read="typed\\n"\n');
    expect((await host.run("echo hi | node", { source: "terminal", terminal })).stdout).toBe("terminal=false piped=hi read=null\n");
    expect((await host.run("node <<< here", { source: "terminal", terminal })).stdout).toBe("terminal=false piped=here read=null\n");
    expect((await host.run("node", { source: "agent" })).stdout).toBe("terminal=false piped=- read=null\n");
    expect(terminal.opened).toBe(1);
    // Who a command's writes are attributed to is found from the file system it was handed, too.
    expect((await host.run("SHOW_SOURCE=1 node", { source: "agent" })).stderr).toBe("source=agent\n");
  });
});

describe("the cooked terminal line", () => {
  it("echoes and edits what is typed and hands it over at Enter; Ctrl-D ends input", async () => {
    let echoed = "";
    const input = new CookedInput((text) => (echoed += text));
    const first = input.read();
    for (const text of ["a", "bX"]) input.key({ type: "text", text });
    input.key({ type: "key", name: "backspace" });
    input.key({ type: "key", name: "enter" });
    await expect(first).resolves.toBe("ab\n");
    expect(echoed).toBe("abX\b \b\r\n");
    input.key({ type: "text", text: "one two" });
    input.key({ type: "key", name: "kill-word-back" });
    input.key({ type: "key", name: "eof" });
    await expect(input.read()).resolves.toBe("one ");
    input.key({ type: "key", name: "eof" });
    await expect(input.read()).resolves.toBeNull();
  });

  it("keeps lines typed before a read, and gives back what nobody read", () => {
    const input = new CookedInput(() => undefined);
    input.key({ type: "text", text: "ls" });
    input.key({ type: "key", name: "enter" });
    input.key({ type: "text", text: "pw" });
    expect(input.close()).toEqual({ lines: ["ls"], partial: "pw" });
  });
});

describe("the synchronous terminal mailbox", () => {
  it("hands one answer at a time, the end of input as null, at most its capacity", () => {
    const mailbox = createMailbox()!;
    // The answer is put when asked (here, in the same thread, before take() waits).
    expect(take(mailbox, () => put(mailbox, new TextEncoder().encode("ada\n")))).toEqual(new TextEncoder().encode("ada\n"));
    expect(take(mailbox, () => put(mailbox, new Uint8Array(MAILBOX_CAPACITY + 10)))?.length).toBe(MAILBOX_CAPACITY);
    expect(take(mailbox, () => put(mailbox, null))).toBeNull();
  });
});

describe("a runtime's status note", () => {
  it("reaches the terminal, and never a file, pipe or capture that the program's stderr goes to", async () => {
    const chunks: string[] = [];
    const host = await hostWith(async (stdio) => {
      stdio.status("Loading the runtime…\n");
      stdio.err("program error\n");
      return 0;
    });
    await host.run("node", { source: "terminal", onOutput: (chunk) => chunks.push(chunk.text) });
    expect(chunks.join("")).toBe("Loading the runtime…\nprogram error\n");
    const captured = await host.run("node > out.txt 2>&1; cat out.txt; x=$(node 2>&1); echo \"[$x]\"; node 2>&1 | tr a-z A-Z", { source: "terminal" });
    expect(captured.stdout).toBe("program error\n[program error]\nPROGRAM ERROR\n");
  });
});

describe("the sandbox frame's watchdog", () => {
  function fakeClock() {
    let now = 0;
    let tick: (() => void) | undefined;
    const clock: WatchdogClock = {
      now: () => now,
      every(_ms, fn) {
        tick = fn;
        return () => (tick = undefined);
      },
    };
    return {
      clock,
      advance(ms: number, beating: () => void = () => undefined) {
        for (let t = 0; t < ms; t += BEAT_MS) {
          now += BEAT_MS;
          beating();
          tick?.();
        }
      },
      get running() {
        return tick !== undefined;
      },
    };
  }

  it("reports a frame whose beats stop while a program runs, not one that beats, nor when nothing runs", () => {
    const time = fakeClock();
    let dead = 0;
    const watchdog = new FrameWatchdog(() => (dead += 1), time.clock);
    expect(time.running).toBe(false);
    const end = watchdog.watch();
    time.advance(DEAD_AFTER_MS * 3, () => watchdog.beat());
    expect(dead).toBe(0);
    time.advance(DEAD_AFTER_MS - BEAT_MS);
    expect(dead).toBe(0);
    time.advance(BEAT_MS);
    expect(dead).toBe(1);
    expect(time.running).toBe(false);
    end();
    watchdog.watch()();
    expect(time.running).toBe(false);
  });

  it("takes a starved frame's late beats for a live frame, and still reports one that stops for good", () => {
    const time = fakeClock();
    let dead = 0;
    const watchdog = new FrameWatchdog(() => (dead += 1), time.clock);
    watchdog.watch();
    // A loaded machine: the frame's process gets the CPU now and then, its beats 4 s apart while a
    // worker starts (the page's own timers on time). 3 s of silence used to mean death.
    for (let round = 0; round < 5; round++) {
      time.advance(4000);
      expect(dead).toBe(0);
      watchdog.beat();
    }
    // Beats 5 s apart now: the silence allowed has grown with the gaps seen.
    for (let round = 0; round < 5; round++) {
      time.advance(5000);
      watchdog.beat();
    }
    expect(dead).toBe(0);
    expect(watchdog.allowedSilence()).toBe(GAP_FACTOR * 5000);
    // The process is gone: no beat again. Reported once the silence allowed has passed.
    time.advance(GAP_FACTOR * 5000 - BEAT_MS);
    expect(dead).toBe(0);
    time.advance(BEAT_MS);
    expect(dead).toBe(1);
  });

  it("never allows more than MAX_SILENCE_MS of silence, however starved the frame was", () => {
    const time = fakeClock();
    let dead = 0;
    const watchdog = new FrameWatchdog(() => (dead += 1), time.clock);
    watchdog.watch();
    time.advance(7000);
    watchdog.beat();
    time.advance(20_000);
    watchdog.beat();
    expect(dead).toBe(0);
    expect(watchdog.allowedSilence()).toBe(MAX_SILENCE_MS);
    time.advance(MAX_SILENCE_MS);
    expect(dead).toBe(1);
  });
});

describe("node reading the terminal", () => {
  it("answers readline's question, then data events until Ctrl-D; stdin is a tty", async () => {
    const asked = await runNodeInProcess(
      ["-e", "const rl = require('readline').createInterface({ input: process.stdin, output: process.stdout }); rl.question('name? ', (a) => { console.log('hello ' + a + ' ' + process.stdin.isTTY); rl.close(); });"],
      {},
      { terminal: ["ada\n"] },
    );
    expect(asked.stdout).toBe("name? hello ada true\n");
    expect(asked.exitCode).toBe(0);
    const counted = await runNodeInProcess(
      ["-e", "let all = ''; process.stdin.on('data', (d) => (all += d)); process.stdin.on('end', () => console.log(JSON.stringify(all)));"],
      {},
      { terminal: ["one\n", "two", null] },
    );
    expect(counted.stdout).toBe('"one\\ntwo"\n');
    const lines = await runNodeInProcess(
      ["-e", "(async () => { const rl = require('readline').createInterface({ input: process.stdin }); for await (const line of rl) console.log('>' + line); console.log('end'); })()"],
      {},
      { terminal: ["a\n", "b\n", null] },
    );
    expect(lines.stdout).toBe(">a\n>b\nend\n");
  });
});

describe("the sandbox host answering terminal reads", () => {
  it("answers each read with what was typed, a blocking read at most the mailbox's size, then the end", async () => {
    const answers: Array<number | null> = [];
    let emit!: (event: SandboxEvent) => void;
    const endpoint: SandboxEndpoint = {
      send(message) {
        if (message.type === "run") return void emit({ type: "stdin-read", sync: true });
        if (message.type !== "stdin") return;
        answers.push(message.data === null ? null : message.data.length);
        if (message.data === null) emit({ type: "exit", code: 0 });
        else emit({ type: "stdin-read", sync: answers.length < 2 });
      },
      onEvent: (listener) => void (emit = listener),
      onCrash: () => undefined,
      terminate: () => undefined,
    };
    const typed = ["x".repeat(MAILBOX_CAPACITY + 5), null];
    const host = new SandboxHost(() => endpoint, { keepSpare: false });
    const result = await host.run(
      { type: "run", files: [], dirs: [], args: [], env: {}, cwd: "/", stdin: null, terminal: true },
      { stdin: { read: async () => typed.shift() ?? null } },
    );
    expect(result.exitCode).toBe(0);
    expect(answers).toEqual([MAILBOX_CAPACITY, 5, null]);
  });
});
