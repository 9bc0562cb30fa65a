// The page's MCP servers at run time: one connection per enabled server, made in the background
// when it is enabled, its tool list kept current (tools/list_changed), and its tools handed to
// the agents that may see them (the user's servers everywhere, a workspace's own only there).
// A server that drops is reconnected on its next call; when that fails the call's result says so.
import type { OAuthClientProvider } from "@ai-sdk/mcp";
import { createStore, type StoreApi } from "zustand/vanilla";
import { errorMessage } from "../../base";
import type { ToolDefinition } from "../tools/tool";
import { connectMcp, httpStatusOf, type McpConnection, type McpToolInfo } from "./mcp-connection";
import { formatServerInstructions } from "./mcp-instructions";
import { mcpTool } from "./mcp-tools";
import type { McpServerConfig } from "./server-config";

export type McpServerStatus =
  | { status: "disabled" }
  /** Its headers or OAuth tokens are sealed by the keys' passphrase, not given yet: it waits instead of connecting without them. */
  | { status: "locked" }
  | { status: "connecting" }
  | { status: "connected"; tools: McpToolInfo[]; transport: "http" | "sse"; instructions?: string }
  | { status: "error"; message: string };

export interface McpHubState {
  servers: Record<string, McpServerStatus>;
}

export interface McpHubOptions {
  fetch?: typeof fetch;
  /** The OAuth client for a server (none: the server gets no authorization flow). */
  authProvider?: (config: McpServerConfig) => OAuthClientProvider | undefined;
}

interface Entry {
  config: McpServerConfig;
  connection?: McpConnection;
  connecting?: Promise<McpConnection>;
  tools: ToolDefinition[];
  /** Bumped on every reconfiguration: late answers of an older connection are dropped. */
  generation: number;
  /** Bumped by each tool listing: an answer overtaken by a later listing waits for that one instead. */
  listings?: number;
  latestListing?: Promise<void>;
}

/**
 * What a connection depends on: a refreshed token is read by the live connection itself (no
 * reconnect), but signing in or out reconnects.
 */
function connectionKey(config: McpServerConfig): string {
  const oauth = config.secret?.oauth;
  return JSON.stringify({ ...config, secret: { headers: config.secret?.headers, signedIn: !!oauth?.tokens } });
}

export class McpHub {
  readonly store: StoreApi<McpHubState> = createStore<McpHubState>(() => ({ servers: {} }));
  private readonly entries = new Map<string, Entry>();
  private disposed = false;

  constructor(private readonly options: McpHubOptions = {}) {}

  /** Applies the configured servers: connects newly enabled or changed ones, closes the rest. */
  setServers(configs: readonly McpServerConfig[]): void {
    const wanted = new Map(configs.map((c) => [c.id, c]));
    for (const [id, entry] of [...this.entries]) {
      const next = wanted.get(id);
      if (!next || !next.enabled || next.sealed || connectionKey(next) !== connectionKey(entry.config)) this.drop(id);
    }
    for (const config of configs) {
      if (!config.enabled) {
        this.setStatus(config.id, { status: "disabled" });
        continue;
      }
      if (config.sealed) {
        this.setStatus(config.id, { status: "locked" });
        continue;
      }
      if (this.entries.has(config.id)) continue;
      this.entries.set(config.id, { config, tools: [], generation: 0 });
      void this.connect(config.id).catch(() => undefined);
    }
    const servers = { ...this.store.getState().servers };
    for (const id of Object.keys(servers)) if (!wanted.has(id)) delete servers[id];
    this.store.setState({ servers });
  }

  /** The tools an agent of `workspaceId` may offer: enabled, connected servers the workspace may see. */
  tools(workspaceId?: string): ToolDefinition[] {
    const out: ToolDefinition[] = [];
    for (const entry of this.entries.values()) {
      const { source } = entry.config;
      if (source.kind === "workspace" && source.workspaceId !== workspaceId) continue;
      out.push(...entry.tools);
    }
    return out;
  }

  /**
   * What each connected server says about itself (its initialize `instructions`), for the servers
   * an agent of `workspaceId` may use, framed for the system prompt (mcp-instructions.ts).
   */
  instructions(workspaceId?: string): string[] {
    const out: string[] = [];
    for (const entry of this.entries.values()) {
      const { source } = entry.config;
      if (source.kind === "workspace" && source.workspaceId !== workspaceId) continue;
      const text = entry.connection?.instructions;
      if (text && this.store.getState().servers[entry.config.id]?.status === "connected") out.push(formatServerInstructions(entry.config.name, text));
    }
    return out;
  }

  /** Connects again (the status line's Retry, or after signing in). */
  reconnect(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return Promise.resolve();
    void entry.connection?.close();
    delete entry.connection;
    delete entry.connecting;
    entry.generation++;
    return this.connect(id).then(() => undefined);
  }

  private setStatus(id: string, status: McpServerStatus): void {
    if (this.disposed) return;
    this.store.setState((state) => ({ servers: { ...state.servers, [id]: status } }));
  }

  private drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.generation++;
    this.entries.delete(id);
    void entry.connection?.close();
  }

  private connect(id: string): Promise<McpConnection> {
    const entry = this.entries.get(id);
    if (!entry) return Promise.reject(new Error("This MCP server is no longer configured."));
    if (entry.connection) return Promise.resolve(entry.connection);
    if (entry.connecting) return entry.connecting;
    const generation = entry.generation;
    const current = () => this.entries.get(id) === entry && entry.generation === generation && !this.disposed;
    this.setStatus(id, { status: "connecting" });
    const auth = this.options.authProvider?.(entry.config);
    entry.connecting = (async () => {
      try {
        const connection = await connectMcp(entry.config, {
          ...(this.options.fetch && { fetch: this.options.fetch }),
          ...(auth && { authProvider: auth }),
          onToolsChanged: () => {
            if (current() && entry.connection) void this.refreshTools(entry, entry.connection).catch(() => undefined);
          },
          // Errors the SDK reports outside a request (a refused GET stream for notifications, say)
          // do not end the connection; a call that fails does (see call()).
        });
        if (!current()) {
          void connection.close();
          throw new Error("The MCP server was reconfigured while connecting.");
        }
        entry.connection = connection;
        await this.refreshTools(entry, connection);
        return connection;
      } catch (error) {
        if (current()) {
          entry.tools = [];
          const status = httpStatusOf(error);
          const message =
            status === 401 || (error as { name?: unknown } | null)?.name === "McpSignInRequiredError"
              ? "Authorization required: edit the server and press Sign in, or add an Authorization header."
              : errorMessage(error);
          this.setStatus(id, { status: "error", message });
        }
        throw error;
      } finally {
        if (current()) delete entry.connecting;
      }
    })();
    return entry.connecting;
  }

  private refreshTools(entry: Entry, connection: McpConnection): Promise<void> {
    const listing = (entry.listings = (entry.listings ?? 0) + 1);
    const done = this.listTools(entry, connection, listing);
    entry.latestListing = done;
    return done;
  }

  private async listTools(entry: Entry, connection: McpConnection, listing: number): Promise<void> {
    const infos = await connection.listTools(AbortSignal.timeout(15_000));
    if (this.entries.get(entry.config.id) !== entry || entry.connection !== connection) return;
    if (entry.listings !== listing) return entry.latestListing;
    const name = entry.config.name;
    entry.tools = infos.map((info) =>
      mcpTool(name, info, {
        call: (tool, args, { signal }) => this.call(entry.config.id, tool, args, signal),
      }),
    );
    this.setStatus(entry.config.id, { status: "connected", tools: infos, transport: connection.transport, ...(connection.instructions && { instructions: connection.instructions }) });
  }

  private async call(id: string, tool: string, args: Record<string, unknown>, signal: AbortSignal) {
    const entry = this.entries.get(id);
    if (!entry) throw new Error("This MCP server was removed or disabled in Settings.");
    const connection = await this.connect(id);
    try {
      return await connection.callTool(tool, args, { signal, timeoutMs: entry.config.timeoutMs });
    } catch (error) {
      if (signal.aborted) throw error;
      // A dropped server: forget the connection so the next call connects anew.
      if (entry.connection === connection && /fetch|network|closed|broke|terminated|ECONN|HTTP 404/i.test(errorMessage(error))) {
        delete entry.connection;
        void connection.close();
        this.setStatus(id, { status: "error", message: `Disconnected: ${errorMessage(error)}` });
      }
      throw error;
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const id of [...this.entries.keys()]) this.drop(id);
  }
}
