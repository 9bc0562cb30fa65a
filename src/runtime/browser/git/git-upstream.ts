// The "Your branch is ahead of 'origin/main' by 1 commit." line of `git status`.
import { git, type GitContext } from "./git-context";

async function ancestors(ctx: GitContext, oid: string): Promise<Set<string>> {
  const commits = await git.log({ fs: ctx.fs, dir: ctx.dir, ref: oid });
  return new Set(commits.map((c) => c.oid));
}

export async function upstream(ctx: GitContext, branch: string): Promise<{ remote: string; name: string; oid?: string } | undefined> {
  const remote = (await git.getConfig({ fs: ctx.fs, dir: ctx.dir, path: `branch.${branch}.remote` })) as string | undefined;
  const merge = (await git.getConfig({ fs: ctx.fs, dir: ctx.dir, path: `branch.${branch}.merge` })) as string | undefined;
  if (!remote || !merge) return undefined;
  const name = merge.replace(/^refs\/heads\//, "");
  const oid = await git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: `refs/remotes/${remote}/${name}` }).catch(() => undefined);
  return { remote, name, oid };
}

async function distance(ctx: GitContext, head: string, other: string): Promise<{ ahead: number; behind: number }> {
  const mine = await ancestors(ctx, head);
  const theirs = await ancestors(ctx, other);
  return { ahead: [...mine].filter((c) => !theirs.has(c)).length, behind: [...theirs].filter((c) => !mine.has(c)).length };
}

/** The "## main...origin/main [ahead 1]" line of `git status -sb`. */
export async function shortBranchLine(ctx: GitContext, branch: string | undefined, head: string | undefined): Promise<string> {
  if (!branch) return "## HEAD (no branch)";
  if (!head) return `## No commits yet on ${branch}`;
  const up = await upstream(ctx, branch);
  if (!up) return `## ${branch}`;
  const line = `## ${branch}...${up.remote}/${up.name}`;
  if (!up.oid) return `${line} [gone]`;
  const { ahead, behind } = await distance(ctx, head, up.oid);
  const parts = [...(ahead ? [`ahead ${ahead}`] : []), ...(behind ? [`behind ${behind}`] : [])];
  return parts.length ? `${line} [${parts.join(", ")}]` : line;
}

export async function upstreamLine(ctx: GitContext, branch: string, head: string): Promise<string | undefined> {
  const up = await upstream(ctx, branch);
  if (!up) return undefined;
  const label = `'${up.remote}/${up.name}'`;
  if (!up.oid) return `Your branch is based on ${label}, but the upstream is gone.\n  (use "git branch --unset-upstream" to fixup)`;
  if (up.oid === head) return `Your branch is up to date with ${label}.`;
  const { ahead, behind } = await distance(ctx, head, up.oid);
  const commits = (n: number) => `${n} commit${n === 1 ? "" : "s"}`;
  if (behind === 0) return `Your branch is ahead of ${label} by ${commits(ahead)}.\n  (use "git push" to publish your local commits)`;
  if (ahead === 0) return `Your branch is behind ${label} by ${commits(behind)}, and can be fast-forwarded.\n  (use "git pull" to update your local branch)`;
  return `Your branch and ${label} have diverged,\nand have ${ahead} and ${behind} different commits each, respectively.\n  (use "git pull" if you want to integrate the remote branch with yours)`;
}
