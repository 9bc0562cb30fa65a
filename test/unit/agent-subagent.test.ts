// Subagents (docs/agent.md, "Subagents"): child sessions with their own rules plus the parent's denies, no nesting,
// live progress in the parent's task part, abort propagation, cost roll-up, resume by taskId.
import { afterEach, describe, expect, it } from "vitest";
import { MODEL, ScriptedModel, createRig, partsOf, text, tools, type Rig } from "./agent-harness";

let rig: Rig | undefined;
afterEach(() => rig?.dispose());

const task = (subagent: string, prompt: string, taskId?: string) =>
  tools([{ name: "task", input: { description: "look around", prompt, subagent_type: subagent, ...(taskId && { taskId }) } }]);

describe("subagents", () => {
  it("runs the subagent in a child session and returns its answer with live progress", async () => {
    const model = new ScriptedModel([
      task("general", "find the thing"),
      tools([{ name: "echo", input: { text: "child work" } }]),
      text("the thing is in src/x.ts"),
      text("parent done"),
    ]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const progress: unknown[] = [];
    rig.agent.bus.on("part-updated", ({ part }) => {
      if (part.sessionId === session.id && part.type === "tool" && part.tool === "task" && part.state.status === "running") {
        progress.push(part.state.metadata?.summary);
      }
    });
    await rig.agent.prompt(session.id, { text: "delegate" });

    const children = await rig.storage.sessions.children(session.id);
    expect(children).toHaveLength(1);
    const child = children[0]!;
    expect(child.title).toBe("look around (@general subagent)");
    expect(model.prompt(1)).toContain("find the thing");
    // No nesting: the child is not offered task or todowrite.
    expect(model.toolNames(1)).not.toContain("task");
    expect(model.toolNames(1)).not.toContain("todowrite");
    expect(model.toolNames(1)).toContain("echo");

    const taskPart = (await partsOf(rig.agent, session.id, "tool"))[0]!;
    expect(taskPart.type === "tool" && taskPart.state.status).toBe("completed");
    expect(taskPart.type === "tool" && taskPart.state.status === "completed" && taskPart.state.output).toContain("the thing is in src/x.ts");
    expect(model.prompt(3)).toContain(child.id);
    // Progress showed the child's echo call finishing while the task was still running.
    expect(progress).toContainEqual([expect.objectContaining({ tool: "echo", status: "completed", title: "echo child work" })]);

    // Costs roll up: the parent's total includes the child's steps.
    const messages = [...(await rig.agent.getMessages(session.id)), ...(await rig.agent.getMessages(child.id))];
    const sum = messages.reduce((total, m) => total + (m.info.role === "assistant" ? m.info.cost : 0), 0);
    const parent = await rig.agent.getSession(session.id);
    expect(parent?.cost).toBeCloseTo(sum, 12);
    expect(parent?.tokens.input).toBe(400);
    expect((await rig.agent.getSession(child.id))?.tokens.input).toBe(200);
  });

  it("carries the parent's denies into the child and respects the subagent's own rules", async () => {
    const model = new ScriptedModel([task("general", "p1"), text("c1"), task("explore", "p2"), text("c2"), text("done")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession({ agent: "careful" });
    await rig.agent.prompt(session.id, { text: "go" });
    expect(model.toolNames(0)).not.toContain("put");
    expect(model.toolNames(1)).not.toContain("put");
    expect(model.toolNames(3)).toEqual(["echo", "wait"]);
  });

  it("aborting the parent aborts the child", async () => {
    const model = new ScriptedModel([task("general", "wait forever"), tools([{ name: "wait", input: {} }])]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const agent = rig.agent;
    let childId: string | undefined;
    agent.bus.on("part-updated", ({ part }) => {
      if (part.sessionId !== session.id && part.type === "tool" && part.tool === "wait" && part.state.status === "running" && part.state.metadata) {
        childId = part.sessionId;
        agent.abort(session.id);
      }
    });
    await agent.prompt(session.id, { text: "go" });
    expect(childId).toBeDefined();
    const childParts = await partsOf(agent, childId!, "tool");
    expect(childParts[0]?.type === "tool" && childParts[0].state).toMatchObject({ status: "error", error: "aborted" });
    const taskPart = (await partsOf(agent, session.id, "tool"))[0]!;
    expect(taskPart.type === "tool" && taskPart.state).toMatchObject({ status: "error", error: "aborted" });
    expect(agent.status(childId!)).toEqual({ type: "idle" });
    expect(agent.status(session.id)).toEqual({ type: "idle" });
  });

  it("resumes a child session by taskId", async () => {
    let childId = "";
    const model = new ScriptedModel([
      task("general", "first task"),
      text("first answer"),
      () => task("general", "follow up", childId),
      text("second answer"),
      text("all done"),
    ]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    rig.agent.bus.on("session-created", ({ session: s }) => {
      if (s.parentId === session.id) childId = s.id;
    });
    await rig.agent.prompt(session.id, { text: "go" });
    expect(await rig.storage.sessions.children(session.id)).toHaveLength(1);
    // The resumed child sees its earlier exchange.
    expect(model.prompt(3)).toContain("first task");
    expect(model.prompt(3)).toContain("first answer");
    expect(model.prompt(3)).toContain("follow up");
  });

  it("refuses an unknown subagent with the list of available ones", async () => {
    const model = new ScriptedModel([task("nosuch", "x"), text("ok")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "go" });
    const part = (await partsOf(rig.agent, session.id, "tool"))[0]!;
    expect(part.type === "tool" && part.state.status === "error" && part.state.error).toMatch(/nosuch.*general, explore/);
  });

  it("runs a subtask the user queued and lets the primary agent answer", async () => {
    const model = new ScriptedModel([text("explored: 3 files"), text("summary for the user")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "list the files", subtask: { agent: "explore", description: "list files" } });
    expect(model.calls).toHaveLength(2);
    expect(model.toolNames(0)).toEqual(["echo", "wait"]);
    expect(model.prompt(1)).toContain("explored: 3 files");
  });
});
