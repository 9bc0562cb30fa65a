// The loop's exit paths (docs/agent.md, "The loop"): stop, continue after tool calls, the step limit with its
// reminder, permission reject, fatal error, invalid tool input and unknown tool names.
import { afterEach, describe, expect, it } from "vitest";
import { defaultServices } from "../../src/agent";
import { MODEL, ScriptedModel, apiError, createRig, partsOf, text, tools, type Rig } from "./agent-harness";

let rig: Rig | undefined;
afterEach(() => rig?.dispose());

describe("agent loop exits", () => {
  it("stops after a plain text answer and persists the reply", async () => {
    const model = new ScriptedModel([text("Hello there, how can I help?")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const result = await rig.agent.prompt(session.id, { text: "hi" });
    expect(result.error).toBeUndefined();
    expect(model.calls).toHaveLength(1);
    const messages = await rig.agent.getMessages(session.id);
    expect(messages.map((m) => m.info.role)).toEqual(["user", "assistant"]);
    const reply = messages[1]!;
    expect(reply.info.role === "assistant" && reply.info.finish).toBe("stop");
    expect(reply.info.role === "assistant" && reply.info.completedAt).toBeTypeOf("number");
    expect(reply.parts.map((p) => p.type)).toEqual(["step-start", "text", "step-finish"]);
    const textPart = reply.parts[1]!;
    expect(textPart.type === "text" && textPart.text).toBe("Hello there, how can I help?");
    // Persisted: a fresh read from storage sees the same.
    const stored = await rig.storage.parts.listByMessage(reply.info.id);
    expect(stored.find((p) => p.type === "text")).toMatchObject({ text: "Hello there, how can I help?" });
    // Usage and cost from the catalogue: 100 in × $1/M + 10 out × $2/M.
    const updated = await rig.agent.getSession(session.id);
    expect(updated?.tokens).toMatchObject({ input: 100, output: 10 });
    expect(updated?.cost).toBeCloseTo((100 * 1 + 10 * 2) / 1e6, 12);
    expect(rig.agent.status(session.id)).toEqual({ type: "idle" });
  });

  it("continues after tool calls and sends the results back", async () => {
    const model = new ScriptedModel([tools([{ name: "echo", input: { text: "ping" } }]), text("done")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const statuses: string[] = [];
    rig.agent.bus.on("session-status", (e) => statuses.push(e.status.type));
    await rig.agent.prompt(session.id, { text: "echo ping" });
    expect(model.calls).toHaveLength(2);
    expect(model.prompt(1)).toContain("echo: ping");
    const toolPart = (await partsOf(rig.agent, session.id, "tool"))[0]!;
    expect(toolPart.type === "tool" && toolPart.state).toMatchObject({ status: "completed", output: "echo: ping", title: "echo ping" });
    expect(statuses[0]).toBe("busy");
    expect(statuses.at(-1)).toBe("idle");
  });

  it("publishes the tool part pending → running → completed", async () => {
    const model = new ScriptedModel([tools([{ name: "echo", input: { text: "a" } }]), text("ok")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const seen: string[] = [];
    rig.agent.bus.on("part-updated", ({ part }) => {
      if (part.type === "tool" && seen.at(-1) !== part.state.status) seen.push(part.state.status);
    });
    await rig.agent.prompt(session.id, { text: "go" });
    expect(seen).toEqual(["pending", "running", "completed"]);
  });

  it("stops at the agent's step limit and tells the model on the last step", async () => {
    const model = new ScriptedModel([
      tools([{ name: "echo", input: { text: "1" } }]),
      tools([{ name: "echo", input: { text: "2" } }]),
      tools([{ name: "echo", input: { text: "3" } }]),
    ]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession({ agent: "limited" });
    await rig.agent.prompt(session.id, { text: "loop" });
    expect(model.calls).toHaveLength(2);
    expect(model.remaining).toBe(1);
    expect(model.prompt(0)).not.toContain("MAX STEPS REACHED");
    expect(model.prompt(1)).toContain("MAX STEPS REACHED");
  });

  it("does not exceed the step limit when the last allowed step overflows the context; the next prompt compacts first", async () => {
    const model = new ScriptedModel([
      tools([{ name: "echo", input: { text: "1" } }]),
      apiError(400, {}, "This model's maximum context length is 10000 tokens"),
      text("SUMMARY"),
      text("answer after compaction"),
    ]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession({ agent: "limited" });
    const result = await rig.agent.prompt(session.id, { text: "loop" });
    expect(model.calls).toHaveLength(2);
    expect(result.error?.name).toBe("StepLimitError");
    expect(result.error?.action).toMatch(/Send a message to continue/);
    const last = (await rig.agent.getMessages(session.id)).at(-1)!;
    expect(last.info.role === "assistant" && last.info.error?.name).toBe("StepLimitError");

    const next = await rig.agent.prompt(session.id, { text: "go on" });
    expect(next.error).toBeUndefined();
    expect(model.calls).toHaveLength(4);
    expect(JSON.stringify(model.calls[2]!.prompt[0])).toContain("COMPACTION AGENT PROMPT");
    expect(model.prompt(3)).toContain("SUMMARY");
    expect(model.remaining).toBe(0);
  });

  it("stops the turn on a bare reject, and the next prompt can continue", async () => {
    const model = new ScriptedModel([
      tools([{ name: "put", input: { path: "a.txt", content: "x" } }]),
      text("after reject"),
    ]);
    rig = await createRig({
      models: { [MODEL.modelId]: model },
      deps: { userRules: () => [{ permission: "edit", pattern: "*", action: "ask" }] },
    });
    const session = await rig.agent.createSession();
    rig.agent.bus.on("permission-asked", (request) => {
      expect(request.permission).toBe("edit");
      rig!.agent.replyPermission(request.id, "reject");
    });
    await rig.agent.prompt(session.id, { text: "write" });
    expect(model.calls).toHaveLength(1);
    const toolPart = (await partsOf(rig.agent, session.id, "tool"))[0]!;
    expect(toolPart.type === "tool" && toolPart.state.status).toBe("error");
    expect(toolPart.type === "tool" && toolPart.state.status === "error" && toolPart.state.error).toContain("rejected");
    expect(await rig.files.exists("a.txt")).toBe(false);
    await rig.agent.prompt(session.id, { text: "ok then" });
    expect(model.calls).toHaveLength(2);
  });

  it("a reject with a message reaches the model as the call's result and the turn goes on with it", async () => {
    const model = new ScriptedModel([
      tools([{ name: "put", input: { path: "a.txt", content: "x" } }]),
      tools([{ name: "put", input: { path: "b.txt", content: "y" } }]),
      text("Wrote b.txt as you asked."),
    ]);
    rig = await createRig({
      models: { [MODEL.modelId]: model },
      deps: { userRules: () => [{ permission: "edit", pattern: "*", action: "ask" }] },
    });
    const session = await rig.agent.createSession();
    let asks = 0;
    rig.agent.bus.on("permission-asked", (request) => {
      asks++;
      if (asks === 1) rig!.agent.replyPermission(request.id, "reject", "write b.txt instead");
      else rig!.agent.replyPermission(request.id, "once");
    });
    const result = await rig.agent.prompt(session.id, { text: "write" });
    expect(result.error).toBeUndefined();
    // All three model calls happen in this one turn: the second one already carries the message.
    expect(model.calls).toHaveLength(3);
    expect(model.prompt(1)).toContain("The user rejected this edit call and said: write b.txt instead");
    expect(await rig.files.exists("a.txt")).toBe(false);
    expect(await rig.files.readText("b.txt")).toBe("y");
    const [rejected, written] = await partsOf(rig.agent, session.id, "tool");
    expect(rejected?.type === "tool" && rejected.state.status === "error" && rejected.state.error).toContain("write b.txt instead");
    expect(written?.type === "tool" && written.state.status).toBe("completed");
    expect(rig.agent.status(session.id)).toEqual({ type: "idle" });
  });

  it("a blank message counts as a bare reject", async () => {
    const model = new ScriptedModel([tools([{ name: "put", input: { path: "a.txt", content: "x" } }]), text("never")]);
    rig = await createRig({
      models: { [MODEL.modelId]: model },
      deps: { userRules: () => [{ permission: "edit", pattern: "*", action: "ask" }] },
    });
    const session = await rig.agent.createSession();
    rig.agent.bus.on("permission-asked", (request) => rig!.agent.replyPermission(request.id, "reject", "   "));
    await rig.agent.prompt(session.id, { text: "write" });
    expect(model.calls).toHaveLength(1);
  });

  it("allows after an 'once' reply and runs the tool", async () => {
    const model = new ScriptedModel([tools([{ name: "put", input: { path: "b.txt", content: "yes" } }]), text("written")]);
    rig = await createRig({
      models: { [MODEL.modelId]: model },
      deps: { userRules: () => [{ permission: "edit", pattern: "*", action: "ask" }] },
    });
    const session = await rig.agent.createSession();
    rig.agent.bus.on("permission-asked", (request) => rig!.agent.replyPermission(request.id, "once"));
    await rig.agent.prompt(session.id, { text: "write" });
    expect(await rig.files.readText("b.txt")).toBe("yes");
  });

  it("records a fatal provider error on the message with an action and stops", async () => {
    const model = new ScriptedModel([{ kind: "error", error: new Error("model exploded") }]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const result = await rig.agent.prompt(session.id, { text: "hi" });
    expect(model.calls).toHaveLength(1);
    expect(result.error?.message).toContain("model exploded");
    expect(result.error?.action).toBeTruthy();
    const reply = (await rig.agent.getMessages(session.id))[1]!;
    expect(reply.info.role === "assistant" && reply.info.completedAt).toBeTypeOf("number");
  });

  it("answers invalid tool arguments with the wrapper's message and lets the model retry", async () => {
    const model = new ScriptedModel([
      tools([{ name: "echo", input: { txt: 1 } }]),
      tools([{ name: "echo", input: { text: "fixed" } }]),
      text("ok"),
    ]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "go" });
    expect(model.calls).toHaveLength(3);
    const [bad, good] = await partsOf(rig.agent, session.id, "tool");
    expect(bad?.type === "tool" && bad.state.status).toBe("error");
    expect(bad?.type === "tool" && bad.state.status === "error" && bad.state.error).toMatch(
      /^The echo tool was called with invalid arguments: .*Rewrite the input/,
    );
    expect(model.prompt(1)).toContain("The echo tool was called with invalid arguments");
    expect(good?.type === "tool" && good.state.status).toBe("completed");
  });

  it("retries an unknown tool name lower-cased, else answers with an error result", async () => {
    const model = new ScriptedModel([
      tools([{ name: "Echo", input: { text: "upper" } }, { name: "nosuch", input: {} }]),
      text("ok"),
    ]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "go" });
    const parts = await partsOf(rig.agent, session.id, "tool");
    const echo = parts.find((p) => p.type === "tool" && p.tool === "echo");
    const unknown = parts.find((p) => p.type === "tool" && p.tool === "nosuch");
    expect(echo?.type === "tool" && echo.state).toMatchObject({ status: "completed", output: "echo: upper" });
    expect(unknown?.type === "tool" && unknown.state.status).toBe("error");
    expect(unknown?.type === "tool" && unknown.state.status === "error" && unknown.state.error).toMatch(/nosuch/);
    expect(model.calls).toHaveLength(2);
    expect(model.prompt(1)).toContain("nosuch");
  });

  it("hides denied tools and per-turn disabled tools from the model", async () => {
    const model = new ScriptedModel([text("a"), text("b")]);
    rig = await createRig({
      models: { [MODEL.modelId]: model },
      deps: { userRules: () => [{ permission: "wait", pattern: "*", action: "deny" }] },
    });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "one" });
    expect(model.toolNames(0)).toEqual(["echo", "put", "question", "task", "todowrite"]);
    await rig.agent.prompt(session.id, { text: "two", tools: { echo: false } });
    expect(model.toolNames(1)).toEqual(["put", "question", "task", "todowrite"]);
  });

  it("offers apply_patch instead of edit and write to GPT-5 models, and the reverse to others", async () => {
    const gpt = new ScriptedModel([text("a")], "gpt-5-mini");
    const other = new ScriptedModel([text("b")]);
    rig = await createRig({
      models: { "gpt-5-mini": gpt, [MODEL.modelId]: other },
      services: { tools: defaultServices().tools },
    });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "one", model: { providerId: "fake", modelId: "gpt-5-mini" } });
    expect(gpt.toolNames(0)).toContain("apply_patch");
    expect(gpt.toolNames(0)).not.toContain("edit");
    expect(gpt.toolNames(0)).not.toContain("write");
    await rig.agent.prompt(session.id, { text: "two", model: MODEL });
    expect(other.toolNames(0)).toEqual(expect.arrayContaining(["edit", "write", "read", "bash", "task"]));
    expect(other.toolNames(0)).not.toContain("apply_patch");
  });
});
