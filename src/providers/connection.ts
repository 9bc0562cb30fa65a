// "Test connection" for the settings panel: lists the provider's models and tells apart a bad key,
// a server the browser may not read (CORS), an unreachable server, a wrong URL and success.
import { errorMessage, isAbortError } from "../base";
import { OPENROUTER_BASE_URL, presetOf } from "./presets";
import { ANTHROPIC_BROWSER_HEADER } from "./registry";
import type { ProviderConfig } from "./types";

export type ConnectionResult =
  | { ok: true; models?: string[] }
  | { ok: false; kind: "bad-key" | "cors" | "unreachable" | "not-found" | "error"; message: string };

export interface TestConnectionOptions {
  fetch?: typeof fetch;
  /** The page's origin, for the CORS advice. */
  origin?: string;
  timeoutMs?: number;
}

export const CONNECTION_TIMEOUT_MS = 10_000;

const DEFAULT_BASE: Partial<Record<ProviderConfig["kind"], string>> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
  openrouter: OPENROUTER_BASE_URL,
};

/** The origin a provider's requests go to (its base URL's, or its kind's default), if known. */
export function providerOrigin(config: Pick<ProviderConfig, "kind" | "baseUrl">): string | undefined {
  const base = config.baseUrl?.trim() || DEFAULT_BASE[config.kind];
  if (!base) return undefined;
  try {
    return new URL(base).origin;
  } catch {
    return undefined;
  }
}

function modelsRequest(config: ProviderConfig): { url: string; headers: Record<string, string> } | undefined {
  const base = (config.baseUrl?.trim() || DEFAULT_BASE[config.kind])?.replace(/\/+$/, "");
  if (!base) return undefined;
  const key = config.apiKey?.trim();
  const headers: Record<string, string> = { ...config.headers };
  if (config.kind === "anthropic") {
    Object.assign(headers, ANTHROPIC_BROWSER_HEADER, { "anthropic-version": "2023-06-01" });
    if (key) headers["x-api-key"] = key;
  } else if (config.kind === "google") {
    if (key) headers["x-goog-api-key"] = key;
  } else if (key) {
    headers.authorization = `Bearer ${key}`;
  }
  return { url: `${base}/models`, headers };
}

function modelIds(body: unknown): string[] | undefined {
  const value = body as { data?: { id?: unknown }[]; models?: { name?: unknown }[] } | null;
  if (Array.isArray(value?.data)) return value.data.map((m) => m.id).filter((id): id is string => typeof id === "string");
  if (Array.isArray(value?.models)) {
    return value.models.map((m) => m.name).filter((n): n is string => typeof n === "string").map((n) => n.replace(/^models\//, ""));
  }
  return undefined;
}

async function errorDetail(response: Response): Promise<string> {
  try {
    const text = await response.text();
    try {
      const body = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
      const message = typeof body.error === "string" ? body.error : (body.error?.message ?? body.message);
      if (message) return message.slice(0, 300);
    } catch {
      // Not JSON: fall through to the raw text.
    }
    return text.slice(0, 300);
  } catch {
    return "";
  }
}

function corsAdvice(config: ProviderConfig, origin: string | undefined): string {
  const hint = presetOf(config)?.setupHint;
  const page = origin ? ` (${origin})` : "";
  return `${config.name} answered, but the browser blocked the response because the server does not allow this page's origin${page} (CORS). ${hint ?? "Configure the server to allow this origin, or use a provider that supports browser access."}`;
}

/** Turns a rejected fetch into a result: timeout, CORS refusal or unreachable server. */
async function diagnose(error: unknown, url: string, config: ProviderConfig, fetchImpl: typeof fetch, options: TestConnectionOptions): Promise<ConnectionResult> {
  const timeoutMs = options.timeoutMs ?? CONNECTION_TIMEOUT_MS;
  if (isAbortError(error)) {
    return { ok: false, kind: "unreachable", message: `${config.name} did not answer within ${Math.round(timeoutMs / 1000)} s at ${url}. Check that the server is running and the URL is right.` };
  }
  // fetch rejects with the same TypeError for "blocked by CORS" and "nothing listening". An opaque
  // no-cors request succeeds when the server is up, which tells the two apart.
  let serverUp = false;
  try {
    await fetchImpl(url, { method: "GET", mode: "no-cors", signal: AbortSignal.timeout(timeoutMs) });
    serverUp = true;
  } catch {
    serverUp = false;
  }
  if (serverUp) return { ok: false, kind: "cors", message: corsAdvice(config, options.origin) };
  return {
    ok: false,
    kind: "unreachable",
    message: `Could not reach ${config.name} at ${url} (${errorMessage(error)}). Check the URL, that the server is running, and your network.`,
  };
}

/** Checks that the provider answers with this config. Never throws. */
export async function testConnection(config: ProviderConfig, options: TestConnectionOptions = {}): Promise<ConnectionResult> {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const request = modelsRequest(config);
  if (!request) {
    return { ok: false, kind: "not-found", message: `${config.name} has no base URL. Enter the server's URL (usually ending in /v1).` };
  }
  if (config.kind !== "openai-compatible" && !config.apiKey?.trim()) {
    return { ok: false, kind: "bad-key", message: `No API key is set for ${config.name}. Paste your key and test again.` };
  }
  // OpenRouter lists models without a key, so its key is checked on its "current key" endpoint first.
  const urls = config.kind === "openrouter" ? [request.url.replace(/\/models$/, "/key"), request.url] : [request.url];
  let response: Response | undefined;
  for (const url of urls) {
    try {
      response = await fetchImpl(url, { method: "GET", headers: request.headers, signal: AbortSignal.timeout(options.timeoutMs ?? CONNECTION_TIMEOUT_MS) });
    } catch (error) {
      return diagnose(error, url, config, fetchImpl, options);
    }
    if (!response.ok) return interpret(config, url, response);
  }
  return interpret(config, request.url, response!);
}

async function interpret(config: ProviderConfig, url: string, response: Response): Promise<ConnectionResult> {
  if (response.status === 401 || response.status === 403) {
    const detail = await errorDetail(response);
    return { ok: false, kind: "bad-key", message: `${config.name} refused the API key (HTTP ${response.status}${detail ? `: ${detail}` : ""}). Check the key and paste it again.` };
  }
  if (response.status === 404) {
    return { ok: false, kind: "not-found", message: `${config.name} has nothing at ${url} (HTTP 404). Check the base URL; it usually ends in /v1.` };
  }
  if (!response.ok) {
    const detail = await errorDetail(response);
    return { ok: false, kind: "error", message: `${config.name} answered HTTP ${response.status}${detail ? `: ${detail}` : ""}. Try again later or check the provider's status.` };
  }
  try {
    const models = modelIds(await response.json());
    return models ? { ok: true, models } : { ok: true };
  } catch {
    // The server answered 200 with something that is not a model list: reachable, key accepted.
    return { ok: true };
  }
}
