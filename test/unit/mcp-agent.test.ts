// MCP tools inside a real agent turn (scripted model, real MCP server on 127.0.0.1): the model is
// offered `<server>_<tool>` with the server's schema, and a server that goes away mid-call gives
// the model an error result while the turn goes on.
import { afterEach, describe, expect, it } from "vitest";
import { McpHub, ruleset } from "../../src/agent";
import { startMcpTestServer, type McpTestServer } from "../support/mcp-test-server";
import { createRig, partsOf, ScriptedModel, text, titleModel, tools, type Rig } from "./agent-harness";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function rigWithServer(turns: ConstructorParameters<typeof ScriptedModel>[0]): Promise<{ rig: Rig; model: ScriptedModel; server: McpTestServer }> {
  const server = await startMcpTestServer({ slowMs: 20_000 });
  const hub = new McpHub();
  cleanups.push(() => server.close(), () => hub.dispose());
  hub.setServers([{ id: "s", name: "demo", url: server.url, transport: "http", enabled: true, timeoutMs: 20_000, source: { kind: "user" } }]);
  await expect.poll(() => hub.store.getState().servers.s?.status, { timeout: 10_000 }).toBe("connected");
  const model = new ScriptedModel(turns);
  const rig = await createRig({ models: { "fake-model": model, "fake-small": titleModel() }, deps: { extraTools: () => hub.tools(), userRules: () => ruleset({ mcp: "allow" }) } });
  cleanups.push(() => rig.dispose());
  return { rig, model, server };
}

describe("MCP tools in a turn", () => {
  it("offers the server's tools to the model and sends the result back", async () => {
    const { rig, model } = await rigWithServer([tools([{ name: "demo_echo", input: { text: "hi" } }]), text("done")]);
    const session = await rig.agent.createSession();
    const result = await rig.agent.prompt(session.id, { text: "echo" });
    expect(result.error).toBeUndefined();
    const offered = model.calls[0]!.tools?.find((t) => t.name === "demo_echo");
    expect(offered).toMatchObject({ type: "function", description: "Echoes the text back.", inputSchema: { type: "object", properties: { text: { type: "string" } } } });
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("echo: hi");
  });

  it("gives the model an error result when the server drops mid-call, and the turn goes on", async () => {
    const { rig, model, server } = await rigWithServer([tools([{ name: "demo_slow", input: {} }]), text("The server went away; moving on.")]);
    const session = await rig.agent.createSession();
    setTimeout(() => void server.close(), 500);
    const result = await rig.agent.prompt(session.id, { text: "run slow" });
    expect(result.error).toBeUndefined();
    const [part] = (await partsOf(rig.agent, session.id, "tool")) as Array<{ state: { status: string; error?: string } }>;
    expect(part!.state.status).toBe("error");
    expect(part!.state.error).toContain("The demo MCP server failed on slow");
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("The demo MCP server failed on slow");
    expect(model.calls).toHaveLength(2);
  }, 30_000);
});
