// MCP servers a workspace declares (issue 14 point 3): `mcp` entries of type "remote" in
// opencode.json / opencode.jsonc / .opencode/opencode.json(c), and the url form of the project's
// .mcp.json (`mcpServers`). They are only read here; Settings adds them disabled, because an
// imported repository is untrusted. Local (stdio) servers cannot run in a browser and are reported.
import { errorMessage } from "../../base";
import type { WorkspaceFs } from "../../runtime";
import { MAX_CONFIG_BYTES, parseJsonc, type JsonValue } from "../agents";
import { mcpUrlProblem, type McpServerConfig } from "./server-config";

export const MCP_CONFIG_FILES = ["opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc", ".mcp.json"] as const;

/** A server a workspace file declares. */
export interface DeclaredServer {
  name: string;
  url: string;
  transport: McpServerConfig["transport"];
  headers?: Record<string, string>;
  file: string;
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A declared name as a tool-name prefix (letters, digits, _ and -). */
export function serverNameFrom(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^[-_]+/, "").slice(0, 30);
  return clean || "server";
}

function headersOf(value: JsonValue | undefined): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) if (typeof v === "string") out[name] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Reads the files; what is wrong or cannot run here becomes a problem. */
export async function readWorkspaceServers(fs: WorkspaceFs): Promise<{ servers: DeclaredServer[]; problems: Array<{ path: string; message: string }> }> {
  const servers: DeclaredServer[] = [];
  const problems: Array<{ path: string; message: string }> = [];
  for (const file of MCP_CONFIG_FILES) {
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat?.kind !== "file" || stat.size > MAX_CONFIG_BYTES) continue;
    let data: JsonValue;
    try {
      data = parseJsonc(await fs.readText(file));
    } catch (error) {
      // opencode.json problems are reported by the agent's own config reader.
      if (file === ".mcp.json") problems.push({ path: file, message: `This file was skipped: ${errorMessage(error)}.` });
      continue;
    }
    if (!isObject(data)) continue;
    const entries = file === ".mcp.json" ? data.mcpServers : data.mcp;
    if (!isObject(entries)) continue;
    for (const [name, raw] of Object.entries(entries)) {
      if (!isObject(raw)) continue;
      const type = typeof raw.type === "string" ? raw.type : undefined;
      const url = typeof raw.url === "string" ? raw.url.trim() : undefined;
      if (!url || type === "local" || type === "stdio" || raw.command !== undefined) {
        problems.push({ path: file, message: `The MCP server "${name}" runs as a local program; webcode runs in a browser tab and can only use remote servers (a URL).` });
        continue;
      }
      const problem = mcpUrlProblem(url);
      if (problem) {
        problems.push({ path: file, message: `The MCP server "${name}" was skipped: ${problem}` });
        continue;
      }
      const headers = headersOf(raw.headers);
      servers.push({ name: serverNameFrom(name), url, transport: type === "sse" ? "sse" : type === "http" || type === "streamable-http" ? "http" : "auto", ...(headers && { headers }), file });
    }
  }
  return { servers, problems };
}
