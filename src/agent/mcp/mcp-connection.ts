// One live connection to a remote MCP server through the AI SDK's MCP client (@ai-sdk/mcp):
// Streamable HTTP first, SSE for older servers; the tool list, refreshed when the server says it
// changed; tool calls that honour Stop and a timeout. The protocol itself is the SDK's.
import { createMCPClient, type MCPClient, type OAuthClientProvider } from "@ai-sdk/mcp";
import { createParser } from "eventsource-parser";
import { errorMessage } from "../../base";
import type { McpServerConfig } from "./server-config";

/** A tool as the server lists it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export type McpCallResult = Awaited<ReturnType<MCPClient["callTool"]>>;

export interface McpConnectOptions {
  fetch?: typeof fetch;
  /** The OAuth client for servers that ask for it (tokens, registration, the popup). */
  authProvider?: OAuthClientProvider;
  /** The server's tool list changed (`notifications/tools/list_changed`). */
  onToolsChanged?: () => void;
  /** The connection failed or closed after it was made. */
  onClosed?: (reason: string) => void;
  /** How long connecting may take (ms). */
  timeoutMs?: number;
}

export const MCP_CONNECT_TIMEOUT_MS = 15_000;

export interface McpConnection {
  readonly transport: "http" | "sse";
  readonly serverName?: string;
  /** The server's own description of how to use it (the initialize result's `instructions`): untrusted text. */
  readonly instructions?: string;
  listTools(signal?: AbortSignal): Promise<McpToolInfo[]>;
  callTool(name: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeoutMs: number }): Promise<McpCallResult>;
  close(): Promise<void>;
}

/** An HTTP failure of the transport (the SDK's MCPClientError carries the status). */
export function httpStatusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === "number") return status;
  const match = /\(HTTP (\d{3})\)/.exec(errorMessage(error));
  return match ? Number(match[1]) : undefined;
}

/**
 * The SDK client answers every server notification with "Unsupported message type" and keeps its
 * transport to itself (no hook for incoming messages), so the one notification webcode needs,
 * tools/list_changed, is read where the messages arrive: the `fetch` the client is given (public
 * API). Each text/event-stream response (the Streamable HTTP GET stream and POST answers, the
 * older SSE transport's stream) is passed through untouched while eventsource-parser reads its
 * events beside it; a cancelled stream still cancels the request.
 */
function notificationFetch(base: typeof fetch, onNotification: (method: string) => void): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body || !response.headers.get("content-type")?.includes("text/event-stream")) return response;
    const parser = createParser({
      onEvent(event) {
        if (event.event !== undefined && event.event !== "message") return;
        try {
          const messages: unknown = JSON.parse(event.data);
          for (const message of Array.isArray(messages) ? messages : [messages]) {
            const m = message as { method?: unknown; id?: unknown } | null;
            if (m && typeof m.method === "string" && m.id === undefined) onNotification(m.method);
          }
        } catch {
          // Not JSON: the client reports it; nothing to watch here.
        }
      },
    });
    const decoder = new TextDecoder();
    const watched = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          controller.enqueue(chunk);
          parser.feed(decoder.decode(chunk, { stream: true }));
        },
      }),
    );
    return new Response(watched, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The client's report of a notification it does not handle (seen by notificationFetch instead). */
function isUnsupportedNotice(error: unknown): boolean {
  return /Unsupported message type/.test(errorMessage(error));
}

/** A tool call in flight, failed early when its response stream ends without an answer. */
interface InFlight {
  name: string;
  args: string;
  fail(reason: Error): void;
}

/**
 * A call answered on an SSE response stream that ends (server restarted, connection dropped)
 * without the result would wait for its timeout: the SDK only reads what arrives. This fetch
 * watches the end of each tools/call response stream and fails a call still waiting on it.
 */
function watchingFetch(base: typeof fetch, inFlight: Set<InFlight>): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (init?.method !== "POST" || typeof init.body !== "string" || !response.body || !response.headers.get("content-type")?.includes("text/event-stream")) return response;
    let call: { name: string; args: string } | undefined;
    try {
      const body = JSON.parse(init.body) as { method?: string; params?: { name?: string; arguments?: unknown } };
      if (body.method === "tools/call" && typeof body.params?.name === "string") call = { name: body.params.name, args: JSON.stringify(body.params.arguments ?? {}) };
    } catch {
      return response;
    }
    if (!call) return response;
    const reader = response.body.getReader();
    const ended = (reason: string) => {
      // The last event is handled after this read resolves: give it a moment before failing.
      setTimeout(() => {
        for (const entry of inFlight) if (entry.name === call.name && entry.args === call.args) entry.fail(new Error(reason));
      }, 200);
    };
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            ended("the server closed the response without a result (it may have restarted or dropped the connection)");
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          ended(`the connection to the server broke (${errorMessage(error)})`);
          controller.error(error);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

async function open(config: McpServerConfig, type: "http" | "sse", options: McpConnectOptions): Promise<MCPClient> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? MCP_CONNECT_TIMEOUT_MS);
  let connected = false;
  const client = await createMCPClient({
    transport: {
      type,
      url: config.url,
      ...(config.secret?.headers && Object.keys(config.secret.headers).length > 0 && { headers: config.secret.headers }),
      ...(options.authProvider && { authProvider: options.authProvider }),
      ...(options.fetch && { fetch: options.fetch }),
      redirect: "follow",
    },
    clientName: "webcode",
    initializationOptions: { signal, timeout: options.timeoutMs ?? MCP_CONNECT_TIMEOUT_MS },
    onUncaughtError: (error) => {
      if (connected && !isUnsupportedNotice(error)) options.onClosed?.(errorMessage(error));
    },
  });
  connected = true;
  return client;
}

/** Connects (HTTP, then SSE when the server has no Streamable HTTP endpoint and `auto`). Throws the SDK's error. */
export async function connectMcp(config: McpServerConfig, connectOptions: McpConnectOptions = {}): Promise<McpConnection> {
  const inFlight = new Set<InFlight>();
  const base = notificationFetch(connectOptions.fetch ?? globalThis.fetch.bind(globalThis), (method) => {
    // A listener's failure must not break the stream the client reads.
    if (method === "notifications/tools/list_changed") queueMicrotask(() => connectOptions.onToolsChanged?.());
  });
  const options = { ...connectOptions, fetch: watchingFetch(base, inFlight) };
  let client: MCPClient;
  let transport: "http" | "sse" = config.transport === "sse" ? "sse" : "http";
  try {
    client = await open(config, transport, options);
  } catch (error) {
    const status = httpStatusOf(error);
    // Servers that only speak the 2024 HTTP+SSE transport answer a POST with 404 or 405.
    if (config.transport !== "auto" || (status !== 404 && status !== 405 && status !== 400)) throw error;
    transport = "sse";
    try {
      client = await open(config, "sse", options);
    } catch {
      throw error;
    }
  }
  return {
    transport,
    ...(client.serverInfo?.name && { serverName: client.serverInfo.name }),
    ...(typeof client.instructions === "string" && client.instructions.trim() && { instructions: client.instructions.trim() }),
    async listTools(signal) {
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      // Paged lists: follow the cursor, but not forever.
      for (let page = 0; page < 20; page++) {
        const result = await client.listTools({ ...(cursor && { params: { cursor } }), ...(signal && { options: { signal } }) });
        for (const tool of result.tools) tools.push({ name: tool.name, ...(tool.description && { description: tool.description }), inputSchema: tool.inputSchema as Record<string, unknown> });
        cursor = result.nextCursor;
        if (!cursor) break;
      }
      return tools;
    },
    async callTool(name, args, { signal, timeoutMs }) {
      const failed = new AbortController();
      const entry: InFlight = { name, args: JSON.stringify(args), fail: (reason) => failed.abort(reason) };
      inFlight.add(entry);
      try {
        return await Promise.race([
          client.callTool({ name, arguments: args, options: { signal: AbortSignal.any([signal, failed.signal]), timeout: timeoutMs } }),
          new Promise<never>((_, reject) => failed.signal.addEventListener("abort", () => reject(failed.signal.reason as Error), { once: true })),
        ]);
      } finally {
        inFlight.delete(entry);
      }
    },
    close: () => client.close().catch(() => undefined),
  };
}
