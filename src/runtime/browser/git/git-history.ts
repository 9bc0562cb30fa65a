// git log, show and diff, in git's default formats (no colour, no pager: output is for a terminal
// that scrolls and for the agent).
import type { ReadCommitResult } from "isomorphic-git";
import { git, GitFatal, formatGitDate, type GitContext } from "./git-context";
import { fileDiff, lineCounts } from "./git-diff";
import { changesBetween, content, type Change, type Side } from "./git-trees";
import { HistoryGraph } from "./git-graph";

/**
 * The names shown beside each commit with --decorate, in git's order: "HEAD -> branch" (or "HEAD"
 * when detached) first, then the refs in the reverse of their full names' order (tags, remote
 * branches, local branches), "tag: " before tag names.
 */
async function decorations(ctx: GitContext): Promise<Map<string, string[]>> {
  const byOid = new Map<string, string[]>();
  const refs: Array<[string, string, string]> = [];
  for (const name of await git.listBranches({ fs: ctx.fs, dir: ctx.dir })) refs.push([`refs/heads/${name}`, name, name]);
  for (const remote of await git.listRemotes({ fs: ctx.fs, dir: ctx.dir })) {
    for (const name of await git.listBranches({ fs: ctx.fs, dir: ctx.dir, remote: remote.remote })) {
      refs.push([`refs/remotes/${remote.remote}/${name}`, `${remote.remote}/${name}`, ""]);
    }
  }
  for (const tag of await git.listTags({ fs: ctx.fs, dir: ctx.dir })) refs.push([`refs/tags/${tag}`, `tag: ${tag}`, ""]);
  refs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const head = await ctx.headOid();
  const branch = await ctx.branch();
  for (const [ref, shown, local] of refs.reverse()) {
    const oid = await ctx.resolveCommit(ref).catch(() => undefined);
    if (!oid || (local !== "" && local === branch)) continue;
    byOid.set(oid, [...(byOid.get(oid) ?? []), shown]);
  }
  if (head) byOid.set(head, [branch ? `HEAD -> ${branch}` : "HEAD", ...(byOid.get(head) ?? [])]);
  return byOid;
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

/** The starting points of --all: every ref and HEAD, in the order git takes them (refs by name, then HEAD). */
async function allStarts(ctx: GitContext): Promise<string[]> {
  const refs: string[] = [];
  for (const name of await git.listBranches({ fs: ctx.fs, dir: ctx.dir })) refs.push(`refs/heads/${name}`);
  for (const remote of await git.listRemotes({ fs: ctx.fs, dir: ctx.dir })) {
    for (const name of await git.listBranches({ fs: ctx.fs, dir: ctx.dir, remote: remote.remote })) refs.push(`refs/remotes/${remote.remote}/${name}`);
  }
  for (const tag of await git.listTags({ fs: ctx.fs, dir: ctx.dir })) refs.push(`refs/tags/${tag}`);
  refs.sort();
  const oids: string[] = [];
  for (const ref of refs) {
    const oid = await ctx.resolveCommit(ref).catch(() => undefined);
    if (oid) oids.push(oid);
  }
  const head = await ctx.headOid();
  if (head) oids.push(head);
  return oids;
}

/**
 * The commits reachable from `starts`, in git's order: newest commit date first, a commit's
 * parents queued behind commits of the same date (git's default); with `topo`, as git's
 * --topo-order (and --graph) sorts them: no parent before all its children, a branch's commits
 * together, the last-merged branch first.
 */
async function walk(ctx: GitContext, starts: string[], topo: boolean): Promise<ReadCommitResult[]> {
  const read = new Map<string, ReadCommitResult>();
  const load = async (oid: string) => {
    let entry = read.get(oid);
    if (!entry) {
      entry = await git.readCommit({ fs: ctx.fs, dir: ctx.dir, oid });
      read.set(oid, entry);
    }
    return entry;
  };
  const date = (entry: ReadCommitResult) => entry.commit.committer.timestamp;
  /** Inserted behind every entry of the same or a newer date (git's commit_list_insert_by_date). */
  const insertByDate = (list: ReadCommitResult[], entry: ReadCommitResult) => {
    const at = list.findIndex((other) => date(other) < date(entry));
    list.splice(at < 0 ? list.length : at, 0, entry);
  };
  const seen = new Set<string>();
  let queue: ReadCommitResult[] = [];
  for (const oid of starts) {
    if (seen.has(oid)) continue;
    seen.add(oid);
    queue.push(await load(oid));
  }
  // A stable sort, newest first.
  queue = queue.map((entry, index) => ({ entry, index })).sort((a, b) => date(b.entry) - date(a.entry) || a.index - b.index).map(({ entry }) => entry);
  const ordered: ReadCommitResult[] = [];
  while (queue.length > 0) {
    const entry = queue.shift()!;
    ordered.push(entry);
    for (const parent of entry.commit.parent) {
      if (seen.has(parent)) continue;
      seen.add(parent);
      insertByDate(queue, await load(parent));
    }
  }
  if (!topo) return ordered;
  // Children counted within the walk; tips (no child) start a stack, a parent goes on it when its
  // last child is out, so the parent pushed last (a merge's merged branch) comes next.
  const children = new Map<string, number>();
  for (const entry of ordered) for (const parent of entry.commit.parent) children.set(parent, (children.get(parent) ?? 0) + 1);
  const stack = ordered.filter((entry) => !children.has(entry.oid)).reverse();
  const sorted: ReadCommitResult[] = [];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    sorted.push(entry);
    for (const parent of entry.commit.parent) {
      const left = (children.get(parent) ?? 0) - 1;
      children.set(parent, left);
      if (left === 0) stack.push(read.get(parent)!);
    }
  }
  return sorted;
}

export async function log(ctx: GitContext, args: string[]): Promise<number> {
  let oneline = false;
  let limit = Number.POSITIVE_INFINITY;
  let decorate = false;
  let template: string | undefined;
  let all = false;
  let graph = false;
  let topo = false;
  let reverse = false;
  const refs: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--oneline") {
      oneline = true;
    } else if (arg === "-n" || arg === "--max-count") limit = Number(args[++i]);
    else if (arg.startsWith("--max-count=")) limit = Number(arg.slice(12));
    else if (/^-\d+$/.test(arg)) limit = Number(arg.slice(1));
    else if (/^-n\d+$/.test(arg)) limit = Number(arg.slice(2));
    else if (arg === "--decorate" || arg === "--decorate=short" || arg === "--decorate=auto") decorate = true;
    else if (arg === "--no-decorate" || arg === "--decorate=no") decorate = false;
    else if (arg.startsWith("--decorate=")) throw new GitFatal(`invalid --decorate option: ${arg.slice(11)}${arg === "--decorate=full" ? " (full ref names are not supported in the browser runtime)" : ""}`);
    else if (arg === "--all") all = true;
    else if (arg === "--reverse") reverse = true;
    else if (arg === "--graph") graph = topo = true;
    else if (arg === "--topo-order") topo = true;
    else if (arg === "--date-order") topo = false;
    else if (arg.startsWith("--format=") || arg.startsWith("--pretty=")) {
      const value = arg.slice(arg.indexOf("=") + 1);
      if (value === "oneline") oneline = true;
      else if (value === "medium") template = undefined;
      else if (/^(short|full|fuller|reference|email|raw|mboxrd)$/.test(value)) throw new GitFatal(`the ${value} format is not supported in the browser runtime (oneline, medium and format:… are)`);
      else template = value.replace(/^(format|tformat):/, "");
    } else if (arg === "--") paths.push(...args.slice(i + 1).map((a) => ctx.repoPath(a)));
    else if (arg.startsWith("-")) continue;
    else if (paths.length === 0 && (await ctx.resolveCommit(arg).then(() => true, () => false))) refs.push(arg);
    else paths.push(ctx.repoPath(arg));
    if (arg === "--") break;
  }
  const starts: string[] = [];
  for (const ref of refs) starts.push(await ctx.resolveCommit(ref));
  if (all) starts.push(...(await allStarts(ctx)));
  if (refs.length === 0 && !all) {
    const head = await ctx.headOid();
    if (!head) {
      const branch = (await ctx.branch()) ?? "HEAD";
      throw new GitFatal(`your current branch '${branch}' does not have any commits yet`);
    }
    starts.push(head);
  }
  let commits = await walk(ctx, starts, topo);
  if (paths.length > 0) commits = await touching(ctx, commits, paths);
  const names = decorate ? await decorations(ctx) : undefined;
  if (reverse && graph) throw new GitFatal("options '--reverse' and '--graph' cannot be used together");
  const shown = commits.slice(0, Number.isFinite(limit) ? Math.max(0, limit) : undefined);
  // As git: the commits are limited first, then shown oldest first.
  if (reverse) shown.reverse();
  // With -p, --stat, --name-only or --name-status each commit is followed by its changes.
  const style = args.includes("-p") || args.includes("-u") || args.includes("--patch") ? "patch" : diffStyle(args);
  const withChanges = style !== "patch" || args.includes("-p") || args.includes("-u") || args.includes("--patch");
  const lanes = graph ? new HistoryGraph() : undefined;
  const inLog = new Set(commits.map((entry) => entry.oid));
  for (const [index, entry] of shown.entries()) {
    const decoration = names?.get(entry.oid)?.join(", ");
    let text: string;
    if (template !== undefined) text = `${format(template, entry)}\n`;
    else if (oneline) text = `${entry.oid.slice(0, 7)}${decoration ? ` (${decoration})` : ""} ${entry.commit.message.split("\n")[0]}\n`;
    else text = header(entry, decoration);
    if (withChanges && style !== "none") {
      const rendered = await commitChanges(ctx, entry.oid, entry.commit.parent[0], style);
      if (rendered !== "") text += `${oneline || template !== undefined ? "" : "\n"}${rendered}`;
    }
    const separated = index > 0 && !oneline && template === undefined;
    if (!lanes) {
      ctx.out(`${separated ? "\n" : ""}${text}`);
      continue;
    }
    // Parents in this log's history get an edge, also below a log cut short by -n (as git draws it).
    lanes.update(entry.oid, entry.commit.parent.filter((parent) => inLog.has(parent)));
    ctx.out(drawCommit(lanes, text, separated));
  }
  return 0;
}

/** One commit's text with the graph beside it, as git prints it (its lines, then what is left of the graph). */
function drawCommit(lanes: HistoryGraph, text: string, separated: boolean): string {
  let out = separated ? `${lanes.paddingLine()}\n` : "";
  for (;;) {
    const line = lanes.nextLine();
    out += line.text;
    if (line.isCommit) break;
    out += "\n";
  }
  const lines = text.replace(/\n$/, "").split("\n");
  out += `${lines[0]}\n`;
  for (const line of lines.slice(1)) out += `${lanes.nextLine().text}${line}\n`;
  while (!lanes.finished()) out += `${lanes.nextLine().text}\n`;
  return out;
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
