// The MCP client side against a real MCP server (@modelcontextprotocol/sdk) on 127.0.0.1: the Test
// button's outcomes, tools as `<server>_<tool>` with schema, results (text, image, resource, error),
// tools/list_changed, Stop, timeout and a server that drops mid-call.
import { afterEach, describe, expect, it } from "vitest";
import { McpHub, probeMcpServer, type McpServerConfig } from "../../src/agent/mcp";
import type { PermissionRequest, ToolContext } from "../../src/agent/tools/tool";
import { RED_PIXEL_PNG, startMcpTestServer, type McpTestServer } from "../support/mcp-test-server";

/** Only what MCP tools use: ask and the abort signal. */
function createToolContext(over: { ask?: (request: PermissionRequest) => Promise<void>; abort?: AbortSignal } = {}): ToolContext {
  return { ask: over.ask ?? (async () => undefined), abort: over.abort ?? new AbortController().signal } as unknown as ToolContext;
}

const servers: McpTestServer[] = [];
const hubs: McpHub[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) hub.dispose();
  for (const server of servers.splice(0)) await server.close();
});

async function start(options?: Parameters<typeof startMcpTestServer>[0]): Promise<McpTestServer> {
  const server = await startMcpTestServer(options);
  servers.push(server);
  return server;
}

function config(url: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { id: "srv1", name: "test", url, transport: "auto", enabled: true, timeoutMs: 10_000, source: { kind: "user" }, ...extra };
}

async function connectedHub(server: McpTestServer, extra: Partial<McpServerConfig> = {}): Promise<McpHub> {
  const hub = new McpHub();
  hubs.push(hub);
  hub.setServers([config(server.url, extra)]);
  await expect.poll(() => hub.store.getState().servers.srv1?.status, { timeout: 10_000 }).toBe("connected");
  return hub;
}

describe("probeMcpServer (the Test button)", () => {
  it("reports connected with the tool count", async () => {
    const server = await start();
    const result = await probeMcpServer(config(server.url));
    expect(result).toMatchObject({ ok: true, kind: "connected", tools: 6 });
    expect(result.message).toContain("6 tools");
  });

  it("tells an unreachable server from one that wants authorization or does not speak MCP", async () => {
    const closed = await start();
    const url = closed.url;
    await closed.close();
    servers.splice(servers.indexOf(closed), 1);
    expect((await probeMcpServer(config(url))).kind).toBe("unreachable");

    const locked = await start({ bearer: "s3cret" });
    const auth = await probeMcpServer(config(locked.url));
    expect(auth.kind).toBe("auth");
    expect(auth.message).toContain("Authorization required");
    const withHeader = await probeMcpServer(config(locked.url, { secret: { headers: { Authorization: "Bearer s3cret" } } }));
    expect(withHeader.ok).toBe(true);

    const notMcp = await start();
    const wrong = await probeMcpServer(config(notMcp.origin + "/not-mcp", { transport: "http" }));
    expect(wrong.ok).toBe(false);
  });
});

describe("transports", () => {
  it("falls back to SSE for a server that only speaks the older HTTP+SSE transport", async () => {
    const server = await start({ legacySse: true });
    const result = await probeMcpServer(config(server.url));
    expect(result).toMatchObject({ ok: true, transport: "sse", tools: 6 });
    expect(result.message).toBe("Connected (SSE): 6 tools.");
    const hub = await connectedHub(server);
    expect((await hub.tools().find((t) => t.id === "test_echo")!.execute({ text: "old" }, createToolContext())).output).toBe("echo: old");
    // Asked for Streamable HTTP only, it does not fall back.
    expect((await probeMcpServer(config(server.url, { transport: "http" }))).ok).toBe(false);
  });
});

describe("McpHub tools", () => {
  it("offers each tool as <server>_<tool> with the server's JSON schema and asks the mcp permission", async () => {
    const server = await start();
    const hub = await connectedHub(server);
    const tools = hub.tools();
    expect(tools.map((t) => t.id).sort()).toEqual(["test_add_tool", "test_echo", "test_fail", "test_image", "test_resource", "test_slow"]);
    const echo = tools.find((t) => t.id === "test_echo")!;
    expect(echo.description).toBe("Echoes the text back.");
    expect(echo.inputJsonSchema).toMatchObject({ type: "object", properties: { text: { type: "string", description: "What to echo" } }, required: ["text"] });
    const asks: unknown[] = [];
    const context = createToolContext({ ask: async (request) => void asks.push(request) });
    const result = await echo.execute({ text: "hi" }, context);
    expect(result.output).toBe("echo: hi");
    expect(asks).toEqual([expect.objectContaining({ permission: "mcp", patterns: ["test_echo"], always: ["test_echo"] })]);
    expect(server.calls).toEqual([{ tool: "echo", args: { text: "hi" } }]);
  });

  it("turns images into attachments, embedded resources into text, and isError into a failed call", async () => {
    const server = await start();
    const hub = await connectedHub(server);
    const byId = (id: string) => hub.tools().find((t) => t.id === id)!;
    const context = createToolContext();
    const image = await byId("test_image").execute({}, context);
    expect(image.attachments).toEqual([{ mime: "image/png", filename: "test_image-2.png", url: `data:image/png;base64,${RED_PIXEL_PNG}` }]);
    expect(image.output).toContain("a red pixel");
    const resource = await byId("test_resource").execute({}, context);
    expect(resource.output).toContain('<resource uri="memo://notes/today" mimeType="text/plain">\nBuy milk.');
    await expect(byId("test_fail").execute({}, context)).rejects.toThrow("returned an error: the failure you asked for");
  });

  it("gives a workspace's own server only to that workspace's agents, and nothing while disabled", async () => {
    const server = await start();
    const hub = await connectedHub(server, { source: { kind: "workspace", workspaceId: "ws1", file: "opencode.json" } });
    expect(hub.tools("ws1")).toHaveLength(6);
    expect(hub.tools("ws2")).toEqual([]);
    expect(hub.tools()).toEqual([]);
    const requestsBefore = server.requests.length;
    hub.setServers([config(server.url, { enabled: false })]);
    expect(hub.store.getState().servers.srv1).toEqual({ status: "disabled" });
    expect(hub.tools("ws1")).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    // Closing sends at most the session's DELETE; nothing else reaches a disabled server.
    expect(server.requests.slice(requestsBefore).every((r) => r.method === "DELETE")).toBe(true);
  });

  it("refreshes the tool list when the server says it changed", async () => {
    const server = await start();
    const hub = await connectedHub(server);
    await hub.tools().find((t) => t.id === "test_add_tool")!.execute({ name: "fresh" }, createToolContext());
    await expect.poll(() => hub.tools().map((t) => t.id), { timeout: 10_000 }).toContain("test_fresh");
  });

  it("a tool listing overtaken by a newer one does not put its older list back", async () => {
    const server = await start();
    // Holds the answer to the next tools/list once armed (it has left the server: it lists what was there then).
    let arm = false;
    let release!: () => void;
    let held = false;
    const holdingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = typeof init?.body === "string" ? init.body : "";
      if (arm && body.includes('"tools/list"')) {
        arm = false;
        held = true;
        await new Promise<void>((resolve) => (release = resolve));
      }
      return response;
    };
    const hub = new McpHub({ fetch: holdingFetch });
    hubs.push(hub);
    hub.setServers([config(server.url)]);
    await expect.poll(() => hub.store.getState().servers.srv1?.status, { timeout: 10_000 }).toBe("connected");
    const addTool = (name: string) => hub.tools().find((t) => t.id === "test_add_tool")!.execute({ name }, createToolContext());

    arm = true;
    await addTool("first"); // its listing is held
    await expect.poll(() => held, { timeout: 10_000 }).toBe(true);
    await addTool("second"); // a newer listing, answered at once
    await expect.poll(() => hub.tools().map((t) => t.id), { timeout: 10_000 }).toContain("test_second");
    release();
    await new Promise((r) => setTimeout(r, 200));
    expect(hub.tools().map((t) => t.id)).toEqual(expect.arrayContaining(["test_first", "test_second"]));
  });

  it("refreshes the tool list on the older SSE transport too, and only on tools/list_changed", async () => {
    const server = await start({ legacySse: true });
    const hub = await connectedHub(server);
    const lists = () => server.requests.length;
    const before = lists();
    await hub.tools().find((t) => t.id === "test_echo")!.execute({ text: "no change" }, createToolContext());
    await new Promise((r) => setTimeout(r, 300));
    // An ordinary call lists nothing again.
    expect(hub.tools().map((t) => t.id)).not.toContain("test_late");
    expect(lists() - before).toBe(1);
    await hub.tools().find((t) => t.id === "test_add_tool")!.execute({ name: "late" }, createToolContext());
    await expect.poll(() => hub.tools().map((t) => t.id), { timeout: 10_000 }).toContain("test_late");
  });

  it("honours Stop and the timeout, and a server that drops mid-call fails the call without hanging", async () => {
    const server = await start({ slowMs: 30_000 });
    const hub = await connectedHub(server, { timeoutMs: 500 });
    const slow = () => hub.tools().find((t) => t.id === "test_slow")!;
    const started = Date.now();
    await expect(slow().execute({}, createToolContext())).rejects.toThrow(/time/i);
    expect(Date.now() - started).toBeLessThan(5_000);

    const controller = new AbortController();
    const running = slow().execute({ ms: 30_000 }, createToolContext({ abort: controller.signal }));
    setTimeout(() => controller.abort(), 200);
    await expect(running).rejects.toThrow();

    const hub2 = await connectedHub(server, { id: "srv1", timeoutMs: 20_000 });
    const call = hub2.tools().find((t) => t.id === "test_slow")!.execute({ ms: 20_000 }, createToolContext());
    const dropped = Date.now();
    setTimeout(() => void server.close(), 300);
    await expect(call).rejects.toThrow(/test MCP server failed on slow/);
    expect(Date.now() - dropped).toBeLessThan(10_000);
  }, 30_000);
});
