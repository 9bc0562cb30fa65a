// git log, show and diff, in git's default formats (no colour, no pager: output is for a terminal
// that scrolls and for the agent).
import type { ReadCommitResult } from "isomorphic-git";
import { git, GitFatal, formatGitDate, type GitContext } from "./git-context";
import { fileDiff, lineCounts } from "./git-diff";
import { changesBetween, content, type Change, type Side } from "./git-trees";

async function decorations(ctx: GitContext): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  const add = (oid: string, name: string) => map.set(oid, [...(map.get(oid) ?? []), name]);
  const head = await ctx.headOid();
  const branch = await ctx.branch();
  if (head) add(head, branch ? `HEAD -> ${branch}` : "HEAD");
  for (const name of await git.listBranches({ fs: ctx.fs, dir: ctx.dir })) {
    if (name === branch) continue;
    add(await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/heads/${name}` }), name);
  }
  for (const remote of await git.listRemotes({ fs: ctx.fs, dir: ctx.dir })) {
    for (const name of await git.listBranches({ fs: ctx.fs, dir: ctx.dir, remote: remote.remote })) {
      if (name === "HEAD") continue;
      const oid = await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/remotes/${remote.remote}/${name}` }).catch(() => undefined);
      if (oid) add(oid, `${remote.remote}/${name}`);
    }
  }
  for (const tag of await git.listTags({ fs: ctx.fs, dir: ctx.dir })) {
    const oid = await ctx.resolveCommit(tag).catch(() => undefined);
    if (oid) add(oid, `tag: ${tag}`);
  }
  return map;
}

function header(entry: ReadCommitResult, decoration: string | undefined): string {
  const { commit } = entry;
  const lines = [`commit ${entry.oid}${decoration ? ` (${decoration})` : ""}`];
  if (commit.parent.length > 1) lines.push(`Merge: ${commit.parent.map((p) => p.slice(0, 7)).join(" ")}`);
  lines.push(`Author: ${commit.author.name} <${commit.author.email}>`);
  lines.push(`Date:   ${formatGitDate(commit.author.timestamp, commit.author.timezoneOffset)}`);
  lines.push("");
  const body = commit.message.replace(/\n+$/, "");
  for (const line of body.split("\n")) lines.push(`    ${line}`);
  return lines.join("\n") + "\n";
}

function format(template: string, entry: ReadCommitResult): string {
  const { commit } = entry;
  const [subject = "", ...rest] = commit.message.replace(/\n+$/, "").split("\n");
  const values: Record<string, string> = {
    H: entry.oid,
    h: entry.oid.slice(0, 7),
    T: commit.tree,
    t: commit.tree.slice(0, 7),
    P: commit.parent.join(" "),
    p: commit.parent.map((p) => p.slice(0, 7)).join(" "),
    s: subject,
    b: rest.join("\n").replace(/^\n+/, "") + (rest.length > 0 ? "\n" : ""),
    B: commit.message,
    an: commit.author.name,
    ae: commit.author.email,
    ad: formatGitDate(commit.author.timestamp, commit.author.timezoneOffset),
    at: String(commit.author.timestamp),
    cn: commit.committer.name,
    ce: commit.committer.email,
    ct: String(commit.committer.timestamp),
    n: "\n",
    "%": "%",
  };
  return template.replace(/%(an|ae|ad|at|cn|ce|ct|[HhTtPpsbBn%])/g, (_m, key: string) => values[key] ?? "");
}

export async function log(ctx: GitContext, args: string[]): Promise<number> {
  let oneline = false;
  let limit = Number.POSITIVE_INFINITY;
  let decorate = false;
  let template: string | undefined;
  let ref: string | undefined;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--oneline") {
      oneline = true;
    } else if (arg === "-n" || arg === "--max-count") limit = Number(args[++i]);
    else if (arg.startsWith("--max-count=")) limit = Number(arg.slice(12));
    else if (/^-\d+$/.test(arg)) limit = Number(arg.slice(1));
    else if (/^-n\d+$/.test(arg)) limit = Number(arg.slice(2));
    else if (arg === "--decorate") decorate = true;
    else if (arg === "--no-decorate") decorate = false;
    else if (arg.startsWith("--format=") || arg.startsWith("--pretty=")) {
      const value = arg.slice(arg.indexOf("=") + 1);
      if (value === "oneline") oneline = true;
      else template = value.replace(/^(format|tformat):/, "");
    } else if (arg === "--") paths.push(...args.slice(i + 1).map((a) => ctx.repoPath(a)));
    else if (arg.startsWith("-")) continue;
    else if (ref === undefined && paths.length === 0 && (await ctx.resolveCommit(arg).then(() => true, () => false))) ref = arg;
    else paths.push(ctx.repoPath(arg));
    if (arg === "--") break;
  }
  const start = ref ? await ctx.resolveCommit(ref) : await ctx.headOid();
  if (!start) {
    const branch = (await ctx.branch()) ?? "HEAD";
    throw new GitFatal(`your current branch '${branch}' does not have any commits yet`);
  }
  let commits = await git.log({ fs: ctx.fs, dir: ctx.dir, ref: start });
  if (paths.length > 0) commits = await touching(ctx, commits, paths);
  const names = decorate || oneline ? (decorate ? await decorations(ctx) : undefined) : undefined;
  const shown = commits.slice(0, Number.isFinite(limit) ? Math.max(0, limit) : undefined);
  // With -p, --stat, --name-only or --name-status each commit is followed by its changes.
  const style = args.includes("-p") || args.includes("-u") || args.includes("--patch") ? "patch" : diffStyle(args);
  const withChanges = style !== "patch" || args.includes("-p") || args.includes("-u") || args.includes("--patch");
  for (const [index, entry] of shown.entries()) {
    const decoration = names?.get(entry.oid)?.join(", ");
    if (template !== undefined) ctx.out(`${format(template, entry)}\n`);
    else if (oneline) ctx.out(`${entry.oid.slice(0, 7)}${decoration ? ` (${decoration})` : ""} ${entry.commit.message.split("\n")[0]}\n`);
    else ctx.out(`${index > 0 ? "\n" : ""}${header(entry, decoration)}`);
    if (withChanges && style !== "none") {
      const rendered = await commitChanges(ctx, entry.oid, entry.commit.parent[0], style);
      if (rendered !== "") ctx.out(`${oneline || template !== undefined ? "" : "\n"}${rendered}`);
    }
  }
  return 0;
}

/** Commits that change any of `paths` compared to their first parent. */
async function touching(ctx: GitContext, commits: ReadCommitResult[], paths: string[]): Promise<ReadCommitResult[]> {
  const out: ReadCommitResult[] = [];
  for (const entry of commits) {
    const parent = entry.commit.parent[0];
    const changes = parent
      ? await changesBetween(ctx, { kind: "commit", oid: parent }, { kind: "commit", oid: entry.oid }, paths)
      : (await git.listFiles({ fs: ctx.fs, dir: ctx.dir, ref: entry.oid })).filter((f) => paths.some((p) => f === p || f.startsWith(`${p}/`)));
    if (changes.length > 0) out.push(entry);
  }
  return out;
}

type DiffStyle = "patch" | "name-only" | "name-status" | "stat" | "none";

async function render(ctx: GitContext, a: Side, b: Side, changes: Change[], style: DiffStyle): Promise<string> {
  if (style === "none") return "";
  if (style === "name-only") return changes.map((c) => `${ctx.shown(c.path)}\n`).join("");
  if (style === "name-status") return changes.map((c) => `${c.a === undefined ? "A" : c.b === undefined ? "D" : "M"}\t${ctx.shown(c.path)}\n`).join("");
  if (style === "stat") {
    const rows: Array<{ name: string; added: number; removed: number; binary: boolean }> = [];
    for (const c of changes) {
      const counts = lineCounts(await content(ctx, a, c.path, c.a), await content(ctx, b, c.path, c.b));
      rows.push({ name: ctx.shown(c.path), ...counts });
    }
    if (rows.length === 0) return "";
    const width = Math.max(...rows.map((r) => r.name.length));
    const totalWidth = Math.max(...rows.map((r) => String(r.added + r.removed).length));
    let text = "";
    for (const r of rows) {
      const n = r.added + r.removed;
      const bar = "+".repeat(Math.min(r.added, 50)) + "-".repeat(Math.min(r.removed, 50));
      text += r.binary ? ` ${r.name.padEnd(width)} | Bin\n` : ` ${r.name.padEnd(width)} | ${String(n).padStart(totalWidth)} ${bar}\n`;
    }
    const added = rows.reduce((s, r) => s + r.added, 0);
    const removed = rows.reduce((s, r) => s + r.removed, 0);
    let line = ` ${rows.length} file${rows.length === 1 ? "" : "s"} changed`;
    if (added > 0 || removed === 0) line += `, ${added} insertion${added === 1 ? "" : "s"}(+)`;
    if (removed > 0 || added === 0) line += `, ${removed} deletion${removed === 1 ? "" : "s"}(-)`;
    return `${text}${line}\n`;
  }
  let text = "";
  for (const c of changes) {
    text += fileDiff({ path: c.path, oid: c.a, content: await content(ctx, a, c.path, c.a) }, { path: c.path, oid: c.b, content: await content(ctx, b, c.path, c.b) });
  }
  return text;
}

function diffStyle(args: string[]): DiffStyle {
  if (args.includes("-s") || args.includes("--no-patch")) return "none";
  if (args.includes("--name-only")) return "name-only";
  if (args.includes("--name-status")) return "name-status";
  if (args.includes("--stat")) return "stat";
  return "patch";
}

export async function diff(ctx: GitContext, args: string[]): Promise<number> {
  const cached = args.includes("--cached") || args.includes("--staged");
  const style = diffStyle(args);
  const quiet = args.includes("--quiet") || args.includes("--exit-code");
  const commits: string[] = [];
  const paths: string[] = [];
  let afterDashes = false;
  for (const arg of args) {
    if (afterDashes) paths.push(ctx.repoPath(arg));
    else if (arg === "--") afterDashes = true;
    else if (arg.startsWith("-")) continue;
    else if (paths.length === 0 && arg.includes("..")) commits.push(...arg.split(/\.\.\.?/).map((s) => s || "HEAD"));
    else if (paths.length === 0 && (await ctx.resolveCommit(arg).then(() => true, () => false))) commits.push(arg);
    else if (ctx.fs.existsSync(`${ctx.cwd}/${arg}`) || arg.startsWith("/")) paths.push(ctx.repoPath(arg));
    else throw new GitFatal(`ambiguous argument '${arg}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`);
  }
  let a: Side;
  let b: Side;
  if (commits.length >= 2) {
    a = { kind: "commit", oid: await ctx.resolveCommit(commits[0]!) };
    b = { kind: "commit", oid: await ctx.resolveCommit(commits[1]!) };
  } else if (cached) {
    const head = commits[0] ? await ctx.resolveCommit(commits[0]) : await ctx.headOid();
    a = head ? { kind: "commit", oid: head } : { kind: "commit", oid: await emptyTreeCommit(ctx) };
    b = { kind: "index" };
  } else if (commits.length === 1) {
    a = { kind: "commit", oid: await ctx.resolveCommit(commits[0]!) };
    b = { kind: "workdir" };
  } else {
    a = { kind: "index" };
    b = { kind: "workdir" };
  }
  const changes = await changesBetween(ctx, a, b, paths);
  if (!args.includes("--quiet")) ctx.out(await render(ctx, a, b, changes, style));
  return quiet && changes.length > 0 ? 1 : 0;
}

/** `git diff --cached` before the first commit compares with the empty tree. */
async function emptyTreeCommit(ctx: GitContext): Promise<string> {
  return git.writeTree({ fs: ctx.fs, dir: ctx.dir, tree: [] });
}

/** What a commit changed against its first parent (the empty tree for a root commit), rendered. */
async function commitChanges(ctx: GitContext, oid: string, parent: string | undefined, style: DiffStyle): Promise<string> {
  const a: Side = { kind: "commit", oid: parent ?? (await emptyTreeCommit(ctx)) };
  const b: Side = { kind: "commit", oid };
  return render(ctx, a, b, await changesBetween(ctx, a, b), style);
}

export async function show(ctx: GitContext, args: string[]): Promise<number> {
  const style = diffStyle(args);
  const specs = args.filter((a) => !a.startsWith("-"));
  if (specs.length === 0) specs.push("HEAD");
  let first = true;
  for (const spec of specs) {
    const colon = spec.indexOf(":");
    if (colon !== -1) {
      const commit = await ctx.resolveCommit(spec.slice(0, colon) || "HEAD");
      const path = spec.slice(colon + 1).replace(/^\.\//, "");
      const filepath = spec.slice(colon + 1).startsWith("./") ? ctx.repoPath(path) : path;
      try {
        const { blob } = await git.readBlob({ fs: ctx.fs, dir: ctx.dir, oid: commit, filepath });
        ctx.out(new TextDecoder().decode(blob));
      } catch {
        throw new GitFatal(`path '${filepath}' does not exist in '${spec.slice(0, colon) || "HEAD"}'`);
      }
      continue;
    }
    const oid = await ctx.resolveCommit(spec);
    const entry = await git.readCommit({ fs: ctx.fs, dir: ctx.dir, oid });
    if (!first) ctx.out("\n");
    first = false;
    ctx.out(header(entry, undefined));
    const rendered = await commitChanges(ctx, oid, entry.commit.parent[0], style);
    if (rendered !== "") ctx.out(`\n${rendered}`);
  }
  return 0;
}
