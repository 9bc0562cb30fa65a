// Settings → Runtime: whether to use WebContainer where it can run, the StackBlitz API key a
// deployment on a domain other than localhost needs, how long to wait for its boot, and how git
// reaches remotes (CORS proxy, access token). Stored in this origin's settings store like provider
// keys (never exported or shared). The WebContainer fields are read once per page load by the
// composition root (WebContainer boots at most once per page); the git fields per git command.
import { DEFAULT_BOOT_TIMEOUT_MS } from "./boot-timeout";

export const RUNTIME_SETTINGS_KEY = "runtime";
export const MIN_BOOT_TIMEOUT_MS = 2_000;
export const MAX_BOOT_TIMEOUT_MS = 120_000;

export interface RuntimeSettings {
  /** Use WebContainer when available; off: it is never loaded. */
  useWebContainer: boolean;
  /** StackBlitz WebContainer API key: this browser's override of the deployment's (webcontainer-licence.ts; "" = none). */
  webContainerApiKey: string;
  bootTimeoutMs: number;
  /** git clone/fetch/pull/push go through this CORS proxy URL prefix ("" = none, they say so). Read per command. */
  gitCorsProxy: string;
  /** Access token git sends (as the password over HTTPS) to `gitTokenHost` only ("" = none). Never exported. */
  gitAccessToken: string;
  gitTokenHost: string;
  /**
   * GitHub (Open from GitHub, Push to GitHub): a fine-grained personal access token ("" = none:
   * public repositories only, 60 API requests an hour). Never exported: the field name ends in
   * AccessToken, which backups leave out.
   */
  githubAccessToken: string;
  /** The REST API base: "" for github.com, or a GitHub Enterprise Server's `https://HOST/api/v3`. */
  githubApiUrl: string;
  /** Settings → Sync: the sync server's ws:// or wss:// URL ("" = none: nothing connects). */
  syncServerUrl: string;
  /** The sync server's room token (`npm run sync-server -- token`). Never exported: ends in AccessToken. */
  syncAccessToken: string;
  /** Workspaces whose files sync (ids); only with a server and a token. */
  syncWorkspaces: string[];
  /**
   * Per workspace (id): the server and room token it syncs with, overriding the two above (an
   * accepted Invite link stores one here). Never exported: the token's field name is accessToken.
   */
  syncRooms: Record<string, SyncRoom>;
  /** The name others see beside your cursor and on the files you have open ("" = "Guest" and a number). */
  syncDisplayName: string;
}

export interface SyncRoom {
  url: string;
  accessToken: string;
}

export const DEFAULT_RUNTIME_SETTINGS: RuntimeSettings = {
  useWebContainer: true,
  webContainerApiKey: "",
  bootTimeoutMs: DEFAULT_BOOT_TIMEOUT_MS,
  gitCorsProxy: "",
  gitAccessToken: "",
  gitTokenHost: "github.com",
  githubAccessToken: "",
  githubApiUrl: "",
  syncServerUrl: "",
  syncAccessToken: "",
  syncWorkspaces: [],
  syncRooms: {},
  syncDisplayName: "",
};

/** The longest display name kept (it is shown on others' screens). */
export const MAX_SYNC_NAME = 40;

/** The server and token `workspaceId` syncs with: its own room entry, else the global ones ("" when unset). */
export function syncCredentials(settings: RuntimeSettings, workspaceId: string): SyncRoom {
  return settings.syncRooms[workspaceId] ?? { url: settings.syncServerUrl, accessToken: settings.syncAccessToken };
}

function restoreSyncRooms(value: unknown): Record<string, SyncRoom> {
  const out: Record<string, SyncRoom> = {};
  if (!value || typeof value !== "object" || Array.isArray(value)) return out;
  for (const [id, room] of Object.entries(value as Record<string, unknown>)) {
    if (!room || typeof room !== "object") continue;
    const { url, accessToken } = room as Record<string, unknown>;
    const clean = typeof url === "string" ? cleanSyncUrl(url) : "";
    if (clean !== "" && typeof accessToken === "string" && accessToken.trim() !== "") out[id] = { url: clean, accessToken: accessToken.trim() };
  }
  return out;
}

/** A ws:// or wss:// URL without a trailing slash; anything else is "". */
export function cleanSyncUrl(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, "");
  if (trimmed === "") return "";
  try {
    const url = new URL(trimmed);
    return url.protocol === "wss:" || url.protocol === "ws:" ? trimmed : "";
  } catch {
    return "";
  }
}

/** An http(s) URL, without a trailing slash; anything else is "" (a stored value is untrusted). */
export function cleanProxyUrl(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, "");
  if (trimmed === "") return "";
  try {
    const url = new URL(trimmed);
    return url.protocol === "https:" || url.protocol === "http:" ? trimmed : "";
  } catch {
    return "";
  }
}

/** A host name ("github.com"), lower case; "" when it is not one. */
export function cleanHost(value: string): string {
  const host = value.trim().toLowerCase();
  return /^[a-z0-9.-]+(:\d+)?$/.test(host) ? host : "";
}

export function clampBootTimeout(ms: number): number {
  if (!Number.isFinite(ms)) return DEFAULT_BOOT_TIMEOUT_MS;
  return Math.round(Math.min(MAX_BOOT_TIMEOUT_MS, Math.max(MIN_BOOT_TIMEOUT_MS, ms)));
}

/** Stored settings are untrusted input: unknown fields dropped, wrong types fall back to defaults. */
export function restoreRuntimeSettings(value: unknown): RuntimeSettings {
  const out = { ...DEFAULT_RUNTIME_SETTINGS };
  if (!value || typeof value !== "object" || Array.isArray(value)) return out;
  const record = value as Record<string, unknown>;
  if (typeof record.useWebContainer === "boolean") out.useWebContainer = record.useWebContainer;
  if (typeof record.webContainerApiKey === "string") out.webContainerApiKey = record.webContainerApiKey.trim();
  if (typeof record.bootTimeoutMs === "number") out.bootTimeoutMs = clampBootTimeout(record.bootTimeoutMs);
  if (typeof record.gitCorsProxy === "string") out.gitCorsProxy = cleanProxyUrl(record.gitCorsProxy);
  if (typeof record.gitAccessToken === "string") out.gitAccessToken = record.gitAccessToken.trim();
  if (typeof record.gitTokenHost === "string") out.gitTokenHost = cleanHost(record.gitTokenHost);
  if (typeof record.githubAccessToken === "string") out.githubAccessToken = record.githubAccessToken.trim();
  if (typeof record.githubApiUrl === "string") out.githubApiUrl = cleanProxyUrl(record.githubApiUrl);
  if (typeof record.syncServerUrl === "string") out.syncServerUrl = cleanSyncUrl(record.syncServerUrl);
  if (typeof record.syncAccessToken === "string") out.syncAccessToken = record.syncAccessToken.trim();
  if (Array.isArray(record.syncWorkspaces)) out.syncWorkspaces = record.syncWorkspaces.filter((id): id is string => typeof id === "string");
  out.syncRooms = restoreSyncRooms(record.syncRooms);
  if (typeof record.syncDisplayName === "string") out.syncDisplayName = record.syncDisplayName.trim().slice(0, MAX_SYNC_NAME);
  return out;
}
