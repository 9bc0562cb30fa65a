// OpenAI Responses' web search and Gemini's grounding and code execution, from recorded-style wire
// events through the real clients: provider tools stored as such and not answered, the turn not
// continued, url citations and grounding chunks kept as sources, and the next request carrying
// each in the form its provider takes (OpenAI with store: false: as text, without SDK warnings).
import { afterEach, describe, expect, it } from "vitest";
import type { FakeTurn } from "../support/fake-model-server";
import { runPrompt, startRig, type StreamRig } from "./provider-streams-harness";

let rig: StreamRig | undefined;
afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

const URL = "https://vite.dev/blog/announcing-vite8";

function responsesTurn(): FakeTurn {
  let sequence = 0;
  const ev = (data: Record<string, unknown>) => ({ event: String(data.type), data: { ...data, sequence_number: sequence++ } });
  const base = { id: "resp_1", object: "response", created_at: 1_700_000_000, model: "gpt-5", output: [] };
  const search = { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "vite 8 release" } };
  const annotation = { type: "url_citation", start_index: 0, end_index: 14, url: URL, title: "Announcing Vite 8" };
  const message = { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Vite 8 is out.", annotations: [annotation] }] };
  return {
    events: [
      ev({ type: "response.created", response: { ...base, status: "in_progress" } }),
      ev({ type: "response.output_item.added", output_index: 0, item: { type: "web_search_call", id: "ws_1", status: "in_progress" } }),
      ev({ type: "response.web_search_call.in_progress", output_index: 0, item_id: "ws_1" }),
      ev({ type: "response.web_search_call.completed", output_index: 0, item_id: "ws_1" }),
      ev({ type: "response.output_item.done", output_index: 0, item: search }),
      ev({ type: "response.output_item.added", output_index: 1, item: { ...message, status: "in_progress", content: [] } }),
      ev({ type: "response.content_part.added", item_id: "msg_1", output_index: 1, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
      ev({ type: "response.output_text.delta", item_id: "msg_1", output_index: 1, content_index: 0, delta: "Vite 8 is out.", logprobs: [] }),
      ev({ type: "response.output_text.annotation.added", item_id: "msg_1", output_index: 1, content_index: 0, annotation_index: 0, annotation }),
      ev({ type: "response.output_text.done", item_id: "msg_1", output_index: 1, content_index: 0, text: "Vite 8 is out.", logprobs: [] }),
      ev({ type: "response.output_item.done", output_index: 1, item: message }),
      ev({
        type: "response.completed",
        response: {
          ...base,
          status: "completed",
          output: [search, message],
          usage: { input_tokens: 300, input_tokens_details: { cached_tokens: 0 }, output_tokens: 40, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 340 },
        },
      }),
    ],
  };
}

describe("OpenAI Responses web search", () => {
  it("is a provider tool with its query, its citation a source, and the finished turn is not continued", async () => {
    rig = await startRig("openai", "gpt-5", [responsesTurn(), { chunks: [{ type: "text", text: "Sure." }] }], { api: "responses" });
    const { sessionId, error } = await runPrompt(rig, "Is Vite 8 out?");
    expect(error).toBeUndefined();
    expect(rig.turnRequests()).toHaveLength(1);
    const parts = await rig.parts(sessionId);
    expect(parts.some((p) => p.type === "tool")).toBe(false);
    const search = parts.find((p) => p.type === "provider-tool");
    expect(search?.type === "provider-tool" && [search.tool, search.state.status, search.state.output]).toEqual([
      "web_search",
      "completed",
      { action: { type: "search", query: "vite 8 release" } },
    ]);
    expect(parts.filter((p) => p.type === "source").map((p) => (p.type === "source" ? [p.url, p.title] : []))).toEqual([[URL, "Announcing Vite 8"]]);

    // store: false: OpenAI takes no provider tool items back; the search goes as text, no warning.
    await rig.agent.prompt(sessionId, { text: "Thanks" });
    await rig.agent.whenIdle();
    const input = (rig.turnRequests()[1]!.body as { input: Array<Record<string, unknown>> }).input;
    expect(input.some((item) => item.type === "web_search_call" || item.type === "item_reference")).toBe(false);
    expect(JSON.stringify(input)).toContain("vite 8 release");
    expect(rig.warnings).toEqual([]);
  });
});

describe("Gemini grounding and code execution", () => {
  const grounded: FakeTurn = {
    events: [
      { data: { candidates: [{ content: { role: "model", parts: [{ text: "Vite 8 is out." }] }, index: 0 }] } },
      {
        data: {
          candidates: [
            {
              content: { role: "model", parts: [{ executableCode: { language: "PYTHON", code: "print(8)" } }, { codeExecutionResult: { outcome: "OUTCOME_OK", output: "8\n" } }] },
              finishReason: "STOP",
              index: 0,
              groundingMetadata: {
                webSearchQueries: ["vite 8 release"],
                groundingChunks: [{ web: { uri: URL, title: "vite.dev" } }, { web: { uri: URL, title: "vite.dev" } }],
              },
            },
          ],
          usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
        },
      },
    ],
  };

  it("keeps grounding chunks as one source each and the code run as a provider tool sent back as Gemini's own parts", async () => {
    rig = await startRig("google", "gemini-2.5-flash", [grounded, { chunks: [{ type: "text", text: "Sure." }] }]);
    const { sessionId, error } = await runPrompt(rig, "Is Vite 8 out?");
    expect(error).toBeUndefined();
    expect(rig.turnRequests()).toHaveLength(1);
    const parts = await rig.parts(sessionId);
    expect(parts.filter((p) => p.type === "source").map((p) => (p.type === "source" ? p.url : ""))).toEqual([URL]);
    const code = parts.find((p) => p.type === "provider-tool");
    expect(code?.type === "provider-tool" && [code.tool, code.state.status]).toEqual(["code_execution", "completed"]);

    await rig.agent.prompt(sessionId, { text: "Thanks" });
    await rig.agent.whenIdle();
    const contents = (rig.turnRequests()[1]!.body as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> }).contents;
    const model = contents.find((c) => c.role === "model")!;
    expect(model.parts.map((p) => Object.keys(p).filter((k) => k !== "thoughtSignature")[0])).toEqual(["text", "executableCode", "codeExecutionResult"]);
    expect(model.parts[1]).toMatchObject({ executableCode: { code: "print(8)" } });
    expect(rig.warnings).toEqual([]);
  });
});
