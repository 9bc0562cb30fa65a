// The WebContainer runtime: node, npm and dev servers in the page. Kept thin: the public API only,
// with the workspace mounted and kept in step by ContainerFileSync.
//
// The agent's commands (exec) run unattended: no prompt may wait for an answer nobody sees, and
// the model reads plain text. So they run with CI-style environment defaults, their input is at
// end-of-file from the start, a command left waiting at a prompt is stopped and explained, and
// their output is cleaned (command-output.ts). The terminal (openShell) keeps the raw bytes.
import { Emitter, PathError, errorMessage, normalizePath, type Disposable } from "../../base";
import type { ChangeSource, ExecOptions, ExecResult, Runtime, RuntimeProblem, Shell } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { CommandOutput } from "./command-output";
import { ContainerFileSync, MARKER_TIMEOUT_MS } from "./file-sync";
import { ProcessShell } from "./process-shell";
import type { ProcessLike, WebContainerLike } from "./webcontainer-like";
import { delay, watchInterruption } from "../interruption";

export const EXIT_TIMEOUT = 124;
export const EXIT_ABORTED = 130;
/** Stopped because it waited for an answer (as if its input had been cut). */
export const EXIT_PROMPT = 1;
/** After a process exits, how long its output stream may take to drain. */
const OUTPUT_DRAIN_MS = 500;
/** A command silent this long with a question on its last line is waiting for input: stopped. */
export const PROMPT_IDLE_MS = 8000;
/** A background command (`cmd &`) returns when its server is ready, or after this long. */
export const BACKGROUND_WAIT_MS = 30_000;
/**
 * close(): how long the workspace's processes get to exit after kill(), and its servers' ports to
 * report closing, before the container is handed to the next workspace anyway.
 */
export const STOP_WAIT_MS = 2000;

/** What a closed runtime leaves to the next workspace on the same container. */
export interface ContainerHandoff {
  /** Processes that were killed but had not exited (reported once, by the next runtime). */
  survivors: string[];
}

export const NO_HANDOFF: ContainerHandoff = { survivors: [] };

/**
 * Environment for the agent's commands (the command's own `env` wins): CI makes npm, test runners
 * (vitest, jest) and scaffolders run once without asking; no colour codes.
 */
export const EXEC_ENV_DEFAULTS: Readonly<Record<string, string>> = {
  CI: "1",
  npm_config_yes: "true",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
  npm_config_color: "false",
  npm_config_progress: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
  npm_config_update_notifier: "false",
};

/** End of input on a terminal (Ctrl-D): a program reading its input sees end-of-file. */
const END_OF_INPUT = "\x04";

/** The last line of a program waiting for an answer: a question, a choice, a "›" or ":" cue. */
const PROMPT_LINE = /(\?\s*(\(.*\))?|[›❯:>]|\(y\/n\)|\[y\/n\]|\(yes\/no\))\s*$/i;

/** `cmd &` (but not `a && b`): run in the background. */
const BACKGROUND = /(^|[^&])&\s*$/;

export interface WebContainerRuntimeOptions {
  /** Extra folders kept out of the sync (besides the defaults and the workspace's list). */
  syncExclude?: readonly string[];
  /** Overrides PROMPT_IDLE_MS (tests). */
  promptIdleMs?: number;
  /** Overrides BACKGROUND_WAIT_MS (tests). */
  backgroundWaitMs?: number;
  /** Overrides STOP_WAIT_MS. */
  stopWaitMs?: number;
  /** Left by the previous workspace on this container (attachWebContainer passes it on). */
  inherited?: ContainerHandoff;
  /** Called once close() is done, with what is left for the next workspace. */
  onClosed?: (handoff: ContainerHandoff) => void;
}

export class WebContainerRuntime implements Runtime {
  readonly kind = "webcontainer" as const;
  readonly capabilities = { node: true, npm: true, servers: true };
  readonly sync: ContainerFileSync;
  private readonly running = new Map<ProcessLike, ChangeSource>();
  /** Commands started with `&` that outlived their exec call; stopped with the runtime. */
  private readonly background = new Set<ProcessLike>();
  private readonly shells = new Set<Shell>();
  private readonly servers = new Map<number, string>();
  private readonly serverReady = new Emitter<{ port: number; url: string }>();
  private readonly serverClosed = new Emitter<number>();
  private readonly problems = new Emitter<RuntimeProblem>();
  private readonly unsubscribe: Array<() => void> = [];
  /** Every process this runtime started (commands and shells) until it exits, with its command line. */
  private readonly processes = new Map<ProcessLike, string>();
  /** Problems met before anyone listened (at attach), told to the first listener. */
  private readonly earlyProblems: RuntimeProblem[] = [];
  private closing: Promise<void> | undefined;
  private disposed = false;

  constructor(
    private readonly container: WebContainerLike,
    readonly fs: WorkspaceFiles,
    private readonly options: WebContainerRuntimeOptions = {},
  ) {
    this.sync = new ContainerFileSync(container, fs, {
      sourceOfContainerChanges: () => this.currentSource(),
      exclude: options.syncExclude,
      onError: (error) => this.report({ kind: "file-sync", message: errorMessage(error) }),
    });
    this.unsubscribe.push(
      container.on("server-ready", (port, url) => {
        this.servers.set(port, url);
        this.serverReady.fire({ port, url });
      }),
      container.on("port", (port, type) => {
        if (type !== "close") return;
        const known = this.servers.delete(port);
        if (known) this.serverClosed.fire(port);
      }),
      container.on("error", (error) => {
        this.report({ kind: "container", message: error?.message || "WebContainer reported an error without a message." });
      }),
    );
    const survivors = options.inherited?.survivors ?? [];
    if (survivors.length > 0) {
      const list = survivors.slice(0, 3).join(", ") + (survivors.length > 3 ? ` and ${survivors.length - 3} more` : "");
      this.report({
        kind: "container",
        message: `${survivors.length === 1 ? "A process" : `${survivors.length} processes`} of the previous workspace did not stop when asked (${list}) and may still run in WebContainer; reload the page to clear ${survivors.length === 1 ? "it" : "them"}.`,
      });
    }
  }

  private report(problem: RuntimeProblem): void {
    if (this.problems.listenerCount === 0) this.earlyProblems.push(problem);
    else this.problems.fire(problem);
  }

  /** Spawns in the container and keeps track of the process until it exits. */
  private async spawn(command: string, args: string[], options: Parameters<WebContainerLike["spawn"]>[2]): Promise<ProcessLike> {
    const process = await this.container.spawn(command, args, options);
    this.processes.set(process, [command, ...args].join(" "));
    void process.exit.then(
      () => this.processes.delete(process),
      () => this.processes.delete(process),
    );
    return process;
  }

  /** Mounts the workspace and starts syncing. */
  start(): Promise<void> {
    return this.sync.start();
  }

  settle(): Promise<void> {
    return this.sync.settle();
  }

  /** Changes seen in the container belong to the agent while its command runs, else the terminal. */
  private currentSource(): ChangeSource {
    let source: ChangeSource = "terminal";
    for (const s of this.running.values()) source = s;
    return source;
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (this.disposed) return { output: "The runtime has been shut down. Reload the page.\n", exitCode: 1 };
    if (options.signal?.aborted) return { output: "Command aborted.\n", exitCode: EXIT_ABORTED, aborted: true };
    let cwd: string | undefined;
    try {
      cwd = options.cwd ? normalizePath(options.cwd) || undefined : undefined;
    } catch (error) {
      if (error instanceof PathError) return { output: `${error.message}\n`, exitCode: 1 };
      throw error;
    }
    const inBackground = BACKGROUND.test(command);
    const script = inBackground ? command.replace(/&\s*$/, "").trimEnd() : command;
    // What the editor and the agent wrote just before is in the container before the command reads it.
    await this.sync.pushed();
    let process: ProcessLike;
    try {
      process = await this.spawn("jsh", ["-c", script], { cwd, env: { ...EXEC_ENV_DEFAULTS, ...options.env } });
    } catch (error) {
      return { output: `The command could not be started in WebContainer: ${errorMessage(error)}\n`, exitCode: 1 };
    }
    if (this.disposed) {
      process.kill();
      return { output: "The runtime has been shut down. Reload the page.\n", exitCode: 1 };
    }
    this.running.set(process, options.source ?? "runtime");
    // No one can answer a prompt: input is at end-of-file from the start.
    const input = process.input.getWriter();
    void input.write(END_OF_INPUT).catch(() => undefined);
    input.releaseLock();

    const transcript = new CommandOutput();
    let sawOutput: () => void = () => undefined;
    let forward = options.onOutput;
    /** A background command's output after exec returned is read and dropped. */
    let detached = false;
    const reader = process.output.getReader();
    const drained = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        if (detached) continue;
        const clean = transcript.push(value);
        if (clean !== "") forward?.(clean);
        sawOutput();
      }
    })().catch(() => undefined);

    const watch = watchInterruption(options);
    const prompt = this.watchForPrompt(transcript, (listener) => (sawOutput = listener));
    const server = inBackground ? this.waitForServer(options.timeoutMs) : undefined;
    let keepRunning = false;
    try {
      const outcome = await Promise.race([process.exit, watch.interrupted, prompt.waiting, ...(server ? [server.ready] : [])]);
      if (typeof outcome === "number") {
        await Promise.race([drained, delay(OUTPUT_DRAIN_MS)]);
        await this.sync.settle();
        return { output: this.finalText(transcript, forward), exitCode: outcome };
      }
      if (outcome === "still-running" || (typeof outcome === "object" && "url" in outcome)) {
        keepRunning = true;
        await this.sync.settle();
        return { output: this.finalText(transcript, forward, backgroundNote(outcome === "still-running" ? undefined : outcome)), exitCode: 0 };
      }
      process.kill();
      void reader.cancel().catch(() => undefined);
      await this.sync.settle();
      if (typeof outcome === "object") {
        const note = `The command stopped at a prompt waiting for input ("${outcome.prompt.trim()}"), and commands run here cannot be answered. Run it again with options that answer the question (for example --yes, or the flag for that choice), or make the change with the file tools.`;
        return { output: this.finalText(transcript, forward, note), exitCode: EXIT_PROMPT };
      }
      const note = outcome === "timeout" ? `Command timed out after ${options.timeoutMs} ms and was stopped.` : "Command aborted.";
      const output = this.finalText(transcript, forward, note);
      return outcome === "timeout" ? { output, exitCode: EXIT_TIMEOUT, timedOut: true } : { output, exitCode: EXIT_ABORTED, aborted: true };
    } finally {
      this.running.delete(process);
      watch.dispose();
      prompt.dispose();
      server?.dispose();
      if (keepRunning && !this.disposed) {
        // Keeps draining (a full stream would stall the server) but tells no one: the call returned.
        forward = undefined;
        detached = true;
        this.background.add(process);
        void process.exit.then(() => this.background.delete(process));
      }
    }
  }

  /** The clean text for the model, with a closing note; the note also reaches the live view. */
  private finalText(transcript: CommandOutput, forward: ((chunk: string) => void) | undefined, note?: string): string {
    const rest = transcript.finish();
    if (rest !== "") forward?.(rest);
    let output = transcript.text;
    if (note) {
      const line = (output === "" || output.endsWith("\n") ? "" : "\n") + note + "\n";
      forward?.(line);
      output += line;
    }
    return output;
  }

  /** Resolves with the waiting line when the output has been silent for a while on a question. */
  private watchForPrompt(transcript: CommandOutput, onOutput: (listener: () => void) => void) {
    const idleMs = this.options.promptIdleMs ?? PROMPT_IDLE_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let resolveWaiting!: (value: { prompt: string }) => void;
    const waiting = new Promise<{ prompt: string }>((resolve) => (resolveWaiting = resolve));
    const arm = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        const line = transcript.pendingLine;
        if (line.trim() !== "" && PROMPT_LINE.test(line)) resolveWaiting({ prompt: line });
      }, idleMs);
    };
    onOutput(arm);
    return { waiting, dispose: () => timer !== undefined && clearTimeout(timer) };
  }

  /** For `cmd &`: the first server that becomes ready, or "still-running" after a while. */
  private waitForServer(timeoutMs: number | undefined) {
    const waitMs = Math.min(this.options.backgroundWaitMs ?? BACKGROUND_WAIT_MS, timeoutMs ?? Number.POSITIVE_INFINITY);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let subscription: Disposable | undefined;
    const ready = new Promise<{ port: number; url: string } | "still-running">((resolve) => {
      subscription = this.serverReady.event(resolve);
      timer = setTimeout(() => resolve("still-running"), Math.max(0, waitMs - 1));
    });
    return {
      ready,
      dispose: () => {
        subscription?.dispose();
        if (timer !== undefined) clearTimeout(timer);
      },
    };
  }

  openShell(size: { cols: number; rows: number }): Shell {
    const shell: Shell = new ProcessShell(
      (initial) => this.spawn("jsh", [], { terminal: initial }),
      size,
      () => this.shells.delete(shell),
    );
    this.shells.add(shell);
    return shell;
  }

  /** Calls `listener` for servers already up (synchronously, before returning), then for each new one. */
  onServerReady(listener: (port: number, url: string) => void): Disposable {
    for (const [port, url] of this.servers) listener(port, url);
    return this.serverReady.event(({ port, url }) => listener(port, url));
  }

  onServerClosed(listener: (port: number) => void): Disposable {
    return this.serverClosed.event(listener);
  }

  onDidReportProblem(listener: (problem: RuntimeProblem) => void): Disposable {
    const subscription = this.problems.event(listener);
    for (const problem of this.earlyProblems.splice(0)) listener(problem);
    return subscription;
  }

  /** Stops everything at once; the rest of close() (waiting, the last pulls) goes on in the background. */
  dispose(): void {
    void this.close();
  }

  /**
   * Ends this workspace's use of the container, which is the page's and goes on to the next
   * workspace: kills its processes and waits (a while) for them to exit and for their servers'
   * ports to close, so that nothing of this workspace runs on and no late port event reaches the
   * next one; then brings the container's last changes into the workspace files and stops the sync.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.disposed = true;
    for (const shell of [...this.shells]) shell.dispose();
    for (const process of [...this.processes.keys()]) process.kill();
    this.running.clear();
    this.background.clear();
    const stopWaitMs = this.options.stopWaitMs ?? STOP_WAIT_MS;
    const deadline = delay(stopWaitMs);
    const exits = [...this.processes.keys()].map((process) => process.exit.catch(() => undefined));
    await Promise.race([Promise.all(exits), deadline]);
    const survivors = [...this.processes.values()];
    await Promise.race([this.portsClosed(), deadline]);
    // A container that stopped answering would keep the settle waiting: bounded as well.
    await Promise.race([this.sync.settle().catch(() => undefined), delay(stopWaitMs + MARKER_TIMEOUT_MS)]);
    this.sync.dispose();
    for (const off of this.unsubscribe.splice(0)) off();
    this.serverReady.dispose();
    this.serverClosed.dispose();
    this.problems.dispose();
    this.options.onClosed?.({ survivors });
  }

  /** Resolves when every server this runtime reported has closed its port. */
  private portsClosed(): Promise<void> {
    if (this.servers.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const subscription = this.serverClosed.event(() => {
        if (this.servers.size > 0) return;
        subscription.dispose();
        resolve();
      });
    });
  }
}

function backgroundNote(server: { port: number; url: string } | undefined): string {
  return server
    ? `The server is ready on port ${server.port} (${server.url}) and keeps running in the background; the user sees it in the Preview panel. Its further output is not shown.`
    : "The command keeps running in the background (no server became ready yet); its further output is not shown.";
}
