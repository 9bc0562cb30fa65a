// Opens a GitHub repository without a server: GitHub's archive download sends no CORS headers to
// other sites, but its REST API and raw file host do. The tree comes from the API (one recursive
// listing, or folder by folder when GitHub truncates it), file contents from the raw host for
// public repositories (no rate limit) or the API's blobs with a token for private ones. Every
// entry passes the same checks as a zip import before anything is downloaded.
import { abortError, formatBytes } from "../../base";
import {
  checkEntryName,
  decodeFileData,
  finishEntries,
  quoteName,
  resolveLimits,
  skipReason,
  throwIfAborted,
  type ImportEntry,
  type ImportOptions,
  type ImportResult,
  type ProgressListener,
} from "../import-entries";
import { ImportError, tooLarge, tooManyEntries } from "../zip-limits";
import { describeGitHubError, GitHubError, type GitHubApi } from "./github-api";
import { rawBaseUrl, type GitHubRepoSpec } from "./github-spec";

/** Where a workspace came from: remembered with it, so its changes can go back as a pull request. */
export interface GitHubUpstream {
  kind: "github";
  apiUrl: string;
  owner: string;
  repo: string;
  /** The branch, tag or commit that was opened (the default branch's name when none was given). */
  ref: string;
  /** The commit the files came from: the base of a later push. */
  commit: string;
  /** The folder that was opened, when not the whole repository. */
  path?: string;
}

/** A git tree entry as the API lists it. */
export interface TreeEntry {
  path: string;
  mode: string;
  type: "blob" | "tree" | "commit";
  sha: string;
  size?: number;
}

interface TreeResponse {
  sha: string;
  tree: TreeEntry[];
  truncated: boolean;
}

export interface RepositoryInfo {
  defaultBranch: string;
  private: boolean;
}

/** What `prepare` learns before the options are asked: enough to check limits and names. */
export interface RepositoryListing {
  upstream: GitHubUpstream;
  private: boolean;
  /** Files (mode 100644/100755) under the opened folder, paths relative to it. */
  files: TreeEntry[];
  symlinks: number;
  submodules: number;
  /** Folders listed (entries count toward the same limit as a zip's). */
  folders: number;
}

export interface OpenRepositoryOptions extends ImportOptions {
  api: GitHubApi;
  /** For the raw host (public repositories); the page's fetch unless injected. */
  fetch?: typeof fetch;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Raw downloads at once (the raw host is a CDN; the API's blobs stay under Octokit's own limit). */
  concurrency?: number;
}

/** The first line of a Git LFS pointer file: such files are kept as they are and named. */
const LFS_POINTER = "version https://git-lfs.github.com/spec/v1\n";
/** Pointer files are small; a larger file with that first line is not one. */
const MAX_LFS_POINTER_BYTES = 1024;

export function isLfsPointer(data: string | Uint8Array): boolean {
  return typeof data === "string" && data.length <= MAX_LFS_POINTER_BYTES && data.startsWith(LFS_POINTER);
}

const CONTENTS_READ = "Contents: read-only";

/** Resolves the ref to a commit and lists the tree (folder by folder when GitHub truncates it). */
export async function listRepository(spec: GitHubRepoSpec, options: Pick<OpenRepositoryOptions, "api" | "signal" | "limits">): Promise<RepositoryListing> {
  const { api, signal } = options;
  const limits = resolveLimits(options);
  const context = { owner: spec.owner, repo: spec.repo, hasToken: api.hasToken, permission: CONTENTS_READ };
  const call = async <T>(route: string, parameters: Record<string, unknown> = {}) => {
    try {
      return (await api.request<T>(route, { owner: spec.owner, repo: spec.repo, ...parameters, ...(signal ? { signal } : {}) })).data;
    } catch (error) {
      throw describeGitHubError(error, context);
    }
  };
  const repo = await call<{ default_branch: string; private: boolean; visibility?: string }>("GET /repos/{owner}/{repo}");
  const ref = spec.ref ?? repo.default_branch;
  let commit: string;
  try {
    // The sha media type answers with the commit's SHA alone: one small request.
    commit = String(await call<string>("GET /repos/{owner}/{repo}/commits/{ref}", { ref, headers: { accept: "application/vnd.github.sha" } })).trim();
  } catch (error) {
    if (error instanceof GitHubError && (error.reason === "not-found" || error.reason === "failed")) {
      throw new GitHubError("not-found", `${spec.owner}/${spec.repo} has no branch, tag or commit named ${quoteName(ref)}.`, { cause: error });
    }
    throw error;
  }
  if (!/^[0-9a-f]{40,64}$/.test(commit)) throw new GitHubError("failed", `GitHub did not answer with a commit for ${quoteName(ref)}.`);

  let entriesSeen = 0;
  const count = (n: number) => {
    entriesSeen += n;
    if (entriesSeen > limits.maxEntries) throw tooManyEntries(entriesSeen, limits);
  };
  const out: TreeEntry[] = [];
  /** Lists a tree into `out` with paths under `prefix`: recursively in one request when GitHub can. */
  const list = async (sha: string, prefix: string): Promise<void> => {
    throwIfAborted(signal);
    const whole = await call<TreeResponse>("GET /repos/{owner}/{repo}/git/trees/{tree_sha}", { tree_sha: sha, recursive: "1" });
    if (!whole.truncated) {
      count(whole.tree.length);
      for (const entry of whole.tree) out.push({ ...entry, path: prefix + entry.path });
      return;
    }
    // GitHub stops a recursive listing at 100,000 entries or 7 MB: list this folder alone, then
    // each subfolder the same way (recursively again, so only the big ones are split further).
    const level = await call<TreeResponse>("GET /repos/{owner}/{repo}/git/trees/{tree_sha}", { tree_sha: sha });
    count(level.tree.length);
    for (const entry of level.tree) {
      out.push({ ...entry, path: prefix + entry.path });
      if (entry.type === "tree") await list(entry.sha, `${prefix}${entry.path}/`);
    }
  };
  let root = commit;
  const path = spec.path;
  if (path) {
    // Walk down to the folder, one level per segment, rather than listing the whole repository.
    for (const segment of path.split("/")) {
      const level = await call<TreeResponse>("GET /repos/{owner}/{repo}/git/trees/{tree_sha}", { tree_sha: root });
      const next = level.tree.find((entry) => entry.path === segment && entry.type === "tree");
      if (!next) throw new GitHubError("not-found", `${spec.owner}/${spec.repo} has no folder ${quoteName(path)} at ${quoteName(ref)}.`);
      root = next.sha;
    }
  }
  await list(root, "");
  const files: TreeEntry[] = [];
  let symlinks = 0;
  let submodules = 0;
  let folders = 0;
  for (const entry of out) {
    // The same name checks as a zip: a hostile name refuses the whole repository.
    checkEntryName(entry.path);
    if (entry.type === "tree") folders++;
    else if (entry.type === "commit") submodules++;
    else if (entry.mode === "120000") symlinks++;
    else files.push(entry);
  }
  const upstream: GitHubUpstream = { kind: "github", apiUrl: api.apiUrl, owner: spec.owner, repo: spec.repo, ref, commit, ...(path && { path }) };
  return { upstream, private: repo.private || (repo.visibility !== undefined && repo.visibility !== "public"), files, symlinks, submodules, folders };
}

/** Runs `work` over `items` with at most `limit` at once, stopping at the first failure. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text.replace(/\s/g, ""));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export interface OpenedRepository extends ImportResult {
  upstream: GitHubUpstream;
}

/** Downloads the listed files and returns them as import entries (nothing is written here). */
export async function downloadRepository(listing: RepositoryListing, options: OpenRepositoryOptions): Promise<OpenedRepository> {
  const { api, signal, upstream } = { ...options, upstream: listing.upstream };
  const limits = resolveLimits(options);
  const skipped = { nodeModules: 0, git: 0, macMetadata: 0, symlinks: listing.symlinks, submodules: listing.submodules };
  const wanted: TreeEntry[] = [];
  for (const file of listing.files) {
    const reason = skipReason(file.path, options);
    if (reason) skipped[reason]++;
    else wanted.push(file);
  }
  // The sizes come from the tree: too much is refused before a single byte is downloaded.
  const totalBytes = wanted.reduce((n, f) => n + (f.size ?? 0), 0);
  if (totalBytes > limits.maxBytes) throw tooLarge(totalBytes, limits);
  const rawBase = rawBaseUrl(api.apiUrl);
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const context = { owner: upstream.owner, repo: upstream.repo, hasToken: api.hasToken, permission: CONTENTS_READ };
  const prefix = upstream.path ? `${upstream.path}/` : "";
  const encodedPath = (path: string) => (prefix + path).split("/").map(encodeURIComponent).join("/");

  const fetchRaw = async (file: TreeEntry): Promise<Uint8Array> => {
    // By commit SHA, not branch: the bytes are the ones of the remembered commit, and cacheable.
    const url = `${rawBase}/${encodeURIComponent(upstream.owner)}/${encodeURIComponent(upstream.repo)}/${upstream.commit}/${encodedPath(file.path)}`;
    let response: Response;
    try {
      response = await doFetch(url, { mode: "cors", credentials: "omit", ...(signal ? { signal } : {}) });
    } catch (error) {
      if (signal?.aborted) throw abortError("The import was cancelled.");
      throw new GitHubError("unreachable", `The file ${quoteName(file.path)} could not be downloaded from ${new URL(rawBase).host}. Check your connection and try again.`, { cause: error });
    }
    if (!response.ok) throw new GitHubError("failed", `${new URL(rawBase).host} answered ${response.status} for ${quoteName(file.path)}. Try again.`);
    return new Uint8Array(await response.arrayBuffer());
  };
  const fetchBlob = async (file: TreeEntry): Promise<Uint8Array> => {
    try {
      const { data } = await api.request<{ content: string; encoding: string }>("GET /repos/{owner}/{repo}/git/blobs/{file_sha}", {
        owner: upstream.owner,
        repo: upstream.repo,
        file_sha: file.sha,
        ...(signal ? { signal } : {}),
      });
      return data.encoding === "base64" ? decodeBase64(data.content) : new TextEncoder().encode(data.content);
    } catch (error) {
      throw describeGitHubError(error, context);
    }
  };
  // A private repository's raw files need the token, which the raw host does not take from a page.
  const download = listing.private ? fetchBlob : fetchRaw;
  const concurrency = options.concurrency ?? (listing.private ? 8 : 16);

  const entries: ImportEntry[] = [];
  const lfsPointers: string[] = [];
  let files = 0;
  let bytes = 0;
  options.onProgress?.({ files, totalFiles: wanted.length, bytes, totalBytes });
  await eachLimited(wanted, concurrency, async (file) => {
    throwIfAborted(signal);
    const data = await download(file);
    // The tree said how big the file is: more than that is not the file the checks were made for.
    if (file.size !== undefined && data.length > file.size) {
      throw new ImportError("too-large", `${quoteName(file.path)} arrived larger (${formatBytes(data.length)}) than GitHub listed it (${formatBytes(file.size)}), so the import was refused.`);
    }
    const decoded = decodeFileData(data);
    if (isLfsPointer(decoded)) lfsPointers.push(file.path);
    entries.push({ kind: "file", path: file.path, data: decoded });
    files++;
    bytes += data.length;
    options.onProgress?.({ files, totalFiles: wanted.length, bytes, totalBytes });
  });
  throwIfAborted(signal);
  // Downloads finish in any order; the workspace is written in the tree's order.
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  lfsPointers.sort();
  return { entries: finishEntries(entries), skipped, bytes, upstream, ...(lfsPointers.length && { lfsPointers }) };
}
