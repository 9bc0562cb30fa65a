// The runtime that never waits: which pages may try WebContainer, the page's one background boot,
// and the workspace runtime that starts on the browser runtime and moves to WebContainer.
import { afterEach, describe, expect, it } from "vitest";
import { Emitter } from "../../src/base";
import {
  UPGRADE_NOTICE,
  WebContainerBoot,
  WorkspaceFiles,
  WorkspaceRuntime,
  describeFallback,
  parseRuntimeOverride,
  restoreRuntimeSettings,
  stageReason,
  webContainerBlocked,
  type FallbackReason,
  type Runtime,
  type RuntimeProblem,
  type RuntimeStage,
  type Shell,
} from "../../src/runtime";
import { openStorage } from "../../src/storage";

let counter = 0;
const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

/** A booted "container" for the boot tests: only its identity and teardown matter. */
class Box {
  tornDown = false;
  constructor(readonly id: number) {}
}

/** A boot function whose calls the test settles by hand. */
function scriptedBoot() {
  const calls: Array<{ resolve: (box: Box) => void; reject: (error: Error) => void }> = [];
  return {
    calls,
    boot: () => new Promise<Box>((resolve, reject) => calls.push({ resolve, reject })),
  };
}

function newBoot(timeoutMs = 40, blocked?: FallbackReason) {
  const script = scriptedBoot();
  const boot = new WebContainerBoot<Box>({ boot: script.boot, teardown: (box) => (box.tornDown = true), timeoutMs, blocked });
  const seen: string[] = [];
  boot.onDidChange((status) => seen.push(status.state));
  cleanup.push(() => boot.dispose());
  return { boot, script, seen };
}

describe("webContainerBlocked", () => {
  const base = { enabled: true, crossOriginIsolated: true, browserSupported: true };
  it("tries WebContainer only where it can run and the user wants it", () => {
    expect(webContainerBlocked(base)).toBeUndefined();
    expect(webContainerBlocked({ ...base, enabled: false })).toEqual({ kind: "disabled" });
    expect(webContainerBlocked({ ...base, crossOriginIsolated: false })).toEqual({ kind: "not-isolated" });
    expect(webContainerBlocked({ ...base, browserSupported: false })).toEqual({ kind: "unsupported-browser" });
    expect(webContainerBlocked({ ...base, override: "browser" })).toEqual({ kind: "forced" });
    // ?runtime=webcontainer tries even where the checks say no (and still never blocks the page).
    expect(webContainerBlocked({ enabled: false, crossOriginIsolated: false, browserSupported: false, override: "webcontainer" })).toBeUndefined();
  });
});

describe("restoreRuntimeSettings", () => {
  it("defaults, keeps valid fields, clamps the timeout and ignores junk", () => {
    const git = { gitCorsProxy: "", gitAccessToken: "", gitTokenHost: "github.com", githubAccessToken: "", githubApiUrl: "", syncServerUrl: "", syncAccessToken: "", syncWorkspaces: [], syncRooms: {}, syncDisplayName: "" };
    expect(restoreRuntimeSettings(undefined)).toEqual({ useWebContainer: true, webContainerApiKey: "", bootTimeoutMs: 15_000, ...git });
    expect(restoreRuntimeSettings({ useWebContainer: false, webContainerApiKey: " wc_api_x ", bootTimeoutMs: 30_000 })).toEqual({
      useWebContainer: false,
      webContainerApiKey: "wc_api_x",
      bootTimeoutMs: 30_000,
      ...git,
    });
    expect(restoreRuntimeSettings({ bootTimeoutMs: 5 }).bootTimeoutMs).toBe(2_000);
    expect(restoreRuntimeSettings({ bootTimeoutMs: 10 ** 9 }).bootTimeoutMs).toBe(120_000);
    expect(restoreRuntimeSettings({ useWebContainer: "yes", webContainerApiKey: 42 })).toEqual(restoreRuntimeSettings(undefined));
    expect(restoreRuntimeSettings([1, 2])).toEqual(restoreRuntimeSettings(undefined));
  });
});

describe("WebContainerBoot: one boot per page", () => {
  it("does nothing until started, then boots once and is ready", async () => {
    const { boot, script, seen } = newBoot(1000);
    expect(boot.status).toEqual({ state: "idle" });
    expect(script.calls).toHaveLength(0);
    boot.start();
    boot.start();
    expect(script.calls).toHaveLength(1);
    expect(boot.status.state).toBe("booting");
    const box = new Box(1);
    script.calls[0]!.resolve(box);
    await tick();
    expect(boot.status).toEqual({ state: "ready" });
    expect(boot.ready).toBe(box);
    boot.start();
    expect(script.calls).toHaveLength(1);
    expect(seen).toEqual(["booting", "ready"]);
  });

  it("gives up at the timeout, never boots a second time by itself, and tears down a late container", async () => {
    const { boot, script } = newBoot(30);
    boot.start();
    await tick(60);
    expect(boot.status).toMatchObject({ state: "unavailable", reason: { kind: "boot-timeout", timeoutMs: 30 }, canRetry: true });
    await tick(60);
    expect(script.calls).toHaveLength(1);
    const late = new Box(1);
    script.calls[0]!.resolve(late);
    await tick();
    expect(late.tornDown).toBe(true);
    expect(boot.ready).toBeUndefined();
    expect(boot.status.state).toBe("unavailable");
  });

  it("Retry while the first boot is still pending waits on it again instead of calling boot() twice", async () => {
    const { boot, script } = newBoot(30);
    boot.start();
    await tick(50);
    expect(boot.status.state).toBe("unavailable");
    boot.retry();
    expect(boot.status.state).toBe("booting");
    expect(script.calls).toHaveLength(1);
    const box = new Box(1);
    script.calls[0]!.resolve(box);
    await tick();
    expect(boot.status.state).toBe("ready");
    expect(boot.ready).toBe(box);
    expect(box.tornDown).toBe(false);
  });

  it("a failed boot is reported, not retried by itself, and Retry boots anew once it settled", async () => {
    const { boot, script } = newBoot(1000);
    boot.start();
    script.calls[0]!.reject(new Error("Unable to create more instances"));
    await tick();
    expect(boot.status).toEqual({ state: "unavailable", reason: { kind: "boot-failed", message: "Unable to create more instances" }, canRetry: true });
    await tick(20);
    expect(script.calls).toHaveLength(1);
    boot.retry();
    expect(script.calls).toHaveLength(2);
    script.calls[1]!.resolve(new Box(2));
    await tick();
    expect(boot.status.state).toBe("ready");
  });

  it("Retry after a late container was torn down boots again (never while one is pending)", async () => {
    const { boot, script } = newBoot(20);
    boot.start();
    await tick(40);
    script.calls[0]!.resolve(new Box(1));
    await tick();
    boot.retry();
    expect(script.calls).toHaveLength(2);
    boot.retry(); // already booting: ignored
    expect(script.calls).toHaveLength(2);
  });

  it("a boot function that throws synchronously is a failed boot", async () => {
    const boot = new WebContainerBoot<Box>({
      boot: () => {
        throw new Error("SharedArrayBuffer is not defined");
      },
      teardown: () => undefined,
      timeoutMs: 1000,
    });
    cleanup.push(() => boot.dispose());
    boot.start();
    await tick();
    expect(boot.status).toMatchObject({ state: "unavailable", reason: { kind: "boot-failed", message: "SharedArrayBuffer is not defined" } });
  });

  it("blocked pages never boot: off (settings, ?runtime=browser) or unavailable without Retry", () => {
    for (const [reason, state] of [
      [{ kind: "disabled" }, "off"],
      [{ kind: "forced" }, "off"],
      [{ kind: "not-isolated" }, "unavailable"],
      [{ kind: "unsupported-browser" }, "unavailable"],
    ] as const) {
      const { boot, script } = newBoot(10, reason);
      boot.start();
      boot.retry();
      expect(boot.status.state).toBe(state);
      if (boot.status.state === "unavailable") expect(boot.status.canRetry).toBe(false);
      expect(script.calls).toHaveLength(0);
    }
  });

  it("dispose tears down the booted container and one that arrives later", async () => {
    const first = newBoot(1000);
    first.boot.start();
    const box = new Box(1);
    first.script.calls[0]!.resolve(box);
    await tick();
    first.boot.dispose();
    expect(box.tornDown).toBe(true);
    const second = newBoot(1000);
    second.boot.start();
    second.boot.dispose();
    const late = new Box(2);
    second.script.calls[0]!.resolve(late);
    await tick();
    expect(late.tornDown).toBe(true);
  });
});

/** A runtime that records what ran on it; its shell is "idle" unless told otherwise. */
class RecordingRuntime implements Runtime {
  readonly ran: string[] = [];
  readonly shells: RecordingShell[] = [];
  readonly servers = new Emitter<{ port: number; url: string }>();
  readonly problems = new Emitter<RuntimeProblem>();
  readonly closed = new Emitter<number>();
  disposed = false;
  readonly capabilities;
  constructor(
    readonly kind: Runtime["kind"],
    readonly fs: WorkspaceFiles,
    private readonly hold?: Promise<void>,
  ) {
    const node = kind === "webcontainer";
    this.capabilities = { node, npm: node, servers: node };
  }
  async exec(command: string) {
    this.ran.push(command);
    await this.hold;
    return { output: `${this.kind}: ${command}\n`, exitCode: 0 };
  }
  openShell(): Shell {
    const shell = new RecordingShell(this.kind);
    this.shells.push(shell);
    return shell;
  }
  onServerReady(listener: (port: number, url: string) => void) {
    return this.servers.event(({ port, url }) => listener(port, url));
  }
  onServerClosed(listener: (port: number) => void) {
    return this.closed.event(listener);
  }
  onDidReportProblem(listener: (problem: RuntimeProblem) => void) {
    return this.problems.event(listener);
  }
  dispose() {
    this.disposed = true;
  }
}

class RecordingShell implements Shell {
  readonly typed: string[] = [];
  readonly out = new Emitter<string>();
  idle = true;
  disposed = false;
  private waiters: Array<() => void> = [];
  constructor(readonly kind: string) {}
  write(data: string) {
    this.typed.push(data);
  }
  onData(listener: (data: string) => void) {
    return this.out.event(listener);
  }
  resize() {}
  whenIdle() {
    return this.idle ? Promise.resolve() : new Promise<void>((resolve) => this.waiters.push(resolve));
  }
  becomeIdle() {
    this.idle = true;
    for (const resolve of this.waiters.splice(0)) resolve();
  }
  dispose() {
    this.disposed = true;
  }
}

async function workspaceRuntime(options: { timeoutMs?: number; blocked?: FallbackReason; attachFails?: boolean } = {}) {
  const storage = await openStorage({ name: `workspace-runtime-${counter++}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  const browser = new RecordingRuntime("browser", files);
  const { boot, script } = newBoot(options.timeoutMs ?? 1000, options.blocked);
  const attached: Array<{ box: Box; runtime: RecordingRuntime }> = [];
  const host = new WorkspaceRuntime<Box>({
    files,
    browser,
    webcontainer: boot,
    attach: async (box, f) => {
      if (options.attachFails) throw new Error("mount failed");
      const runtime = new RecordingRuntime("webcontainer", f);
      attached.push({ box, runtime });
      return runtime;
    },
  });
  const stages: RuntimeStage[] = [];
  host.onDidChange((stage) => stages.push(stage));
  cleanup.push(() => {
    host.dispose();
    files.dispose();
  });
  return { files, browser, boot, script, host, attached, stages };
}

describe("WorkspaceRuntime: the browser runtime at once, WebContainer as an upgrade", () => {
  it("runs commands in the browser runtime while WebContainer boots, then in the container", async () => {
    const { host, browser, boot, script, attached, stages } = await workspaceRuntime();
    expect(host.kind).toBe("browser");
    expect(host.stage).toEqual({ stage: "starting" });
    boot.start();
    expect((await host.exec("echo one")).output).toBe("browser: echo one\n");
    script.calls[0]!.resolve(new Box(1));
    await tick();
    expect(host.kind).toBe("webcontainer");
    expect(host.capabilities.node).toBe(true);
    expect(host.stage).toEqual({ stage: "node" });
    expect((await host.exec("node -v")).output).toBe("webcontainer: node -v\n");
    expect(browser.ran).toEqual(["echo one"]);
    expect(attached[0]!.runtime.ran).toEqual(["node -v"]);
    expect(stages).toEqual([{ stage: "node" }]);
  });

  it("a command already running in the browser runtime finishes there", async () => {
    const storage = await openStorage({ name: `workspace-runtime-${counter++}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    let release!: () => void;
    const browser = new RecordingRuntime("browser", files, new Promise<void>((resolve) => (release = resolve)));
    const { boot, script } = newBoot(1000);
    const host = new WorkspaceRuntime<Box>({ files, browser, webcontainer: boot, attach: async (_box, f) => new RecordingRuntime("webcontainer", f) });
    cleanup.push(() => host.dispose());
    boot.start();
    const long = host.exec("sleep 5");
    script.calls[0]!.resolve(new Box(1));
    await tick();
    expect(host.kind).toBe("webcontainer");
    release();
    expect((await long).output).toBe("browser: sleep 5\n");
  });

  it("stays on the browser runtime and says why when the boot times out; Retry can still upgrade", async () => {
    const { host, boot, script, stages } = await workspaceRuntime({ timeoutMs: 20 });
    boot.start();
    await tick(40);
    expect(host.kind).toBe("browser");
    expect(host.stage).toMatchObject({ stage: "unavailable", reason: { kind: "boot-timeout" }, canRetry: true });
    expect(stageReason(host.stage)).toMatch(/did not start within/);
    expect((await host.exec("ls")).exitCode).toBe(0);
    host.retry();
    expect(host.stage).toEqual({ stage: "starting" });
    script.calls[0]!.resolve(new Box(1));
    await tick();
    expect(host.stage).toEqual({ stage: "node" });
    expect(stages.map((s) => s.stage)).toEqual(["unavailable", "starting", "node"]);
  });

  it("off in Settings: the browser runtime, never 'starting'", async () => {
    const { host, boot, script } = await workspaceRuntime({ blocked: { kind: "disabled" } });
    boot.start();
    expect(host.stage).toEqual({ stage: "browser", reason: { kind: "disabled" } });
    expect(stageReason(host.stage)).toMatch(/turned off in Settings/);
    expect(script.calls).toHaveLength(0);
  });

  it("a workspace opened after the boot moves at once; a failed mount is shown with Retry", async () => {
    const first = await workspaceRuntime({ attachFails: true });
    first.boot.start();
    first.script.calls[0]!.resolve(new Box(1));
    await tick();
    expect(first.host.kind).toBe("browser");
    expect(first.host.stage).toMatchObject({ stage: "unavailable", canRetry: true });
    expect(stageReason(first.host.stage)).toMatch(/mount failed/);
  });

  it("the terminal says in one line that new commands run in Node.js and hands over when its shell is idle", async () => {
    const { host, browser, boot, script, attached } = await workspaceRuntime();
    const shell = host.openShell({ cols: 80, rows: 24 });
    const screen: string[] = [];
    shell.onData((data) => screen.push(data));
    const old = browser.shells[0]!;
    old.idle = false; // a command is running
    boot.start();
    script.calls[0]!.resolve(new Box(1));
    await tick();
    expect(screen.join("")).toContain(UPGRADE_NOTICE);
    expect(old.disposed).toBe(false);
    shell.write("x");
    expect(old.typed).toEqual(["x"]);
    old.becomeIdle();
    await tick();
    expect(old.disposed).toBe(true);
    const jsh = attached[0]!.runtime.shells[0]!;
    shell.write("node -v\r");
    expect(jsh.typed).toEqual(["node -v\r"]);
    jsh.out.fire("v20\r\n");
    expect(screen.at(-1)).toBe("v20\r\n");
    expect(screen.join("").split(UPGRADE_NOTICE)).toHaveLength(2);
  });

  it("reports servers of the runtime it moved to to listeners that subscribed before", async () => {
    const { host, boot, script, attached } = await workspaceRuntime();
    const servers: number[] = [];
    host.onServerReady((port) => servers.push(port));
    boot.start();
    script.calls[0]!.resolve(new Box(1));
    await tick();
    attached[0]!.runtime.servers.fire({ port: 5173, url: "https://x" });
    expect(servers).toEqual([5173]);
  });

  it("forwards the container's problems and stopped servers to listeners that subscribed before the move", async () => {
    const { host, boot, script, attached } = await workspaceRuntime();
    const problems: string[] = [];
    const closed: number[] = [];
    host.onDidReportProblem((problem) => problems.push(problem.message));
    host.onServerClosed((port) => closed.push(port));
    boot.start();
    script.calls[0]!.resolve(new Box(1));
    await tick();
    attached[0]!.runtime.problems.fire({ kind: "file-sync", message: "sync failed: EACCES" });
    attached[0]!.runtime.closed.fire(5173);
    expect(problems).toEqual(["sync failed: EACCES"]);
    expect(closed).toEqual([5173]);
  });

  it("dispose releases both runtimes; the container stays with the page", async () => {
    const { host, browser, boot, script, attached } = await workspaceRuntime();
    boot.start();
    const box = new Box(1);
    script.calls[0]!.resolve(box);
    await tick();
    host.dispose();
    expect(browser.disposed).toBe(true);
    expect(attached[0]!.runtime.disposed).toBe(true);
    expect(box.tornDown).toBe(false);
    expect(boot.status.state).toBe("ready");
  });
});

describe("parseRuntimeOverride", () => {
  it("reads the runtime parameter", () => {
    expect(parseRuntimeOverride("?runtime=browser")).toBe("browser");
    expect(parseRuntimeOverride("runtime=webcontainer&x=1")).toBe("webcontainer");
    expect(parseRuntimeOverride("?a=b&runtime=WebContainer")).toBe("webcontainer");
    expect(parseRuntimeOverride("?runtime=node")).toBeUndefined();
    expect(parseRuntimeOverride("")).toBeUndefined();
  });
});

describe("describeFallback", () => {
  it("says what happened, exactly what works in the browser runtime, and what WebContainer adds", () => {
    const reasons: FallbackReason[] = [
      { kind: "not-isolated" },
      { kind: "unsupported-browser" },
      { kind: "boot-timeout", timeoutMs: 15_000 },
      { kind: "boot-failed", message: "kaputt" },
      { kind: "forced" },
      { kind: "disabled" },
    ];
    for (const reason of reasons) {
      const notice = describeFallback(reason);
      expect(notice.title.length).toBeGreaterThan(0);
      // node and npm work in the browser runtime: the notice never says they do not (issue 28 point 7).
      expect(notice.detail).toContain("Browser runtime: node, npm, python3, git,");
      expect(notice.detail).toContain("Preview of front-end apps");
      expect(notice.detail).toContain("node's http servers, which the Preview and curl reach, and vite build");
      expect(notice.detail).toMatch(/WebContainer adds npm packages with install scripts or native code, Node\.js dev servers and most bundlers \(next, webpack, esbuild\)/);
      expect(notice.detail).not.toMatch(/node, npm and dev servers do not|to get node and npm/);
    }
    expect(describeFallback({ kind: "not-isolated" }).detail).toMatch(/cross-origin isolated/);
    expect(describeFallback({ kind: "boot-timeout", timeoutMs: 15_000 }).detail).toMatch(/15 s/);
    expect(describeFallback({ kind: "boot-failed", message: "kaputt" }).detail).toContain("kaputt");
    expect(describeFallback({ kind: "forced" }).detail).toContain("?runtime=browser");
    expect(describeFallback({ kind: "disabled" }).detail).toContain("Settings → Runtime");
    // A stalled boot names the likely causes besides the network.
    expect(describeFallback({ kind: "boot-timeout", timeoutMs: 15_000 }).detail).toMatch(/third-party cookies/);
  });
});
