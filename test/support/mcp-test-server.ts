// A real MCP server for tests (@modelcontextprotocol/sdk, Streamable HTTP, one session per client)
// on 127.0.0.1, with CORS for the page: tools that echo, return an image, an embedded resource or
// an error, a slow one (honours cancellation), and one that adds a tool (tools/list_changed).
// Options make it refuse CORS, hide Mcp-Session-Id, require a bearer token or list many tools.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/** A 1×1 red PNG. */
export const RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

export interface McpTestServerOptions {
  /** "full" (default): the page may talk to it; "none": no CORS headers; "no-expose": Mcp-Session-Id not exposed. */
  cors?: "full" | "none" | "no-expose";
  /** Requests must carry `Authorization: Bearer <token>`; others get 401. */
  bearer?: string | (() => string | undefined);
  /** WWW-Authenticate's resource_metadata (for the OAuth flow). */
  resourceMetadataUrl?: string;
  /** Extra filler tools (for the first-request budget), named filler_1 … */
  fillerTools?: number;
  /** How long `slow` takes (ms). */
  slowMs?: number;
  /** Speaks only the older HTTP+SSE transport (GET /mcp opens the stream, POST /messages). */
  legacySse?: boolean;
  /** Requires tokens of this authorization server, announced in the protected resource metadata. */
  oauth?: { issuer: string; validate(token: string | undefined): boolean };
  /** The initialize result's `instructions` (none by default). */
  instructions?: string;
}

export interface McpTestServer {
  url: string;
  origin: string;
  /** Calls of each tool, with their arguments. */
  calls: Array<{ tool: string; args: unknown }>;
  /** Requests seen (method and the Authorization header). */
  requests: Array<{ method: string; authorization?: string }>;
  /** Whether a slow call saw its cancellation. */
  cancelled: () => number;
  /** Drops every open connection (a server that goes away mid-call). */
  dropConnections(): void;
  close(): Promise<void>;
}

function corsHeaders(req: IncomingMessage, mode: McpTestServerOptions["cors"]): Record<string, string> {
  if (mode === "none") return {};
  return {
    "access-control-allow-origin": req.headers.origin ?? "*",
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-allow-headers": String(req.headers["access-control-request-headers"] ?? "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id"),
    ...(mode !== "no-expose" && { "access-control-expose-headers": "mcp-session-id, www-authenticate" }),
    "access-control-max-age": "600",
  };
}

function buildServer(options: McpTestServerOptions, record: McpTestServer["calls"], onCancel: () => void): McpServer {
  const server = new McpServer({ name: "webcode-test-mcp", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } }, ...(options.instructions !== undefined && { instructions: options.instructions }) });
  server.registerTool("echo", { description: "Echoes the text back.", inputSchema: { text: z.string().describe("What to echo") } }, async ({ text }) => {
    record.push({ tool: "echo", args: { text } });
    return { content: [{ type: "text", text: `echo: ${text}` }] };
  });
  server.registerTool("image", { description: "Returns a small PNG image." }, async () => {
    record.push({ tool: "image", args: {} });
    return { content: [{ type: "text", text: "a red pixel" }, { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }] };
  });
  server.registerTool("resource", { description: "Returns an embedded text resource." }, async () => {
    record.push({ tool: "resource", args: {} });
    return { content: [{ type: "resource", resource: { uri: "memo://notes/today", mimeType: "text/plain", text: "Buy milk." } }] };
  });
  server.registerTool("fail", { description: "Always fails." }, async () => {
    record.push({ tool: "fail", args: {} });
    return { isError: true, content: [{ type: "text", text: "the failure you asked for" }] };
  });
  server.registerTool("slow", { description: "Waits a while, then answers.", inputSchema: { ms: z.number().optional() } }, async ({ ms }, extra) => {
    record.push({ tool: "slow", args: { ms } });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms ?? options.slowMs ?? 5_000);
      extra.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        onCancel();
        resolve();
      });
    });
    return { content: [{ type: "text", text: "slow done" }] };
  });
  server.registerTool("add_tool", { description: "Adds a tool named `name` (the tool list changes)." , inputSchema: { name: z.string() } }, async ({ name }) => {
    record.push({ tool: "add_tool", args: { name } });
    server.registerTool(name, { description: `Added at run time: ${name}.` }, async () => ({ content: [{ type: "text", text: `${name} ran` }] }));
    server.sendToolListChanged();
    return { content: [{ type: "text", text: `added ${name}` }] };
  });
  for (let i = 1; i <= (options.fillerTools ?? 0); i++) {
    server.registerTool(
      `filler_${i}`,
      { description: `Filler tool number ${i}: looks up an item by id and returns its fields, for measuring request sizes.`, inputSchema: { id: z.string().describe("The item id"), fields: z.array(z.string()).optional().describe("Fields to return") } },
      async ({ id }) => ({ content: [{ type: "text", text: `item ${id}` }] }),
    );
  }
  return server;
}

export async function startMcpTestServer(options: McpTestServerOptions = {}): Promise<McpTestServer> {
  const calls: McpTestServer["calls"] = [];
  const requests: McpTestServer["requests"] = [];
  let cancelled = 0;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const sockets = new Set<Socket>();
  let origin = "";

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const cors = corsHeaders(req, options.cors);
    for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    if (req.method === "OPTIONS") {
      res.writeHead(204).end();
      return;
    }
    if (!req.url?.startsWith("/mcp") && !req.url?.startsWith("/.well-known/")) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    if (options.oauth && req.url?.startsWith("/.well-known/oauth-protected-resource")) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [options.oauth.issuer] }));
      return;
    }
    requests.push({ method: req.method ?? "", ...(req.headers.authorization && { authorization: req.headers.authorization }) });
    const bearer = typeof options.bearer === "function" ? options.bearer() : options.bearer;
    const token = req.headers.authorization?.replace(/^Bearer /, "");
    const refused = options.oauth ? !options.oauth.validate(token) : options.bearer !== undefined && (!bearer || req.headers.authorization !== `Bearer ${bearer}`);
    if (refused) {
      const metadataUrl = options.resourceMetadataUrl ?? (options.oauth ? `${origin}/.well-known/oauth-protected-resource/mcp` : undefined);
      res.writeHead(401, {
        "content-type": "application/json",
        "www-authenticate": `Bearer realm="mcp"${metadataUrl ? `, resource_metadata="${metadataUrl}"` : ""}`,
      });
      res.end(JSON.stringify({ error: "unauthorized", error_description: "A bearer token is required." }));
      return;
    }
    if (options.legacySse) {
      await handleLegacy(req, res);
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (req.method !== "POST" || typeof sessionId === "string") {
        res.writeHead(typeof sessionId === "string" ? 404 : 400, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null }));
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, created),
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await buildServer(options, calls, () => cancelled++).connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  };

  const legacy = new Map<string, SSEServerTransport>();
  const handleLegacy = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", origin);
    if (req.method === "GET" && url.pathname === "/mcp") {
      const transport = new SSEServerTransport("/mcp/messages", res);
      legacy.set(transport.sessionId, transport);
      res.on("close", () => legacy.delete(transport.sessionId));
      await buildServer(options, calls, () => cancelled++).connect(transport);
      return;
    }
    const transport = legacy.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/mcp/messages" && transport) {
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(405, { "content-type": "text/plain" }).end("Method not allowed");
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  http.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/mcp`,
    origin,
    calls,
    requests,
    cancelled: () => cancelled,
    dropConnections() {
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const transport of sessions.values()) await transport.close().catch(() => undefined);
      for (const transport of legacy.values()) await transport.close().catch(() => undefined);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
