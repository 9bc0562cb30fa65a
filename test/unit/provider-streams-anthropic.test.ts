// Anthropic Messages over the real client, from recorded-style wire events: a web search the
// provider ran itself (stored as a provider tool, never answered, the turn not continued), its
// citations (one answer, not one text part per citation block; sources kept once), and extended
// thinking whose signed blocks go back across tool steps.
import { afterEach, describe, expect, it } from "vitest";
import type { FakeTurn } from "../support/fake-model-server";
import { runPrompt, startRig, type StreamRig } from "./provider-streams-harness";

let rig: StreamRig | undefined;
afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

type Event = { event: string; data: Record<string, unknown> };
const ev = (data: Record<string, unknown>): Event => ({ event: String(data.type), data });

function message(blocks: Event[][], stopReason: string): FakeTurn {
  const events: Event[] = [
    ev({
      type: "message_start",
      message: { id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 120, output_tokens: 1 } },
    }),
  ];
  blocks.forEach((block) => events.push(...block));
  events.push(ev({ type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 80, server_tool_use: { web_search_requests: 1 } } }));
  events.push(ev({ type: "message_stop" }));
  return { events };
}

function textBlock(index: number, text: string, citation?: Record<string, unknown>): Event[] {
  return [
    ev({ type: "content_block_start", index, content_block: { type: "text", text: "", ...(citation && { citations: [] }) } }),
    ...(citation ? [ev({ type: "content_block_delta", index, delta: { type: "citations_delta", citation } })] : []),
    ev({ type: "content_block_delta", index, delta: { type: "text_delta", text } }),
    ev({ type: "content_block_stop", index }),
  ];
}

const URL = "https://vite.dev/blog/announcing-vite8";

const SEARCH_TURN = message(
  [
    textBlock(0, "Let me look that up."),
    [
      ev({ type: "content_block_start", index: 1, content_block: { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: {} } }),
      ev({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"query": "vite 8 release"}' } }),
      ev({ type: "content_block_stop", index: 1 }),
    ],
    [
      ev({
        type: "content_block_start",
        index: 2,
        content_block: {
          type: "web_search_tool_result",
          tool_use_id: "srvtoolu_01",
          content: [{ type: "web_search_result", title: "Announcing Vite 8", url: URL, encrypted_content: "enc-page-1", page_age: "2 days ago" }],
        },
      }),
      ev({ type: "content_block_stop", index: 2 }),
    ],
    textBlock(3, "Vite 8 "),
    textBlock(4, "was released this week", { type: "web_search_result_location", cited_text: "Vite 8 is out", url: URL, title: "Announcing Vite 8", encrypted_index: "ei-1" }),
    textBlock(5, "."),
  ],
  "end_turn",
);

describe("Anthropic provider-executed web search", () => {
  it("stores the search as a provider tool, does not answer it or ask the model again, keeps one answer and its source", async () => {
    rig = await startRig("anthropic", "claude-sonnet-4-5", [SEARCH_TURN, { chunks: [{ type: "text", text: "You are welcome." }] }]);
    const { sessionId, error } = await runPrompt(rig, "Is Vite 8 out?");
    expect(error).toBeUndefined();
    // The model had finished: one request, not a second "the model called tools" round.
    expect(rig.turnRequests()).toHaveLength(1);

    const messages = await rig.agent.getMessages(sessionId);
    const reply = messages.find((m) => m.info.role === "assistant")!;
    expect(reply.info.role === "assistant" && reply.info.finish).toBe("stop");
    const parts = reply.parts;
    expect(parts.some((p) => p.type === "tool")).toBe(false);
    const search = parts.find((p) => p.type === "provider-tool");
    expect(search?.type === "provider-tool" && search.tool).toBe("web_search");
    expect(search?.type === "provider-tool" && search.state.status).toBe("completed");
    expect(search?.type === "provider-tool" && search.state.input).toEqual({ query: "vite 8 release" });
    expect(JSON.stringify(search?.type === "provider-tool" && search.state.output)).toContain(URL);

    const texts = parts.filter((p) => p.type === "text").map((p) => (p.type === "text" ? p.text : ""));
    expect(texts).toEqual(["Let me look that up.", "Vite 8 was released this week."]);
    const sources = parts.filter((p) => p.type === "source");
    expect(sources.map((p) => (p.type === "source" ? [p.url, p.title] : []))).toEqual([[URL, "Announcing Vite 8"]]);

    // The next prompt sends the search back as Anthropic's own blocks, with no tool_result for it.
    await rig.agent.prompt(sessionId, { text: "Thanks" });
    await rig.agent.whenIdle();
    const next = rig.turnRequests()[1]!.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> | string }> };
    const assistant = next.messages.find((m) => m.role === "assistant")!;
    const blocks = assistant.content as Array<Record<string, unknown>>;
    expect(blocks.map((b) => b.type)).toEqual(["text", "server_tool_use", "web_search_tool_result", "text"]);
    expect(blocks[1]).toMatchObject({ id: "srvtoolu_01", name: "web_search", input: { query: "vite 8 release" } });
    expect(JSON.stringify(blocks[2])).toContain("enc-page-1");
    expect(JSON.stringify(next.messages)).not.toContain('"tool_result"');
  });
});

describe("Anthropic pausing a turn of its own tools", () => {
  it("sends the paused reply back as is and lets the model finish, without a tool result", async () => {
    const paused = message(
      [
        [
          ev({ type: "content_block_start", index: 0, content_block: { type: "server_tool_use", id: "srvtoolu_02", name: "web_search", input: {} } }),
          ev({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"query": "vite 8"}' } }),
          ev({ type: "content_block_stop", index: 0 }),
        ],
        [
          ev({ type: "content_block_start", index: 1, content_block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_02", content: [{ type: "web_search_result", title: "Vite", url: URL, encrypted_content: "enc-2", page_age: null }] } }),
          ev({ type: "content_block_stop", index: 1 }),
        ],
      ],
      "pause_turn",
    );
    rig = await startRig("anthropic", "claude-sonnet-4-5", [paused, { chunks: [{ type: "text", text: "Vite 8 is out." }] }]);
    const { sessionId, error } = await runPrompt(rig, "Is Vite 8 out?");
    expect(error).toBeUndefined();
    const requests = rig.turnRequests();
    expect(requests).toHaveLength(2);
    const second = requests[1]!.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> | string }> };
    const last = second.messages.at(-1)!;
    expect(last.role).toBe("assistant");
    expect((last.content as Array<Record<string, unknown>>).map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result"]);
    expect(JSON.stringify(second.messages)).not.toContain('"tool_result"');
    const replies = (await rig.agent.getMessages(sessionId)).filter((m) => m.info.role === "assistant");
    expect(replies.map((m) => m.info.role === "assistant" && m.info.finish)).toEqual(["paused", "stop"]);
  });
});

describe("Anthropic extended thinking across tool steps", () => {
  it("sends the signed thinking block back with the tool call it preceded", async () => {
    rig = await startRig("anthropic", "claude-sonnet-4-5", [
      { chunks: [{ type: "reasoning", text: "Read the file.", signature: "sig-anthropic-1" }, { type: "tool-call", name: "read", input: { filePath: "a.txt" } }] },
      { chunks: [{ type: "text", text: "It says a." }] },
    ]);
    await rig.runtime.fs.writeFile("a.txt", "a\n");
    const { error } = await runPrompt(rig, "What does a.txt say?");
    expect(error).toBeUndefined();
    const second = rig.turnRequests()[1]!.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    const assistant = second.messages.find((m) => m.role === "assistant")!;
    expect(assistant.content.map((b) => b.type)).toEqual(["thinking", "tool_use"]);
    expect(assistant.content[0]).toMatchObject({ thinking: "Read the file.", signature: "sig-anthropic-1" });
    expect(rig.warnings).toEqual([]);
  });
});

describe("a refusal", () => {
  it.each([
    ["anthropic", "claude-sonnet-4-5", undefined],
    ["openai", "gpt-4.1", "chat"],
    ["google", "gemini-2.5-flash", undefined],
  ] as const)("ends the %s reply as content-filter (shown as a refusal), without error or another request", async (kind, modelId, api) => {
    rig = await startRig(kind, modelId, [{ chunks: [], finish: "content-filter" }], api ? { api } : {});
    const { sessionId, error } = await runPrompt(rig, "Something the model declines");
    expect(error).toBeUndefined();
    const reply = (await rig.agent.getMessages(sessionId)).find((m) => m.info.role === "assistant")!;
    expect(reply.info.role === "assistant" && [reply.info.finish, reply.info.error]).toEqual(["content-filter", undefined]);
    expect(rig.turnRequests()).toHaveLength(1);
  });
});
