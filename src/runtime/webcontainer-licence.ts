// The StackBlitz WebContainer API key, and booting with it (docs/architecture.md, "Runtime";
// README, "Deploying webcode"). On localhost WebContainer boots without a key; on any other domain
// StackBlitz wants its API key for that domain. The deployer sets it once for every visitor:
// - at build time: VITE_WEBCONTAINER_API_KEY in the build's environment (import.meta.env);
// - at serve time: `webcode.config.json` beside index.html, `{ "webContainerApiKey": "…" }`,
//   fetched when WebContainer starts (so one build can be served on several domains).
// A key set in Settings → Runtime overrides both, for that browser only.
//
// The real API refuses configureAPIKey after any WebContainer.boot call ("configureAPIKey should
// always be called before WebContainer.boot"), so the key is applied exactly once per page, before
// the first boot, and Retry boots again with the key already in place.
import { errorMessage } from "../base";

/** The file a deployment may serve beside the app to configure it (read at start). */
export const DEPLOYMENT_CONFIG_FILE = "webcode.config.json";

export type ApiKeySource = "settings" | "config-file" | "build";

export interface ResolvedApiKey {
  key: string;
  source: ApiKeySource;
}

export interface ApiKeySources {
  /** Settings → Runtime (this browser's override; "" = none). */
  settings: string;
  /** VITE_WEBCONTAINER_API_KEY as the build saw it (undefined or "" = none). */
  build: string | undefined;
  /** Reads DEPLOYMENT_CONFIG_FILE's JSON; undefined when there is none. */
  readConfig: () => Promise<unknown>;
}

/** Where each source is named in messages (the boot error tells the visitor which key was used). */
export const API_KEY_SOURCE_NAMES: Record<ApiKeySource, string> = {
  settings: "the key set in Settings → Runtime",
  "config-file": `the deployment's key (${DEPLOYMENT_CONFIG_FILE})`,
  build: "the deployment's key (VITE_WEBCONTAINER_API_KEY at build time)",
};

/** The key to use: the user's override, else the served config file's, else the build's; undefined: none. */
export async function resolveApiKey(sources: ApiKeySources): Promise<ResolvedApiKey | undefined> {
  const settings = sources.settings.trim();
  if (settings) return { key: settings, source: "settings" };
  let config: unknown;
  try {
    config = await sources.readConfig();
  } catch (error) {
    // A broken config file must not keep WebContainer from booting (on localhost it needs no key).
    console.warn(`webcode: ${DEPLOYMENT_CONFIG_FILE} could not be read`, error);
  }
  const fromFile = config && typeof config === "object" && !Array.isArray(config) ? (config as Record<string, unknown>).webContainerApiKey : undefined;
  if (typeof fromFile === "string" && fromFile.trim()) return { key: fromFile.trim(), source: "config-file" };
  const build = sources.build?.trim();
  if (build) return { key: build, source: "build" };
  return undefined;
}

/** Fetches DEPLOYMENT_CONFIG_FILE next to the page; a missing file (404) is "no config". */
export function fetchDeploymentConfig(base: string, fetchImpl: typeof fetch = fetch): () => Promise<unknown> {
  return async () => {
    const response = await fetchImpl(new URL(DEPLOYMENT_CONFIG_FILE, base).href, { cache: "no-cache", credentials: "same-origin" });
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    // A server that answers every path with index.html is "no config", not an error.
    if (!(response.headers.get("content-type") ?? "").includes("json")) return undefined;
    return (await response.json()) as unknown;
  };
}

/** The parts of @webcontainer/api used to boot (the real module, or a fake in tests). */
export interface WebContainerApiModule<C> {
  configureAPIKey(key: string): void;
  WebContainer: { boot(options: { coep: "credentialless"; workdirName: string }): Promise<C> };
}

export interface LicensedBootOptions<C> {
  /** Loads the API module (a lazy import in the app). */
  load: () => Promise<WebContainerApiModule<C>>;
  /** The key to apply, resolved once per page. */
  apiKey: () => Promise<ResolvedApiKey | undefined>;
  /** The page's host name, for the error text (localhost needs no key). */
  hostname: string;
}

/**
 * The boot function of WebContainerBoot: the first call resolves the key and applies it, every
 * call (Retry) then boots with it. A failed boot's error says which key was used, or that none was.
 */
export function licensedBoot<C>(options: LicensedBootOptions<C>): () => Promise<C> {
  let prepared: Promise<{ api: WebContainerApiModule<C>; key: ResolvedApiKey | undefined }> | undefined;
  const prepare = async () => {
    const [api, key] = await Promise.all([options.load(), options.apiKey()]);
    if (key) api.configureAPIKey(key.key);
    return { api, key };
  };
  return async () => {
    // A failed load or key lookup is tried again by Retry; once the key is applied it stays.
    prepared ??= prepare().catch((error: unknown) => {
      prepared = undefined;
      throw error;
    });
    const { api, key } = await prepared;
    try {
      return await api.WebContainer.boot({ coep: "credentialless", workdirName: "workspace" });
    } catch (error) {
      throw new Error(`${errorMessage(error).replace(/\.?$/, ".")} ${keyHint(key, options.hostname)}`, { cause: error });
    }
  };
}

/** The sentence after a boot error: which key was used, and what to check (no final stop: the notice adds one). */
export function keyHint(key: ResolvedApiKey | undefined, hostname: string): string {
  if (key) {
    return `WebContainer API key used: ${API_KEY_SOURCE_NAMES[key.source]}; check that it is valid and that StackBlitz allows it on ${hostname}`;
  }
  if (isLocalHost(hostname)) return "No WebContainer API key is set (none is needed on localhost)";
  return `No WebContainer API key is set: on ${hostname} StackBlitz needs one (the deployer sets VITE_WEBCONTAINER_API_KEY or ${DEPLOYMENT_CONFIG_FILE}; a user can set one in Settings → Runtime)`;
}

function isLocalHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]" || hostname.endsWith(".localhost");
}
