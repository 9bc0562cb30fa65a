// Comparing two states of the repository (a commit, the index, the work tree) file by file, the
// status matrix in git's XY terms, and the summary line a commit prints.
import type { WalkerEntry } from "isomorphic-git";
import { git, type GitContext } from "./git-context";
import { lineCounts } from "./git-diff";

export type Side = { kind: "commit"; oid: string } | { kind: "index" } | { kind: "workdir" };

export interface Change {
  path: string;
  /** Blob ids; undefined when the file is absent on that side. */
  a?: string;
  b?: string;
}

function walker(side: Side) {
  if (side.kind === "commit") return git.TREE({ ref: side.oid });
  if (side.kind === "index") return git.STAGE();
  return git.WORKDIR();
}

/** Files that differ between two sides, sorted by path; `paths` limits them to those paths or folders. */
export async function changesBetween(ctx: GitContext, a: Side, b: Side, paths: string[] = []): Promise<Change[]> {
  const inScope = (path: string) => paths.length === 0 || paths.some((p) => p === "" || path === p || path.startsWith(`${p}/`));
  const within = (dir: string) => paths.length === 0 || paths.some((p) => p === "" || p === dir || p.startsWith(`${dir}/`) || dir.startsWith(`${p}/`));
  // Untracked work-tree files are not changes between sides that include the index or a commit.
  const tracked = b.kind === "workdir" ? await trackedPaths(ctx, a) : undefined;
  const result = (await git.walk({
    fs: ctx.fs,
    dir: ctx.dir,
    trees: [walker(a), walker(b)],
    map: async (path, entries) => {
      if (path === ".") return undefined;
      const [ea, eb] = entries as [WalkerEntry | null, WalkerEntry | null];
      const typeA = ea ? await ea.type() : undefined;
      const typeB = eb ? await eb.type() : undefined;
      if (typeA === "tree" || typeB === "tree") {
        if (path === ".git" || !within(path)) return null;
        if (typeA !== "tree" && typeB === "tree" && tracked && !tracked.hasFolder(path)) return null;
        return undefined;
      }
      if (!inScope(path)) return undefined;
      if (tracked && typeA === undefined) return undefined;
      const oidA = typeA === "blob" ? await ea!.oid() : undefined;
      const oidB = typeB === "blob" ? await eb!.oid() : undefined;
      if (oidA === oidB) return undefined;
      return { path, a: oidA, b: oidB } satisfies Change;
    },
  })) as Change[] | undefined;
  return flatten(result ?? []).sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

function flatten(value: unknown): Change[] {
  if (!Array.isArray(value)) return value && typeof value === "object" && "path" in value ? [value as Change] : [];
  return value.flatMap((item) => flatten(item));
}

async function trackedPaths(ctx: GitContext, side: Side): Promise<{ hasFolder(path: string): boolean }> {
  const files =
    side.kind === "commit"
      ? await git.listFiles({ fs: ctx.fs, dir: ctx.dir, ref: side.oid })
      : await git.listFiles({ fs: ctx.fs, dir: ctx.dir });
  const folders = new Set<string>();
  for (const file of files) {
    for (let i = file.indexOf("/"); i !== -1; i = file.indexOf("/", i + 1)) folders.add(file.slice(0, i));
  }
  return { hasFolder: (path) => folders.has(path) };
}

/** A blob's bytes (empty when absent). */
export async function blob(ctx: GitContext, oid: string | undefined): Promise<Uint8Array | undefined> {
  if (oid === undefined) return undefined;
  const { blob: bytes } = await git.readBlob({ fs: ctx.fs, dir: ctx.dir, oid });
  return bytes;
}

/** The bytes a side holds for a change (the work tree's are read from the file). */
export async function content(ctx: GitContext, side: Side, path: string, oid: string | undefined): Promise<Uint8Array | undefined> {
  if (oid === undefined) return undefined;
  if (side.kind === "workdir") {
    return (await ctx.fs.readFile(`${ctx.dir === "/" ? "" : ctx.dir}/${path}`)) as Uint8Array;
  }
  return blob(ctx, oid);
}

export interface StatusRow {
  path: string;
  /** For a staged rename (same content deleted at `from`, added at `path`). */
  from?: string;
  /** git's short-status letters: index vs HEAD, work tree vs index ("?" for untracked). */
  x: string;
  y: string;
}

/** `git status --short` letters from isomorphic-git's status matrix. */
export async function statusRows(ctx: GitContext, paths?: string[]): Promise<StatusRow[]> {
  const matrix = await git.statusMatrix({ fs: ctx.fs, dir: ctx.dir, filepaths: paths && paths.length > 0 ? paths : undefined });
  const rows: StatusRow[] = [];
  for (const [path, head, work, stage] of matrix) {
    let x = " ";
    let y = " ";
    if (head === 0 && stage === 0) {
      if (work !== 0) rows.push({ path, x: "?", y: "?" });
      continue;
    }
    if (head === 0) x = "A";
    else if (stage === 0) x = "D";
    else if (stage === 3 || (stage === 2 && work === 2)) x = "M";
    if (stage !== 0) {
      if (work === 0) y = "D";
      else if (stage === 3 || (stage === 1 && work === 2)) y = "M";
    }
    if (x !== " " || y !== " ") rows.push({ path, x, y });
    if (stage === 0 && head === 1 && work !== 0) rows.push({ path, x: "?", y: "?" });
  }
  return detectRenames(ctx, rows);
}

/** Pairs a staged deletion with a staged addition of the same content, as git's status does. */
async function detectRenames(ctx: GitContext, rows: StatusRow[]): Promise<StatusRow[]> {
  const deleted = rows.filter((r) => r.x === "D");
  const added = rows.filter((r) => r.x === "A");
  if (deleted.length === 0 || added.length === 0) return rows;
  const head = await ctx.headOid();
  if (!head) return rows;
  const byOid = new Map<string, StatusRow>();
  for (const row of deleted) {
    const oid = await git.readBlob({ fs: ctx.fs, dir: ctx.dir, oid: head, filepath: row.path }).then((b) => b.oid, () => undefined);
    if (oid && !byOid.has(oid)) byOid.set(oid, row);
  }
  const index = await indexBlobs(ctx, added.map((r) => r.path));
  const gone = new Set<StatusRow>();
  for (const row of added) {
    const match = byOid.get(index.get(row.path) ?? "");
    if (!match) continue;
    byOid.delete(index.get(row.path)!);
    gone.add(match);
    row.x = "R";
    row.from = match.path;
  }
  return rows.filter((r) => !gone.has(r));
}

/** Index entries (path → blob id) under the given paths. */
export async function indexBlobs(ctx: GitContext, paths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const inScope = (path: string) => paths.some((p) => p === "" || path === p || path.startsWith(`${p}/`));
  const entries = (await git.walk({
    fs: ctx.fs,
    dir: ctx.dir,
    trees: [git.STAGE()],
    map: async (path, [entry]) => (path !== "." && entry && (await entry.type()) === "blob" && inScope(path) ? [path, await entry.oid()] : path === "." ? undefined : undefined),
  })) as unknown;
  const visit = (value: unknown) => {
    if (!Array.isArray(value)) return;
    if (value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string") out.set(value[0], value[1]);
    else for (const item of value) visit(item);
  };
  visit(entries);
  return out;
}



/** " 2 files changed, 3 insertions(+), 1 deletion(-)" and the create/delete mode lines. */
export async function changeSummary(ctx: GitContext, changes: Change[]): Promise<string> {
  let added = 0;
  let removed = 0;
  const modes: string[] = [];
  for (const change of changes) {
    const counts = lineCounts(await blob(ctx, change.a), await blob(ctx, change.b));
    added += counts.added;
    removed += counts.removed;
    if (change.a === undefined) modes.push(` create mode 100644 ${change.path}\n`);
    else if (change.b === undefined) modes.push(` delete mode 100644 ${change.path}\n`);
  }
  const n = changes.length;
  let line = ` ${n} file${n === 1 ? "" : "s"} changed`;
  if (added > 0 || removed === 0) line += `, ${added} insertion${added === 1 ? "" : "s"}(+)`;
  if (removed > 0 || added === 0) line += `, ${removed} deletion${removed === 1 ? "" : "s"}(-)`;
  return `${line}\n${modes.join("")}`;
}
