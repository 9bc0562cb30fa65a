// What the browser runtime's shell promises beyond running commands: `history`, stdout and stderr
// in the order they were written (also streamed as they come), no messages meant for just-bash's
// embedders, and interruption that really stops the command (busy loops, no writes afterwards).
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { defineCommand, getCommandNames } from "just-bash";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { BashHost } from "../../src/runtime/browser/bash-host";
import type { InteractiveShell } from "../../src/runtime/browser/interactive-shell";
import { stripAnsi } from "../../src/runtime/browser/terminal-text";
import { openStorage } from "../../src/storage";

let counter = 0;
const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

async function open() {
  const storage = await openStorage({ name: `runtime-shell-promises-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  const runtime = createBrowserRuntime(files);
  const shell = runtime.openShell({ cols: 120, rows: 24 }) as InteractiveShell;
  let raw = "";
  shell.onData((data) => (raw += data));
  disposers.push(() => {
    shell.dispose();
    runtime.dispose();
    files.dispose();
  });
  const type = async (line: string) => {
    const from = raw.length;
    shell.write(`${line}\r`);
    await shell.whenIdle();
    return stripAnsi(raw.slice(from)).replace(/\r/g, "");
  };
  return { files, runtime, shell, type, raw: () => raw };
}

describe("history", () => {
  it("lists the lines typed in this terminal, numbered like bash, with a count", async () => {
    const t = await open();
    await t.type("echo one");
    await t.type("echo two");
    expect(await t.type("history")).toContain("    1  echo one\n    2  echo two\n    3  history\n");
    const lastTwo = await t.type("history 2");
    expect(lastTwo).toContain("    3  history\n    4  history 2\n");
    expect(lastTwo).not.toContain("echo one");
  });

  it("history -c clears it (Up finds nothing older) and numbering starts again", async () => {
    const t = await open();
    await t.type("echo secret-ish");
    await t.type("history -c");
    const listed = await t.type("history");
    expect(listed).not.toContain("secret-ish");
    expect(listed).toContain("    1  history\n");
    // Up goes no further back than that `history`, whatever came before the clear.
    const recalled = await t.type("\x1b[A\x1b[A\x1b[A");
    expect(recalled).not.toContain("secret-ish");
    // (An immediate repeat is not recorded again, like bash with HISTCONTROL=ignoredups.)
    expect(recalled).toMatch(/ {4}1 {2}history\n(?! {4}2)/);
  });

  it("history -d deletes one entry and bad arguments say what is wrong", async () => {
    const t = await open();
    await t.type("echo a");
    await t.type("echo b");
    await t.type("history -d 1");
    expect(await t.type("history")).toMatch(/ {4}1 {2}echo b\n {4}2 {2}history -d 1\n {4}3 {2}history\n/);
    expect(await t.type("history x")).toContain("history: x: numeric argument required");
    expect(await t.type("history -d 99")).toContain("history: 99: history position out of range");
    expect(await t.type("history -z")).toContain("history: -z: invalid option");
  });

  it("is empty for the agent's commands, as in a non-interactive bash", async () => {
    const t = await open();
    await t.type("echo typed");
    const result = await t.runtime.exec("history; echo done");
    expect(result).toMatchObject({ output: "done\n", exitCode: 0 });
  });
});

describe("output order", () => {
  const cases: Array<[string, string]> = [
    ["echo a; echo b >&2; echo c", "a\nb\nc\n"],
    ["for i in 1 2; do echo $i; echo e$i >&2; done", "1\ne1\n2\ne2\n"],
    ["if true; then echo x >&2; echo y; fi", "x\ny\n"],
    ["f() { echo fn; echo fe >&2; }; echo start >&2; f", "start\nfn\nfe\n"],
    ["{ echo g1; echo g2 >&2; } 2>&1 | cat; echo end >&2", "g1\ng2\nend\n"],
    ["{ echo kept; echo shown >&2; } > /tmp/out; echo then; cat /tmp/out", "shown\nthen\nkept\n"],
    ["echo p | tr p q; nosuch; echo hidden 2>/dev/null >&2; ls /nope; echo last", "q\nbash: nosuch: command not found\nls: /nope: No such file or directory\nlast\n"],
    ["x=$(echo inner; echo captured-err >&2); echo got $x", "got inner\ncaptured-err\n"],
    ["cd /tmp && pwd; export A=1; read v <<< 'rv'; echo $A $v", "/tmp\n1 rv\n"],
  ];
  it.each(cases)("%s", async (script, expected) => {
    const t = await open();
    const result = await t.runtime.exec(script);
    expect(result.output).toBe(expected);
  });

  it("streams each command's output as it finishes, not at the end", async () => {
    const t = await open();
    const seen: Array<{ chunk: string; at: number }> = [];
    const started = Date.now();
    await t.runtime.exec("echo first; sleep 0.4; echo second >&2", { onOutput: (chunk) => seen.push({ chunk, at: Date.now() - started }) });
    expect(seen.map((s) => s.chunk)).toEqual(["first\n", "second\n"]);
    // Output held to the end would arrive as one burst; streamed, the sleep lies between the two.
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(350);
  });

  it("shows stdout and (red) stderr in the terminal in the order they were written", async () => {
    const t = await open();
    const from = t.raw().length;
    await t.type("echo a; echo b >&2; echo c");
    const raw = t.raw().slice(from);
    expect(stripAnsi(raw).replace(/\r/g, "")).toMatch(/\na\nb\nc\n/);
    expect(raw).toMatch(/\x1b\[31mb\r\n/);
  });
});

describe("messages for the user, not for just-bash's embedders", () => {
  it.each(["tar cf out.tar .", "sqlite3 db", "yq .a f.yaml", "xan count f.csv"])("%s says it is not available here", async (command) => {
    const t = await open();
    const result = await t.runtime.exec(command);
    expect(result.exitCode).toBe(127);
    expect(result.output).toMatch(/is not available in the browser runtime/);
    expect(result.output).not.toMatch(/Node\.js bundle|Exclude|BashEnv|executionLimits|Bash options/);
  });

  it("no command's --help speaks to just-bash's embedders", async () => {
    const t = await open();
    const names = [...getCommandNames(), "curl", "zip", "unzip", "history"];
    const offenders: string[] = [];
    for (const name of names) {
      const result = await t.runtime.exec(`${name} --help`, { timeoutMs: 5000 });
      if (/BashEnv|Bash options|executionLimits|Node\.js bundle|network option|embedd/i.test(result.output)) offenders.push(`${name}: ${result.output.slice(0, 200)}`);
    }
    expect(offenders).toEqual([]);
    const converted = await t.runtime.exec("echo '<h1>Hi</h1>' | html-to-markdown");
    expect(converted.output).toBe("# Hi\n");
  }, 60_000);

  it("limits are explained without naming just-bash's options", async () => {
    const t = await open();
    const result = await t.runtime.exec("f() { f; }; f");
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toMatch(/maximum recursion depth/);
    expect(result.output).toMatch(/a limit of the browser runtime/);
    expect(result.output).not.toMatch(/executionLimits/);
    // Also when the command's own stderr says it (routed to the terminal as it happens).
    const nested = await t.runtime.exec("bash -c 'f() { f; }; f'; echo after");
    expect(nested.output).toMatch(/maximum recursion depth \(\d+\) exceeded \(a limit of the browser runtime/);
    expect(nested.output).not.toMatch(/executionLimits/);
    expect(nested.output).toMatch(/after\n$/);
  });

  it("loops longer than just-bash's default 100,000 iterations run", async () => {
    const t = await open();
    const result = await t.runtime.exec("for ((i=0; i<100005; i++)); do :; done; echo $i", { timeoutMs: 60_000 });
    expect(result).toMatchObject({ output: "100005\n", exitCode: 0 });
  }, 60_000);
});

describe("interruption stops the command itself", () => {
  it("Ctrl-C stops a busy loop in the terminal and the next command runs at once", async () => {
    const t = await open();
    t.shell.write("while true; do :; done\r");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const pressed = Date.now();
    t.shell.write("\x03");
    t.shell.write("echo ok\r");
    await t.shell.whenIdle();
    // The loop never ends by itself; the bound is loose because a loaded machine may stall the test.
    expect(Date.now() - pressed).toBeLessThan(5000);
    expect(stripAnsi(t.raw()).replace(/\r/g, "")).toMatch(/\^C\n.*echo ok\nok\n/s);
  });

  it("the agent's exec stops a busy loop when its signal aborts, and the loop stops for good", async () => {
    const t = await open();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await t.runtime.exec("while true; do echo x >> count.txt; done", { signal: controller.signal });
    expect(result).toMatchObject({ exitCode: 143, aborted: true });
    expect(Date.now() - started).toBeLessThan(5000);
    const length = (await t.files.readText("count.txt")).length;
    expect(length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await t.files.readText("count.txt")).length).toBe(length);
  });

  it("timers keep running while a busy loop runs (it yields to the page)", async () => {
    const t = await open();
    let ticks = 0;
    const interval = setInterval(() => ticks++, 10);
    try {
      const result = await t.runtime.exec("while true; do :; done", { timeoutMs: 600 });
      expect(result.exitCode).toBe(124);
    } finally {
      clearInterval(interval);
    }
    // A loop that never yields gives 0 ticks; a loaded machine may give only a few.
    expect(ticks).toBeGreaterThan(2);
  });

  it("a command still in flight when interrupted writes nothing after the interrupt", async () => {
    const storage = await openStorage({ name: `runtime-shell-promises-${counter++}-${Date.now()}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    disposers.push(() => files.dispose());
    // A command that, like a download, keeps going after its signal and writes when done.
    const slowWriter = defineCommand("slow-write", async (_args, ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await ctx.fs.writeFile(`${ctx.cwd}/late.txt`, "written after the interrupt");
      return { stdout: "", stderr: "", exitCode: 0 };
    });
    const host = new BashHost(files, [slowWriter], {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await host.run("slow-write", { source: "runtime", signal: controller.signal });
    expect(result.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await files.exists("late.txt")).toBe(false);
    // A later run works normally.
    expect((await host.run("echo fine > ok.txt", { source: "runtime" })).exitCode).toBe(0);
    expect(await files.readText("ok.txt")).toBe("fine\n");
  });
});
