// git status, add, rm, mv, commit, restore and reset: the commands that move changes between the
// work tree, the index and HEAD, with git's wording.
import { git, GitFatal, GitUsageError, type GitContext } from "./git-context";
import { changeSummary, changesBetween, indexBlobs, statusRows, type StatusRow } from "./git-trees";
import { shortBranchLine, upstreamLine } from "./git-upstream";

const LABELS: Record<string, string> = { M: "modified:   ", A: "new file:   ", D: "deleted:    ", R: "renamed:    " };

function workPath(ctx: GitContext, path: string): string {
  return `${ctx.dir === "/" ? "" : ctx.dir}/${path}`;
}

/** Untracked files, folders shown once ("dir/") when nothing under them is tracked, like git. */
async function untrackedShown(ctx: GitContext, rows: StatusRow[]): Promise<string[]> {
  const trackedFolders = new Set<string>();
  for (const file of await git.listFiles({ fs: ctx.fs, dir: ctx.dir })) {
    for (let i = file.indexOf("/"); i !== -1; i = file.indexOf("/", i + 1)) trackedFolders.add(file.slice(0, i));
  }
  const shown = new Set<string>();
  for (const row of rows) {
    if (row.x !== "?") continue;
    let entry = row.path;
    for (let i = row.path.indexOf("/"); i !== -1; i = row.path.indexOf("/", i + 1)) {
      const folder = row.path.slice(0, i);
      if (!trackedFolders.has(folder)) {
        entry = `${folder}/`;
        break;
      }
    }
    shown.add(entry);
  }
  return [...shown].sort();
}

export async function status(ctx: GitContext, args: string[]): Promise<number> {
  const short = args.includes("-s") || args.includes("--short") || args.includes("--porcelain");
  const paths = args.filter((a) => !a.startsWith("-")).map((a) => ctx.repoPath(a));
  const rows = await statusRows(ctx, paths);
  if (short) {
    if (args.includes("-b") || args.includes("--branch")) ctx.out(`${await shortBranchLine(ctx, await ctx.branch(), await ctx.headOid())}\n`);
    const untracked = await untrackedShown(ctx, rows);
    for (const row of rows) if (row.x !== "?") ctx.out(`${row.x}${row.y} ${row.from !== undefined ? `${ctx.shown(row.from)} -> ` : ""}${ctx.shown(row.path)}\n`);
    for (const entry of untracked) ctx.out(`?? ${ctx.shown(entry)}${entry.endsWith("/") ? "/" : ""}\n`.replace("//\n", "/\n"));
    return 0;
  }
  ctx.out(await longStatus(ctx, rows));
  return 0;
}

export async function longStatus(ctx: GitContext, rows: StatusRow[], forCommit = false): Promise<string> {
  const branch = await ctx.branch();
  const head = await ctx.headOid();
  // git's layout (wt-status.c): the tracking line and "No commits yet" are followed by a blank
  // line, and so is every section; the summary line comes last.
  const lines: string[] = [];
  lines.push(branch ? `On branch ${branch}` : `HEAD detached at ${head?.slice(0, 7) ?? ""}`);
  if (branch && head) {
    const upstream = await upstreamLine(ctx, branch, head);
    if (upstream) lines.push(upstream, "");
  }
  if (!head) lines.push("", "No commits yet", "");
  const staged = rows.filter((r) => r.x !== " " && r.x !== "?");
  const unstaged = rows.filter((r) => r.y !== " " && r.y !== "?");
  const untracked = await untrackedShown(ctx, rows);
  if (staged.length > 0) {
    lines.push("Changes to be committed:");
    lines.push(head ? '  (use "git restore --staged <file>..." to unstage)' : '  (use "git rm --cached <file>..." to unstage)');
    for (const row of staged) lines.push(`\t${LABELS[row.x]}${row.from !== undefined ? `${ctx.shown(row.from)} -> ` : ""}${ctx.shown(row.path)}`);
    lines.push("");
  }
  if (unstaged.length > 0) {
    lines.push("Changes not staged for commit:");
    lines.push(`  (use "git add${unstaged.some((r) => r.y === "D") ? "/rm" : ""} <file>..." to update what will be committed)`);
    lines.push('  (use "git restore <file>..." to discard changes in working directory)');
    for (const row of unstaged) lines.push(`\t${LABELS[row.y]}${ctx.shown(row.path)}`);
    lines.push("");
  }
  if (untracked.length > 0) {
    lines.push("Untracked files:", '  (use "git add <file>..." to include in what will be committed)');
    for (const entry of untracked) {
      const shown = ctx.shown(entry.replace(/\/$/, ""));
      lines.push(`\t${shown}${entry.endsWith("/") ? "/" : ""}`);
    }
    lines.push("");
  }
  if (staged.length === 0) {
    if (unstaged.length > 0) lines.push('no changes added to commit (use "git add" and/or "git commit -a")');
    else if (untracked.length > 0) lines.push('nothing added to commit but untracked files present (use "git add" to track)');
    else if (!head) lines.push('nothing to commit (create/copy files and use "git add" to track)');
    else lines.push("nothing to commit, working tree clean");
  }
  return lines.join("\n") + (staged.length === 0 || !forCommit ? "\n" : "");
}

export async function add(ctx: GitContext, args: string[]): Promise<number> {
  const all = args.includes("-A") || args.includes("--all");
  const update = args.includes("-u") || args.includes("--update");
  const operands = args.filter((a) => !a.startsWith("-") || a === "-");
  if (operands.length === 0 && !all && !update) {
    ctx.err("Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\n");
    return 0;
  }
  const paths = operands.map((a) => ctx.repoPath(a));
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    if (path !== "" && !ctx.fs.existsSync(workPath(ctx, path)) && !(await isTracked(ctx, path))) {
      throw new GitFatal(`pathspec '${operands[i]}' did not match any files`);
    }
  }
  const rows = await statusRows(ctx, paths.includes("") ? undefined : paths);
  const toAdd: string[] = [];
  for (const row of rows) {
    if (row.x === "?" && update) continue;
    if (row.y === "D") await git.remove({ fs: ctx.fs, dir: ctx.dir, filepath: row.path });
    else if (row.y !== " ") toAdd.push(row.path);
  }
  if (toAdd.length > 0) await git.add({ fs: ctx.fs, dir: ctx.dir, filepath: toAdd });
  if (args.includes("-v") || args.includes("--verbose")) for (const path of toAdd) ctx.out(`add '${ctx.shown(path)}'\n`);
  return 0;
}

async function isTracked(ctx: GitContext, path: string): Promise<boolean> {
  const files = await git.listFiles({ fs: ctx.fs, dir: ctx.dir });
  return files.some((f) => f === path || f.startsWith(`${path}/`));
}

async function trackedUnder(ctx: GitContext, path: string): Promise<string[]> {
  const files = await git.listFiles({ fs: ctx.fs, dir: ctx.dir });
  return files.filter((f) => path === "" || f === path || f.startsWith(`${path}/`));
}

export async function rm(ctx: GitContext, args: string[]): Promise<number> {
  const cached = args.includes("--cached");
  const recursive = args.includes("-r");
  const quiet = args.includes("-q") || args.includes("--quiet");
  const operands = args.filter((a) => !a.startsWith("-"));
  if (operands.length === 0) throw new GitUsageError("usage: git rm [-f | --force] [-n] [-r] [--cached] [--] <pathspec>...");
  const doomed: string[] = [];
  for (const operand of operands) {
    const path = ctx.repoPath(operand);
    const files = await trackedUnder(ctx, path);
    if (files.length === 0) throw new GitFatal(`pathspec '${operand}' did not match any files`);
    if (!recursive && !(files.length === 1 && files[0] === path)) throw new GitFatal(`not removing '${operand}' recursively without -r`);
    doomed.push(...files);
  }
  for (const file of doomed) {
    await git.remove({ fs: ctx.fs, dir: ctx.dir, filepath: file });
    if (!cached && ctx.fs.existsSync(workPath(ctx, file))) await ctx.fs.unlink(workPath(ctx, file));
    if (!quiet) ctx.out(`rm '${file}'\n`);
  }
  if (!cached) ctx.fs.removeEmptyFolders(doomed.map((f) => workPath(ctx, f)), ctx.dir);
  return 0;
}

export async function mv(ctx: GitContext, args: string[]): Promise<number> {
  const operands = args.filter((a) => !a.startsWith("-"));
  if (operands.length < 2) throw new GitUsageError("usage: git mv [<options>] <source>... <destination>");
  const destination = ctx.repoPath(operands.pop()!);
  const destIsFolder = ctx.fs.isFolder(workPath(ctx, destination));
  if (operands.length > 1 && !destIsFolder) throw new GitFatal(`destination '${destination}' is not a directory`);
  for (const operand of operands) {
    const source = ctx.repoPath(operand);
    const files = await trackedUnder(ctx, source);
    if (files.length === 0) throw new GitFatal(`not under version control, source=${source}, destination=${destination}`);
    const name = source.slice(source.lastIndexOf("/") + 1);
    const target = destIsFolder ? (destination === "" ? name : `${destination}/${name}`) : destination;
    if (!destIsFolder && ctx.fs.existsSync(workPath(ctx, target))) throw new GitFatal(`destination exists, source=${source}, destination=${target}`);
    ctx.fs.rename(workPath(ctx, source), workPath(ctx, target));
    const moved = files.map((f) => target + f.slice(source.length));
    for (const file of files) await git.remove({ fs: ctx.fs, dir: ctx.dir, filepath: file });
    await git.add({ fs: ctx.fs, dir: ctx.dir, filepath: moved });
  }
  return 0;
}

function cleanMessage(parts: string[]): string {
  const text = parts
    .join("\n\n")
    .split("\n")
    .map((l) => l.replace(/\s+$/, ""))
    .join("\n")
    .replace(/^\n+/, "")
    .replace(/\n+$/, "");
  return text === "" ? "" : `${text}\n`;
}

export async function commit(ctx: GitContext, args: string[]): Promise<number> {
  const messages: string[] = [];
  let all = false;
  let amend = false;
  let allowEmpty = false;
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-m" || arg === "--message") messages.push(args[++i] ?? "");
    else if (arg.startsWith("--message=")) messages.push(arg.slice(10));
    else if (arg.startsWith("-m") && arg.length > 2) messages.push(arg.slice(2));
    else if (arg === "-a" || arg === "--all") all = true;
    else if (arg === "--amend") amend = true;
    else if (arg === "--allow-empty") allowEmpty = true;
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (arg === "--no-edit" || arg === "--no-verify" || arg === "-n" || arg === "-v" || arg === "--verbose") continue;
    else throw new GitUsageError(`error: unknown option '${arg.replace(/^-+/, "")}'`);
  }
  const head = await ctx.headOid();
  if (all && head) {
    const rows = await statusRows(ctx);
    const changed = rows.filter((r) => r.x !== "?" && r.y !== " ");
    for (const row of changed.filter((r) => r.y === "D")) await git.remove({ fs: ctx.fs, dir: ctx.dir, filepath: row.path });
    const modified = changed.filter((r) => r.y === "M").map((r) => r.path);
    if (modified.length > 0) await git.add({ fs: ctx.fs, dir: ctx.dir, filepath: modified });
  }
  let message = cleanMessage(messages);
  if (amend && messages.length === 0 && head) message = (await git.readCommit({ fs: ctx.fs, dir: ctx.dir, oid: head })).commit.message;
  if (message === "") {
    ctx.err(messages.length === 0 ? "error: no commit message given: use git commit -m \"message\" (no editor in this terminal)\n" : "Aborting commit due to empty commit message.\n");
    return 1;
  }
  const staged = head ? (await changesBetween(ctx, { kind: "commit", oid: head }, { kind: "index" })).length : (await git.listFiles({ fs: ctx.fs, dir: ctx.dir })).length;
  if (!amend && !allowEmpty && staged === 0) {
    ctx.out(await longStatus(ctx, await statusRows(ctx), true));
    return 1;
  }
  const author = await ctx.identity("AUTHOR");
  const committer = await ctx.identity("COMMITTER");
  const branch = await ctx.branch();
  const previousParent = amend && head ? (await git.readCommit({ fs: ctx.fs, dir: ctx.dir, oid: head })).commit.parent[0] : head;
  const oid = await git.commit({ fs: ctx.fs, dir: ctx.dir, message, author, committer, amend: amend && head !== undefined });
  if (!quiet) {
    const root = previousParent === undefined ? " (root-commit)" : "";
    ctx.out(`[${branch ?? "detached HEAD"}${root} ${oid.slice(0, 7)}] ${message.split("\n")[0]}\n`);
    const changes =
      previousParent === undefined
        ? (await git.listFiles({ fs: ctx.fs, dir: ctx.dir, ref: oid })).sort().map((path) => ({ path, a: undefined, b: "" }))
        : await changesBetween(ctx, { kind: "commit", oid: previousParent }, { kind: "commit", oid });
    if (previousParent === undefined) {
      for (const change of changes) change.b = (await git.readBlob({ fs: ctx.fs, dir: ctx.dir, oid, filepath: change.path })).oid;
    }
    ctx.out(await changeSummary(ctx, changes));
  }
  return 0;
}

/** Writes the blob at `oid` to the work tree (or deletes the file when undefined). */
async function writeWork(ctx: GitContext, path: string, oid: string | undefined): Promise<void> {
  const target = workPath(ctx, path);
  if (oid === undefined) {
    if (ctx.fs.existsSync(target)) await ctx.fs.unlink(target);
    return;
  }
  const { blob } = await git.readBlob({ fs: ctx.fs, dir: ctx.dir, oid });
  ctx.fs.ensureFolder(target.slice(0, target.lastIndexOf("/")));
  await ctx.fs.writeFile(target, blob);
}

async function commitBlobs(ctx: GitContext, commit: string, paths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const file of await git.listFiles({ fs: ctx.fs, dir: ctx.dir, ref: commit })) {
    if (paths.some((p) => p === "" || file === p || file.startsWith(`${p}/`))) {
      out.set(file, (await git.readBlob({ fs: ctx.fs, dir: ctx.dir, oid: commit, filepath: file })).oid);
    }
  }
  return out;
}

export async function restore(ctx: GitContext, args: string[]): Promise<number> {
  let staged = false;
  let worktree = false;
  let source: string | undefined;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--staged" || arg === "-S") staged = true;
    else if (arg === "--worktree" || arg === "-W") worktree = true;
    else if (arg === "-s" || arg === "--source") source = args[++i];
    else if (arg.startsWith("--source=")) source = arg.slice(9);
    else if (arg !== "--") operands.push(arg);
  }
  if (operands.length === 0) throw new GitFatal("you must specify path(s) to restore");
  if (!staged) worktree = true;
  const paths = operands.map((a) => ctx.repoPath(a));
  await restorePaths(ctx, paths, operands, { staged, worktree, source: source ?? (staged ? "HEAD" : undefined) });
  return 0;
}

export async function restorePaths(
  ctx: GitContext,
  paths: string[],
  operands: string[],
  options: { staged: boolean; worktree: boolean; source?: string },
): Promise<void> {
  const commit = options.source ? await ctx.resolveCommit(options.source).catch(() => undefined) : undefined;
  const from = commit ? await commitBlobs(ctx, commit, paths) : await indexBlobs(ctx, paths);
  const current = await indexBlobs(ctx, paths);
  for (let i = 0; i < paths.length; i++) {
    const p = paths[i]!;
    const known = [...from.keys(), ...current.keys()].some((f) => p === "" || f === p || f.startsWith(`${p}/`));
    if (!known) throw new GitFatal(`error: pathspec '${operands[i]}' did not match any file(s) known to git`, 1);
  }
  const all = new Set([...from.keys(), ...(options.staged || commit ? current.keys() : [])]);
  for (const path of [...all].sort()) {
    const oid = from.get(path);
    if (options.staged) {
      if (oid === undefined) await git.remove({ fs: ctx.fs, dir: ctx.dir, filepath: path });
      else await git.resetIndex({ fs: ctx.fs, dir: ctx.dir, filepath: path, ref: commit });
    }
    if (options.worktree) await writeWork(ctx, path, oid);
  }
}

export async function reset(ctx: GitContext, args: string[]): Promise<number> {
  let mode = "mixed" as "soft" | "mixed" | "hard";
  const operands: string[] = [];
  let quiet = false;
  for (const arg of args) {
    if (arg === "--soft" || arg === "--mixed" || arg === "--hard") mode = arg.slice(2) as typeof mode;
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (arg !== "--") operands.push(arg);
  }
  let target = "HEAD";
  if (operands.length > 0) {
    const first = operands[0]!;
    const isCommit = await ctx.resolveCommit(first).then(
      () => true,
      () => false,
    );
    if (isCommit) {
      target = first;
      operands.shift();
    }
  }
  if (operands.length > 0) {
    if (mode !== "mixed") throw new GitFatal(`Cannot do ${mode} reset with paths.`);
    const commit = await ctx.resolveCommit(target).catch(() => undefined);
    await restorePaths(ctx, operands.map((a) => ctx.repoPath(a)), operands, { staged: true, worktree: false, source: commit ? target : undefined });
    return 0;
  }
  const oid = await ctx.resolveCommit(target);
  const branch = await ctx.branch();
  await git.writeRef({ fs: ctx.fs, dir: ctx.dir, ref: branch ? `refs/heads/${branch}` : "HEAD", value: oid, force: true });
  if (mode === "soft") return 0;
  if (mode === "hard") {
    const before = await git.listFiles({ fs: ctx.fs, dir: ctx.dir });
    const after = await commitBlobs(ctx, oid, [""]);
    for (const path of before) if (!after.has(path)) await writeWork(ctx, path, undefined);
    await resetIndexTo(ctx, oid, before, after);
    for (const [path, blobOid] of after) await writeWork(ctx, path, blobOid);
    ctx.fs.removeEmptyFolders(before.filter((p) => !after.has(p)).map((p) => workPath(ctx, p)), ctx.dir);
    const { commit } = await git.readCommit({ fs: ctx.fs, dir: ctx.dir, oid });
    if (!quiet) ctx.out(`HEAD is now at ${oid.slice(0, 7)} ${commit.message.split("\n")[0]}\n`);
    return 0;
  }
  const before = await git.listFiles({ fs: ctx.fs, dir: ctx.dir });
  await resetIndexTo(ctx, oid, before, await commitBlobs(ctx, oid, [""]));
  const unstaged = (await statusRows(ctx)).filter((r) => r.y !== " " && r.y !== "?");
  if (!quiet && unstaged.length > 0) {
    ctx.out("Unstaged changes after reset:\n");
    for (const row of unstaged) ctx.out(`${row.y}\t${row.path}\n`);
  }
  return 0;
}

async function resetIndexTo(ctx: GitContext, oid: string, before: string[], after: Map<string, string>): Promise<void> {
  for (const path of before) if (!after.has(path)) await git.remove({ fs: ctx.fs, dir: ctx.dir, filepath: path });
  const current = await indexBlobs(ctx, [""]);
  for (const [path, blobOid] of after) {
    if (current.get(path) !== blobOid) await git.resetIndex({ fs: ctx.fs, dir: ctx.dir, filepath: path, ref: oid });
  }
}
