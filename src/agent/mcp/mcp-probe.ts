// The Settings "Test" button for an MCP server: connects once and tells apart a server that is
// unreachable, one the browser may not read (CORS, with what the server must allow), one that
// wants authorization, one that does not speak MCP, and success with its tool count.
import { MCPClientOAuthError, UnauthorizedError, type OAuthClientProvider } from "@ai-sdk/mcp";
import { errorMessage } from "../../base";
import { connectMcp, httpStatusOf } from "./mcp-connection";
import type { McpServerConfig } from "./server-config";

export type McpProbeResult =
  | { ok: true; kind: "connected"; tools: number; transport: "http" | "sse"; message: string }
  | { ok: false; kind: "unreachable" | "cors" | "auth" | "protocol"; message: string };

export interface McpProbeOptions {
  fetch?: typeof fetch;
  /** The page's origin, named in the CORS advice. */
  origin?: string;
  authProvider?: OAuthClientProvider;
  timeoutMs?: number;
}

/** What a server must send for a page to talk MCP to it. */
export function mcpCorsAdvice(origin: string | undefined): string {
  const page = origin ?? "this page's origin";
  return (
    `The server must answer with Access-Control-Allow-Origin: ${page} (or *), allow the methods GET, POST and DELETE, ` +
    "allow the request headers Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version and Last-Event-ID " +
    "(plus any header you added here), and send Access-Control-Expose-Headers: Mcp-Session-Id so the page can read the session id."
  );
}

function isNetworkFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof TypeError) return true;
  }
  return false;
}

/** Connects once, lists the tools, closes. Never throws. */
export async function probeMcpServer(config: McpServerConfig, options: McpProbeOptions = {}): Promise<McpProbeResult> {
  const base = options.fetch ?? globalThis.fetch.bind(globalThis);
  // fetch rejects with a TypeError both for "blocked by CORS" and "nothing listening": recorded here
  // and told apart below with an opaque request.
  let networkError: unknown;
  let sawResponse = false;
  const recording: typeof fetch = async (input, init) => {
    try {
      const response = await base(input, init);
      sawResponse = true;
      return response;
    } catch (error) {
      if (!(init?.signal?.aborted ?? false)) networkError ??= error;
      throw error;
    }
  };
  let connection: Awaited<ReturnType<typeof connectMcp>> | undefined;
  try {
    connection = await connectMcp(config, { fetch: recording, ...(options.authProvider && { authProvider: options.authProvider }), ...(options.timeoutMs && { timeoutMs: options.timeoutMs }) });
    const tools = await connection.listTools(AbortSignal.timeout(options.timeoutMs ?? 15_000));
    return {
      ok: true,
      kind: "connected",
      tools: tools.length,
      transport: connection.transport,
      message: `Connected${connection.transport === "sse" ? " (SSE)" : ""}: ${tools.length} tool${tools.length === 1 ? "" : "s"}.`,
    };
  } catch (error) {
    return diagnose(error, config, { networkError, sawResponse, fetch: base, origin: options.origin, hasAuth: !!options.authProvider });
  } finally {
    await connection?.close();
  }
}

async function diagnose(
  error: unknown,
  config: McpServerConfig,
  seen: { networkError: unknown; sawResponse: boolean; fetch: typeof fetch; origin: string | undefined; hasAuth: boolean },
): Promise<McpProbeResult> {
  const status = httpStatusOf(error);
  const signInNeeded = (error as { name?: unknown } | null)?.name === "McpSignInRequiredError" || MCPClientOAuthError.isInstance(error);
  if (error instanceof UnauthorizedError || signInNeeded || status === 401 || status === 403) {
    return {
      ok: false,
      kind: "auth",
      message: `Authorization required: ${config.name} refused the request (HTTP ${status ?? 401}). ${
        seen.hasAuth ? "Press “Sign in” to authorize webcode, or add a header such as Authorization: Bearer <token>." : "Add a header such as Authorization: Bearer <token>, or press “Sign in” if the server supports OAuth."
      }`,
    };
  }
  if ((seen.networkError || isNetworkFailure(error)) && !seen.sawResponse) {
    let up = false;
    try {
      await seen.fetch(config.url, { method: "GET", mode: "no-cors", signal: AbortSignal.timeout(10_000) });
      up = true;
    } catch {
      up = false;
    }
    if (up) return { ok: false, kind: "cors", message: `Blocked by the browser (CORS): ${config.name} answered, but does not allow this page to read its answers. ${mcpCorsAdvice(seen.origin)}` };
    return { ok: false, kind: "unreachable", message: `Server unreachable: nothing answered at ${config.url} (${errorMessage(seen.networkError ?? error)}). Check the URL and that the server is running.` };
  }
  const text = errorMessage(error);
  if (status === 400 && /session|not initialized/i.test(text)) {
    // The server made a session but the page could not read its id (the header is not exposed), so
    // the next request came without it: "no valid session ID" or "server not initialized".
    return { ok: false, kind: "cors", message: `Blocked by the browser (CORS): the page cannot read the Mcp-Session-Id header of ${config.name}. ${mcpCorsAdvice(seen.origin)}` };
  }
  return { ok: false, kind: "protocol", message: `Protocol error: ${config.name} answered, but not as an MCP server webcode can use (${text.slice(0, 300)}). Check that the URL is the server's MCP endpoint.` };
}
