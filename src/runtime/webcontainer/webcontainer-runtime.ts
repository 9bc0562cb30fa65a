// The WebContainer runtime: node, npm and dev servers in the page. Kept thin: the public API only,
// with the workspace mounted and kept in step by ContainerFileSync.
import { Emitter, PathError, errorMessage, normalizePath, type Disposable } from "../../base";
import type { ChangeSource, ExecOptions, ExecResult, Runtime, Shell } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { ContainerFileSync } from "./file-sync";
import { ProcessShell } from "./process-shell";
import type { ProcessLike, WebContainerLike } from "./webcontainer-like";
import { delay, watchInterruption } from "../interruption";

export const EXIT_TIMEOUT = 124;
export const EXIT_ABORTED = 130;
/** After a process exits, how long its output stream may take to drain. */
const OUTPUT_DRAIN_MS = 500;

export class WebContainerRuntime implements Runtime {
  readonly kind = "webcontainer" as const;
  readonly capabilities = { node: true, npm: true, servers: true };
  readonly sync: ContainerFileSync;
  private readonly running = new Map<ProcessLike, ChangeSource>();
  private readonly shells = new Set<Shell>();
  private readonly servers = new Map<number, string>();
  private readonly serverReady = new Emitter<{ port: number; url: string }>();
  private readonly unsubscribe: Array<() => void> = [];
  private disposed = false;

  constructor(
    private readonly container: WebContainerLike,
    readonly fs: WorkspaceFiles,
  ) {
    this.sync = new ContainerFileSync(container, fs, () => this.currentSource());
    this.unsubscribe.push(
      container.on("server-ready", (port, url) => {
        this.servers.set(port, url);
        this.serverReady.fire({ port, url });
      }),
      container.on("port", (port, type) => {
        if (type === "close") this.servers.delete(port);
      }),
    );
  }

  /** Mounts the workspace and starts syncing. */
  start(): Promise<void> {
    return this.sync.start();
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
    let process: ProcessLike;
    try {
      process = await this.container.spawn("jsh", ["-c", command], { cwd, env: options.env });
    } catch (error) {
      return { output: `The command could not be started in WebContainer: ${errorMessage(error)}\n`, exitCode: 1 };
    }
    this.running.set(process, options.source ?? "runtime");
    let output = "";
    const reader = process.output.getReader();
    const drained = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        output += value;
        options.onOutput?.(value);
      }
    })().catch(() => undefined);

    const watch = watchInterruption(options);
    const interrupted = watch.interrupted;
    try {
      const outcome = await Promise.race([process.exit, interrupted]);
      if (typeof outcome === "number") {
        await Promise.race([drained, delay(OUTPUT_DRAIN_MS)]);
        await this.sync.settle();
        return { output, exitCode: outcome };
      }
      process.kill();
      void reader.cancel().catch(() => undefined);
      await this.sync.settle();
      const note = outcome === "timeout" ? `Command timed out after ${options.timeoutMs} ms and was stopped.\n` : "Command aborted.\n";
      output += (output === "" || output.endsWith("\n") ? "" : "\n") + note;
      return outcome === "timeout"
        ? { output, exitCode: EXIT_TIMEOUT, timedOut: true }
        : { output, exitCode: EXIT_ABORTED, aborted: true };
    } finally {
      this.running.delete(process);
      watch.dispose();
    }
  }

  openShell(size: { cols: number; rows: number }): Shell {
    const shell: Shell = new ProcessShell(
      (initial) => this.container.spawn("jsh", [], { terminal: initial }),
      size,
      () => this.shells.delete(shell),
    );
    this.shells.add(shell);
    return shell;
  }

  /** Calls `listener` for servers already up, then for each new one. */
  onServerReady(listener: (port: number, url: string) => void): Disposable {
    for (const [port, url] of this.servers) listener(port, url);
    return this.serverReady.event(({ port, url }) => listener(port, url));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const process of this.running.keys()) process.kill();
    this.running.clear();
    for (const shell of [...this.shells]) shell.dispose();
    for (const off of this.unsubscribe.splice(0)) off();
    this.serverReady.dispose();
    this.sync.dispose();
    // The container is the page's (one boot per page): the next workspace reuses it.
  }
}

