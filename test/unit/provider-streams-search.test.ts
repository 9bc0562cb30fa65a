// OpenAI Responses' web search and Gemini's grounding and code execution, from recorded-style wire
// events through the real clients: provider tools stored as such and not answered, the turn not
// continued, url citations and grounding chunks kept as sources, and the next request carrying
// each in the form its provider takes (OpenAI with store: false: as text, without SDK warnings).
import { afterEach, describe, expect, it } from "vitest";
import type { FakeTurn } from "../support/fake-model-server";
import { SEARCHED_URL, openAiSearchedTurn } from "../support/web-search-turns";
import { runPrompt, startRig, type StreamRig } from "./provider-streams-harness";

let rig: StreamRig | undefined;
afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

describe("OpenAI Responses web search", () => {
  it("is a provider tool with its query, its citation a source, and the finished turn is not continued", async () => {
    rig = await startRig("openai", "gpt-5", [openAiSearchedTurn(), { chunks: [{ type: "text", text: "Sure." }] }], { api: "responses" });
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
    expect(parts.filter((p) => p.type === "source").map((p) => (p.type === "source" ? [p.url, p.title] : []))).toEqual([[SEARCHED_URL, "Announcing Vite 8"]]);

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
                groundingChunks: [{ web: { uri: SEARCHED_URL, title: "vite.dev" } }, { web: { uri: SEARCHED_URL, title: "vite.dev" } }],
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
    expect(parts.filter((p) => p.type === "source").map((p) => (p.type === "source" ? p.url : ""))).toEqual([SEARCHED_URL]);
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
