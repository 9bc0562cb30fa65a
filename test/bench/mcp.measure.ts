// Benchmark: what one connected MCP server adds to the agent's first request (issue 14 point 4).
// A real MCP server (@modelcontextprotocol/sdk) on 127.0.0.1 with 20 tools; the agent's first
// request to the fake model server is measured without and with it, through the real loop, and
// with its initialize `instructions` (a typical short paragraph) in the system prompt.
import { it } from "vitest";
import { McpHub, createAgent } from "../../src/agent";
import { newId } from "../../src/base";
import { createProviderRegistry, type ProviderConfig } from "../../src/providers";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage } from "../../src/storage";
import { startFakeModelServer } from "../support/fake-model-server";
import { startMcpTestServer } from "../support/mcp-test-server";
import { report } from "./report";

const NOTE = "MCP server with 20 tools (14 fillers + 6 test tools) on 127.0.0.1; fake model server";
/** About what a real server says about itself (a short paragraph). */
const INSTRUCTIONS =
  "This server looks up items in the team's catalogue. Use filler_1 to filler_14 to read an item's fields by id; ids look like ABC-123. " +
  "Prefer one call with several fields over several calls. echo, image and resource are for testing. Results are read-only; nothing here changes data.";

it("measures the first request's bytes with and without one 20-tool MCP server", async () => {
  const mcp = await startMcpTestServer({ fillerTools: 14 });
  const described = await startMcpTestServer({ fillerTools: 14, instructions: INSTRUCTIONS });
  const model = await startFakeModelServer(() => ({ chunks: [{ type: "text", text: "ok" }] }));
  const sizes: number[] = [];
  const countingFetch: typeof fetch = async (input, init) => {
    const body = typeof init?.body === "string" ? init.body : "";
    if (body.includes('"tools"')) sizes.push(new TextEncoder().encode(body).length);
    return fetch(input, init);
  };
  const storage = await openStorage({ name: newId("bench-mcp") });
  const files = await WorkspaceFiles.open(storage, newId("ws"));
  await files.writeFile("README.md", "# Bench\n");
  const config: ProviderConfig = {
    id: "local",
    kind: "openai-compatible",
    name: "Local",
    baseUrl: model.url,
    models: [
      {
        id: "bench-model",
        name: "Bench model",
        providerId: "local",
        context: 128_000,
        output: 8_000,
        cost: { input: 0, output: 0 },
        capabilities: { tools: true, images: false, reasoning: false, temperature: true },
      },
    ],
  };
  const hub = new McpHub();
  let connected = false;
  const agent = createAgent({
    storage,
    runtime: createBrowserRuntime(files),
    providers: createProviderRegistry([config], { fetch: countingFetch }),
    defaultModel: () => ({ providerId: "local", modelId: "bench-model" }),
    extraTools: () => (connected ? hub.tools() : []),
    extraInstructions: () => (connected ? hub.instructions() : []),
  });
  const firstRequest = async () => {
    sizes.length = 0;
    const session = await agent.createSession();
    const result = await agent.prompt(session.id, { text: "Say ok." });
    await agent.whenIdle();
    if (result.error) throw new Error(result.error.message);
    return sizes[0]!;
  };
  const without = await firstRequest();
  hub.setServers([{ id: "bench", name: "bench", url: mcp.url, transport: "http", enabled: true, timeoutMs: 10_000, source: { kind: "user" } }]);
  for (let i = 0; i < 200 && hub.store.getState().servers.bench?.status !== "connected"; i++) await new Promise((r) => setTimeout(r, 50));
  const status = hub.store.getState().servers.bench;
  if (status?.status !== "connected" || status.tools.length !== 20) throw new Error(`the MCP server did not connect with 20 tools: ${JSON.stringify(status)}`);
  connected = true;
  const withServer = await firstRequest();
  hub.setServers([{ id: "bench", name: "bench", url: described.url, transport: "http", enabled: true, timeoutMs: 10_000, source: { kind: "user" } }]);
  for (let i = 0; i < 200 && hub.store.getState().servers.bench?.status !== "connected"; i++) await new Promise((r) => setTimeout(r, 50));
  if (hub.instructions().length !== 1) throw new Error("the MCP server's instructions did not arrive");
  const withInstructions = await firstRequest();
  report({ name: "agent first request, no MCP server", value: without, unit: "bytes", note: NOTE });
  report({ name: "agent first request, one 20-tool MCP server", value: withServer, unit: "bytes", note: NOTE });
  report({ name: "bytes added by the 20-tool MCP server", value: withServer - without, unit: "bytes", note: NOTE });
  report({ name: "agent first request, same server with instructions", value: withInstructions, unit: "bytes", note: `${NOTE}; ${INSTRUCTIONS.length}-character instructions` });
  report({ name: "bytes added by the server's instructions", value: withInstructions - withServer, unit: "bytes", note: NOTE });
  agent.dispose();
  hub.dispose();
  await mcp.close();
  await described.close();
  await model.close();
  storage.close();
}, 60_000);
