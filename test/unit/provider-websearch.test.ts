// Web search by the model's provider (issue 16): the request carries the provider's own search tool
// (OpenAI Responses web_search, Anthropic web_search, Gemini google_search) only when the user turned
// it on for that provider, through the real AI SDK clients against the fake server on 127.0.0.1; the
// `websearch` permission asks before the first request of a turn that would carry it (Allow once:
// that turn; Always: the session; Reject: the turn runs without it); a scripted search with results
// and citations is kept in the session as a provider tool and sources.
import { afterEach, describe, expect, it } from "vitest";
import { ruleset } from "../../src/agent";
import { createProviderRegistry, geminiMixesSearchWithTools, type ProviderKind } from "../../src/providers";
import type { FakeTurn, RecordedRequest } from "../support/fake-model-server";
import { modelInfo, startRig, type StreamRig } from "./provider-streams-harness";

let rig: StreamRig | undefined;
afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

const ALLOW_SEARCH = ruleset({ websearch: "allow" });
const ANSWER: FakeTurn = { chunks: [{ type: "text", text: "Done." }] };

type Case = { kind: ProviderKind; model: string; api?: "responses"; searchTool(tools: Array<Record<string, unknown>>): Record<string, unknown> | undefined };

const CASES: Case[] = [
  { kind: "openai", model: "gpt-5", api: "responses", searchTool: (tools) => tools.find((t) => t.type === "web_search") },
  { kind: "anthropic", model: "claude-sonnet-4-5", searchTool: (tools) => tools.find((t) => t.type === "web_search_20250305") },
  { kind: "google", model: "gemini-3-pro-preview", searchTool: (tools) => tools.find((t) => "googleSearch" in t) },
];

function requestTools(request: RecordedRequest): Array<Record<string, unknown>> {
  return ((request.body as { tools?: Array<Record<string, unknown>> }).tools ?? []).slice();
}

/** Whether webcode's own tools went too (the search is added, nothing replaced). */
function carriesReadTool(kind: ProviderKind, tools: Array<Record<string, unknown>>): boolean {
  if (kind === "google") return JSON.stringify(tools).includes('"name":"read"');
  return tools.some((t) => t.name === "read");
}

async function prompt(text: string, sessionId?: string) {
  const id = sessionId ?? (await rig!.agent.createSession()).id;
  const done = rig!.agent.prompt(id, { text });
  return { sessionId: id, done };
}

async function waitForAsk(sessionId: string) {
  for (let i = 0; i < 200; i++) {
    const pending = rig!.agent.pendingPermissions(sessionId);
    if (pending.length > 0) return pending[0]!;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("no permission was asked");
}

describe("provider web search in the request", () => {
  for (const c of CASES) {
    it(`${c.kind}: carries the search tool only when turned on for the provider`, async () => {
      rig = await startRig(c.kind, c.model, [ANSWER], { ...(c.api && { api: c.api }), userRules: ALLOW_SEARCH });
      const off = await prompt("Is Vite 8 out?");
      expect((await off.done).error).toBeUndefined();
      await rig.agent.whenIdle();
      const plain = requestTools(rig.turnRequests()[0]!);
      expect(carriesReadTool(c.kind, plain)).toBe(true);
      expect(c.searchTool(plain)).toBeUndefined();
      await rig.dispose();

      rig = await startRig(c.kind, c.model, [ANSWER], { ...(c.api && { api: c.api }), userRules: ALLOW_SEARCH, webSearch: true });
      const on = await prompt("Is Vite 8 out?");
      expect((await on.done).error).toBeUndefined();
      await rig.agent.whenIdle();
      const tools = requestTools(rig.turnRequests()[0]!);
      expect(c.searchTool(tools)).toBeDefined();
      expect(carriesReadTool(c.kind, tools)).toBe(true);
      expect(rig.warnings).toEqual([]);
    });
  }

  it("anthropic: limits the searches of one request", async () => {
    rig = await startRig("anthropic", "claude-sonnet-4-5", [ANSWER], { userRules: ALLOW_SEARCH, webSearch: true });
    await (await prompt("Search")).done;
    await rig.agent.whenIdle();
    expect(requestTools(rig.turnRequests()[0]!).find((t) => t.type === "web_search_20250305")).toMatchObject({ name: "web_search", max_uses: 5 });
  });

  it("is not offered where the provider has none, or where Gemini cannot combine it with tools", async () => {
    const base = { name: "P", apiKey: "k", webSearch: true, models: [] };
    const registry = createProviderRegistry([
      { ...base, id: "chat", kind: "openai", api: "chat" },
      { ...base, id: "router", kind: "openrouter" },
      { ...base, id: "local", kind: "openai-compatible", baseUrl: "http://127.0.0.1:1/v1" },
      { ...base, id: "gemini", kind: "google" },
      { ...base, id: "off", kind: "anthropic", webSearch: false },
    ]);
    for (const providerId of ["chat", "router", "local", "off"]) expect(await registry.webSearch!({ providerId, modelId: "m" })).toBeUndefined();
    expect(await registry.webSearch!({ providerId: "gemini", modelId: "gemini-2.5-flash" })).toBeUndefined();
    expect(Object.keys((await registry.webSearch!({ providerId: "gemini", modelId: "gemini-3-flash-preview" }))!.tools)).toEqual(["google_search"]);
    expect([geminiMixesSearchWithTools("gemini-2.0-flash"), geminiMixesSearchWithTools("models/gemini-3-pro"), geminiMixesSearchWithTools("gemini-pro")]).toEqual([false, true, false]);
  });
});

describe("the websearch permission", () => {
  it("asks by default before the first request of a turn; Allow once covers that turn's requests only", async () => {
    const toolCall: FakeTurn = { chunks: [{ type: "tool-call", name: "list", input: {} }] };
    rig = await startRig("openai", "gpt-5", [toolCall, ANSWER, ANSWER], { api: "responses", webSearch: true });
    const { sessionId, done } = await prompt("Look around, then search");
    const ask = await waitForAsk(sessionId);
    expect(ask).toMatchObject({ permission: "websearch", always: ["*"] });
    expect(String(ask.metadata.detail)).toMatch(/billed by Test openai per search/);
    // Nothing went to the provider before the answer.
    expect(rig.turnRequests()).toHaveLength(0);
    rig.agent.replyPermission(ask.id, "once");
    expect((await done).error).toBeUndefined();
    await rig.agent.whenIdle();
    // Both requests of the turn (the tool step and the answer) carry the search, asked once.
    expect(rig.turnRequests().map((r) => requestTools(r).some((t) => t.type === "web_search"))).toEqual([true, true]);

    // The next turn asks again.
    const next = await prompt("Again", sessionId);
    const again = await waitForAsk(sessionId);
    rig.agent.replyPermission(again.id, "once");
    await next.done;
    await rig.agent.whenIdle();
    expect(rig.turnRequests()).toHaveLength(3);
  });

  it("Reject runs the turn without the search; Always allow stops asking for the session", async () => {
    rig = await startRig("anthropic", "claude-sonnet-4-5", [ANSWER, ANSWER, ANSWER], { webSearch: true });
    const first = await prompt("Search something");
    rig.agent.replyPermission((await waitForAsk(first.sessionId)).id, "reject");
    const rejected = await first.done;
    await rig.agent.whenIdle();
    expect(rejected.error).toBeUndefined();
    expect(requestTools(rig.turnRequests()[0]!).some((t) => t.type === "web_search_20250305")).toBe(false);

    const second = await prompt("Search now", first.sessionId);
    rig.agent.replyPermission((await waitForAsk(first.sessionId)).id, "always");
    await second.done;
    await rig.agent.whenIdle();
    const third = await prompt("And again", first.sessionId);
    await third.done;
    await rig.agent.whenIdle();
    expect(rig.agent.pendingPermissions(first.sessionId)).toEqual([]);
    expect(rig.turnRequests().slice(1).map((r) => requestTools(r).some((t) => t.type === "web_search_20250305"))).toEqual([true, true]);
  });

  it("Stop while it asks sends nothing and leaves no empty reply", async () => {
    rig = await startRig("openai", "gpt-5", [ANSWER], { api: "responses", webSearch: true });
    const { sessionId, done } = await prompt("Search");
    await waitForAsk(sessionId);
    rig.agent.abort(sessionId);
    await done;
    await rig.agent.whenIdle();
    expect(rig.agent.pendingPermissions(sessionId)).toEqual([]);
    expect(rig.turnRequests()).toHaveLength(0);
    expect((await rig.agent.getMessages(sessionId)).map((m) => m.info.role)).toEqual(["user"]);
  });

  it("deny in the user's rules never offers it, and nothing asks", async () => {
    rig = await startRig("openai", "gpt-5", [ANSWER], { api: "responses", webSearch: true, userRules: ruleset({ websearch: "deny" }) });
    const { sessionId, done } = await prompt("Search");
    expect((await done).error).toBeUndefined();
    await rig.agent.whenIdle();
    expect(rig.agent.pendingPermissions(sessionId)).toEqual([]);
    expect(requestTools(rig.turnRequests()[0]!).some((t) => t.type === "web_search")).toBe(false);
  });
});

describe("a search the provider ran, with results and citations", () => {
  it("is kept in the session as the provider's tool with its results and the answer's sources", async () => {
    const URL = "https://vite.dev/blog/announcing-vite8";
    const ev = (data: Record<string, unknown>) => ({ event: String(data.type), data });
    const text = (index: number, value: string, citation?: Record<string, unknown>) => [
      ev({ type: "content_block_start", index, content_block: { type: "text", text: "", ...(citation && { citations: [] }) } }),
      ...(citation ? [ev({ type: "content_block_delta", index, delta: { type: "citations_delta", citation } })] : []),
      ev({ type: "content_block_delta", index, delta: { type: "text_delta", text: value } }),
      ev({ type: "content_block_stop", index }),
    ];
    const search: FakeTurn = {
      events: [
        ev({ type: "message_start", message: { id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 120, output_tokens: 1 } } }),
        ev({ type: "content_block_start", index: 0, content_block: { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: {} } }),
        ev({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"query": "vite 8 release"}' } }),
        ev({ type: "content_block_stop", index: 0 }),
        ev({
          type: "content_block_start",
          index: 1,
          content_block: {
            type: "web_search_tool_result",
            tool_use_id: "srvtoolu_01",
            content: [{ type: "web_search_result", title: "Announcing Vite 8", url: URL, encrypted_content: "enc-page-1", page_age: "2 days ago" }],
          },
        }),
        ev({ type: "content_block_stop", index: 1 }),
        ...text(2, "Vite 8 was released this week", { type: "web_search_result_location", cited_text: "Vite 8 is out", url: URL, title: "Announcing Vite 8", encrypted_index: "ei-1" }),
        ev({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 80, server_tool_use: { web_search_requests: 1 } } }),
        ev({ type: "message_stop" }),
      ],
    };
    rig = await startRig("anthropic", "claude-sonnet-4-5", [search], { webSearch: true, model: modelInfo("claude-sonnet-4-5", "p", { capabilities: { tools: true, images: false, reasoning: false, temperature: true } }) });
    const { sessionId, done } = await prompt("Is Vite 8 out?");
    rig.agent.replyPermission((await waitForAsk(sessionId)).id, "once");
    expect((await done).error).toBeUndefined();
    await rig.agent.whenIdle();
    // Kept in the session: read back from storage, not from memory.
    const parts = (await rig.agent.getMessages(sessionId)).filter((m) => m.info.role === "assistant").flatMap((m) => m.parts);
    const tool = parts.find((p) => p.type === "provider-tool");
    expect(tool?.type === "provider-tool" && [tool.tool, tool.state.status, tool.state.input]).toEqual(["web_search", "completed", { query: "vite 8 release" }]);
    expect(tool?.type === "provider-tool" && JSON.stringify(tool.state.output)).toContain(URL);
    expect(parts.filter((p) => p.type === "source").map((p) => (p.type === "source" ? [p.url, p.title] : []))).toEqual([[URL, "Announcing Vite 8"]]);
    expect(parts.filter((p) => p.type === "text").map((p) => (p.type === "text" ? p.text : "")).join("")).toBe("Vite 8 was released this week");
  });
});
