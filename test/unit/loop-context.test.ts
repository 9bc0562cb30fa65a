// Context management (docs/agent.md, "Context" and "Titles"): automatic compaction on overflow (by usage and by provider
// error), manual compaction, what the model sees afterwards, prune, and titles.
import { afterEach, describe, expect, it } from "vitest";
import { CLEARED_TOOL_OUTPUT } from "../../src/agent/session/model-messages";
import { z } from "zod";
import { COMPACTION_REQUEST, nextRequestTokens } from "../../src/agent/session/compaction";
import type { MessageWithParts } from "../../src/agent/session/store";
import { requestOverheadTokens } from "../../src/agent/session/usage";
import { cleanTitle } from "../../src/agent/session/title";
import { MODEL, SMALL_MODEL, ScriptedModel, apiError, createRig, modelInfo, partsOf, text, tools, type Rig } from "./agent-harness";

let rig: Rig | undefined;
afterEach(() => rig?.dispose());

const small = { [MODEL.modelId]: modelInfo(MODEL.modelId, { context: 10_000, output: 2_000 }) };

describe("compaction", () => {
  it("compacts automatically when a step overflows, keeps the last 2 turns and continues", async () => {
    const long = "x".repeat(5000);
    const model = new ScriptedModel([
      tools([{ name: "echo", input: { text: long } }]),
      text("turn one done"),
      text("turn two done"),
      text("turn three done"),
      tools([{ name: "echo", input: { text: "big" } }], { input: 9_000 }),
      text("SUMMARY TEXT"),
      text("finished after compaction"),
    ]);
    rig = await createRig({ models: { [MODEL.modelId]: model }, infos: small });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "turn one" });
    await rig.agent.prompt(session.id, { text: "turn two" });
    await rig.agent.prompt(session.id, { text: "turn three" });
    await rig.agent.prompt(session.id, { text: "turn four" });
    expect(model.calls).toHaveLength(7);

    const compactionCall = model.calls[5]!;
    expect(compactionCall.tools ?? []).toEqual([]);
    expect(JSON.stringify(compactionCall.prompt[0])).toContain("COMPACTION AGENT PROMPT");
    const compactionPrompt = model.prompt(5);
    expect(compactionPrompt).toContain(COMPACTION_REQUEST);
    expect(compactionPrompt).toContain("turn one");
    // The summarised part goes as plain text (no tool blocks in a request without tools), with
    // tool outputs cut to 2000 characters plus a note saying so.
    expect(compactionCall.prompt.some((m) => m.role === "tool")).toBe(false);
    expect(compactionPrompt).not.toContain('"tool-call"');
    const match = /\[Result: (echo: x+)\\n\[\.\.\. (\d+) more characters cut\]\]/.exec(compactionPrompt);
    expect(match?.[1]).toHaveLength(2000);
    expect(match?.[2]).toBe("3006");

    const messages = await rig.agent.getMessages(session.id);
    const summary = messages.find((m) => m.info.role === "assistant" && m.info.summary);
    expect(summary?.parts.find((p) => p.type === "text")).toMatchObject({ text: "SUMMARY TEXT" });
    const resume = messages.find((m) => m.parts.some((p) => p.type === "text" && p.synthetic && p.text === "Continue if you have next steps"));
    expect(resume?.info.role).toBe("user");

    const after = model.prompt(6);
    expect(after).toContain("SUMMARY TEXT");
    expect(after).toContain("Continue if you have next steps");
    expect(after).toContain("turn three");
    expect(after).toContain("turn four");
    expect(after).toContain("echo: big");
    expect(after).not.toContain("turn one");
    expect(after).not.toContain("turn two done");
  });

  it("compacts when the provider reports a context overflow, without retrying the call", async () => {
    const model = new ScriptedModel([
      text("earlier answer"),
      apiError(400, {}, "This model's maximum context length is 10000 tokens"),
      text("SUMMARY"),
      text("answer after compaction"),
    ]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "first" });
    const result = await rig.agent.prompt(session.id, { text: "second" });
    expect(result.error).toBeUndefined();
    expect(model.calls).toHaveLength(4);
    expect(await partsOf(rig.agent, session.id, "retry")).toHaveLength(0);
    expect(model.prompt(3)).toContain("SUMMARY");
    // The empty reply the refused call left is not kept.
    const replies = (await rig.agent.getMessages(session.id)).filter((m) => m.info.role === "assistant");
    expect(replies.filter((m) => m.info.role === "assistant" && m.info.finish === "context-overflow")).toEqual([]);
    expect(replies.every((m) => m.parts.some((p) => (p.type === "text" && p.text !== "") || p.type === "tool"))).toBe(true);
  });

  it("compacts on demand without a synthetic continue message; the next prompt builds on the summary", async () => {
    const model = new ScriptedModel([text("a1"), text("a2"), text("a3"), text("MANUAL SUMMARY"), text("a4")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    for (const q of ["q1", "q2", "q3"]) await rig.agent.prompt(session.id, { text: q });
    await rig.agent.compact(session.id);
    expect(model.calls).toHaveLength(4);
    const messages = await rig.agent.getMessages(session.id);
    expect(messages.some((m) => m.parts.some((p) => p.type === "text" && p.synthetic))).toBe(false);
    await rig.agent.prompt(session.id, { text: "q4" });
    const next = model.prompt(4);
    expect(next).toContain("MANUAL SUMMARY");
    expect(next).toContain("q2");
    expect(next).toContain("q3");
    expect(next).not.toContain('"q1"');
    expect(next).not.toContain("a1");
  });
});

describe("the compaction threshold counts what every request carries (issue 21, item 6)", () => {
  const history = (turns: Array<{ role: "user" | "assistant"; id: string; text?: string; tokens?: number; output?: string; summary?: boolean }>): MessageWithParts[] =>
    turns.map((t) => ({
      info:
        t.role === "user"
          ? ({ v: 1, id: t.id, sessionId: "s", role: "user", createdAt: 1, agent: "build", model: MODEL } as MessageWithParts["info"])
          : ({ v: 1, id: t.id, sessionId: "s", role: "assistant", createdAt: 1, completedAt: 2, parentId: "u", agent: "build", model: MODEL, cost: 0, tokens: { input: t.tokens ?? 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 }, ...(t.summary && { summary: true }) } as MessageWithParts["info"]),
      parts: [
        ...(t.text ? [{ v: 1, id: `${t.id}-t`, sessionId: "s", messageId: t.id, type: "text", text: t.text } as const] : []),
        ...(t.output ? [{ v: 1, id: `${t.id}-o`, sessionId: "s", messageId: t.id, type: "tool", callId: "c", tool: "read", state: { status: "completed", input: {}, output: t.output, title: "", metadata: {}, start: 1, end: 2 } } as const] : []),
      ] as MessageWithParts["parts"],
    }));

  it("estimates the next request: the provider's count of the last call plus the tool results and messages after it", () => {
    const h = history([
      { role: "user", id: "m1", text: "read it" },
      { role: "assistant", id: "m2", tokens: 1_000, output: "x".repeat(40_000) },
      { role: "user", id: "m3", text: "y".repeat(400) },
    ]);
    // The provider's 1,000 already include the system prompt and tool schemas: not added again.
    expect(nextRequestTokens(h, 5_000)).toBe(1_000 + 10_000 + 100);
  });

  it("without a provider count (first call, after a summary, no usage reported) adds the system prompt and tool schemas", () => {
    const noUsage = history([
      { role: "user", id: "m1", text: "a".repeat(4_000) },
      { role: "assistant", id: "m2", text: "b".repeat(4_000) },
    ]);
    expect(nextRequestTokens(noUsage, 5_000)).toBe(5_000 + 2_000);
    const afterSummary = history([
      { role: "user", id: "m1", text: "compact" },
      { role: "assistant", id: "m2", tokens: 90_000, text: "c".repeat(400), summary: true },
    ]);
    expect(nextRequestTokens(afterSummary, 5_000)).toBe(5_000 + 2 + 100);
    const system = "s".repeat(4_000);
    const schemaless = requestOverheadTokens(system, []);
    expect(schemaless).toBe(1_000);
    const tool = { id: "read", description: "Reads a file.", parameters: z.object({ filePath: z.string().describe("Path") }) };
    expect(requestOverheadTokens(system, [tool])).toBeGreaterThan(schemaless + 10);
  });

  it("compacts before a call whose tool results would overflow, although the last call's count did not", async () => {
    const model = new ScriptedModel([
      text("first answer"),
      tools([{ name: "echo", input: { text: "z".repeat(36_000) } }]),
      text("SUMMARY"),
      text("after compaction"),
    ]);
    rig = await createRig({ models: { [MODEL.modelId]: model }, infos: small });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "first" });
    const result = await rig.agent.prompt(session.id, { text: "echo a lot" });
    expect(result.error).toBeUndefined();
    expect(model.calls).toHaveLength(4);
    expect(JSON.stringify(model.calls[2]!.prompt[0])).toContain("COMPACTION AGENT PROMPT");
    expect(model.prompt(3)).toContain("SUMMARY");
  });

  it("counts the system prompt and tool schemas when the provider reports no usage", async () => {
    const run = async (systemChars: number) => {
      const none = { input: 0, output: 0 };
      const model = new ScriptedModel([text("w".repeat(12_000), none), text("SUMMARY", none), text("answer", none)]);
      rig?.dispose();
      rig = await createRig({
        models: { [MODEL.modelId]: model },
        infos: small,
        services: { buildSystemPrompt: async (input) => `SYSTEM for ${input.agent.name}\n${"s".repeat(systemChars)}` },
      });
      const session = await rig.agent.createSession();
      await rig.agent.prompt(session.id, { text: "first" });
      await rig.agent.prompt(session.id, { text: "second" });
      return model;
    };
    // 3,000 tokens of messages fit the 8,000 usable; with a 5,000-token system prompt they do not.
    const light = await run(100);
    expect(light.calls).toHaveLength(2);
    const heavy = await run(20_000);
    expect(heavy.calls).toHaveLength(3);
    expect(JSON.stringify(heavy.calls[1]!.prompt[0])).toContain("COMPACTION AGENT PROMPT");
    expect(heavy.prompt(2)).toContain("SUMMARY");
  });
});

describe("prune", () => {
  it("clears tool outputs beyond the newest 40k tokens when that frees more than 20k", async () => {
    const chunk = "y".repeat(39_900); // just under 10k tokens each with the "echo: i:" prefix
    const turns = Array.from({ length: 10 }, (_, i) => tools([{ name: "echo", input: { text: `${i}:${chunk}` } }]));
    const model = new ScriptedModel([...turns, text("done"), text("next")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "make noise" });
    const parts = await partsOf(rig.agent, session.id, "tool");
    const cleared = parts.filter((p) => p.type === "tool" && p.state.status === "completed" && p.state.compactedAt !== undefined);
    // Newest 4 outputs (40k tokens) are protected, the 5th crosses the line: the 6 oldest go.
    expect(cleared).toHaveLength(6);
    expect(parts.slice(0, 6).every((p) => cleared.includes(p))).toBe(true);
    await rig.agent.prompt(session.id, { text: "go on" });
    const prompt = model.prompt(11);
    expect(prompt.split(CLEARED_TOOL_OUTPUT).length - 1).toBe(6);
    expect(prompt).toContain("9:yyyy");
  });

  it("leaves outputs alone when pruning would free 20k tokens or less", async () => {
    const chunk = "z".repeat(39_900);
    const turns = Array.from({ length: 5 }, (_, i) => tools([{ name: "echo", input: { text: `${i}:${chunk}` } }]));
    const model = new ScriptedModel([...turns, text("done")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "noise" });
    const parts = await partsOf(rig.agent, session.id, "tool");
    expect(parts.some((p) => p.type === "tool" && p.state.status === "completed" && p.state.compactedAt !== undefined)).toBe(false);
  });
});

describe("title", () => {
  it("names a new top-level session in the background with the small model at temperature 0.5", async () => {
    const titles = new ScriptedModel([text("\n\n  Fix the login redirect loop\nsecond line")], SMALL_MODEL.modelId);
    const model = new ScriptedModel([text("sure"), text("again")]);
    rig = await createRig({ models: { [MODEL.modelId]: model, [SMALL_MODEL.modelId]: titles } });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "the login page redirects forever" });
    await rig.agent.whenIdle();
    expect((await rig.agent.getSession(session.id))?.title).toBe("Fix the login redirect loop");
    expect(titles.calls).toHaveLength(1);
    expect(titles.calls[0]?.temperature).toBe(0.5);
    expect(titles.calls[0]?.tools ?? []).toEqual([]);
    expect(JSON.stringify(titles.calls[0]?.prompt)).toContain("TITLE AGENT PROMPT");
    await rig.agent.prompt(session.id, { text: "second turn" });
    await rig.agent.whenIdle();
    expect(titles.calls).toHaveLength(1);
  });

  it("keeps the first non-empty line, cut to 100 characters", () => {
    expect(cleanTitle("\n  \nHello world\nmore")).toBe("Hello world");
    expect(cleanTitle("<think>hmm</think>\n\"Quoted title\"")).toBe("Quoted title");
    expect(cleanTitle("a".repeat(150))).toHaveLength(100);
    expect(cleanTitle("   \n ")).toBeUndefined();
  });
});
