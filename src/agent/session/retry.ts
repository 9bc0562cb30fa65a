// Classifying model-call failures (docs/agent.md, "The loop": retries and backoff): what is retried and after how long, what
// needs the user (a bad API key), and what means the context overflowed (compaction, not retry).
import { abortError, errorMessage, isAbortError } from "../../base";
import type { MessageError } from "../../storage";

/** The first retry waits this long when the provider does not say; each next one doubles it. */
export const RETRY_INITIAL_DELAY_MS = 2000;
export const RETRY_BACKOFF_FACTOR = 2;
/** Backoff delays are capped here (a provider's own retry-after is honoured as sent). */
export const RETRY_MAX_DELAY_MS = 30_000;
/** At most this many model calls per step: the first attempt plus up to 7 retries. */
export const RETRY_MAX_ATTEMPTS = 8;

export type FailureKind =
  /** Worth trying again after a delay: 408/409/429/5xx, network failure, provider overloaded. */
  | "retryable"
  /** 401/403: the key is missing, wrong or lacks access; retrying cannot help. */
  | "auth"
  /** The account's quota or credit is used up (a 429 that is not a rate limit): only billing helps. */
  | "quota"
  /** The request did not fit the model's context window: compact, then continue. */
  | "overflow"
  | "aborted"
  /** The model sent nothing for the step's whole budget of silence, retries included. */
  | "stalled"
  | "fatal";

export interface Failure {
  kind: FailureKind;
  message: string;
  status?: number;
  headers?: Record<string, string>;
  /** A delay the provider asked for in the error body (Google's `retryDelay`), in ms. */
  retryAfterMs?: number;
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  statusCode?: unknown;
  status?: unknown;
  responseHeaders?: unknown;
  responseBody?: unknown;
  isRetryable?: unknown;
  cause?: unknown;
  lastError?: unknown;
  error?: unknown;
  type?: unknown;
  code?: unknown;
}

const OVERFLOW_PATTERNS = [
  /context[ _-]?length/i,
  /context[ _-]?window/i,
  /maximum context/i,
  /prompt is too long/i,
  /input is too long/i,
  /too many tokens/i,
  /exceeds? (the )?(model'?s? )?(maximum )?context/i,
  /reduce the length of the messages/i,
  /request_too_large/i,
];

/**
 * Quota or credit exhausted, as OpenAI ("insufficient_quota"), Anthropic ("credit balance is too
 * low") and Google ("exceeded your current quota ... check your plan and billing") say it. These
 * arrive as 429 (Anthropic: 400) but waiting minutes between retries cannot fix them.
 */
const QUOTA_PATTERNS = [
  /insufficient_quota/i,
  /billing_hard_limit_reached/i,
  /credit balance is too low/i,
  /exceeded your current quota/i,
  /check your plan and billing/i,
];
/** A quota message that also says when to retry is a per-minute limit after all (Google sends both). */
const RETRY_HINT = /retry in \d|retryDelay|per[ _-]?minute/i;

const NETWORK_PATTERNS = [
  /failed to fetch/i,
  /fetch failed/i,
  /network ?error/i,
  /load failed/i,
  /\bterminated\b/i,
  /socket hang up/i,
  /other side closed/i,
  /ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN/,
  /premature close/i,
];

function asErrorLike(error: unknown): ErrorLike | undefined {
  return typeof error === "object" && error !== null ? (error as ErrorLike) : undefined;
}

/** Status code of an AI SDK APICallError / StreamProviderError (or a RetryError around one). */
function statusOf(error: ErrorLike): number | undefined {
  for (const value of [error.statusCode, error.status]) if (typeof value === "number") return value;
  const inner = asErrorLike(error.lastError);
  return inner ? statusOf(inner) : undefined;
}

function headersOf(error: ErrorLike): Record<string, string> | undefined {
  if (typeof error.responseHeaders === "object" && error.responseHeaders !== null) {
    return error.responseHeaders as Record<string, string>;
  }
  const inner = asErrorLike(error.lastError);
  return inner ? headersOf(inner) : undefined;
}

/** All the text an error carries (message, body, nested provider error), to match patterns on. */
function describe(error: unknown, depth = 0): string {
  if (depth > 3) return "";
  const like = asErrorLike(error);
  if (!like) return typeof error === "string" ? error : "";
  const parts: string[] = [];
  if (typeof like.message === "string") parts.push(like.message);
  if (typeof like.type === "string") parts.push(like.type);
  if (typeof like.code === "string") parts.push(like.code);
  if (typeof like.responseBody === "string") parts.push(like.responseBody.slice(0, 2000));
  for (const inner of [like.error, like.cause, like.lastError]) if (inner) parts.push(describe(inner, depth + 1));
  return parts.join(" ");
}

/** The AI SDK's errors for a stream event it could not read (malformed SSE data, a chunk of the wrong shape). */
const MALFORMED_EVENT = /^AI_(JSONParseError|TypeValidationError)$/;

export function classifyFailure(error: unknown): Failure {
  if (isAbortError(error)) return { kind: "aborted", message: "aborted" };
  const like = asErrorLike(error) ?? {};
  if (like.name === "StreamStallError") return { kind: "retryable", message: errorMessage(error) };
  const status = statusOf(like);
  const headers = headersOf(like);
  const text = describe(error);
  const message = errorMessage(error);
  const retryAfterMs = bodyRetryDelay(text);
  const base = { message, ...(status !== undefined && { status }), ...(headers && { headers }), ...(retryAfterMs !== undefined && { retryAfterMs }) };
  if (status === 401 || status === 403) return { kind: "auth", ...base };
  if (QUOTA_PATTERNS.some((p) => p.test(text)) && !RETRY_HINT.test(text)) return { kind: "quota", ...base };
  // A rate limit may mention tokens ("tokens per minute"); it is still a rate limit.
  if (status === 429) return { kind: "retryable", ...base };
  if (status === 413 || OVERFLOW_PATTERNS.some((p) => p.test(text))) return { kind: "overflow", ...base };
  if (status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500)) {
    return { kind: "retryable", ...base };
  }
  if (/overloaded|rate[ _-]?limit|too many requests|server_error|unavailable/i.test(text)) return { kind: "retryable", ...base };
  // No status, or a 2xx whose stream then broke ("Failed to process successful response"): the network.
  const noHttpFailure = status === undefined || (status >= 200 && status < 300);
  if (noHttpFailure && NETWORK_PATTERNS.some((p) => p.test(text))) return { kind: "retryable", ...base };
  if (noHttpFailure && like.isRetryable === true) return { kind: "retryable", ...base };
  // A malformed event mid-stream is a broken transfer, not a wrong request: retry like a dropped stream.
  if (noHttpFailure && typeof like.name === "string" && MALFORMED_EVENT.test(like.name)) {
    return { kind: "retryable", ...base, message: "The provider sent a malformed stream event (the response was cut or garbled)" };
  }
  return { kind: "fatal", ...base };
}

function header(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

const UNIT_MS: Record<string, number> = { ms: 1, millisecond: 1, milliseconds: 1, s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000, m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000 };

/**
 * The delay an error body asks for: Google's RetryInfo (`"retryDelay": "34.4s"`), or the wording
 * OpenAI, Google and OpenAI-compatible servers use ("Please retry in 34.44s", "try again in 120ms").
 */
export function bodyRetryDelay(text: string): number | undefined {
  const info = /"?retryDelay"?\s*[:=]\s*"?(\d+(?:\.\d+)?)s"?/i.exec(text);
  if (info) return Math.ceil(Number.parseFloat(info[1]!) * 1000);
  const said = /\b(?:retry|try again)\s+(?:in|after)\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)\b/i.exec(text);
  if (said) return Math.ceil(Number.parseFloat(said[1]!) * UNIT_MS[said[2]!.toLowerCase()]!);
  return undefined;
}

/**
 * How long to wait before retry number `retry` (1 = the first retry): the provider's
 * `retry-after-ms` or `retry-after` (seconds or an HTTP date) when sent, else the delay its error
 * body asks for (`bodyDelayMs`), else exponential backoff.
 */
export function retryDelay(retry: number, headers: Record<string, string> | undefined, now: number, bodyDelayMs?: number): number {
  const ms = header(headers, "retry-after-ms");
  if (ms !== undefined) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return Math.ceil(value);
  }
  const after = header(headers, "retry-after");
  if (after !== undefined) {
    const seconds = Number.parseFloat(after);
    if (/^\s*\d+(\.\d+)?\s*$/.test(after) && Number.isFinite(seconds)) return Math.ceil(seconds * 1000);
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  if (bodyDelayMs !== undefined && Number.isFinite(bodyDelayMs) && bodyDelayMs >= 0) return bodyDelayMs;
  return Math.min(RETRY_INITIAL_DELAY_MS * RETRY_BACKOFF_FACTOR ** (retry - 1), RETRY_MAX_DELAY_MS);
}

/** The error stored on the message and shown to the user: what happened and what to do. */
export function failureToMessageError(failure: Failure, providerName: string): MessageError {
  const status = failure.status !== undefined ? { status: failure.status } : {};
  switch (failure.kind) {
    case "auth":
      return {
        name: "ProviderAuthError",
        message: `${providerName} refused the request (HTTP ${failure.status}): ${failure.message}`,
        action: `Check your API key for ${providerName} in Settings → Providers, then send your message again.`,
        ...status,
      };
    case "quota":
      return {
        name: "ProviderQuotaError",
        message: `${providerName} says the account's quota or credit is used up: ${failure.message}`,
        action: `Check billing and quota for ${providerName} (add credit or raise the limit on the provider's site), or switch to another provider's model, then send your message again.`,
        ...status,
      };
    case "overflow":
      return {
        name: "ContextOverflowError",
        message: `The conversation no longer fits in the model's context window: ${failure.message}`,
        action: "Compact the session (/compact) or start a new session, then continue.",
        ...status,
      };
    case "retryable":
      return {
        name: "ProviderUnavailableError",
        message: `${providerName} kept failing after ${RETRY_MAX_ATTEMPTS} attempts: ${failure.message}`,
        action: "Wait a minute and send your message again, or switch to another model.",
        ...status,
      };
    case "aborted":
      return { name: "AbortedError", message: "Stopped by the user." };
    case "stalled":
      return {
        name: "ProviderStalledError",
        message: `${providerName} stopped sending data: ${failure.message}. webcode gave up waiting.`,
        action: "Send your message again, or switch to another model. A model that thinks silently for long can be given more time: Settings → Providers, its no-data timeout and total wait.",
      };
    default:
      return {
        name: "ProviderError",
        message: `${providerName} returned an error: ${failure.message}`,
        action: "Send your message again; if it keeps failing, try another model.",
        ...status,
      };
  }
}

/** Waits `ms`, or rejects with an AbortError as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
