// Runs scripts with just-bash over the workspace: one shared in-memory root (/tmp etc.) with the
// workspace mounted at /workspace, a fresh interpreter per run (so each run gets its own deadline),
// output streamed in the order it was written (output-routing.ts), and timeout/abort raced so a
// caller is answered promptly while the interrupted script is stopped.
import { Bash, InMemoryFs, MountableFs, defineCommand, getCommandNames, type Command, type CustomCommand, type IFileSystem } from "just-bash";
import { PathError, errorMessage, normalizePath, shellLine } from "../../base";
import type { ChangeSource } from "../types";
import type { LocalServers } from "../sandbox/local-servers";
import { BACKGROUND_COMMAND, backgroundJobsPlugin } from "./background-jobs";
import { EgressRefusedError, NetworkLog, type ExecGate, type GatedFetch } from "../egress";
import { SIGNAL_GRACE_MS } from "../sandbox/sandbox-host";
import type { ProgramSignal } from "../sandbox/protocol";
import type { WorkspaceFiles } from "../workspace-files";
import { WorkspaceBashFs, normalizeAbsolute } from "./workspace-bash-fs";
import { delay, watchInterruption } from "../interruption";
import { OUTPUT_SINK_DIR, OutputSinkFs, outputRoutingPlugin, type OutputChunk } from "./output-routing";
import { userFacingErrors } from "./user-facing-wording";
import type { ProgramTerminal } from "./terminal-input";

export const WORKSPACE_MOUNT = "/workspace";
const RUN_ID = Symbol("webcode.run");
const RUN_SOURCE = Symbol("webcode.run-source");
export const EXIT_TIMEOUT = 124;
/** Exit code of a run stopped by Ctrl-C in the terminal (SIGINT, 128 + 2, as a shell reports it). */
export const EXIT_ABORTED = 130;
/** Exit code of a run stopped by Stop (SIGTERM, 128 + 15, as a shell reports a child it terminated). */
export const EXIT_TERMINATED = 143;
/** After a timeout or abort, how long to wait for just-bash to settle before answering anyway. */
const SETTLE_GRACE_MS = 50;
const MAX_COMMANDS = 10_000_000;
/** What just-bash writes when its execution deadline (our timeout) ends a script. */
const JUST_BASH_DEADLINE = /^bash: .* exceeded execution deadline \(\d+ms\)/m;
/** How early by our clock just-bash's deadline may end a script (its timers round). */
const DEADLINE_SLACK_MS = 5;

/**
 * Whether an exit 124 was the timeout: our clock says it has passed, or just-bash's own deadline
 * (for a loop that never yields to our timer) said so within a few ms of it, since its timers may
 * fire a millisecond early by Date.now(). A script that exits 124 (or prints that message) well
 * before the deadline is not a timeout.
 */
function endedByDeadline(elapsedMs: number, timeoutMs: number, stderr: string): boolean {
  return elapsedMs >= timeoutMs || (elapsedMs >= timeoutMs - DEADLINE_SLACK_MS && JUST_BASH_DEADLINE.test(stderr));
}

export interface RunOptions {
  /** Absolute shell path ("/workspace/src", "/tmp") or a workspace path ("src"). */
  cwd?: string;
  env?: Record<string, string>;
  /** Replace the environment instead of merging (the interactive shell carries its own). */
  replaceEnv?: boolean;
  source: ChangeSource;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Every piece of output, in the order the script wrote it, as it is written. */
  onOutput?: (chunk: OutputChunk) => void;
  /** Commands for this run only, in front of the host's (the interactive shell's `history`). */
  commands?: CustomCommand[];
  /** The interactive terminal: a foreground program (node, python3) reads its standard input there. */
  terminal?: ProgramTerminal;
  /** Checks each command before it runs and each request before it leaves (egress.ts); none: everything runs. */
  gate?: ExecGate;
}

export interface BashHostOptions {
  /** What commands' requests go out with (the page's fetch). */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  /** Where every request a command makes is recorded. */
  networkLog?: NetworkLog;
  /**
   * The servers of this tab's programs (localhost:PORT, sandbox/local-servers.ts): a request for a
   * local URL goes there, not to the network, so the gate is not asked and the log does not list it.
   */
  localServers?: LocalServers;
}

/** Exit code of a command its gate refused (bash's "permission denied" for a command that cannot run). */
export const EXIT_REFUSED = 126;

export interface RunResult {
  /** All stdout and all stderr (already delivered in order through `onOutput`). */
  stdout: string;
  stderr: string;
  exitCode: number;
  /** The environment at the end of the script (PWD included), when the script finished. */
  env?: Record<string, string>;
  timedOut?: boolean;
  aborted?: boolean;
}

export class BashHost {
  private readonly root = new InMemoryFs();
  private readonly mounts = new Map<ChangeSource, MountableFs>();
  private readonly workspaces = new Map<ChangeSource, WorkspaceBashFs>();
  private readonly modes = new Map<string, number>();
  /** Each run's file system → who its writes are attributed to (for commands writing directly, like npm). */
  private readonly runSources = new WeakMap<IFileSystem, ChangeSource>();
  /** Each run's interactive terminal, when it has one, by the run's number (RUN_ID on its file system). */
  private readonly runTerminals = new Map<number, ProgramTerminal>();
  /** Each run's Ctrl-C / Stop / timeout, told to its programs before the run is stopped (interruptOf); the abort's reason is the signal. */
  private readonly runInterrupts = new Map<number, AbortController>();
  /** Runs whose program handles SIGINT or SIGTERM: an interruption waits for it (SIGNAL_GRACE_MS) before stopping the run. */
  private readonly graceRuns = new Set<number>();
  /** Each gated run's gate, by the run's number. */
  private readonly runGates = new Map<number, ExecGate>();
  private nextRun = 1;
  private readonly fetchImpl: (input: string, init?: RequestInit) => Promise<Response>;
  private readonly localServers: LocalServers | undefined;
  readonly networkLog: NetworkLog;

  constructor(
    private readonly files: WorkspaceFiles,
    private readonly commands: CustomCommand[],
    private readonly baseEnv: Record<string, string>,
    options: BashHostOptions = {},
  ) {
    for (const dir of ["/tmp", "/home"]) void this.root.mkdir(dir, { recursive: true });
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.networkLog = options.networkLog ?? new NetworkLog();
    this.localServers = options.localServers;
  }

  /** The file system a shell sees, with workspace changes attributed to `source`. */
  fsFor(source: ChangeSource): IFileSystem {
    let fs = this.mounts.get(source);
    if (!fs) {
      fs = new MountableFs({ base: this.root });
      fs.mount(WORKSPACE_MOUNT, this.workspaceFs(source));
      this.mounts.set(source, fs);
    }
    return fs;
  }

  private workspaceFs(source: ChangeSource): WorkspaceBashFs {
    let fs = this.workspaces.get(source);
    if (!fs) {
      fs = new WorkspaceBashFs(this.files, source, this.modes);
      this.workspaces.set(source, fs);
    }
    return fs;
  }

  /** Shell path of a cwd option; throws PathError for workspace paths that leave the workspace. */
  resolveCwd(cwd: string | undefined): string {
    if (cwd === undefined || cwd === "") return WORKSPACE_MOUNT;
    if (cwd.startsWith("/")) return normalizeAbsolute(cwd);
    const path = normalizePath(cwd);
    return path === "" ? WORKSPACE_MOUNT : `${WORKSPACE_MOUNT}/${path}`;
  }

  async run(script: string, options: RunOptions): Promise<RunResult> {
    const result: RunResult = { stdout: "", stderr: "", exitCode: 0 };
    let open = true;
    const deliver = (chunk: OutputChunk) => {
      if (!open || chunk.text === "") return;
      const text = chunk.stream === "stderr" ? userFacingErrors(chunk.text) : chunk.text;
      result[chunk.stream] += text;
      options.onOutput?.({ stream: chunk.stream, text });
    };
    const finish = (fields: Omit<RunResult, "stdout" | "stderr">): RunResult => {
      open = false;
      return Object.assign(result, fields);
    };
    // Node's semantics: Ctrl-C in the terminal sends SIGINT; Stop (the chat's, an agent run's abort)
    // sends SIGTERM, as `kill` and a supervisor do; a timeout SIGTERM too.
    const stopSignal: ProgramSignal = options.source === "terminal" ? "SIGINT" : "SIGTERM";
    const abortedCode = stopSignal === "SIGINT" ? EXIT_ABORTED : EXIT_TERMINATED;
    if (options.signal?.aborted) return finish({ exitCode: abortedCode, aborted: true });
    let cwd: string;
    try {
      cwd = this.resolveCwd(options.cwd);
    } catch (error) {
      if (error instanceof PathError) {
        deliver({ stream: "stderr", text: `${error.message}\n` });
        return finish({ exitCode: 1 });
      }
      throw error;
    }
    const controller = new AbortController();
    const sink = new OutputSinkFs(deliver);
    const fs = this.runFs(options.source, sink);
    const runId = this.nextRun++;
    // just-bash hands commands its file system behind a proxy (not the same object, so no WeakMap
    // key), which still reads the file system's own properties: the run's number is one.
    Object.defineProperty(fs, RUN_ID, { value: runId });
    const cwdStat = await fs.stat(cwd).catch(() => undefined);
    if (!cwdStat?.isDirectory) {
      deliver({ stream: "stderr", text: `The working folder "${cwd}" does not exist.\n` });
      return finish({ exitCode: 1 });
    }
    if (options.terminal) this.runTerminals.set(runId, options.terminal);
    if (options.gate) this.runGates.set(runId, options.gate);
    const interrupt = new AbortController();
    this.runInterrupts.set(runId, interrupt);
    // Taken before just-bash starts its own clock, so its deadline never ends a run earlier than ours.
    const started = Date.now();
    const bash = new Bash({
      fs,
      cwd,
      env: this.baseEnv,
      // The background command is not gated itself: each command of its job is, in the job's own run.
      customCommands: [
        ...(options.gate ? gatedCommands([...this.commands, ...(options.commands ?? [])], options.gate) : [...this.commands, ...(options.commands ?? [])]),
        this.backgroundCommand(options),
      ],
      // The deadline is also enforced inside just-bash, for a loop that never reaches a command
      // routed to the output sinks (where a script yields to our timer). Ours comes first and sends
      // the run's programs SIGTERM; just-bash's waits out their grace period, or it would end a
      // program whose SIGTERM handler is still running.
      executionLimits: {
        maxExecutionTimeMs: options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : options.timeoutMs + SIGNAL_GRACE_MS + SETTLE_GRACE_MS,
        // just-bash's defaults (100,000) guard hosts that cannot stop a script. Here a running
        // script yields to the page and Ctrl-C, abort and timeouts stop it, so loops may run longer.
        maxCommandCount: MAX_COMMANDS,
        maxLoopIterations: MAX_COMMANDS,
      },
      // just-bash's defense-in-depth box needs Node's AsyncLocalStorage and is inactive in browsers.
      // Under Node it would block the timers of our own trusted file service (which runs in the
      // script's async context), so it is off here too: tests then behave as the page does.
      defenseInDepth: false,
    });
    bash.registerTransformPlugin(backgroundJobsPlugin);
    bash.registerTransformPlugin(outputRoutingPlugin);
    type Settled = { exitCode: number; stdout: string; stderr: string; env?: Record<string, string> };
    const execution: Promise<Settled> = bash
      .exec(script, { cwd, env: options.env, replaceEnv: options.replaceEnv, signal: controller.signal })
      .then(
        (settled): Settled => settled,
        // just-bash rejects when a redirect target cannot be written; report it like bash would.
        (error: unknown): Settled => ({ stdout: "", stderr: `bash: ${errorMessage(error)}\n`, exitCode: 1 }),
      );

    const watch = watchInterruption(options);
    try {
      const outcome = await Promise.race([execution, watch.interrupted]);
      if (typeof outcome !== "string") {
        // What was not routed to the sinks as it happened (parse errors, output of `exec >` scripts).
        deliver({ stream: "stdout", text: outcome.stdout });
        if (outcome.exitCode === EXIT_TIMEOUT && options.timeoutMs !== undefined && endedByDeadline(Date.now() - started, options.timeoutMs, outcome.stderr)) {
          return finish({ exitCode: EXIT_TIMEOUT, timedOut: true });
        }
        if (options.signal?.aborted) return finish({ exitCode: abortedCode, aborted: true });
        deliver({ stream: "stderr", text: outcome.stderr });
        return finish({ exitCode: outcome.exitCode, env: outcome.env });
      }
      // Programs hear of it first (the signal is the abort's reason): one that handles it runs its
      // handler, with its output and file changes kept, for up to SIGNAL_GRACE_MS (sandbox-host.ts);
      // the others end at once.
      interrupt.abort(outcome === "timeout" ? "SIGTERM" : stopSignal);
      if (this.graceRuns.has(runId)) {
        const settled = await Promise.race([execution, delay(SIGNAL_GRACE_MS + SETTLE_GRACE_MS)]);
        if (settled !== undefined) {
          deliver({ stream: "stdout", text: settled.stdout });
          deliver({ stream: "stderr", text: settled.stderr });
          return outcome === "timeout" ? finish({ exitCode: EXIT_TIMEOUT, timedOut: true }) : finish({ exitCode: settled.exitCode, aborted: true });
        }
      }
      // Stop the script: just-bash checks the signal between commands and revokes the file system
      // of a command still in flight, so nothing of this run writes after the prompt is back.
      controller.abort();
      sink.close();
      open = false;
      // Give just-bash a moment to unwind, so the next command does not overlap it; answer regardless.
      await Promise.race([execution, delay(SETTLE_GRACE_MS)]);
      return outcome === "timeout" ? finish({ exitCode: EXIT_TIMEOUT, timedOut: true }) : finish({ exitCode: abortedCode, aborted: true });
    } finally {
      watch.dispose();
      sink.close();
      this.runTerminals.delete(runId);
      this.runGates.delete(runId);
      this.runInterrupts.delete(runId);
      this.graceRuns.delete(runId);
    }
  }

  /**
   * The fetch a command (`argv`, for the log and the ask) makes its requests with: the run's gate
   * sees each request first, and each is recorded in the network log. A refused request rejects
   * with an EgressRefusedError, a TypeError like an offline fetch's.
   */
  fetchFor(fs: IFileSystem, argv: readonly string[]): GatedFetch {
    const runId = (fs as IFileSystem & { [RUN_ID]?: unknown })[RUN_ID];
    const gate = typeof runId === "number" ? this.runGates.get(runId) : undefined;
    const by = this.sourceOf(fs);
    const command = shellLine(argv);
    const local = this.localServers;
    return async (input, init) => {
      const { destination = input, ...rest } = init ?? {};
      // A port a program of this tab listens on: nothing leaves the page, so there is nothing for the gate to allow.
      if (local?.handles(input)) return local.fetch(input, rest);
      const method = (rest.method ?? "GET").toUpperCase();
      const entry = { at: Date.now(), method, url: input, destination, by, command };
      if (gate) {
        try {
          await gate.request({ url: input, destination, method, command });
        } catch (error) {
          this.networkLog.record({ ...entry, outcome: "refused" });
          throw new EgressRefusedError(destination, errorMessage(error));
        }
      }
      this.networkLog.record({ ...entry, outcome: "sent" });
      return this.fetchImpl(input, rest);
    };
  }

  /** Background jobs (`cmd &`) still running; ended by stopJobs() (the runtime's disposal). */
  private readonly jobs = new Set<AbortController>();

  /** Runs a `LIST &` (background-jobs.ts) as a run of its own, not awaited: the script goes on at once. */
  private backgroundCommand(options: RunOptions): CustomCommand {
    return defineCommand(BACKGROUND_COMMAND, async (args, ctx) => {
      const controller = new AbortController();
      this.jobs.add(controller);
      const env = ctx.exportedEnv ?? Object.fromEntries(ctx.env);
      void this.run(args[0] ?? "", { cwd: ctx.cwd, env, replaceEnv: true, source: options.source, gate: options.gate, signal: controller.signal, onOutput: options.onOutput })
        .catch(() => undefined)
        .finally(() => this.jobs.delete(controller));
      return { stdout: "", stderr: "", exitCode: 0 };
    });
  }

  /** Ends every background job (their programs are stopped as by Stop). */
  stopJobs(): void {
    for (const controller of this.jobs) controller.abort();
    this.jobs.clear();
  }

  /** One run's file system: the shared root, the workspace, the output sinks. */
  private runFs(source: ChangeSource, sink: OutputSinkFs): IFileSystem {
    const fs = new MountableFs({ base: this.root });
    fs.mount(WORKSPACE_MOUNT, this.workspaceFs(source));
    fs.mount(OUTPUT_SINK_DIR, sink);
    this.runSources.set(fs, source);
    // Commands get the file system behind just-bash's proxy (no WeakMap hit): a property reads through.
    Object.defineProperty(fs, RUN_SOURCE, { value: source });
    return fs;
  }

  /** The interactive terminal of the run a command's file system belongs to (none for the agent's and tasks' runs). */
  terminalOf(fs: IFileSystem): ProgramTerminal | undefined {
    const runId = (fs as IFileSystem & { [RUN_ID]?: unknown })[RUN_ID];
    return typeof runId === "number" ? this.runTerminals.get(runId) : undefined;
  }

  /** Aborted when the run that owns `fs` is interrupted (Ctrl-C, Stop, its timeout), before the run is stopped; its reason is the signal to send ("SIGINT", "SIGTERM"). */
  interruptOf(fs: IFileSystem): AbortSignal | undefined {
    const runId = (fs as IFileSystem & { [RUN_ID]?: unknown })[RUN_ID];
    return typeof runId === "number" ? this.runInterrupts.get(runId)?.signal : undefined;
  }

  /** A program of the run that owns `fs` handles SIGINT or SIGTERM: an interruption waits for it before stopping the run. */
  handlesSignals(fs: IFileSystem): void {
    const runId = (fs as IFileSystem & { [RUN_ID]?: unknown })[RUN_ID];
    if (typeof runId === "number" && this.runInterrupts.has(runId)) this.graceRuns.add(runId);
  }

  /** Who a command's writes are attributed to, from the file system it was given ("runtime" if unknown). */
  sourceOf(fs: IFileSystem): ChangeSource {
    const tagged = (fs as IFileSystem & { [RUN_SOURCE]?: unknown })[RUN_SOURCE];
    return this.runSources.get(fs) ?? (typeof tagged === "string" ? (tagged as ChangeSource) : "runtime");
  }
}


/** Every command the shell can run (ours and just-bash's own), each shown to `gate` with its arguments before it runs. */
function gatedCommands(commands: CustomCommand[], gate: ExecGate): CustomCommand[] {
  const ours = new Set(commands.map((command) => command.name));
  const check = async (name: string, args: string[], cwd: string): Promise<string | undefined> => {
    try {
      await gate.command([name, ...args], { cwd });
      return undefined;
    } catch (error) {
      return `${name}: not run: ${errorMessage(error)}\n`;
    }
  };
  const wrapped: CustomCommand[] = commands.map((command) => {
    let loaded: Command | undefined;
    const load = async () => (loaded ??= "execute" in command ? command : await command.load());
    return defineCommand(
      command.name,
      async (args, ctx) => {
        const refused = await check(command.name, args, ctx.cwd);
        if (refused !== undefined) return { stdout: "", stderr: refused, exitCode: EXIT_REFUSED };
        return (await load()).execute(args, ctx);
      },
      { trusted: command.trusted ?? true },
    );
  });
  // just-bash's own commands (cat, env, xargs, sh, find, …): the same check, then the original.
  for (const name of getCommandNames()) {
    if (ours.has(name)) continue;
    wrapped.push(
      defineCommand(name, async (args, ctx) => {
        const refused = await check(name, args, ctx.cwd);
        if (refused !== undefined) return { stdout: "", stderr: refused, exitCode: EXIT_REFUSED };
        if (!ctx.origCommand) return { stdout: "", stderr: `${name}: command not found\n`, exitCode: 127 };
        return ctx.origCommand(args);
      }),
    );
  }
  return wrapped;
}
