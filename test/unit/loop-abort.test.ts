// Abort (docs/agent.md, "The loop"): mid-text and mid-tool the turn ends at once, unfinished tool parts become
// "aborted", the reply is stamped completed, what streamed is persisted, and the session goes on.
import { afterEach, describe, expect, it } from "vitest";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MODEL, ScriptedModel, createRig, partsOf, text, tools, type Rig, type Turn } from "./agent-harness";

let rig: Rig | undefined;
afterEach(() => rig?.dispose());

function hangingText(first: string): Turn {
  const chunks: LanguageModelV4StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: first },
  ];
  return { kind: "chunks", chunks, hang: true };
}

describe("abort", () => {
  it("mid-text: stops the stream, keeps the streamed text, stamps the reply, and the session continues", async () => {
    const model = new ScriptedModel([hangingText("Partial answ"), text("fresh answer")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const agent = rig.agent;
    agent.bus.on("part-updated", ({ part, delta }) => {
      if (part.type === "text" && delta === "Partial answ") agent.abort(session.id);
    });
    const result = await agent.prompt(session.id, { text: "go" });
    expect(result.error?.name).toBe("AbortedError");
    // Read back from storage, not memory: nothing streamed is lost.
    const stored = await rig.storage.messages.list(session.id);
    const reply = stored.find((m) => m.role === "assistant")!;
    expect(reply.role === "assistant" && reply.completedAt).toBeTypeOf("number");
    expect(reply.role === "assistant" && reply.finish).toBe("aborted");
    const parts = await rig.storage.parts.listByMessage(reply.id);
    expect(parts.find((p) => p.type === "text")).toMatchObject({ text: "Partial answ" });
    expect(agent.status(session.id)).toEqual({ type: "idle" });

    await agent.prompt(session.id, { text: "again" });
    expect(model.calls).toHaveLength(2);
    expect(model.prompt(1)).toContain("Partial answ");
    expect(model.prompt(1)).toContain("again");
  });

  it("mid-tool: the running tool sees the abort and its part ends as error 'aborted'", async () => {
    const model = new ScriptedModel([tools([{ name: "wait", input: {} }, { name: "echo", input: { text: "x" } }]), text("next turn")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const agent = rig.agent;
    agent.bus.on("part-updated", ({ part }) => {
      if (part.type === "tool" && part.state.status === "running" && part.state.metadata?.progress === "started") agent.abort(session.id);
    });
    await agent.prompt(session.id, { text: "wait" });
    expect(model.calls).toHaveLength(1);
    const toolParts = await partsOf(agent, session.id, "tool");
    const wait = toolParts.find((p) => p.type === "tool" && p.tool === "wait");
    expect(wait?.type === "tool" && wait.state).toMatchObject({ status: "error", error: "aborted" });
    for (const part of toolParts) expect(part.type === "tool" && ["completed", "error"]).toContain(part.type === "tool" && part.state.status);
    const reply = (await agent.getMessages(session.id)).find((m) => m.info.role === "assistant")!;
    expect(reply.info.role === "assistant" && reply.info.completedAt).toBeTypeOf("number");
    // Resumable: the next turn sends the aborted call with an error result.
    await agent.prompt(session.id, { text: "go on" });
    expect(model.calls).toHaveLength(2);
    expect(model.prompt(1)).toContain("aborted");
  });

  it("withdraws a pending permission ask when the turn is aborted", async () => {
    const model = new ScriptedModel([tools([{ name: "put", input: { path: "x.txt", content: "1" } }])]);
    rig = await createRig({
      models: { [MODEL.modelId]: model },
      deps: { userRules: () => [{ permission: "edit", pattern: "*", action: "ask" }] },
    });
    const session = await rig.agent.createSession();
    const agent = rig.agent;
    agent.bus.on("permission-asked", () => agent.abort(session.id));
    await agent.prompt(session.id, { text: "write" });
    expect(agent.pendingPermissions(session.id)).toEqual([]);
    const part = (await partsOf(agent, session.id, "tool"))[0]!;
    expect(part.type === "tool" && part.state).toMatchObject({ status: "error", error: "aborted" });
    expect(await rig.files.exists("x.txt")).toBe(false);
  });

  it("honours a stop pressed while the turn is still being set up", async () => {
    const model = new ScriptedModel([text("only the second prompt gets this")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const first = rig.agent.prompt(session.id, { text: "never mind" });
    rig.agent.abort(session.id);
    const result = await first;
    expect(result.assistantMessageId).toBeUndefined();
    expect(model.calls).toHaveLength(0);
    expect(rig.agent.status(session.id)).toEqual({ type: "idle" });
    await rig.agent.prompt(session.id, { text: "go" });
    expect(model.calls).toHaveLength(1);
  });
});

