// Reasoning done right, over the real clients: the chat's level reaches each provider in its own
// form; across tool steps exactly what the provider needs goes back (OpenAI encrypted reasoning with
// store: false, Anthropic signed thinking, Gemini signatures) and unsigned reasoning does not; title
// calls send no option a reasoning model rejects.
import { afterEach, describe, expect, it } from "vitest";
import { callOptions, reasoningLevels } from "../../src/providers";
import { isTitleRequest, runPrompt, startRig, type StreamRig } from "./provider-streams-harness";

let rig: StreamRig | undefined;
afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

const READ_THEN_ANSWER = (signature?: string) => [
  { chunks: [{ type: "reasoning" as const, text: "Read a.txt first.", ...(signature && { signature }) }, { type: "tool-call" as const, name: "read", input: { filePath: "a.txt" } }] },
  { chunks: [{ type: "text" as const, text: "It says a." }] },
];

describe("the reasoning level per provider", () => {
  it("OpenAI Responses: effort as sent, store false, and the encrypted reasoning item goes back whole", async () => {
    rig = await startRig("openai", "gpt-5", READ_THEN_ANSWER("enc-reasoning-1"), { api: "responses", model: { capabilities: { tools: true, images: false, reasoning: true, temperature: false } } });
    await rig.runtime.fs.writeFile("a.txt", "a\n");
    const { error } = await runPrompt(rig, "What does a.txt say?", "high");
    expect(error).toBeUndefined();
    const [first, second] = rig.turnRequests().map((r) => r.body as Record<string, unknown>);
    expect(first).toMatchObject({ store: false, reasoning: { effort: "high" }, include: ["reasoning.encrypted_content"] });
    expect(first).not.toHaveProperty("temperature");
    const input = second!.input as Array<Record<string, unknown>>;
    const reasoning = input.filter((item) => item.type === "reasoning");
    expect(reasoning).toHaveLength(1);
    expect(reasoning[0]).toMatchObject({ encrypted_content: "enc-reasoning-1", summary: [{ type: "summary_text", text: "Read a.txt first." }] });
    expect(input.some((item) => item.type === "item_reference")).toBe(false);
    expect(rig.warnings).toEqual([]);
  });

  it("Anthropic: a thinking budget, no temperature while thinking, and the signed block goes back", async () => {
    rig = await startRig("anthropic", "claude-sonnet-4-5", READ_THEN_ANSWER("sig-1"), { model: { output: 64_000, capabilities: { tools: true, images: false, reasoning: true, temperature: true } } });
    await rig.runtime.fs.writeFile("a.txt", "a\n");
    const { error } = await runPrompt(rig, "What does a.txt say?", "medium");
    expect(error).toBeUndefined();
    const [first, second] = rig.turnRequests().map((r) => r.body as Record<string, unknown>);
    expect(first!.thinking).toMatchObject({ type: "enabled" });
    expect((first!.thinking as { budget_tokens: number }).budget_tokens).toBeGreaterThan(0);
    expect(first).not.toHaveProperty("temperature");
    const assistant = (second!.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>).find((m) => m.role === "assistant")!;
    expect(assistant.content[0]).toMatchObject({ type: "thinking", thinking: "Read a.txt first.", signature: "sig-1" });
  });

  it("Gemini 2.5: a thinking budget with thoughts included", async () => {
    rig = await startRig("google", "gemini-2.5-flash", [{ chunks: [{ type: "text", text: "ok" }] }]);
    const { error } = await runPrompt(rig, "hi", "low");
    expect(error).toBeUndefined();
    const body = rig.turnRequests()[0]!.body as { generationConfig: { thinkingConfig?: Record<string, unknown> } };
    expect(body.generationConfig.thinkingConfig).toMatchObject({ includeThoughts: true });
    expect(body.generationConfig.thinkingConfig?.thinkingBudget).toBeGreaterThan(0);
  });

  it("sends nothing about reasoning when the user chose no level", async () => {
    rig = await startRig("google", "gemini-2.5-flash", [{ chunks: [{ type: "text", text: "ok" }] }]);
    await runPrompt(rig, "hi");
    const body = rig.turnRequests()[0]!.body as { generationConfig?: { thinkingConfig?: unknown } };
    expect(body.generationConfig?.thinkingConfig).toBeUndefined();
  });
});

describe("what goes back across tool steps", () => {
  it("drops reasoning no provider signed (an OpenAI-compatible server's reasoning_content)", async () => {
    rig = await startRig("openai-compatible", "qwen3", READ_THEN_ANSWER());
    await rig.runtime.fs.writeFile("a.txt", "a\n");
    const { sessionId, error } = await runPrompt(rig, "What does a.txt say?");
    expect(error).toBeUndefined();
    expect((await rig.parts(sessionId)).some((p) => p.type === "reasoning" && p.text === "Read a.txt first.")).toBe(true);
    expect(JSON.stringify(rig.turnRequests()[1]!.body)).not.toContain("Read a.txt first.");
  });

  it("sends another model's reasoning and signatures nowhere (they belong to the model that wrote them)", async () => {
    rig = await startRig("anthropic", "claude-sonnet-4-5", [{ chunks: [{ type: "reasoning", text: "Secret plan.", signature: "sig-x" }, { type: "text", text: "Hello." }] }, { chunks: [{ type: "text", text: "Again." }] }]);
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "hi" });
    await rig.agent.prompt(session.id, { text: "again", model: { providerId: "p", modelId: "claude-haiku-4-5" } });
    await rig.agent.whenIdle();
    const second = JSON.stringify(rig.turnRequests()[1]!.body);
    expect(second).toContain("Hello.");
    expect(second).not.toContain("sig-x");
    expect(second).not.toContain("Secret plan.");
  });
});

describe("title calls", () => {
  it.each([
    ["openai", "gpt-5", "responses", { reasoning: { effort: "minimal" } }],
    ["openai", "o3", "responses", { reasoning: { effort: "low" } }],
    ["anthropic", "claude-haiku-4-5", undefined, { thinking: { type: "disabled" } }],
    ["google", "gemini-2.5-flash-lite", undefined, { generationConfig: { thinkingConfig: { thinkingBudget: 0 } } }],
    ["google", "gemini-3-pro-preview", undefined, { generationConfig: { thinkingConfig: { thinkingLevel: "low" } } }],
  ] as const)("to %s %s send no temperature, the least reasoning the model allows, and raise no AI SDK warning", async (kind, modelId, api, expected) => {
    rig = await startRig(kind, modelId, [{ chunks: [{ type: "text", text: "ok" }] }], {
      ...(api && { api }),
      smallModel: modelId,
      model: { capabilities: { tools: true, images: false, reasoning: true, temperature: false } },
    });
    await runPrompt(rig, "Name this session");
    const title = rig.server.modelRequests().find(isTitleRequest)!.body as Record<string, unknown>;
    expect(title).not.toHaveProperty("temperature");
    expect(title).toMatchObject(expected);
    expect(JSON.stringify(title)).not.toContain("includeThoughts");
    expect(rig.warnings).toEqual([]);
  });

  it("the options table: levels per family, sampling off while Anthropic thinks, no sampling for reasoning-only models", () => {
    const reasoningModel = (id: string, temperature = true) => ({ id, capabilities: { tools: true, images: false, reasoning: true, temperature } });
    expect(reasoningLevels({ kind: "openai" }, reasoningModel("gpt-5"))).toEqual(["off", "low", "medium", "high"]);
    expect(reasoningLevels({ kind: "openai" }, reasoningModel("o3"))).toEqual(["low", "medium", "high"]);
    expect(reasoningLevels({ kind: "google" }, reasoningModel("gemini-3-pro-preview"))).toEqual(["low", "medium", "high"]);
    expect(reasoningLevels({ kind: "google" }, { id: "gemini-2.0", capabilities: { tools: true, images: false, reasoning: false, temperature: true } })).toEqual([]);
    const anthropic = { kind: "anthropic" as const, id: "a" };
    expect(callOptions(anthropic, reasoningModel("claude-sonnet-4-5"), { purpose: "turn", effort: "high" })).toMatchObject({ reasoning: "high", sampling: false });
    expect(callOptions(anthropic, reasoningModel("claude-sonnet-4-5"), { purpose: "turn", effort: "off" })).toMatchObject({ reasoning: "none", sampling: true });
    expect(callOptions(anthropic, reasoningModel("claude-sonnet-4-5"), { purpose: "turn" })).toEqual({ sampling: true, providerToolResults: true, cacheBreakpoint: { anthropic: { cacheControl: { type: "ephemeral" } } } });
    expect(callOptions(anthropic, reasoningModel("claude-sonnet-4-5"), { purpose: "summary" })).toEqual({ reasoning: "none", sampling: true, providerToolResults: true });
    expect(callOptions({ kind: "openai", id: "o" }, reasoningModel("o3", false), { purpose: "summary" })).toMatchObject({
      reasoning: "low",
      sampling: false,
      providerOptions: { openai: { store: false } },
      providerToolResults: false,
    });
    expect(callOptions({ kind: "openai", api: "chat", id: "o" }, reasoningModel("o3", false), { purpose: "turn", effort: "off" })).toMatchObject({ reasoning: "low" });
  });
});
