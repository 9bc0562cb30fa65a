// The browser runtime: just-bash over the workspace file service. Always available; node programs
// in the isolated execution host (src/runtime/node), npm for pure-JavaScript packages
// (src/runtime/npm), and a built-in preview in place of dev servers (src/runtime/preview).
import type { CustomCommand, IFileSystem } from "just-bash";
import { toDisposable, type Disposable } from "../../base";
import { fallbackCause } from "../fallback";
import type { ExecOptions, ExecResult, FallbackReason, Runtime, Shell } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { BashHost, EXIT_ABORTED, EXIT_TERMINATED, EXIT_TIMEOUT, WORKSPACE_MOUNT } from "./bash-host";
import { InteractiveShell } from "./interactive-shell";
import { DEFAULT_FALLBACK_TEXT, missingCommands } from "./missing-commands";
import { archiveCommands } from "./archive-commands";
import { curlCommand, type CommandFetch, type PageFetch } from "./curl-command";
import type { NetworkLog } from "../egress";
import { htmlToMarkdownCommand } from "./user-facing-wording";
import { npmCommands } from "./npm-commands";
import { pipCommands, withPythonPip } from "./pip-commands";
import { gitCommand, memoryGlobalConfig, NO_REMOTE_SETTINGS, type GitRemoteSettings, type GlobalConfigStore } from "./git/git-command";
import { nodeCommand } from "../node";
import { pythonCommands, type PythonCommandOptions } from "../python";
import type { SandboxHost } from "../sandbox";
import type { PreviewHub } from "../preview";
import type { ChangeSource, PreviewHotUpdate, PreviewReply, PreviewRequest, PreviewStart, PreviewStartOptions } from "../types";
import { BuiltinPreview } from "./builtin-preview";
import { answerTool, devServerCommands, frontEndTool, frontEndToolCommands, type PreviewStarter, type ToolContext } from "./dev-server-commands";

export interface BrowserRuntimeOptions {
  /** Why WebContainer is not in use; quoted when node/npm/... are typed. */
  fallback?: FallbackReason;
  /** Overrides the reason text quoted by node/npm/... ("this page fell back to the browser runtime"); a function is read per command. */
  reasonText?: string | (() => string);
  /** Extra environment variables for every command. */
  env?: Record<string, string>;
  /** What commands' requests (curl, npm, pip, git) go out with (the page's fetch unless given). */
  fetch?: PageFetch;
  /** Where every request a command makes is recorded (one per page: Settings → Network shows it). */
  networkLog?: NetworkLog;
  /** git's remote settings (CORS proxy, token; read per command) and where `git config --global` is kept. */
  git?: { remoteSettings?: () => Promise<GitRemoteSettings>; globalConfig?: GlobalConfigStore; now?: () => number };
  /** Where `node` runs programs (the isolated execution host); without it `node` is not a command. */
  node?: SandboxHost;
  /** The page's built-in previews; absent: no preview, and dev-server commands say they need WebContainer. */
  preview?: PreviewHub;
  /** Where python3 runs (the isolated execution host) and how its Pyodide files load; without it python3 says it is not available. */
  python?: PythonCommandOptions;
}

const SHELL_BANNER =
  "Browser runtime: a simulated bash with file and text commands and git (type help), node for JavaScript and TypeScript, npm for pure-JavaScript packages, and python3.";

export class BrowserRuntime implements Runtime {
  readonly kind = "browser" as const;
  readonly capabilities: { node: boolean; npm: boolean; servers: boolean; python: boolean; gate: boolean };
  private readonly host: BashHost;
  private readonly preview: BuiltinPreview | undefined;
  private readonly running = new Set<AbortController>();
  private readonly shells = new Set<Shell>();
  private disposed = false;

  constructor(
    readonly fs: WorkspaceFiles,
    options: BrowserRuntimeOptions = {},
  ) {
    const reasonText =
      options.reasonText ?? (options.fallback ? `${DEFAULT_FALLBACK_TEXT} because ${fallbackCause(options.fallback)}` : DEFAULT_FALLBACK_TEXT);
    this.capabilities = { node: options.node !== undefined, npm: true, servers: false, python: options.python !== undefined, gate: true };
    const fetchImpl: PageFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    // Every request of a command leaves through the host, which shows it to the run's gate first.
    const fetchFor: CommandFetch = (shellFs, argv) => this.host.fetchFor(shellFs, argv);
    const npm = npmCommands({ files: fs, fetch: fetchFor, sourceOf: (shellFs) => this.host.sourceOf(shellFs) });
    const git = gitCommand({
      files: fs,
      mount: WORKSPACE_MOUNT,
      fetch: fetchFor,
      remoteSettings: options.git?.remoteSettings ?? (async () => NO_REMOTE_SETTINGS),
      globalConfig: options.git?.globalConfig ?? memoryGlobalConfig(),
      now: options.git?.now,
    });
    const io = {
      terminalOf: (shellFs: IFileSystem) => this.host.terminalOf(shellFs),
      interruptOf: (shellFs: IFileSystem) => this.host.interruptOf(shellFs),
      handlesSignals: (shellFs: IFileSystem) => this.host.handlesSignals(shellFs),
    };
    const tools = (tool: string, args: string[], ctx: ToolContext) => {
      const answer = frontEndTool(tool, args)!;
      return answer.kind === "node" ? undefined : answerTool(answer, ctx, this.previewStart());
    };
    const node = options.node ? [nodeCommand(options.node, fs, io, tools)] : [];
    const pip = options.python ? pipCommands({ files: fs, fetch: fetchFor, sourceOf: (shellFs) => this.host.sourceOf(shellFs) }) : [];
    const python = options.python ? withPythonPip(pythonCommands(fs, options.python, io), pip[0]!) : [];
    const provided = new Set([...npm, ...python, ...pip].map((command) => command.name));
    this.preview = options.preview ? new BuiltinPreview(fs, options.preview, options.node) : undefined;
    if (options.node) this.preview?.watchServers(options.node.servers);
    // Dev-server command lines (npm run dev, npx vite, python3 -m http.server) start the built-in
    // preview; every other use of those commands goes to their own command.
    let commands: CustomCommand[] = [
      ...missingCommands(reasonText, options.node ? [] : ["node"]).filter((command) => !provided.has(command.name)),
      ...npm,
      ...python,
      ...pip,
    ];
    const serving: CustomCommand[] = [];
    const previewStart = this.previewStart();
    if (previewStart) {
      const byName = new Map(commands.map((c) => [c.name, c]));
      serving.push(...devServerCommands(previewStart, (name) => byName.get(name)));
      commands = commands.filter((c) => !serving.some((s) => s.name === c.name));
    }
    // vite, webpack, serve, next …: the Preview or a clear refusal (dev-server-commands.ts).
    serving.push(...frontEndToolCommands(previewStart));
    this.host = new BashHost(fs, [...serving, ...commands, ...node, ...archiveCommands(), curlCommand(fetchFor), htmlToMarkdownCommand(), git], {
      HOME: WORKSPACE_MOUNT,
      USER: "webcode",
      TERM: "xterm-256color",
      ...options.env,
    }, { fetch: fetchImpl, networkLog: options.networkLog, localServers: options.node?.servers });
  }

  /** How dev-server and tool commands start the built-in preview; it is told who ran the command (the Preview panel does not open one the agent started). */
  private previewStart(): PreviewStarter | undefined {
    const preview = this.preview;
    return preview && ((start, shellFs) => preview.start({ ...start, source: this.host.sourceOf(shellFs) }));
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (this.disposed) return { output: "The runtime has been shut down. Reload the page.\n", exitCode: 1 };
    const controller = new AbortController();
    const forward = () => controller.abort();
    options.signal?.addEventListener("abort", forward, { once: true });
    if (options.signal?.aborted) controller.abort();
    this.running.add(controller);
    let output = "";
    try {
      const result = await this.host.run(command, {
        cwd: options.cwd,
        env: options.env,
        source: options.source ?? "runtime",
        gate: options.gate,
        signal: controller.signal,
        timeoutMs: options.timeoutMs,
        // stdout and stderr interleaved as the command wrote them, streamed as they come.
        onOutput: (chunk) => {
          output += chunk.text;
          options.onOutput?.(chunk.text);
        },
      });
      let note = "";
      if (result.timedOut) note = `${separator(output)}Command timed out after ${options.timeoutMs} ms and was stopped.\n`;
      else if (result.aborted) note = `${separator(output)}Command aborted.\n`;
      if (note !== "") {
        output += note;
        options.onOutput?.(note);
      }
      const exec: ExecResult = { output, exitCode: result.exitCode };
      if (result.timedOut) exec.timedOut = true;
      if (result.aborted) exec.aborted = true;
      return exec;
    } finally {
      this.running.delete(controller);
      options.signal?.removeEventListener("abort", forward);
    }
  }

  openShell(size: { cols: number; rows: number }): Shell {
    const shell: Shell = new InteractiveShell(this.host, size, {
      banner: SHELL_BANNER,
      onDispose: () => this.shells.delete(shell),
    });
    this.shells.add(shell);
    return shell;
  }

  /** The browser runtime runs no server processes; its built-in previews are reported here. */
  onServerReady(listener: (port: number, url: string, startedBy?: ChangeSource) => void): Disposable {
    return this.preview ? this.preview.onServerReady(listener) : toDisposable(() => undefined);
  }

  onServerClosed(listener: (port: number) => void): Disposable {
    return this.preview ? this.preview.onServerClosed(listener) : toDisposable(() => undefined);
  }

  startPreview(options?: PreviewStartOptions): Promise<PreviewStart> {
    if (!this.preview) return Promise.reject(new Error("The built-in preview is not available in this page."));
    return this.preview.start(options);
  }

  async previewRequest(url: string, request?: PreviewRequest): Promise<PreviewReply | undefined> {
    return this.preview?.request(url, request);
  }

  async previewUpdate(url: string, build: string): Promise<PreviewHotUpdate> {
    return this.preview ? this.preview.update(url, build) : { kind: "reload", reason: "no built-in preview" };
  }

  /** Stops running commands and shells; the workspace files stay open (their owner disposes them). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const controller of this.running) controller.abort();
    this.running.clear();
    for (const shell of [...this.shells]) shell.dispose();
    this.host.stopJobs();
    this.preview?.dispose();
  }
}

function separator(output: string): string {
  return output === "" || output.endsWith("\n") ? "" : "\n";
}

export { EXIT_ABORTED, EXIT_TERMINATED, EXIT_TIMEOUT };
