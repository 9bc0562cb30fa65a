// git init, branch, checkout, switch, tag, stash and config.
import { git, GitFatal, GitUsageError, type GitContext } from "./git-context";
import { longStatus, restorePaths } from "./git-worktree";
import { statusRows } from "./git-trees";
import type { GlobalConfig } from "./git-global-config";

export async function init(ctx: GitContext, args: string[], cwd: string): Promise<number> {
  let branch = "main";
  let quiet = false;
  let target: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-b" || arg === "--initial-branch") branch = args[++i] ?? branch;
    else if (arg.startsWith("--initial-branch=")) branch = arg.slice(17);
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (!arg.startsWith("-")) target = arg;
  }
  const dir = target ? resolveFrom(cwd, target) : cwd;
  ctx.fs.ensureFolder(dir);
  const existed = ctx.fs.existsSync(`${dir === "/" ? "" : dir}/.git`);
  await git.init({ fs: ctx.fs, dir, defaultBranch: branch });
  const shown = `/workspace${dir === "/" ? "" : dir}/.git/`;
  if (!quiet) ctx.out(existed ? `Reinitialized existing Git repository in ${shown}\n` : `Initialized empty Git repository in ${shown}\n`);
  return 0;
}

function resolveFrom(cwd: string, path: string): string {
  const parts: string[] = [];
  for (const part of (path.startsWith("/") ? path : `${cwd}/${path}`).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return "/" + parts.join("/");
}

export async function branch(ctx: GitContext, args: string[]): Promise<number> {
  const long: Record<string, string> = { "--remotes": "-r", "--verbose": "-v" };
  const flags = args.filter((a) => a.startsWith("-")).map((a) => long[a] ?? a);
  if (flags.includes("--show-current")) {
    const current = await ctx.branch();
    ctx.out(current ? `${current}\n` : "");
    return 0;
  }
  const operands = args.filter((a) => !a.startsWith("-"));
  const has = (...names: string[]) => flags.some((f) => names.includes(f));
  if (has("-d", "-D", "--delete")) {
    if (operands.length === 0) throw new GitFatal("branch name required");
    const current = await ctx.branch();
    for (const name of operands) {
      if (name === current) throw new GitFatal(`Cannot delete branch '${name}' checked out at '/workspace${ctx.dir === "/" ? "" : ctx.dir}'`, 1);
      const oid = await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/heads/${name}` }).catch(() => undefined);
      if (!oid) throw new GitFatal(`error: branch '${name}' not found`, 1);
      await git.deleteBranch({ fs: ctx.fs, dir: ctx.dir, ref: name });
      if (!has("-q", "--quiet")) ctx.out(`Deleted branch ${name} (was ${oid.slice(0, 7)}).\n`);
    }
    return 0;
  }
  if (has("-m", "-M", "--move")) {
    const [from, to] = operands.length === 1 ? [(await ctx.branch())!, operands[0]!] : [operands[0]!, operands[1]!];
    if (!from || !to) throw new GitUsageError("usage: git branch -m [<old-branch>] <new-branch>");
    await git.renameBranch({ fs: ctx.fs, dir: ctx.dir, oldref: from, ref: to, checkout: from === (await ctx.branch()) });
    return 0;
  }
  if (operands.length === 0 || has("--list", "-l", "-a", "--all", "-v", "-vv", "-r")) {
    const current = await ctx.branch();
    const remotes = has("-a", "--all", "-r");
    const locals = has("-r") ? [] : await git.listBranches({ fs: ctx.fs, dir: ctx.dir });
    const verbose = has("-v", "-vv");
    const lines: string[] = [];
    const width = Math.max(0, ...locals.map((b) => b.length));
    for (const name of locals.sort()) {
      let line = `${name === current ? "*" : " "} ${verbose ? name.padEnd(width) : name}`;
      if (verbose) {
        const oid = await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/heads/${name}` });
        const { commit } = await git.readCommit({ fs: ctx.fs, dir: ctx.dir, oid });
        line += ` ${oid.slice(0, 7)} ${commit.message.split("\n")[0]}`;
      }
      lines.push(line);
    }
    if (current === undefined && (await ctx.headOid())) lines.unshift(`* (HEAD detached at ${(await ctx.headOid())!.slice(0, 7)})`);
    if (remotes) {
      for (const remote of await git.listRemotes({ fs: ctx.fs, dir: ctx.dir })) {
        for (const name of (await git.listBranches({ fs: ctx.fs, dir: ctx.dir, remote: remote.remote })).sort()) {
          lines.push(`  ${has("-r") ? "" : "remotes/"}${remote.remote}/${name}`);
        }
      }
    }
    ctx.out(lines.map((l) => `${l}\n`).join(""));
    return 0;
  }
  const [name, start] = operands as [string, string | undefined];
  const exists = await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/heads/${name}` }).then(() => true, () => false);
  if (exists && !has("-f", "--force")) throw new GitFatal(`a branch named '${name}' already exists`);
  const object = start ? await ctx.resolveCommit(start) : await ctx.headOid();
  if (!object) throw new GitFatal(`not a valid object name: '${(await ctx.branch()) ?? "HEAD"}'`);
  await git.branch({ fs: ctx.fs, dir: ctx.dir, ref: name, object, force: has("-f", "--force") });
  return 0;
}

/** Switches HEAD to a branch (or detaches at a commit), updating index and work tree. */
async function switchTo(ctx: GitContext, target: string, options: { create?: boolean; detach?: boolean; force?: boolean; start?: string; quiet?: boolean }): Promise<number> {
  const current = await ctx.branch();
  // -q: git's messages about the switch are left out (its errors are not).
  const say = (text: string) => (options.quiet ? undefined : ctx.err(text));
  if (options.create) {
    const exists = await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/heads/${target}` }).then(() => true, () => false);
    if (exists) throw new GitFatal(`a branch named '${target}' already exists`);
    const object = options.start ? await ctx.resolveCommit(options.start) : await ctx.headOid();
    if (!object) {
      // No commits yet: only HEAD moves.
      await git.writeRef({ fs: ctx.fs, dir: ctx.dir, ref: "HEAD", value: `refs/heads/${target}`, symbolic: true, force: true });
      say(`Switched to a new branch '${target}'\n`);
      return 0;
    }
    await git.branch({ fs: ctx.fs, dir: ctx.dir, ref: target, object });
    if (options.start) await checkoutRef(ctx, target, options.force);
    else await git.writeRef({ fs: ctx.fs, dir: ctx.dir, ref: "HEAD", value: `refs/heads/${target}`, symbolic: true, force: true });
    say(`Switched to a new branch '${target}'\n`);
    return 0;
  }
  const local = await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/heads/${target}` }).then(() => true, () => false);
  if (local && !options.detach) {
    if (target === current) {
      say(`Already on '${target}'\n`);
      return 0;
    }
    await checkoutRef(ctx, target, options.force);
    say(`Switched to branch '${target}'\n`);
    return 0;
  }
  // A remote branch of the same name: create a tracking branch (git's --guess).
  for (const remote of await git.listRemotes({ fs: ctx.fs, dir: ctx.dir })) {
    const oid = await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/remotes/${remote.remote}/${target}` }).catch(() => undefined);
    if (oid && !options.detach) {
      await git.branch({ fs: ctx.fs, dir: ctx.dir, ref: target, object: oid });
      await git.setConfig({ fs: ctx.fs, dir: ctx.dir, path: `branch.${target}.remote`, value: remote.remote });
      await git.setConfig({ fs: ctx.fs, dir: ctx.dir, path: `branch.${target}.merge`, value: `refs/heads/${target}` });
      await checkoutRef(ctx, target, options.force);
      say(`branch '${target}' set up to track '${remote.remote}/${target}'.\nSwitched to a new branch '${target}'\n`);
      return 0;
    }
  }
  const oid = await ctx.resolveCommit(target).catch(() => undefined);
  if (!oid) return -1;
  await checkoutRef(ctx, oid, options.force);
  await git.writeRef({ fs: ctx.fs, dir: ctx.dir, ref: "HEAD", value: oid, force: true });
  const { commit } = await git.readCommit({ fs: ctx.fs, dir: ctx.dir, oid });
  say(`HEAD is now at ${oid.slice(0, 7)} ${commit.message.split("\n")[0]}\n`);
  return 0;
}

async function checkoutRef(ctx: GitContext, ref: string, force = false): Promise<void> {
  try {
    await git.checkout({ fs: ctx.fs, dir: ctx.dir, ref, force });
  } catch (error) {
    const data = (error as { code?: string; data?: { filepaths?: string[] } }).data;
    if ((error as { code?: string }).code === "CheckoutConflictError" && data?.filepaths) {
      throw new GitFatal(
        `error: Your local changes to the following files would be overwritten by checkout:\n${data.filepaths.map((p) => `\t${p}\n`).join("")}Please commit your changes or stash them before you switch branches.\nAborting`,
        1,
      );
    }
    throw error;
  }
}

export async function checkout(ctx: GitContext, args: string[]): Promise<number> {
  const dashes = args.indexOf("--");
  const before = dashes === -1 ? args : args.slice(0, dashes);
  const paths = dashes === -1 ? [] : args.slice(dashes + 1);
  let create: string | undefined;
  let force = false;
  let detach = false;
  let quiet = false;
  const operands: string[] = [];
  for (let i = 0; i < before.length; i++) {
    const arg = before[i]!;
    if (arg === "-b" || arg === "-B") create = before[++i];
    else if (arg === "-f" || arg === "--force") force = true;
    else if (arg === "--detach") detach = true;
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (!arg.startsWith("-")) operands.push(arg);
  }
  if (create) return (await switchTo(ctx, create, { create: true, start: operands[0], force, quiet })) === 0 ? 0 : 1;
  if (paths.length === 0 && operands.length === 1) {
    const code = await switchTo(ctx, operands[0]!, { force, detach, quiet });
    if (code !== -1) return code;
    // Not a branch or commit: a path (git checkout file).
  }
  let source: string | undefined;
  const pathArgs = [...paths];
  if (dashes !== -1) source = operands[0];
  else {
    const first = operands[0];
    if (first && operands.length > 1 && (await ctx.resolveCommit(first).then(() => true, () => false))) {
      source = first;
      pathArgs.push(...operands.slice(1));
    } else pathArgs.push(...operands);
  }
  if (pathArgs.length === 0) throw new GitUsageError("usage: git checkout [<options>] <branch>");
  for (const arg of pathArgs) {
    if (!ctx.fs.existsSync(`${ctx.cwd}/${arg}`) && !source) {
      const known = await git.listFiles({ fs: ctx.fs, dir: ctx.dir });
      const p = ctx.repoPath(arg);
      if (!known.some((f) => f === p || f.startsWith(`${p}/`))) throw new GitFatal(`error: pathspec '${arg}' did not match any file(s) known to git`, 1);
    }
  }
  await restorePaths(ctx, pathArgs.map((a) => ctx.repoPath(a)), pathArgs, { staged: source !== undefined, worktree: true, source });
  return 0;
}

export async function switchCommand(ctx: GitContext, args: string[]): Promise<number> {
  let create: string | undefined;
  let force = false;
  let detach = false;
  let quiet = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-c" || arg === "-C" || arg === "--create") create = args[++i];
    else if (arg === "-f" || arg === "--force" || arg === "--discard-changes") force = true;
    else if (arg === "-d" || arg === "--detach") detach = true;
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (!arg.startsWith("-")) operands.push(arg);
  }
  if (create) return (await switchTo(ctx, create, { create: true, start: operands[0], force, quiet })) === 0 ? 0 : 1;
  const target = operands[0];
  if (!target) throw new GitFatal("missing branch or commit argument");
  const local = await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/heads/${target}` }).then(() => true, () => false);
  if (!local && !detach) {
    const remotes = await git.listRemotes({ fs: ctx.fs, dir: ctx.dir });
    let remoteBranch = false;
    for (const r of remotes) {
      if (await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/remotes/${r.remote}/${target}` }).then(() => true, () => false)) remoteBranch = true;
    }
    if (!remoteBranch) {
      const isCommit = await ctx.resolveCommit(target).then(() => true, () => false);
      throw new GitFatal(isCommit ? `a branch is expected, got commit '${target}'\nhint: If you want to detach HEAD at the commit, try again with the --detach option.` : `invalid reference: ${target}`);
    }
  }
  const code = await switchTo(ctx, target, { force, detach, quiet });
  if (code === -1) throw new GitFatal(`invalid reference: ${target}`);
  return code;
}

export async function tag(ctx: GitContext, args: string[]): Promise<number> {
  let message: string | undefined;
  let annotated = false;
  let remove = false;
  let force = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-m" || arg === "--message") {
      message = args[++i];
      annotated = true;
    } else if (arg === "-a" || arg === "--annotate") annotated = true;
    else if (arg === "-d" || arg === "--delete") remove = true;
    else if (arg === "-f" || arg === "--force") force = true;
    else if (arg === "-l" || arg === "--list") continue;
    else if (!arg.startsWith("-")) operands.push(arg);
  }
  if (remove) {
    for (const name of operands) {
      const oid = await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/tags/${name}` }).catch(() => undefined);
      if (!oid) throw new GitFatal(`error: tag '${name}' not found.`, 1);
      await git.deleteTag({ fs: ctx.fs, dir: ctx.dir, ref: name });
      ctx.out(`Deleted tag '${name}' (was ${oid.slice(0, 7)})\n`);
    }
    return 0;
  }
  if (operands.length === 0 || args.includes("-l") || args.includes("--list")) {
    for (const name of (await git.listTags({ fs: ctx.fs, dir: ctx.dir })).sort()) ctx.out(`${name}\n`);
    return 0;
  }
  const [name, target] = operands as [string, string | undefined];
  const object = await ctx.resolveCommit(target ?? "HEAD");
  const exists = await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/tags/${name}` }).then(() => true, () => false);
  if (exists && !force) throw new GitFatal(`tag '${name}' already exists`);
  if (annotated) {
    if (message === undefined) throw new GitFatal("no tag message given: use git tag -a NAME -m \"message\" (no editor in this terminal)");
    const tagger = await ctx.identity("COMMITTER");
    await git.annotatedTag({ fs: ctx.fs, dir: ctx.dir, ref: name, object, message: message.endsWith("\n") ? message : `${message}\n`, tagger, force });
  } else await git.tag({ fs: ctx.fs, dir: ctx.dir, ref: name, object, force });
  return 0;
}

export async function stash(ctx: GitContext, args: string[]): Promise<number> {
  const op = args[0] && !args[0].startsWith("-") ? args[0] : "push";
  const rest = args[0] === op ? args.slice(1) : args;
  const index = (() => {
    const ref = rest.find((a) => /^(stash@\{\d+\}|\d+)$/.test(a));
    return ref ? Number(/\d+/.exec(ref)![0]) : 0;
  })();
  const head = await ctx.headOid();
  if (!head) throw new GitFatal("You do not have the initial commit yet");
  // isomorphic-git's stash takes its author from the repository's config.
  const author = await ctx.identity("COMMITTER");
  const hadName = await git.getConfig({ fs: ctx.fs, dir: ctx.dir, path: "user.name" });
  if (!hadName) {
    await git.setConfig({ fs: ctx.fs, dir: ctx.dir, path: "user.name", value: author.name });
    await git.setConfig({ fs: ctx.fs, dir: ctx.dir, path: "user.email", value: author.email });
  }
  const entries = async () => ((await git.stash({ fs: ctx.fs, dir: ctx.dir, op: "list" })) as unknown as string[] | undefined) ?? [];
  switch (op) {
    case "push":
    case "save": {
      const messageAt = rest.indexOf("-m");
      const message = messageAt !== -1 ? rest[messageAt + 1] : op === "save" ? rest.join(" ") : undefined;
      const rows = (await git.statusMatrix({ fs: ctx.fs, dir: ctx.dir })).filter(([, h, w, s]) => !(h === 1 && w === 1 && s === 1) && !(h === 0 && s === 0));
      if (rows.length === 0) {
        ctx.out("No local changes to save\n");
        return 0;
      }
      await git.stash({ fs: ctx.fs, dir: ctx.dir, op: "push", message: message ?? "" });
      const [latest] = await entries();
      ctx.out(`Saved working directory and index state ${String(latest ?? "").replace(/^stash@\{0\}: /, "")}\n`);
      return 0;
    }
    case "list":
      (await entries()).forEach((entry, i) => ctx.out(`${String(entry).startsWith("stash@") ? entry : `stash@{${i}}: ${entry}`}\n`));
      return 0;
    case "pop":
    case "apply":
    case "drop": {
      const list = await entries();
      if (list.length === 0) throw new GitFatal(op === "drop" ? "No stash entries found." : "No stash entries found.", 1);
      if (index >= list.length) throw new GitFatal(`stash@{${index}} is not a valid reference`, 1);
      const stashOid = await stashOidAt(ctx, index);
      await git.stash({ fs: ctx.fs, dir: ctx.dir, op, refIdx: index });
      if (op !== "drop") ctx.out(await statusAfterApply(ctx));
      if (op !== "apply") ctx.out(`Dropped refs/stash@{${index}} (${stashOid})\n`);
      return 0;
    }
    case "clear":
      await git.stash({ fs: ctx.fs, dir: ctx.dir, op: "clear" });
      return 0;
    default:
      throw new GitUsageError(`usage: git stash [push [-m <message>] | list | pop | apply | drop | clear]`);
  }
}

async function stashOidAt(ctx: GitContext, index: number): Promise<string> {
  const log = (await ctx.fs.readFile(`${ctx.dir === "/" ? "" : ctx.dir}/.git/logs/refs/stash`, "utf8").catch(() => "")) as string;
  const lines = log.split("\n").filter(Boolean).reverse();
  return lines[index]?.split(" ")[1] ?? "";
}

async function statusAfterApply(ctx: GitContext): Promise<string> {
  return longStatus(ctx, await statusRows(ctx));
}

/**
 * `git config` of the repository. As in git, reading falls back to the global values (and works
 * outside a repository), `--list` shows the global values first, and writing needs a repository.
 */
export async function config(ctx: GitContext, args: string[], global: Pick<GlobalConfig, "get" | "command">): Promise<number> {
  const operands = args.filter((a) => !a.startsWith("-"));
  const inRepository = ctx.root !== undefined;
  if (args.includes("--list") || args.includes("-l")) {
    await global.command(ctx, ["--list"]);
    if (!inRepository) return 0;
    const text = (await ctx.fs.readFile(`${ctx.dir === "/" ? "" : ctx.dir}/.git/config`, "utf8")) as string;
    let section = "";
    for (const line of text.split("\n")) {
      const header = /^\s*\[([^\]\s]+)(?:\s+"([^"]*)")?\]/.exec(line);
      if (header) section = header[2] !== undefined ? `${header[1]}.${header[2]}` : header[1]!;
      const entry = /^\s*([A-Za-z][\w-]*)\s*=\s*(.*)$/.exec(line);
      if (entry) ctx.out(`${section}.${entry[1]!.toLowerCase()}=${entry[2]}\n`);
    }
    return 0;
  }
  const [path, value] = operands as [string | undefined, string | undefined];
  const writes = args.includes("--unset") || value !== undefined;
  if (writes && !inRepository) throw new GitFatal("not in a git directory");
  if (args.includes("--unset")) {
    await git.setConfig({ fs: ctx.fs, dir: ctx.dir, path: operands[0]!, value: undefined });
    return 0;
  }
  if (!path) throw new GitUsageError("usage: git config [--list] <name> [<value>]");
  if (value === undefined) {
    const current = (inRepository ? await git.getConfig({ fs: ctx.fs, dir: ctx.dir, path }) : undefined) ?? global.get(path);
    if (current === undefined) return 1;
    ctx.out(`${String(current)}\n`);
    return 0;
  }
  await git.setConfig({ fs: ctx.fs, dir: ctx.dir, path, value });
  return 0;
}
