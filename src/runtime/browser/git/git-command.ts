// The `git` command of the browser runtime. isomorphic-git and the subcommands are a chunk of their
// own, loaded with the first git command (the runtime's chunk does not grow by them).
import { MountableFs, defineCommand, type CustomCommand, type IFileSystem } from "just-bash";
import type { ChangeSource } from "../../types";
import type { WorkspaceFiles } from "../../workspace-files";
import type { CommandFetch } from "../curl-command";
import { WorkspaceBashFs } from "../workspace-bash-fs";
import type { GitRemoteSettings, GlobalConfigStore } from "./git-context";

export type { GitRemoteSettings, GlobalConfigStore };

export interface GitCommandOptions {
  files: WorkspaceFiles;
  /** Where commands run: the workspace's mount in the shell ("/workspace"). */
  mount: string;
  fetch: CommandFetch;
  /** Read per command (the user may change them in Settings while the page runs). */
  remoteSettings: () => Promise<GitRemoteSettings>;
  globalConfig: GlobalConfigStore;
  now?: () => number;
}

export const NO_REMOTE_SETTINGS: GitRemoteSettings = { corsProxy: "", token: "", tokenHost: "" };

/** In-memory `git config --global` (tests, and pages that do not store it). */
export function memoryGlobalConfig(initial = ""): GlobalConfigStore {
  let text = initial;
  return {
    read: async () => text,
    write: async (next) => {
      text = next;
    },
  };
}

/** Who the change is attributed to: the shell's workspace mount knows (terminal, agent, ...). */
function sourceOf(fs: IFileSystem, mount: string): ChangeSource {
  if (fs instanceof MountableFs) {
    const entry = fs.getMounts().find((m) => m.mountPoint === mount);
    if (entry?.filesystem instanceof WorkspaceBashFs) return entry.filesystem.changeSource;
  }
  return "runtime";
}

export function gitCommand(options: GitCommandOptions): CustomCommand {
  return defineCommand("git", async (args, ctx) => {
    const cwd = ctx.cwd;
    if (cwd !== options.mount && !cwd.startsWith(`${options.mount}/`)) {
      return { stdout: "", stderr: `fatal: git works inside the workspace (${options.mount}) only; this folder is ${cwd}.\n`, exitCode: 128 };
    }
    const [{ runGit }, { GitFs }] = await Promise.all([import("./git-cli"), import("./git-fs")]);
    const vars: Record<string, string> = {};
    for (const [key, value] of ctx.env) vars[key] = value;
    const fs = new GitFs(options.files, sourceOf(ctx.fs, options.mount));
    return runGit(
      { fs, fetch: options.fetch(ctx.fs, ["git", ...args]), remoteSettings: options.remoteSettings, globalConfig: options.globalConfig, now: options.now ?? Date.now },
      { args, cwd: cwd.slice(options.mount.length) || "/", vars, signal: ctx.signal },
    );
  });
}
