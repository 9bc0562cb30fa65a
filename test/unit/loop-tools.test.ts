// Tool-side behaviour of the loop: the doom-loop guard, questions, todos, the user-edits
// reminder, parallel calls and live tool updates.
import { afterEach, describe, expect, it } from "vitest";
import { MODEL, ScriptedModel, createRig, partsOf, text, tools, type Rig } from "./agent-harness";

let rig: Rig | undefined;
afterEach(() => rig?.dispose());

const same = () => tools([{ name: "echo", input: { text: "again" } }]);

describe("doom loop", () => {
  it("asks doom_loop before the 4th identical call and stops when rejected", async () => {
    const model = new ScriptedModel([same(), same(), same(), same(), text("never")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const asked: string[] = [];
    rig.agent.bus.on("permission-asked", (request) => {
      asked.push(request.permission);
      rig!.agent.replyPermission(request.id, "reject");
    });
    await rig.agent.prompt(session.id, { text: "loop please" });
    expect(asked).toEqual(["doom_loop"]);
    expect(model.calls).toHaveLength(4);
    const statuses = (await partsOf(rig.agent, session.id, "tool")).map((p) => (p.type === "tool" ? p.state.status : ""));
    expect(statuses).toEqual(["completed", "completed", "completed", "error"]);
  });

  it("does not ask when the input differs", async () => {
    const model = new ScriptedModel([
      same(),
      same(),
      tools([{ name: "echo", input: { text: "different" } }]),
      same(),
      text("done"),
    ]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const asked: string[] = [];
    rig.agent.bus.on("permission-asked", (request) => asked.push(request.permission));
    await rig.agent.prompt(session.id, { text: "go" });
    expect(asked).toEqual([]);
    expect(model.calls).toHaveLength(5);
  });
});

describe("questions, todos and user edits", () => {
  it("publishes question-asked and returns the user's answers to the model", async () => {
    const model = new ScriptedModel([tools([{ name: "question", input: { question: "Which colour?" } }]), text("ok, blue")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    rig.agent.bus.on("question-asked", (q) => {
      expect(q.questions[0]?.question).toBe("Which colour?");
      expect(rig!.agent.pendingQuestions(session.id)).toHaveLength(1);
      rig!.agent.replyQuestion(q.id, [["blue"]]);
    });
    await rig.agent.prompt(session.id, { text: "ask me" });
    expect(model.prompt(1)).toContain('[[\\"blue\\"]]');
    expect(rig.agent.pendingQuestions()).toEqual([]);
  });

  it("stops the turn when the user dismisses a question", async () => {
    const model = new ScriptedModel([tools([{ name: "question", input: { question: "?" } }]), text("never")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    rig.agent.bus.on("question-asked", (q) => rig!.agent.rejectQuestion(q.id));
    await rig.agent.prompt(session.id, { text: "ask me" });
    expect(model.calls).toHaveLength(1);
    const part = (await partsOf(rig.agent, session.id, "tool"))[0]!;
    expect(part.type === "tool" && part.state.status).toBe("error");
  });

  it("persists todos on the session record", async () => {
    const todos = [{ content: "write tests", status: "in_progress", priority: "high" }];
    const model = new ScriptedModel([tools([{ name: "todowrite", input: { todos } }]), text("planned")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "plan" });
    expect((await rig.storage.sessions.get(session.id))?.todos).toEqual(todos);
  });

  it("reports the files the user edited with the next message, once", async () => {
    const model = new ScriptedModel([text("one"), text("two")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    await rig.agent.noteUserEdits(session.id, ["src/b.ts", "src/a.ts"]);
    await rig.agent.noteUserEdits(session.id, ["src/a.ts"]);
    await rig.agent.prompt(session.id, { text: "first" });
    expect(model.prompt(0)).toContain("The user edited these files since your last turn: src/a.ts, src/b.ts");
    expect((await rig.agent.getSession(session.id))?.userEdits).toBeUndefined();
    await rig.agent.prompt(session.id, { text: "second" });
    expect(model.prompt(1).match(/The user edited these files/g)).toHaveLength(1);
  });

  it("runs parallel calls of one step and returns every result", async () => {
    const model = new ScriptedModel([
      tools([{ name: "echo", input: { text: "a" } }, { name: "echo", input: { text: "b" } }, { name: "echo", input: { text: "c" } }]),
      text("all done"),
    ]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "three" });
    for (const letter of ["a", "b", "c"]) expect(model.prompt(1)).toContain(`echo: ${letter}`);
  });
});
