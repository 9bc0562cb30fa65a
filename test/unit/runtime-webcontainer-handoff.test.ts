// Issue 32: one container shared safely between workspaces, and nothing lost on the upgrade.
// The page's one container goes from workspace to workspace: a switch cancels and waits for the
// previous attach, brings the container's last changes into the previous files, ends its processes
// (reporting once those that survive kill()) and waits for its ports to close before the next
// workspace mounts. After the move, git, pip and python3 still run (in the browser runtime), a
// container that stops answering hands the workspace back to the browser runtime, and a shell that
// exited is not written to.
import { afterEach, describe, expect, it } from "vitest";
import { Emitter } from "../../src/base";
import type {
  WorkspaceFiles} from "../../src/runtime";
import {
  WebContainerBoot,
  WorkspaceRuntime,
  type ExecOptions,
  type Runtime,
  type RuntimeProblem,
  type RuntimeStage,
  type Shell,
} from "../../src/runtime";
import { attachWebContainer } from "../../src/runtime/webcontainer";
import { FALLBACK_NOTICE } from "../../src/runtime/workspace-runtime";
import { describeRuntime } from "../../src/agent/prompt/system-prompt";
import { FakeWebContainer, type FakeProcess } from "../support/fake-webcontainer";
import { openWorkspace, setup } from "./webcontainer-harness";

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

/** The browser runtime's stand-in: records what ran on it. */
class BrowserStub implements Runtime {
  readonly kind = "browser" as const;
  readonly capabilities = { node: false, npm: false, servers: false };
  readonly ran: string[] = [];
  readonly shells: Array<{ typed: string[] }> = [];
  constructor(readonly fs: WorkspaceFiles) {}
  async exec(command: string, options?: ExecOptions) {
    this.ran.push(command);
    options?.onOutput?.(`browser ran ${command}\n`);
    return { output: `browser ran ${command}\n`, exitCode: 0 };
  }
  openShell(): Shell {
    const typed: string[] = [];
    this.shells.push({ typed });
    const out = new Emitter<string>();
    return { write: (d) => void typed.push(d), onData: (l) => out.event(l), resize: () => undefined, dispose: () => undefined };
  }
  onServerReady() {
    return { dispose: () => undefined };
  }
  dispose() {}
}

/** The page: one boot of one fake container, shared by the workspaces opened on it. */
function page(fake = new FakeWebContainer()) {
  let boots = 0;
  const containers: FakeWebContainer[] = [];
  const boot = new WebContainerBoot<FakeWebContainer>({
    boot: async () => {
      const container = boots++ === 0 ? fake : new FakeWebContainer();
      containers.push(container);
      return container;
    },
    teardown: (container) => container.teardown(),
    timeoutMs: 5000,
  });
  cleanup.push(() => boot.dispose());
  return { fake, boot, containers, boots: () => boots };
}

async function workspace(
  boot: WebContainerBoot<FakeWebContainer>,
  seed: Record<string, string>,
  extra: Partial<ConstructorParameters<typeof WorkspaceRuntime<FakeWebContainer>>[0]> = {},
) {
  const files = await openWorkspace();
  for (const [path, text] of Object.entries(seed)) await files.writeFile(path, text);
  const browser = new BrowserStub(files);
  const host = new WorkspaceRuntime<FakeWebContainer>({
    files,
    browser,
    webcontainer: boot,
    attach: (container, f, signal) => attachWebContainer(container, f, { signal, stopWaitMs: 200 }),
    ...extra,
  });
  const problems: RuntimeProblem[] = [];
  host.onDidReportProblem((problem) => problems.push(problem));
  cleanup.unshift(() => closeWorkspace(host));
  return { files, browser, host, problems };
}

/**
 * A workspace switch: the controller closes the runtime (before close() existed it called dispose(),
 * and nothing could wait). close() after dispose() is the same closing, so this also runs on that code.
 */
async function closeWorkspace(host: Runtime): Promise<void> {
  host.dispose();
  await host.close?.();
}

async function untilNode(host: WorkspaceRuntime<FakeWebContainer>): Promise<void> {
  await expect.poll(() => host.stage.stage).toBe("node");
}

describe("a workspace switch on the one container", () => {
  it("cancels and waits for the previous attach: the next workspace's container holds only its files", async () => {
    const { fake, boot } = page();
    fake.mountDelayMs = 30;
    boot.start();
    await expect.poll(() => boot.status.state).toBe("ready");
    const a = await workspace(boot, { "a.txt": "from A" });
    await tick(5); // A is mounting
    const closingA = closeWorkspace(a.host);
    const b = await workspace(boot, { "b.txt": "from B" });
    await closingA;
    await untilNode(b.host);
    await tick(60);
    expect(fake.files.has("b.txt")).toBe(true);
    expect(fake.files.has("a.txt")).toBe(false);
    expect(await b.files.exists("a.txt")).toBe(false);
  });

  it("brings the container's last changes into the previous workspace's files before they close", async () => {
    const { fake, boot } = page();
    boot.start();
    const a = await workspace(boot, { "a.txt": "A" });
    await untilNode(a.host);
    fake.write("out/last.txt", "written just before the switch");
    await closeWorkspace(a.host);
    expect(await a.files.readText("out/last.txt")).toBe("written just before the switch");
  });

  it("ends the previous workspace's processes before the next mounts, and reports once those that survive kill()", async () => {
    const { fake, boot } = page();
    const procs: FakeProcess[] = [];
    fake.onSpawn = (proc, _fake, args) => {
      procs.push(proc);
      if (args[1] === "stuck-server") proc.survivesKill = true;
    };
    boot.start();
    const a = await workspace(boot, {});
    await untilNode(a.host);
    void a.host.exec("node server.js");
    void a.host.exec("stuck-server");
    await expect.poll(() => procs.length).toBe(2);
    await closeWorkspace(a.host);
    expect(procs[0]!.exited).toBe(true);
    expect(procs[1]!.exited).toBe(false);

    const b = await workspace(boot, {});
    await untilNode(b.host);
    await expect.poll(() => b.problems.length).toBe(1);
    expect(b.problems[0]!.message).toMatch(/A process of the previous workspace did not stop when asked \(jsh -c stuck-server\).*reload the page to clear it/);
    await closeWorkspace(b.host);
    const c = await workspace(boot, {});
    await untilNode(c.host);
    await tick(20);
    expect(c.problems).toEqual([]);
  });

  it("a late port-close of the previous workspace's server does not stop the next workspace's server on that port", async () => {
    const { fake, boot } = page();
    boot.start();
    const a = await workspace(boot, {});
    await untilNode(a.host);
    fake.emit("server-ready", 5173, "https://a.webcontainer.io");
    // The old dev server's port reports closing a while after it was killed (within close()'s wait).
    const closingA = closeWorkspace(a.host);
    setTimeout(() => fake.emit("port", 5173, "close", "https://a.webcontainer.io"), 150);
    const b = await workspace(boot, {});
    const closed: number[] = [];
    b.host.onServerClosed((port) => closed.push(port));
    await untilNode(b.host);
    await tick(); // on() subscribes a task later
    fake.emit("server-ready", 5173, "https://b.webcontainer.io");
    await closingA;
    await tick(200);
    expect(closed).toEqual([]);
  });
});

describe("nothing lost on the upgrade", () => {
  it("the agent's git, pip and python3 run in the browser runtime over the same files; other commands in the container", async () => {
    const { fake, boot } = page();
    boot.start();
    const a = await workspace(boot, {});
    await untilNode(a.host);
    fake.write("made-in-container.txt", "x");
    for (const command of ["git status", "pip install requests", "python3 main.py", "node -v"]) await a.host.exec(command);
    expect(a.browser.ran).toEqual(["git status", "pip install requests", "python3 main.py"]);
    expect(fake.spawned.map((s) => s.args.join(" "))).toEqual(["-c node -v"]);
    // The container's change was in the files before git looked at them.
    expect(await a.files.readText("made-in-container.txt")).toBe("x");
  });

  it("git typed in the terminal's jsh runs in the browser runtime (before: jsh: command not found: git)", async () => {
    const { fake, boot } = page();
    boot.start();
    const a = await workspace(boot, {});
    await untilNode(a.host);
    const shell = a.host.openShell({ cols: 80, rows: 24 });
    const screen: string[] = [];
    shell.onData((d) => screen.push(d));
    await expect.poll(() => fake.spawned.length).toBe(1);
    const jsh = fake.spawned[0]!.proc;
    shell.write("git log");
    shell.write("\r");
    await expect.poll(() => a.browser.ran).toEqual(["git log"]);
    await expect.poll(() => jsh.typed.join("")).toBe("git log" + "\x7f".repeat(7) + "\r");
    expect(screen.join("")).toContain("browser ran git log\r\n");
    // Other lines go to jsh as typed.
    shell.write("node -v\r");
    await expect.poll(() => jsh.typed.at(-1)).toBe("node -v\r");
    expect(a.browser.ran).toEqual(["git log"]);
  });

  it("the environment block says which commands run where", () => {
    const text = describeRuntime({ kind: "webcontainer", capabilities: { node: true, npm: true, servers: true } });
    expect(text).toMatch(/git, pip and python3 run in webcode's browser runtime/);
    expect(text).not.toMatch(/Not available:.*git/);
    expect(text).toMatch(/node_modules/);
  });

  it("the browser npm's node_modules is never mounted into the container: it installs its own", async () => {
    const { fake } = await setup(async (files) => {
      await files.writeFile("package.json", "{}");
      await files.writeFile("node_modules/left-pad/index.js", "module.exports = 1");
    });
    expect(Object.keys(fake.mounted!)).toEqual(["package.json"]);
    expect(fake.files.has("node_modules/left-pad/index.js")).toBe(false);
  });
});

describe("health and errors", () => {
  it("a container that stops answering: back to the browser runtime with a notice, and Retry boots a new one", async () => {
    const { fake, boot, containers } = page();
    let dead = false;
    boot.start();
    const a = await workspace(boot, {}, { probe: async () => (dead ? Promise.reject(new Error("it did not answer within 10 s")) : undefined), healthIntervalMs: 10 });
    const stages: RuntimeStage[] = [];
    a.host.onDidChange((stage) => stages.push(stage));
    await untilNode(a.host);
    const shell = a.host.openShell({ cols: 80, rows: 24 });
    const screen: string[] = [];
    shell.onData((d) => screen.push(d));
    dead = true;
    await expect.poll(() => a.host.kind).toBe("browser");
    expect(a.host.stage).toEqual({ stage: "unavailable", reason: { kind: "lost", message: "it did not answer within 10 s" }, canRetry: true });
    expect(screen.join("")).toContain(FALLBACK_NOTICE);
    expect(fake.tornDown).toBe(true);
    expect((await a.host.exec("ls")).output).toBe("browser ran ls\n");
    dead = false;
    a.host.retry();
    await untilNode(a.host);
    expect(containers).toHaveLength(2);
  });

  it("nothing writes to or resizes a shell whose process exited", async () => {
    const { fake, runtime } = await setup();
    fake.onSpawn = (proc) => {
      proc.print("$ ");
      setTimeout(() => proc.end(0), 5);
    };
    const shell = runtime.openShell({ cols: 80, rows: 24 });
    shell.onData(() => undefined);
    await tick(30);
    shell.write("ls\r");
    shell.resize({ cols: 100, rows: 30 });
    await tick();
    expect(fake.spawned[0]!.proc.afterExit).toEqual([]);
  });

  it("keeps multi-byte characters whole when output arrives in byte chunks", async () => {
    const { fake, runtime } = await setup();
    fake.outputChunkBytes = 3;
    fake.onSpawn = (proc) => {
      proc.print("✓ passed: héllo wörld 日本\n");
      proc.end(0);
    };
    expect((await runtime.exec("npm test")).output).toBe("✓ passed: héllo wörld 日本\n");
  });
});
