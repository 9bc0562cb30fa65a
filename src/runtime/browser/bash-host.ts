// Runs scripts with just-bash over the workspace: one shared in-memory root (/tmp etc.) with the
// workspace mounted at /workspace, a fresh interpreter per run (so each run gets its own deadline),
// and timeout/abort raced so a caller is answered promptly even while just-bash keeps going.
import { Bash, InMemoryFs, MountableFs, type CustomCommand, type IFileSystem } from "just-bash";
import { PathError, errorMessage, normalizePath } from "../../base";
import type { ChangeSource } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { WorkspaceBashFs, normalizeAbsolute } from "./workspace-bash-fs";
import { delay, watchInterruption } from "../interruption";

export const WORKSPACE_MOUNT = "/workspace";
export const EXIT_TIMEOUT = 124;
export const EXIT_ABORTED = 130;
/** After a timeout or abort, how long to wait for just-bash to settle before answering anyway. */
const SETTLE_GRACE_MS = 50;

export interface RunOptions {
  /** Absolute shell path ("/workspace/src", "/tmp") or a workspace path ("src"). */
  cwd?: string;
  env?: Record<string, string>;
  /** Replace the environment instead of merging (the interactive shell carries its own). */
  replaceEnv?: boolean;
  source: ChangeSource;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface RunResult {
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
  private readonly modes = new Map<string, number>();

  constructor(
    private readonly files: WorkspaceFiles,
    private readonly commands: CustomCommand[],
    private readonly baseEnv: Record<string, string>,
  ) {
    for (const dir of ["/tmp", "/home"]) void this.root.mkdir(dir, { recursive: true });
  }

  /** The file system a shell sees, with workspace changes attributed to `source`. */
  fsFor(source: ChangeSource): IFileSystem {
    let fs = this.mounts.get(source);
    if (!fs) {
      fs = new MountableFs({ base: this.root });
      fs.mount(WORKSPACE_MOUNT, new WorkspaceBashFs(this.files, source, this.modes));
      this.mounts.set(source, fs);
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
    if (options.signal?.aborted) return { stdout: "", stderr: "", exitCode: EXIT_ABORTED, aborted: true };
    let cwd: string;
    try {
      cwd = this.resolveCwd(options.cwd);
    } catch (error) {
      if (error instanceof PathError) return { stdout: "", stderr: `${error.message}\n`, exitCode: 1 };
      throw error;
    }
    const fs = this.fsFor(options.source);
    const cwdStat = await fs.stat(cwd).catch(() => undefined);
    if (!cwdStat?.isDirectory) {
      return { stdout: "", stderr: `The working folder "${cwd}" does not exist.\n`, exitCode: 1 };
    }
    const bash = new Bash({
      fs,
      cwd,
      env: this.baseEnv,
      customCommands: this.commands,
      // The deadline is also enforced inside just-bash: a busy loop never yields to our timer.
      executionLimits: { maxExecutionTimeMs: options.timeoutMs ?? Number.POSITIVE_INFINITY },
      // just-bash's defense-in-depth box needs Node's AsyncLocalStorage and is inactive in browsers.
      // Under Node it would block the timers of our own trusted file service (which runs in the
      // script's async context), so it is off here too: tests then behave as the page does.
      defenseInDepth: false,
    });
    const controller = new AbortController();
    const execution = bash
      .exec(script, { cwd, env: options.env, replaceEnv: options.replaceEnv, signal: controller.signal })
      .then(
        (result): RunResult => ({ stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode, env: result.env }),
        // just-bash rejects when a redirect target cannot be written; report it like bash would.
        (error: unknown): RunResult => ({ stdout: "", stderr: `bash: ${errorMessage(error)}\n`, exitCode: 1 }),
      );

    const watch = watchInterruption(options);
    const interrupted = watch.interrupted;
    const started = Date.now();
    try {
      const outcome = await Promise.race([execution, interrupted]);
      if (typeof outcome !== "string") {
        if (outcome.exitCode === EXIT_TIMEOUT && options.timeoutMs !== undefined && Date.now() - started >= options.timeoutMs) {
          return { stdout: outcome.stdout, stderr: "", exitCode: EXIT_TIMEOUT, timedOut: true };
        }
        if (options.signal?.aborted) return { stdout: outcome.stdout, stderr: "", exitCode: EXIT_ABORTED, aborted: true };
        return outcome;
      }
      controller.abort();
      // Give just-bash a moment to stop at a statement boundary; answer regardless.
      const settled = await Promise.race([execution, delay(SETTLE_GRACE_MS).then(() => undefined)]);
      const stdout = settled?.stdout ?? "";
      return outcome === "timeout"
        ? { stdout, stderr: "", exitCode: EXIT_TIMEOUT, timedOut: true }
        : { stdout, stderr: "", exitCode: EXIT_ABORTED, aborted: true };
    } finally {
      watch.dispose();
    }
  }
}

