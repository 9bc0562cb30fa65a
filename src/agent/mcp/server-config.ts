// Remote MCP server entries (issue 14): what Settings stores per server and the restore step that
// reads them back. Credentials (headers such as a bearer token, OAuth tokens and client
// registration) live under `secret`, which backups and exports leave out like provider keys; with
// the keys' passphrase they are sealed in the record's `vault` instead (src/ui/settings/mcp-settings.ts).
import { z } from "zod";
import { isKeyVault, type KeyVault } from "../../providers";

/** Where a server entry came from: the user (Settings) or a file of one workspace. */
export type McpSource = { kind: "user" } | { kind: "workspace"; workspaceId: string; workspaceName?: string; file: string };

export interface McpOAuthState {
  /** The client registration as the SDK keeps it (client_id, and the authorization server it is bound to). */
  client?: Record<string, unknown>;
  /** Whether `client` came from dynamic registration (then it may be dropped and registered anew). */
  registered?: boolean;
  tokens?: { access_token: string; token_type: string; refresh_token?: string; expires_in?: number; scope?: string; id_token?: string; [key: string]: unknown };
  /** When the access token was stored (ms), to tell when it expires. */
  tokensAt?: number;
  authorizationServer?: { issuer?: string; authorizationServerUrl: string; tokenEndpoint: string };
}

export interface McpServerSecret {
  headers?: Record<string, string>;
  oauth?: McpOAuthState;
}

export interface McpServerConfig {
  id: string;
  /** The prefix of its tools' names (`<name>_<tool>`): letters, digits, _ and -. */
  name: string;
  url: string;
  /** "auto" tries Streamable HTTP first and falls back to SSE for older servers. */
  transport: "auto" | "http" | "sse";
  enabled: boolean;
  /** A tool call that takes longer fails with a timeout (ms). */
  timeoutMs: number;
  source: McpSource;
  /** A client id typed by the user for an authorization server without dynamic registration. */
  oauthClientId?: string;
  secret?: McpServerSecret;
  /**
   * In memory only: the server's secrets are sealed by the keys' passphrase, which has not been
   * given yet in this page load (what they are, not their values). Such a server does not connect.
   */
  sealed?: McpSealedFields;
}

/** Which secrets a server has in the vault (in the clear, so a locked server can say so). */
export interface McpSealedFields {
  headers?: string[];
  oauth?: true;
}

/** The sealed secrets by server id. */
export type McpSecrets = Record<string, McpServerSecret>;

export const MCP_SETTINGS_KEY = "mcp-servers";
export const MCP_SETTINGS_VERSION = 1;
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,29}$/;

/** A server name is the prefix of tool names, so model APIs must accept it. */
export function mcpNameProblem(name: string): string | undefined {
  if (!NAME.test(name)) return "Use 1–30 letters, digits, _ or - (it prefixes the server's tool names), starting with a letter or digit.";
  return undefined;
}

/** An http(s) URL, or why not. */
export function mcpUrlProblem(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "The URL must start with https:// (or http:// for a server on this machine).";
    return undefined;
  } catch {
    return "Enter the server's full URL, such as https://example.com/mcp.";
  }
}

const sourceSchema = z.union([
  z.object({ kind: z.literal("user") }),
  z.object({ kind: z.literal("workspace"), workspaceId: z.string().min(1), workspaceName: z.string().optional(), file: z.string().min(1) }),
]);

const tokensSchema = z.looseObject({
  access_token: z.string(),
  token_type: z.string(),
  refresh_token: z.string().optional(),
  expires_in: z.number().optional(),
  scope: z.string().optional(),
  id_token: z.string().optional(),
});

const secretSchema = z.object({
  headers: z.record(z.string(), z.string()).optional(),
  oauth: z
    .object({
      client: z.record(z.string(), z.unknown()).optional(),
      registered: z.boolean().optional(),
      tokens: tokensSchema.optional(),
      tokensAt: z.number().optional(),
      authorizationServer: z.object({ issuer: z.string().optional(), authorizationServerUrl: z.string(), tokenEndpoint: z.string() }).optional(),
    })
    .optional(),
});

const serverSchema = z.object({
  id: z.string().min(1),
  name: z.string().refine((name) => mcpNameProblem(name) === undefined, "invalid server name"),
  url: z.string().refine((url) => mcpUrlProblem(url) === undefined, "invalid URL"),
  transport: z.enum(["auto", "http", "sse"]).default("auto"),
  enabled: z.boolean().default(false),
  timeoutMs: z.number().int().positive().default(DEFAULT_MCP_TIMEOUT_MS),
  source: sourceSchema.default({ kind: "user" }),
  oauthClientId: z.string().optional(),
  secret: secretSchema.optional(),
});

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Validates stored entries (stored data is untrusted): bad ones are skipped and reported. */
export function restoreMcpServers(value: unknown, onInvalid?: (problem: string) => void): McpServerConfig[] {
  if (value === undefined) return [];
  const stored = value as { servers?: unknown } | null;
  if (!stored || typeof stored !== "object" || !Array.isArray(stored.servers)) {
    onInvalid?.("The saved MCP servers are unreadable; they were ignored.");
    return [];
  }
  const out: McpServerConfig[] = [];
  const ids = new Set<string>();
  for (const raw of stored.servers) {
    const parsed = serverSchema.safeParse(raw);
    if (!parsed.success || ids.has(parsed.data.id)) {
      onInvalid?.(`A saved MCP server entry is invalid and was skipped${parsed.success ? "" : `: ${parsed.error.issues[0]?.message}`}.`);
      continue;
    }
    ids.add(parsed.data.id);
    out.push(stripUndefined(parsed.data) as McpServerConfig);
  }
  return out;
}

/** The vault of a stored record, when the servers' secrets are sealed (undefined: none, or unreadable and reported). */
export function restoreMcpVault(value: unknown, onInvalid?: (problem: string) => void): KeyVault | undefined {
  const vault = (value as { vault?: unknown } | null | undefined)?.vault;
  if (vault === undefined) return undefined;
  if (isKeyVault(vault)) return vault;
  onInvalid?.("The saved MCP server credentials are unreadable; add their headers or sign in again.");
  return undefined;
}

/** What a vault says each server has sealed (for the servers still listed). */
export function sealedFieldsOf(vault: KeyVault): Record<string, McpSealedFields> {
  const out: Record<string, McpSealedFields> = {};
  for (const [id, fields] of Object.entries(vault.fields)) {
    out[id] = { ...(Array.isArray(fields.headers) && { headers: fields.headers.filter((h) => typeof h === "string") }), ...(fields.oauth === true && { oauth: true as const }) };
  }
  return out;
}

/** The servers' secrets by id, and the servers without them (nor their in-memory `sealed` marks). */
export function splitMcpSecrets(servers: readonly McpServerConfig[]): { servers: McpServerConfig[]; secrets: McpSecrets } {
  const secrets: McpSecrets = {};
  const stripped = servers.map((server) => {
    const { secret, sealed: _sealed, ...rest } = server;
    if (secret && (secret.headers || secret.oauth)) secrets[server.id] = secret;
    return rest;
  });
  return { servers: stripped, secrets };
}

/** The fields list of a vault of these secrets (header names, whether OAuth state is there). */
export function mcpSecretFields(secrets: McpSecrets): KeyVault["fields"] {
  const fields: KeyVault["fields"] = {};
  for (const [id, secret] of Object.entries(secrets)) fields[id] = { ...(secret.headers && { headers: Object.keys(secret.headers) }), ...(secret.oauth && { oauth: true as const }) };
  return fields;
}

/** Restores sealed secrets read from a vault (untrusted like any stored data): each server's entry is checked. */
export function restoreMcpSecrets(value: unknown): McpSecrets {
  const out: McpSecrets = {};
  if (!value || typeof value !== "object") return out;
  for (const [id, raw] of Object.entries(value)) {
    const parsed = secretSchema.safeParse(raw);
    if (parsed.success) out[id] = stripUndefined(parsed.data) as McpServerSecret;
  }
  return out;
}

/**
 * The stored form (the caller writes it to settings): with a vault, the servers' secrets are in it
 * and the entries hold none. `sealed` marks are never stored.
 */
export function storedMcpServers(servers: readonly McpServerConfig[], vault?: KeyVault): { v: number; servers: McpServerConfig[]; vault?: KeyVault } {
  if (vault) return { v: MCP_SETTINGS_VERSION, servers: structuredClone(splitMcpSecrets(servers).servers), vault };
  return { v: MCP_SETTINGS_VERSION, servers: structuredClone(servers.map(({ sealed: _sealed, ...rest }) => rest)) };
}
