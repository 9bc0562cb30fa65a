// `git` in the browser runtime: isomorphic-git over the workspace's files (loaded with the first git
// command). Subcommands and their output follow git's; what it cannot do says so.
import { GitContext, GitFatal, GitUsageError, git, resolve, type GitEnvironment } from "./git-context";
import { add, commit, mv, reset, restore, rm, status } from "./git-worktree";
import { diff, log, show } from "./git-history";
import { branch, checkout, config, init, stash, switchCommand, tag } from "./git-refs";
import { clone, fetch, pull, push, remoteCommand } from "./git-remote";
import { globalConfig } from "./git-global-config";
import { refuseUnknownOptions, splitShortOptions } from "./git-options";

export interface GitRunInput {
  args: string[];
  /** Working folder as an absolute workspace path ("/" is the workspace root). */
  cwd: string;
  vars: Record<string, string>;
  signal?: AbortSignal;
}

export interface GitRunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const USAGE = `usage: git <command> [<args>]

Commands available in the browser runtime:
   init, clone, status, add, rm, mv, restore, commit, reset, diff, log, show,
   branch, checkout, switch, tag, stash, config, remote, fetch, pull, push
`;

type Handler = (ctx: GitContext, args: string[]) => Promise<number>;

/** Subcommands whose -q silences everything they print on success. */
const QUIET_ON_SUCCESS = new Set(["fetch", "pull", "push", "clone", "stash"]);

const IN_REPOSITORY: Record<string, Handler> = {
  status,
  add,
  rm,
  mv,
  commit,
  restore,
  reset,
  diff,
  log,
  show,
  branch,
  checkout,
  switch: switchCommand,
  tag,
  stash,
  fetch,
  pull,
  push,
  remote: remoteCommand,
};

const NOT_HERE: Record<string, string> = {
  merge: "git merge is not available in the browser runtime; git pull fast-forwards only. Compare branches with git diff main..other.",
  rebase: "git rebase is not available in the browser runtime.",
  "cherry-pick": "git cherry-pick is not available in the browser runtime.",
  bisect: "git bisect is not available in the browser runtime.",
  submodule: "git submodule is not available in the browser runtime.",
};

/** Finds the repository holding `cwd`: the nearest folder with a .git folder. */
async function findRoot(env: GitEnvironment, cwd: string): Promise<string | undefined> {
  try {
    return await git.findRoot({ fs: env.fs, filepath: cwd });
  } catch {
    return undefined;
  }
}

export async function runGit(env: GitEnvironment, input: GitRunInput): Promise<GitRunResult> {
  const { cwd } = input;
  // Options before the subcommand: -C <path> and -c name=value (the latter for identity only).
  let args = [...input.args];
  let dir = cwd;
  const vars = { ...input.vars };
  while (args[0] === "-C" || args[0] === "-c" || args[0] === "--no-pager" || args[0] === "--paginate") {
    if (args[0] === "-C") dir = resolve(args[1]!.startsWith("/") ? args[1]! : `${dir}/${args[1]}`);
    if (args[0] === "-c") {
      const [name, value = "true"] = (args[1] ?? "").split(/=(.*)/s);
      if (name === "user.name") vars.GIT_AUTHOR_NAME = vars.GIT_COMMITTER_NAME = value;
      if (name === "user.email") vars.GIT_AUTHOR_EMAIL = vars.GIT_COMMITTER_EMAIL = value;
      args = args.slice(1);
    }
    args = args.slice(args[0] === "-C" ? 2 : 1);
  }
  const [sub, ...given] = args;
  if (sub === undefined || sub === "help" || sub === "--help" || sub === "-h") return { stdout: USAGE, stderr: "", exitCode: sub === undefined ? 1 : 0 };
  if (sub === "--version" || sub === "version") return { stdout: "git version 2.44.0 (isomorphic-git)\n", stderr: "", exitCode: 0 };
  const root = await findRoot(env, dir);
  const global = await globalConfig(env.globalConfig);
  for (const [key, name] of [
    ["user.name", "NAME"],
    ["user.email", "EMAIL"],
  ] as const) {
    const value = global.get(key);
    if (value === undefined) continue;
    if (root === undefined || (await git.getConfig({ fs: env.fs, dir: root, path: key })) === undefined) {
      vars[`GIT_AUTHOR_${name}`] ??= value;
      vars[`GIT_COMMITTER_${name}`] ??= value;
    }
  }
  const ctx = new GitContext(env, root, dir, vars, input.signal);
  let exitCode = 0;
  try {
    const rest = splitShortOptions(sub, given);
    refuseUnknownOptions(sub, rest);
    if (sub === "init") exitCode = await init(ctx, rest, dir);
    else if (sub === "clone") exitCode = await clone(ctx, rest, dir);
    else if (sub === "config" && (rest.includes("--global") || rest.includes("--system"))) exitCode = await global.command(ctx, rest.filter((a) => a !== "--global" && a !== "--system"));
    else if (sub === "config") exitCode = await config(ctx, rest, global);
    else if (IN_REPOSITORY[sub]) {
      void ctx.dir; // fails outside a repository, like git
      exitCode = await IN_REPOSITORY[sub]!(ctx, rest);
    } else if (NOT_HERE[sub]) {
      ctx.err(`${NOT_HERE[sub]}\n`);
      exitCode = 1;
    } else {
      ctx.err(`git: '${sub}' is not a git command. See 'git --help'.\n`);
      exitCode = 1;
    }
  } catch (error) {
    if (error instanceof GitFatal) {
      const text = error.message;
      ctx.err(/^(error|fatal|usage|Author identity)/.test(text) || text.includes("\nfatal: ") ? `${text}\n` : `fatal: ${text}\n`);
      exitCode = error.exitCode;
    } else if (error instanceof GitUsageError) {
      ctx.err(`${error.message}\n`);
      exitCode = error.exitCode;
    } else {
      const e = error as { code?: string; message?: string };
      ctx.err(`fatal: ${e.message ?? String(error)}\n`);
      exitCode = 128;
    }
  }
  // -q of the network and stash commands: what they report on success is left out, as in git
  // (their handlers print progress and summaries; errors stay).
  const beforeDashes = given.includes("--") ? given.slice(0, given.indexOf("--")) : given;
  if (exitCode === 0 && QUIET_ON_SUCCESS.has(sub) && beforeDashes.some((arg) => arg === "-q" || arg === "--quiet" || /^-[a-z]*q[a-z]*$/.test(arg))) {
    ctx.stdout = "";
    ctx.stderr = "";
  }
  try {
    await env.fs.stored();
  } catch (error) {
    ctx.err(`fatal: the changes could not be stored: ${(error as Error).message}\n`);
    exitCode = 128;
  }
  return { stdout: ctx.stdout, stderr: ctx.stderr, exitCode };
}
