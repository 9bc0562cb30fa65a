// Context management (spec §8–9): automatic compaction on overflow (by usage and by provider
// error), manual compaction, what the model sees afterwards, prune, and titles.
import { afterEach, describe, expect, it } from "vitest";
import { CLEARED_TOOL_OUTPUT } from "../../src/agent/session/model-messages";
import { COMPACTION_REQUEST } from "../../src/agent/session/compaction";
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
