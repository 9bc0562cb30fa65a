// What "open a GitHub repository" names: `owner/repo`, optionally `@ref` (a branch, tag or commit;
// it may contain slashes) and `:sub/path` (git's own `rev:path` form, so a ref with slashes and a
// folder never blur), or a github.com address (`https://github.com/o/r/tree/main/docs`).
import { UserFacingError } from "../../base";

export interface GitHubRepoSpec {
  owner: string;
  repo: string;
  /** Undefined: the repository's default branch. */
  ref?: string;
  /** A folder inside the repository to open instead of the whole tree ("" or undefined: all). */
  path?: string;
}

/** GitHub's own rules for owner and repository names (letters, digits, "-", "_", "."). */
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export const GITHUB_API_URL = "https://api.github.com";

function invalid(text: string): UserFacingError {
  return new UserFacingError(
    `"${text.slice(0, 200)}" is not a GitHub repository. Write it as owner/repo, optionally with @branch and :folder (for example octocat/hello-world@main:docs), or paste its github.com address.`,
    "github-invalid-spec",
  );
}

function cleanPath(path: string | undefined): string | undefined {
  const trimmed = path?.replace(/^\/+|\/+$/g, "");
  return trimmed ? trimmed : undefined;
}

/** Parses what the user typed or a `#github=` value; throws a UserFacingError naming the form. */
export function parseRepoSpec(input: string): GitHubRepoSpec {
  const text = input.trim();
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw invalid(text);
    }
    if (url.hostname !== "github.com" && url.hostname !== "www.github.com") throw invalid(text);
    const [owner, rawRepo, kind, ref, ...rest] = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const repo = rawRepo?.replace(/\.git$/, "");
    if (!owner || !repo || !NAME.test(owner) || !NAME.test(repo)) throw invalid(text);
    // /tree/<ref>/<path> and /blob/<ref>/<path>: the first segment is taken as the ref (a ref with
    // slashes cannot be told from a folder here; the owner/repo@ref form can say it).
    if ((kind === "tree" || kind === "blob") && ref) {
      const path = cleanPath(kind === "tree" ? rest.join("/") : rest.slice(0, -1).join("/"));
      return { owner, repo, ref, ...(path && { path }) };
    }
    return { owner, repo };
  }
  const match = /^([^/@:\s]+)\/([^/@:\s]+?)(?:\.git)?(?:@([^:\s]+))?(?::(\S*))?$/.exec(text);
  if (!match || !NAME.test(match[1]!) || !NAME.test(match[2]!)) throw invalid(text);
  const ref = match[3];
  if (ref !== undefined && (ref.includes("..") || /[~^\\\s]/.test(ref))) throw invalid(text);
  const path = cleanPath(match[4]);
  return { owner: match[1]!, repo: match[2]!, ...(ref && { ref }), ...(path && { path }) };
}

/** "owner/repo", "owner/repo@ref", "owner/repo@ref:path": the spec in the form parseRepoSpec reads. */
export function formatRepoSpec(spec: GitHubRepoSpec): string {
  return `${spec.owner}/${spec.repo}${spec.ref ? `@${spec.ref}` : ""}${spec.path ? `:${spec.path}` : ""}`;
}

/**
 * The API base URL as configured ("" = github.com). GitHub Enterprise Server answers at
 * `https://HOST/api/v3`; anything but http(s) falls back to github.com.
 */
export function cleanApiUrl(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, "");
  if (trimmed === "") return GITHUB_API_URL;
  try {
    const url = new URL(trimmed);
    return url.protocol === "https:" || url.protocol === "http:" ? trimmed : GITHUB_API_URL;
  } catch {
    return GITHUB_API_URL;
  }
}

/**
 * Where the raw file host of an API is: raw.githubusercontent.com for github.com (it sends CORS
 * headers to any origin, and does not count against the API's rate limit); `https://HOST/raw` for
 * GitHub Enterprise Server.
 */
export function rawBaseUrl(apiUrl: string): string {
  const api = cleanApiUrl(apiUrl);
  if (api === GITHUB_API_URL) return "https://raw.githubusercontent.com";
  return `${new URL(api).origin}/raw`;
}

/** The web address of a repository (for messages and links). */
export function repoWebUrl(apiUrl: string, owner: string, repo: string): string {
  const api = cleanApiUrl(apiUrl);
  const origin = api === GITHUB_API_URL ? "https://github.com" : new URL(api).origin;
  return `${origin}/${owner}/${repo}`;
}
