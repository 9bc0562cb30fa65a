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
  /** Moves `files` into the booted container (clears its work folder, mounts, syncs). */
  attach?: (container: C, files: WorkspaceFiles) => Promise<Runtime>;
}

/** A shell that can tell whether it is waiting at an empty prompt (the browser runtime's can). */
interface IdleAwareShell extends Shell {
  readonly idle?: boolean;
  whenIdle?(): Promise<void>;
}

export const UPGRADE_NOTICE = "Node.js (WebContainer) is ready: new commands in this terminal now run there.";

export class WorkspaceRuntime<C = unknown> implements Runtime, RuntimeUpgrade {
  readonly fs: WorkspaceFiles;
  private active: Runtime;
  private upgraded: Runtime | undefined;
  private attaching = false;
  private attachError: string | undefined;
  private currentStage: RuntimeStage;
  private readonly stageChanged = new Emitter<RuntimeStage>();
  private readonly switched = new Emitter<Runtime>();
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

  exec(command: string, options?: ExecOptions): Promise<ExecResult> {
    return this.active.exec(command, options);
  }

  openShell(size: { cols: number; rows: number }): Shell {
    return new SwitchingShell(this.active, size, (listener) => this.switched.event(listener));
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

  previewRequest(url: string): Promise<PreviewReply | undefined> {
    return this.options.browser.previewRequest?.(url) ?? Promise.resolve(undefined);
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
    const onSwitch = this.switched.event(add);
    return toDisposable(() => {
      onSwitch.dispose();
      for (const d of inner.splice(0)) d.dispose();
    });
  }

  private onBootChange(): void {
    const boot = this.options.webcontainer;
    const container = boot?.ready;
    if (container !== undefined && !this.upgraded && !this.attaching && this.attachError === undefined && this.options.attach) {
      this.attaching = true;
      void this.moveTo(container);
    }
    this.updateStage();
  }

  private async moveTo(container: C): Promise<void> {
    let runtime: Runtime;
    try {
      runtime = await this.options.attach!(container, this.fs);
    } catch (error) {
      this.attaching = false;
      this.attachError = errorMessage(error);
      this.updateStage();
      return;
    }
    this.attaching = false;
    if (this.disposed) {
      runtime.dispose();
      return;
    }
    this.upgraded = runtime;
    this.active = runtime;
    this.switched.fire(runtime);
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
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.upgraded?.dispose();
    this.options.browser.dispose();
    this.stageChanged.dispose();
    this.switched.dispose();
  }
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

/**
 * The terminal's shell: opens on the runtime of the moment; when the workspace moves to
 * WebContainer it says so in one line and hands over to a new `jsh` as soon as the old shell is idle
 * at an empty prompt (a command still running finishes in the browser runtime first).
 */
class SwitchingShell implements Shell {
  private inner: IdleAwareShell;
  private innerOutput: Disposable;
  private readonly output = new Emitter<string>();
  private pendingRuntime: Runtime | undefined;
  private waiting = false;
  private size: { cols: number; rows: number };
  private readonly onSwitch: Disposable;
  private disposed = false;

  constructor(runtime: Runtime, size: { cols: number; rows: number }, subscribe: (listener: (runtime: Runtime) => void) => Disposable) {
    this.size = size;
    this.inner = runtime.openShell(size);
    this.innerOutput = this.inner.onData((data) => this.fromInner(data));
    this.onSwitch = subscribe((next) => {
      this.pendingRuntime = next;
      this.output.fire(`\r\n\x1b[36m${UPGRADE_NOTICE}\x1b[0m\r\n`);
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
    this.inner = next.openShell(this.size);
    this.innerOutput = this.inner.onData((data) => this.fromInner(data));
  }

  write(data: string): void {
    this.inner.write(data);
    if (this.pendingRuntime) queueMicrotask(() => this.trySwitch());
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
    this.onSwitch.dispose();
    this.innerOutput.dispose();
    this.inner.dispose();
    this.output.dispose();
  }
}
