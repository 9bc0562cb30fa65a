// "Push to GitHub": the workspace's changes since the remembered commit go back as one commit on a
// new branch, through the Git Data API (blobs, a tree on the base tree, a commit, a ref), then a
// pull request. Nothing else changes upstream: no branch is moved, nothing is force-pushed. The
// workspace's own git history, if any, is not read or touched: the diff is against the commit the
// workspace was opened from, by git blob hashes.
import { decodeFileData, skipReason, type ImportOptions } from "../import-entries";
import { describeGitHubError, GitHubError, type GitHubApi } from "./github-api";
import { listRepository, type GitHubUpstream } from "./github-open";
import { cleanApiUrl } from "./github-spec";
import { toHex } from "../../base";

export type WorkspaceFileData = string | Uint8Array;

export interface UpstreamChange {
  /** Path in the repository (the opened folder's prefix included). */
  path: string;
  kind: "added" | "modified" | "deleted";
  /** The new content (absent for deletions). */
  data?: WorkspaceFileData;
}

const encoder = new TextEncoder();

function bytesOf(data: WorkspaceFileData): Uint8Array {
  return typeof data === "string" ? encoder.encode(data) : data;
}

/** git's blob id: SHA-1 of "blob <size>\0" and the bytes (WebCrypto, in the page and in Node). */
export async function gitBlobSha(data: WorkspaceFileData): Promise<string> {
  const bytes = bytesOf(data);
  const header = encoder.encode(`blob ${bytes.length}\0`);
  const all = new Uint8Array(header.length + bytes.length);
  all.set(header);
  all.set(bytes, header.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", all));
  return toHex(digest);
}

/**
 * What differs between the workspace's files and the remembered commit. Files the import leaves
 * out (node_modules, .git, macOS metadata) and links and submodules upstream are never deleted:
 * the workspace never had them.
 */
export async function findUpstreamChanges(
  api: GitHubApi,
  upstream: GitHubUpstream,
  files: ReadonlyMap<string, WorkspaceFileData>,
  options: { signal?: AbortSignal; importOptions?: ImportOptions } = {},
): Promise<UpstreamChange[]> {
  const listing = await listRepository(
    { owner: upstream.owner, repo: upstream.repo, ref: upstream.commit, ...(upstream.path && { path: upstream.path }) },
    { api, ...(options.signal && { signal: options.signal }) },
  );
  const prefix = upstream.path ? `${upstream.path}/` : "";
  const base = new Map(listing.files.filter((f) => !skipReason(f.path, options.importOptions)).map((f) => [f.path, f.sha]));
  const changes: UpstreamChange[] = [];
  for (const [path, data] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (skipReason(path, options.importOptions)) continue;
    const sha = base.get(path);
    if (sha === undefined) changes.push({ path: prefix + path, kind: "added", data });
    else if (sha !== (await gitBlobSha(data))) changes.push({ path: prefix + path, kind: "modified", data });
  }
  for (const path of base.keys()) if (!files.has(path)) changes.push({ path: prefix + path, kind: "deleted" });
  return changes;
}

export interface PushRequest {
  upstream: GitHubUpstream;
  changes: readonly UpstreamChange[];
  /** The new branch's name (refused by GitHub if it exists: nothing is overwritten). */
  branch: string;
  title: string;
  body: string;
  /** Push to the user's fork instead (made with GitHub's fork endpoint if there is none). */
  fork?: boolean;
  signal?: AbortSignal;
  onStep?(step: string): void;
}

export interface PushResult {
  /** The repository the branch was created in ("owner/repo"). */
  repository: string;
  branch: string;
  commit: string;
  pullRequestUrl: string;
  pullRequestNumber: number;
}

const WRITE_PERMISSION = "Contents: read and write";
const PR_PERMISSION = "Pull requests: read and write";

/** A branch name git and GitHub accept, from what the user typed. */
export function cleanBranchName(name: string): string {
  return name
    .trim()
    .replace(/[\s~^:?*[\\\]]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[-./]+|[-./]+$/g, "")
    .replace(/\/{2,}/g, "/")
    .replace(/\.lock$/, "")
    .slice(0, 100);
}

/** Whether the token may push to the repository (GitHub says so in the repository's `permissions`). */
export async function canPush(api: GitHubApi, upstream: Pick<GitHubUpstream, "owner" | "repo">, signal?: AbortSignal): Promise<boolean> {
  try {
    const { data } = await api.request<{ permissions?: { push?: boolean } }>("GET /repos/{owner}/{repo}", { owner: upstream.owner, repo: upstream.repo, ...(signal && { signal }) });
    return data.permissions?.push === true;
  } catch (error) {
    throw describeGitHubError(error, { owner: upstream.owner, repo: upstream.repo, hasToken: api.hasToken, permission: WRITE_PERMISSION });
  }
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Creates the branch with one commit and opens the pull request. */
export async function pushToGitHub(api: GitHubApi, request: PushRequest): Promise<PushResult> {
  const { upstream, signal } = request;
  if (!api.hasToken) throw new GitHubError("bad-token", "Pushing needs a GitHub token with \"Contents: read and write\" and \"Pull requests: read and write\". Add one in Settings → Runtime → GitHub.");
  if (request.changes.length === 0) throw new GitHubError("failed", "The workspace has no changes since it was opened from GitHub: there is nothing to push.");
  const branch = cleanBranchName(request.branch);
  if (branch === "") throw new GitHubError("failed", "Enter a name for the new branch.");
  const withSignal = signal ? { signal } : {};
  let target = { owner: upstream.owner, repo: upstream.repo };
  const call = async <T>(route: string, parameters: Record<string, unknown>, permission = WRITE_PERMISSION, where = target) => {
    try {
      return (await api.request<T>(route, { ...where, ...parameters, ...withSignal })).data;
    } catch (error) {
      const described = describeGitHubError(error, { ...where, hasToken: true, permission });
      if (described instanceof GitHubError && (described.reason === "forbidden" || described.reason === "not-found") && where === target && !request.fork && permission === WRITE_PERMISSION) {
        throw new GitHubError("no-write-access", `Your GitHub token cannot write to ${where.owner}/${where.repo}. Push to a fork of it instead, or give the token "${WRITE_PERMISSION}" for this repository.`, { cause: error });
      }
      throw described;
    }
  };

  if (request.fork) {
    request.onStep?.("Making a fork");
    // GitHub answers at once and makes the fork in the background; an existing fork is returned as it is.
    const fork = await call<{ owner: { login: string }; name: string }>("POST /repos/{owner}/{repo}/forks", {}, WRITE_PERMISSION, { owner: upstream.owner, repo: upstream.repo });
    target = { owner: fork.owner.login, repo: fork.name };
    await waitForFork(api, target, upstream.commit, signal);
  }

  request.onStep?.("Reading the base commit");
  const baseCommit = await call<{ tree: { sha: string } }>("GET /repos/{owner}/{repo}/git/commits/{commit_sha}", { commit_sha: upstream.commit }, "Contents: read-only");

  // Text goes inline in the tree (one request for all of it); bytes as blobs first. GitHub asks
  // clients to make content-creating requests one at a time, a second apart (the throttling plugin
  // does), so fewer requests is a faster push.
  const entries: Array<{ path: string; mode: "100644"; type: "blob"; sha?: string | null; content?: string }> = [];
  const binaries = request.changes.filter((c) => c.data instanceof Uint8Array);
  let blobsDone = 0;
  for (const change of request.changes) {
    if (change.kind === "deleted") entries.push({ path: change.path, mode: "100644", type: "blob", sha: null });
    else if (typeof change.data === "string") entries.push({ path: change.path, mode: "100644", type: "blob", content: change.data });
    else {
      request.onStep?.(`Uploading ${++blobsDone} of ${binaries.length} binary file${binaries.length === 1 ? "" : "s"}`);
      const blob = await call<{ sha: string }>("POST /repos/{owner}/{repo}/git/blobs", { content: base64(change.data!), encoding: "base64" });
      entries.push({ path: change.path, mode: "100644", type: "blob", sha: blob.sha });
    }
  }
  request.onStep?.("Creating the commit");
  const tree = await call<{ sha: string }>("POST /repos/{owner}/{repo}/git/trees", { base_tree: baseCommit.tree.sha, tree: entries });
  const commit = await call<{ sha: string }>("POST /repos/{owner}/{repo}/git/commits", { message: request.body.trim() ? `${request.title}\n\n${request.body}` : request.title, tree: tree.sha, parents: [upstream.commit] });
  request.onStep?.(`Creating the branch ${branch}`);
  try {
    await api.request("POST /repos/{owner}/{repo}/git/refs", { ...target, ref: `refs/heads/${branch}`, sha: commit.sha, ...withSignal });
  } catch (error) {
    if ((error as { status?: number }).status === 422) throw new GitHubError("failed", `A branch named ${branch} already exists in ${target.owner}/${target.repo}. Choose another name: nothing was overwritten.`, { cause: error });
    throw describeGitHubError(error, { ...target, hasToken: true, permission: WRITE_PERMISSION });
  }
  request.onStep?.("Opening the pull request");
  // The pull request goes to the ref that was opened when it is a branch, else the default branch.
  const base = /^[0-9a-f]{40}$/.test(upstream.ref) ? (await call<{ default_branch: string }>("GET /repos/{owner}/{repo}", {}, "Metadata: read-only", upstream)).default_branch : upstream.ref;
  const head = target.owner === upstream.owner ? branch : `${target.owner}:${branch}`;
  const pull = await call<{ html_url: string; number: number }>(
    "POST /repos/{owner}/{repo}/pulls",
    { title: request.title, body: request.body, head, base },
    PR_PERMISSION,
    { owner: upstream.owner, repo: upstream.repo },
  );
  return { repository: `${target.owner}/${target.repo}`, branch, commit: commit.sha, pullRequestUrl: pull.html_url, pullRequestNumber: pull.number };
}

/** A new fork takes GitHub a moment: waits (up to a minute) until it has the base commit. */
async function waitForFork(api: GitHubApi, fork: { owner: string; repo: string }, commit: string, signal?: AbortSignal): Promise<void> {
  for (let attempt = 0; attempt < 30; attempt++) {
    try {
      await api.request("GET /repos/{owner}/{repo}/git/commits/{commit_sha}", { ...fork, commit_sha: commit, ...(signal && { signal }) });
      return;
    } catch (error) {
      if ((error as { status?: number }).status !== 404 && (error as { status?: number }).status !== 409) throw describeGitHubError(error, { ...fork, hasToken: true, permission: WRITE_PERMISSION });
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  throw new GitHubError("failed", `GitHub has not finished making the fork ${fork.owner}/${fork.repo}. Try again in a minute.`);
}

/** Every file of a workspace as the push compares it: text as a string (valid UTF-8), else bytes. */
export async function readWorkspaceFiles(fs: { listAll(): Promise<Array<{ path: string; kind: "file" | "dir" }>>; readFile(path: string): Promise<Uint8Array> }): Promise<Map<string, WorkspaceFileData>> {
  const out = new Map<string, WorkspaceFileData>();
  for (const stat of await fs.listAll()) {
    // .git and node_modules never go upstream; reading them would only cost time.
    if (stat.kind !== "file" || skipReason(stat.path, undefined)) continue;
    out.set(stat.path, decodeFileData(await fs.readFile(stat.path)));
  }
  return out;
}

/**
 * The connection a push to `upstream` uses: the token in Settings goes only to the API it was set
 * for, so a workspace opened from another GitHub (Settings changed since) is refused, not pushed
 * with a token meant for a different host.
 */
export function connectionForUpstream<C extends { apiUrl: string; token: string }>(connection: C, upstream: Pick<GitHubUpstream, "apiUrl" | "owner" | "repo">): C {
  if (cleanApiUrl(connection.apiUrl) !== cleanApiUrl(upstream.apiUrl)) {
    throw new GitHubError(
      "failed",
      `This workspace was opened from ${upstream.owner}/${upstream.repo} at ${upstream.apiUrl}, but Settings → Runtime → GitHub now points at ${cleanApiUrl(connection.apiUrl)}. Set the API URL (and its token) back to push.`,
    );
  }
  return connection;
}
