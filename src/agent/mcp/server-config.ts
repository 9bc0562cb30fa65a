// Remote MCP server entries (issue 14): what Settings stores per server and the restore step that
// reads them back. Credentials (headers such as a bearer token, OAuth tokens and client
// registration) live under `secret`, which backups and exports leave out like provider keys.
import { z } from "zod";

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
}

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

/** The stored form (the caller writes it to settings). */
export function storedMcpServers(servers: readonly McpServerConfig[]): { v: number; servers: McpServerConfig[] } {
  return { v: MCP_SETTINGS_VERSION, servers: structuredClone([...servers]) };
}
