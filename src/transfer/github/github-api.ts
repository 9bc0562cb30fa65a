// The GitHub REST client: Octokit with its retry plugin (5xx and network hiccups) and throttling
// plugin (GitHub's rate limits, one write at a time), loaded on first use so none of it is in the
// first paint. The API base URL and fetch are injected, never guessed: github.com by default,
// GitHub Enterprise Server (or a local fake in tests) through Settings.
import { UserFacingError, abortError, isAbortError } from "../../base";
import { cleanApiUrl } from "./github-spec";

export interface GitHubConnection {
  /** REST base URL ("https://api.github.com", or "https://HOST/api/v3" for Enterprise Server). */
  apiUrl: string;
  /** A fine-grained personal access token ("" = none: public repositories, 60 requests an hour). */
  token: string;
  fetch?: typeof fetch;
}

export interface GitHubRequestOptions {
  signal?: AbortSignal;
  /** Extra headers, e.g. `accept: application/vnd.github.sha` to get a commit's SHA as text. */
  headers?: Record<string, string>;
  [parameter: string]: unknown;
}

export interface GitHubResponse<T> {
  status: number;
  data: T;
  headers: Record<string, string | number | undefined>;
}

/** The one method every GitHub call goes through ("GET /repos/{owner}/{repo}", parameters). */
export interface GitHubApi {
  readonly apiUrl: string;
  readonly hasToken: boolean;
  request<T = unknown>(route: string, parameters?: GitHubRequestOptions): Promise<GitHubResponse<T>>;
  /** API requests sent so far (retries included), for the measurements. */
  readonly requestCount: number;
}

/** A rate limit that resets this soon is waited out; a longer one is reported with its reset time. */
const MAX_RATE_LIMIT_WAIT_S = 10;

/** Builds the client (loads Octokit and its plugins on the first call of the page). */
export async function createGitHubApi(connection: GitHubConnection): Promise<GitHubApi> {
  const [{ Octokit }, { retry }, { throttling }] = await Promise.all([import("@octokit/core"), import("@octokit/plugin-retry"), import("@octokit/plugin-throttling")]);
  const Client = Octokit.plugin(retry, throttling);
  const apiUrl = cleanApiUrl(connection.apiUrl);
  const fetchImpl = connection.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let requestCount = 0;
  const octokit = new Client({
    baseUrl: apiUrl,
    ...(connection.token ? { auth: connection.token } : {}),
    request: {
      // Counted here so retries count too; credentials never ride along (the token is a header).
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        requestCount++;
        return fetchImpl(input, { ...init, credentials: "omit" });
      },
    },
    throttle: {
      onRateLimit: (retryAfter: number, _options: unknown, _client: unknown, retryCount: number) => retryCount === 0 && retryAfter <= MAX_RATE_LIMIT_WAIT_S,
      onSecondaryRateLimit: (retryAfter: number, _options: unknown, _client: unknown, retryCount: number) => retryCount === 0 && retryAfter <= MAX_RATE_LIMIT_WAIT_S,
    },
  });
  return {
    apiUrl,
    hasToken: connection.token !== "",
    get requestCount() {
      return requestCount;
    },
    async request<T>(route: string, parameters: GitHubRequestOptions = {}): Promise<GitHubResponse<T>> {
      const { signal, ...rest } = parameters;
      try {
        const response = await octokit.request(route, { ...rest, ...(signal ? { request: { signal } } : {}) });
        return response as unknown as GitHubResponse<T>;
      } catch (error) {
        if (isAbortError(error) || signal?.aborted) throw abortError("The GitHub request was cancelled.");
        throw error;
      }
    },
  };
}

/** What a failed request was for, so the message can say which permission is missing. */
export interface GitHubFailureContext {
  owner: string;
  repo: string;
  hasToken: boolean;
  /** The fine-grained token permission this step needs, e.g. "Contents: read". */
  permission: string;
}

export class GitHubError extends UserFacingError {
  constructor(
    readonly reason: "not-found" | "rate-limit" | "bad-token" | "forbidden" | "unreachable" | "failed" | "no-write-access",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, `github-${reason}`, options);
    this.name = "GitHubError";
  }
}

interface RequestErrorLike {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

function header(error: RequestErrorLike, name: string): string | undefined {
  const value = error.response?.headers?.[name];
  return value === undefined ? undefined : String(value);
}

/** "14:05 UTC" for a reset time given in epoch seconds. */
export function formatResetTime(epochSeconds: number, now = Date.now()): string {
  const date = new Date(epochSeconds * 1000);
  const minutes = Math.max(1, Math.ceil((date.getTime() - now) / 60_000));
  return `${date.toISOString().slice(11, 16)} UTC (in ${minutes} minute${minutes === 1 ? "" : "s"})`;
}

/** Turns an Octokit error into a message in plain words: what happened and what to do. */
export function describeGitHubError(error: unknown, context: GitHubFailureContext): Error {
  if (error instanceof UserFacingError || isAbortError(error)) return error as Error;
  const e = (error ?? {}) as RequestErrorLike;
  const name = `${context.owner}/${context.repo}`;
  const status = e.status;
  // Octokit reports a request that never got an answer (offline, CORS) as status 500 without a response.
  if (status === undefined || (status === 500 && !e.response)) {
    return new GitHubError("unreachable", `GitHub could not be reached (${e.message ?? "network error"}). Check your connection, or the Enterprise API URL in Settings → Runtime → GitHub, and try again.`, { cause: error });
  }
  const remaining = header(e, "x-ratelimit-remaining");
  const reset = Number(header(e, "x-ratelimit-reset"));
  if (status === 429 || (status === 403 && (remaining === "0" || /rate limit/i.test(e.message ?? "")))) {
    const when = Number.isFinite(reset) && reset > 0 ? ` It resets at ${formatResetTime(reset)}.` : "";
    const advice = context.hasToken ? "" : " Without a token GitHub allows 60 requests an hour; add a GitHub token in Settings → Runtime → GitHub for 5,000.";
    return new GitHubError("rate-limit", `GitHub's rate limit is used up.${when}${advice}`, { cause: error });
  }
  if (status === 401) {
    return new GitHubError("bad-token", "GitHub refused the token: it is wrong, expired or revoked. Set a new one in Settings → Runtime → GitHub.", { cause: error });
  }
  if (status === 404) {
    return new GitHubError(
      "not-found",
      context.hasToken
        ? `The repository ${name} was not found, or your GitHub token cannot see it. Check the name, and that the token is given this repository with the permission "${context.permission}".`
        : `The repository ${name} was not found, or it is private. Check the name; for a private repository add a GitHub token in Settings → Runtime → GitHub.`,
      { cause: error },
    );
  }
  if (status === 403) {
    return new GitHubError(
      "forbidden",
      context.hasToken
        ? `Your GitHub token does not have the permission needed for ${name}: give it "${context.permission}" for this repository.`
        : `GitHub refused the request for ${name}. Add a GitHub token with "${context.permission}" in Settings → Runtime → GitHub.`,
      { cause: error },
    );
  }
  return new GitHubError("failed", `GitHub answered ${status} for ${name}: ${e.message ?? "no details"}.`, { cause: error });
}
