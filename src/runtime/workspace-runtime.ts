// The runtime a workspace gets: the browser runtime at once, moving to WebContainer when the page's
// container is ready (docs/architecture.md, "Runtime"). One object for the workspace's whole life,
// so the agent, terminal and preview hold on to it; each call goes to the runtime of that moment:
// a command already running in the browser runtime finishes there, the next one runs in Node.js.
import { Emitter, errorMessage, toDisposable, type Disposable } from "../base";
import { fallbackCause } from "./fallback";
import type { WebContainerBoot, WebContainerStatus } from "./webcontainer-boot";
import type {
  ChangeSource,
  ExecOptions,
  ExecResult,
  PreviewHotUpdate,
  PreviewReply,
  PreviewRequest,
  PreviewStart,
  PreviewStartOptions,
  Runtime,
  RuntimeProblem,
  RuntimeStage,
  RuntimeUpgrade,
  Shell,
} from "./types";
import type { WorkspaceFiles } from "./workspace-files";

export interface WorkspaceRuntimeOptions<C> {
  files: WorkspaceFiles;
  /** The browser runtime over `files` (ready at once). */
  browser: Runtime;
  /** The page's WebContainer boot; absent: the browser runtime only. */
  webcontainer?: WebContainerBoot<C>;
  /**
   * Moves `files` into the booted container (waits for the previous workspace to let go of it,
   * clears its work folder, mounts, syncs). `signal` is aborted when this workspace closes first.
   */
  attach?: (container: C, files: WorkspaceFiles, signal: AbortSignal) => Promise<Runtime>;
  /**
   * Asks the container whether it still answers; rejects when it does not (in time). Checked every
   * `healthIntervalMs` while the workspace runs there: after HEALTH_FAILURES failures in a row the
   * workspace falls back to the browser runtime and the container is given up (Retry boots anew).
   */
  probe?: (container: C) => Promise<void>;
  healthIntervalMs?: number;
}

/** How often a running container is asked whether it still answers. */
export const HEALTH_INTERVAL_MS = 30_000;
/** Failed checks in a row before the container counts as lost (one slow answer under load is not). */
export const HEALTH_FAILURES = 2;

/**
 * Commands that run in the browser runtime even after the move to WebContainer, because the
 * container has none of them (git) or a lesser one (its python3 has no pip and no .venv): webcode's
 * git (isomorphic-git), pip and python3 (Pyodide) work on the same workspace files, which the sync
 * keeps current both ways. Only a command line that starts with one of them is routed.
 */
export const BROWSER_ROUTED_COMMANDS = ["git", "pip", "pip3", "python", "python3"] as const;
const ROUTED_LINE = new RegExp(`^\\s*(${BROWSER_ROUTED_COMMANDS.join("|")})(\\s|$)`);

/** Whether a command line goes to the browser runtime while the workspace runs in WebContainer. */
export function routesToBrowser(command: string): boolean {
  return ROUTED_LINE.test(command);
}

export const FALLBACK_NOTICE = "WebContainer stopped answering: new commands in this terminal run in the browser runtime again (Retry in the status bar).";

interface Switch {
  runtime: Runtime;
  notice: string;
}

/** A shell that can tell whether it is waiting at an empty prompt (the browser runtime's can). */
interface IdleAwareShell extends Shell {
  readonly idle?: boolean;
  whenIdle?(): Promise<void>;
}

export const UPGRADE_NOTICE =
  "Node.js (WebContainer) is ready: new commands in this terminal now run there (git, pip and python3 still run in the browser runtime; npm install there installs its own node_modules).";

export class WorkspaceRuntime<C = unknown> implements Runtime, RuntimeUpgrade {
  readonly fs: WorkspaceFiles;
  private active: Runtime;
  private upgraded: Runtime | undefined;
  /** The attach in flight (at most one), and how to cancel it. */
  private attachment: { done: Promise<void>; abort: AbortController } | undefined;
  private attachError: string | undefined;
  private health: { timer: ReturnType<typeof setInterval>; failures: number; checking: boolean } | undefined;
  private closing: Promise<void> | undefined;
  private currentStage: RuntimeStage;
  private readonly stageChanged = new Emitter<RuntimeStage>();
  private readonly switched = new Emitter<Switch>();
  private readonly subscriptions: Disposable[] = [];
  private disposed = false;

  constructor(private readonly options: WorkspaceRuntimeOptions<C>) {
    this.fs = options.files;
    this.active = options.browser;
    this.currentStage = this.computeStage();
    const boot = options.webcontainer;
    if (boot) {
      this.subscriptions.push(boot.onDidChange(() => this.onBootChange()));
      this.onBootChange();
    }
  }

  get kind() {
    return this.active.kind;
  }

  get capabilities() {
    return this.active.capabilities;
  }

  get stage(): RuntimeStage {
    return this.currentStage;
  }

  onDidChange(listener: (stage: RuntimeStage) => void): Disposable {
    return this.stageChanged.event(listener);
  }

  retry(): void {
    if (this.attachError !== undefined) {
      this.attachError = undefined;
      this.onBootChange();
      return;
    }
    this.options.webcontainer?.retry();
  }

  async exec(command: string, options?: ExecOptions): Promise<ExecResult> {
    const upgraded = this.upgraded;
    if (upgraded && this.active === upgraded && routesToBrowser(command)) return this.execInBrowser(upgraded, command, options);
    return this.active.exec(command, options);
  }

  /** git, pip, python3 after the move: on the browser runtime, over files the container's last changes are in. */
  private async execInBrowser(container: Runtime, command: string, options?: ExecOptions): Promise<ExecResult> {
    await container.settle?.();
    const result = await this.options.browser.exec(command, options);
    // What it changed (a checkout, an install into .venv) is in the container before the next command.
    await container.settle?.();
    return result;
  }

  openShell(size: { cols: number; rows: number }): Shell {
    return new SwitchingShell(this.active, size, (listener) => this.switched.event(listener), {
      routes: routesToBrowser,
      upgraded: () => this.upgraded !== undefined && this.active === this.upgraded,
      runInBrowser: (command, options) => this.exec(command, options),
    });
  }

  /** The built-in preview (the browser runtime's) is reported in every stage; WebContainer's servers once it runs. */
  onServerReady(listener: (port: number, url: string, startedBy?: ChangeSource) => void): Disposable {
    const browser = this.options.browser;
    const builtin = browser.onServerReady(listener);
    const others = this.followActive((runtime) => (runtime === browser ? undefined : runtime.onServerReady(listener)));
    return toDisposable(() => {
      builtin.dispose();
      others.dispose();
    });
  }

  onServerClosed(listener: (port: number) => void): Disposable {
    return this.followActive((runtime) => runtime.onServerClosed?.(listener));
  }

  /** The built-in preview is the browser runtime's in every stage: it serves from the workspace files. */
  startPreview(options?: PreviewStartOptions): Promise<PreviewStart> {
    const browser = this.options.browser;
    if (!browser.startPreview) return Promise.reject(new Error("The built-in preview is not available in this page."));
    return browser.startPreview(options);
  }

  previewRequest(url: string, request?: PreviewRequest): Promise<PreviewReply | undefined> {
    return this.options.browser.previewRequest?.(url, request) ?? Promise.resolve(undefined);
  }

  previewUpdate(url: string, build: string): Promise<PreviewHotUpdate> {
    return this.options.browser.previewUpdate?.(url, build) ?? Promise.resolve({ kind: "reload", reason: "no built-in preview" });
  }

  onDidReportProblem(listener: (problem: RuntimeProblem) => void): Disposable {
    return this.followActive((runtime) => runtime.onDidReportProblem?.(listener));
  }

  /** Subscribes on the runtime of the moment and on each one the workspace moves to. */
  private followActive(subscribe: (runtime: Runtime) => Disposable | undefined): Disposable {
    const inner: Disposable[] = [];
    const add = (runtime: Runtime) => {
      const subscription = subscribe(runtime);
      if (subscription) inner.push(subscription);
    };
    add(this.active);
    const onSwitch = this.switched.event(({ runtime }) => add(runtime));
    return toDisposable(() => {
      onSwitch.dispose();
      for (const d of inner.splice(0)) d.dispose();
    });
  }

  private onBootChange(): void {
    const boot = this.options.webcontainer;
    const container = boot?.ready;
    if (container !== undefined && !this.upgraded && !this.attachment && this.attachError === undefined && this.options.attach && !this.disposed) {
      const abort = new AbortController();
      this.attachment = { abort, done: this.moveTo(container, abort.signal) };
    }
    this.updateStage();
  }

  private async moveTo(container: C, signal: AbortSignal): Promise<void> {
    let runtime: Runtime;
    try {
      runtime = await this.options.attach!(container, this.fs, signal);
    } catch (error) {
      this.attachment = undefined;
      if (this.disposed) return;
      this.attachError = errorMessage(error);
      this.updateStage();
      return;
    }
    this.attachment = undefined;
    if (this.disposed) {
      await closeRuntime(runtime);
      return;
    }
    this.upgraded = runtime;
    this.active = runtime;
    this.switched.fire({ runtime, notice: UPGRADE_NOTICE });
    this.updateStage();
    this.watchHealth(container);
  }

  private watchHealth(container: C): void {
    const probe = this.options.probe;
    if (!probe) return;
    const health = { failures: 0, checking: false, timer: setInterval(() => void check(), this.options.healthIntervalMs ?? HEALTH_INTERVAL_MS) };
    this.health = health;
    const check = async () => {
      if (health.checking || this.health !== health) return;
      health.checking = true;
      try {
        await probe(container);
        health.failures = 0;
      } catch (error) {
        if (++health.failures >= HEALTH_FAILURES && this.health === health) this.fallBack(container, errorMessage(error));
      } finally {
        health.checking = false;
      }
    };
  }

  private stopHealth(): void {
    if (this.health) clearInterval(this.health.timer);
    this.health = undefined;
  }

  /** The container stopped answering: back to the browser runtime, and the page's boot gives it up. */
  private fallBack(container: C, message: string): void {
    const lost = this.upgraded;
    if (!lost || this.disposed) return;
    this.stopHealth();
    this.upgraded = undefined;
    this.active = this.options.browser;
    this.switched.fire({ runtime: this.options.browser, notice: FALLBACK_NOTICE });
    // Not awaited: a container that does not answer would keep close() waiting for nothing.
    lost.dispose();
    this.options.webcontainer?.lost(container, message);
    this.updateStage();
  }

  private computeStage(): RuntimeStage {
    if (this.upgraded) return { stage: "node" };
    if (this.attachError !== undefined) {
      return { stage: "unavailable", reason: { kind: "boot-failed", message: `the workspace could not be moved into WebContainer: ${this.attachError}` }, canRetry: true };
    }
    const status: WebContainerStatus | undefined = this.options.webcontainer?.status;
    if (!status) return { stage: "browser", reason: { kind: "disabled" } };
    switch (status.state) {
      case "off":
        return { stage: "browser", reason: status.reason };
      case "idle":
      case "booting":
      case "ready": // mounting the workspace
        return { stage: "starting" };
      case "unavailable":
        return { stage: "unavailable", reason: status.reason, canRetry: status.canRetry };
    }
  }

  private updateStage(): void {
    const next = this.computeStage();
    if (sameStage(next, this.currentStage)) return;
    this.currentStage = next;
    this.stageChanged.fire(next);
  }

  /** Why node/npm are not here yet, for the browser runtime's answer to `node` and the notice. */
  waitingReason(): string {
    const stage = this.currentStage;
    return stageReason(stage);
  }

  dispose(): void {
    void this.close();
  }

  /**
   * Closes the workspace's runtime: cancels an attach in flight and waits for it, then waits for
   * the container runtime to end its processes and bring its last changes into the files, so the
   * next workspace finds the container free and this one's files complete.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.disposed = true;
    this.stopHealth();
    for (const s of this.subscriptions.splice(0)) s.dispose();
    const attachment = this.attachment;
    attachment?.abort.abort(new Error("The workspace was closed."));
    // Everything stops now (closing a runtime kills its processes at once); the waiting follows.
    const closing = this.upgraded ? closeRuntime(this.upgraded) : undefined;
    this.options.browser.dispose();
    this.switched.dispose();
    this.stageChanged.dispose();
    await attachment?.done;
    await closing;
  }
}

function closeRuntime(runtime: Runtime): Promise<void> {
  if (runtime.close) return runtime.close();
  runtime.dispose();
  return Promise.resolve();
}

/** The clause after "node needs Node.js (WebContainer); …". */
export function stageReason(stage: RuntimeStage): string {
  switch (stage.stage) {
    case "node":
      return "it is running: open a new terminal";
    case "starting":
      return "it is starting in the background: try again in a moment";
    case "browser":
      return stage.reason.kind === "forced"
        ? "the page was opened with ?runtime=browser"
        : "it is turned off in Settings → Runtime";
    case "unavailable":
      return `it is unavailable here: ${fallbackCause(stage.reason)}`;
  }
}

function sameStage(a: RuntimeStage, b: RuntimeStage): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

interface ShellRouting {
  /** Whether a typed command line goes to the browser runtime. */
  routes(line: string): boolean;
  /** Whether the workspace runs in WebContainer now (else a line goes on as typed). */
  upgraded(): boolean;
  /** Runs a routed line in the browser runtime. */
  runInBrowser(command: string, options: ExecOptions): Promise<ExecResult>;
}

/**
 * The terminal's shell: opens on the runtime of the moment; when the workspace moves to
 * WebContainer (or back, when it stops answering) it says so in one line and hands over to a new
 * shell as soon as the old one is idle at an empty prompt (a command still running finishes where
 * it started).
 *
 * In WebContainer's jsh, a line typed from scratch that starts with git, pip or python3 is run in
 * the browser runtime instead (BROWSER_ROUTED_COMMANDS): the typed line is tracked as plain keys;
 * on Enter it is erased from jsh's line, run with its output shown here, and jsh is given an
 * empty Enter for a fresh prompt. A line edited with cursor keys, history or completion is not
 * known here and goes to jsh as typed.
 */
class SwitchingShell implements Shell {
  private inner: IdleAwareShell;
  private innerRuntime: Runtime;
  private innerOutput: Disposable;
  private readonly output = new Emitter<string>();
  private pendingRuntime: Runtime | undefined;
  private waiting = false;
  private size: { cols: number; rows: number };
  private readonly onSwitch: Disposable;
  /** The line typed at jsh's prompt, as far as it is known (undefined: edited in ways not followed). */
  private line: string | undefined = "";
  /** A routed command running in the browser runtime: keys go to its Ctrl-C only. */
  private routed: AbortController | undefined;
  private disposed = false;

  constructor(
    runtime: Runtime,
    size: { cols: number; rows: number },
    subscribe: (listener: (change: Switch) => void) => Disposable,
    private readonly routing?: ShellRouting,
  ) {
    this.size = size;
    this.innerRuntime = runtime;
    this.inner = runtime.openShell(size);
    this.innerOutput = this.inner.onData((data) => this.fromInner(data));
    this.onSwitch = subscribe(({ runtime: next, notice }) => {
      this.pendingRuntime = next;
      this.output.fire(`\r\n\x1b[36m${notice}\x1b[0m\r\n`);
      this.trySwitch();
    });
  }

  private fromInner(data: string): void {
    this.output.fire(data);
  }

  private trySwitch(): void {
    const next = this.pendingRuntime;
    if (!next || this.disposed) return;
    // Shells that cannot say whether they are idle are switched at once. A busy one is checked
    // again when it has handled its keys and command; one with a half-typed line, on the next key.
    if (this.inner.idle === false) {
      if (!this.waiting && this.inner.whenIdle) {
        this.waiting = true;
        void this.inner.whenIdle().then(() => {
          this.waiting = false;
          if (this.inner.idle !== false) this.trySwitch();
        });
      }
      return;
    }
    this.pendingRuntime = undefined;
    this.innerOutput.dispose();
    this.inner.dispose();
    this.innerRuntime = next;
    this.line = "";
    this.inner = next.openShell(this.size);
    this.innerOutput = this.inner.onData((data) => this.fromInner(data));
  }

  write(data: string): void {
    if (this.disposed) return;
    if (this.routed) {
      if (data.includes("\x03")) this.routed.abort();
      return;
    }
    if (this.routing && this.innerRuntime.kind === "webcontainer") this.writeRouted(data);
    else this.inner.write(data);
    if (this.pendingRuntime) queueMicrotask(() => this.trySwitch());
  }

  /** Follows the typed line; on Enter, a routed command runs in the browser runtime. */
  private writeRouted(data: string): void {
    let forward = "";
    for (let i = 0; i < data.length; i++) {
      const ch = data[i]!;
      if (ch === "\r" && this.line !== undefined && this.routing!.routes(this.line) && this.routing!.upgraded()) {
        const line = this.line;
        // Everything after the Enter in this chunk (a paste of several lines) is dropped: the
        // command runs first, and its own prompt comes back through jsh.
        this.inner.write(forward + "\x7f".repeat(line.length));
        void this.runRouted(line);
        return;
      }
      forward += ch;
      if (ch === "\r" || ch === "\x03" || ch === "\x15") this.line = "";
      else if (ch === "\x7f" || ch === "\b") this.line = this.line?.slice(0, -1);
      else if (ch === "\x1b" || ch === "\t" || ch < " ") this.line = undefined;
      else if (this.line !== undefined) this.line += ch;
    }
    this.inner.write(forward);
  }

  private async runRouted(line: string): Promise<void> {
    this.line = "";
    const abort = new AbortController();
    this.routed = abort;
    this.output.fire(`${line}\r\n`);
    let endsLine = true;
    const print = (chunk: string) => {
      if (this.disposed || chunk === "") return;
      this.output.fire(chunk.replace(/\r?\n/g, "\r\n"));
      endsLine = chunk.endsWith("\n");
    };
    try {
      await this.routing!.runInBrowser(line, { signal: abort.signal, onOutput: print, source: "terminal" });
    } catch (error) {
      print(`${errorMessage(error)}\n`);
    } finally {
      this.routed = undefined;
    }
    if (this.disposed) return;
    // An empty Enter gives jsh's next prompt; the cursor goes back up so that no blank line is left.
    if (endsLine) this.output.fire("\x1b[1A");
    this.inner.write("\r");
  }

  onData(listener: (data: string) => void): Disposable {
    return this.output.event(listener);
  }

  resize(size: { cols: number; rows: number }): void {
    this.size = size;
    this.inner.resize(size);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.routed?.abort();
    this.onSwitch.dispose();
    this.innerOutput.dispose();
    this.inner.dispose();
    this.output.dispose();
  }
}
