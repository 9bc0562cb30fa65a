// Workspace agents reload when their files change (issue 21, item 5): the facade's list and the next
// turn follow the files, and the bus says so, with no page reload.
import { afterEach, describe, expect, it } from "vitest";
import { loadAgents } from "../../src/agent/agents";
import { MODEL, ScriptedModel, createRig, text, type Rig } from "./agent-harness";

/** The real agent files loader, and a system prompt that shows the agent's own prompt. */
const services = {
  loadAgents: (runtime: { fs: Parameters<typeof loadAgents>[0] }) => loadAgents(runtime.fs),
  buildSystemPrompt: async (input: { agent: { name: string; prompt?: string } }) => `SYSTEM for ${input.agent.name}\n${input.agent.prompt ?? ""}`,
};

/** File changes reach listeners in the next task (one batch per task). */
const delivered = () => new Promise((resolve) => setTimeout(resolve, 5));

let rig: Rig | undefined;
afterEach(() => rig?.dispose());

describe("workspace agents reload", () => {
  it("adds, changes and removes agents as their files change, and announces each change", async () => {
    const model = new ScriptedModel([text("ok")]);
    rig = await createRig({ models: { [MODEL.modelId]: model }, services });
    let announced = 0;
    rig.agent.bus.on("agents-changed", () => announced++);
    const names = async () => (await rig!.agent.listAgents()).map((a) => a.name);
    expect(await names()).not.toContain("reviewer");

    await rig.files.writeFile(".webcode/agents/reviewer.md", "---\ndescription: Reviews code\nmode: primary\n---\nReview carefully.");
    await delivered();
    expect(announced).toBeGreaterThanOrEqual(1);
    expect(await names()).toContain("reviewer");

    await rig.files.writeFile(".webcode/agents/reviewer.md", "---\ndescription: Reviews code strictly\nmode: primary\n---\nReview strictly.");
    await delivered();
    const reviewer = (await rig.agent.listAgents()).find((a) => a.name === "reviewer");
    expect(reviewer).toMatchObject({ description: "Reviews code strictly", prompt: "Review strictly.", source: ".webcode/agents/reviewer.md" });

    await rig.files.writeFile(".webcode/agent/build.md", "---\ntemperature: 0.2\n---\n");
    await delivered();
    const build = (await rig.agent.listAgents()).find((a) => a.name === "build");
    expect(build).toMatchObject({ builtIn: true, temperature: 0.2, source: ".webcode/agent/build.md" });

    await rig.files.remove(".webcode/agents/reviewer.md");
    await delivered();
    expect(await names()).not.toContain("reviewer");

    // Other files do not reload the agents.
    const before = announced;
    await rig.files.writeFile("src/agent/notes.md", "not an agent");
    await delivered();
    expect(announced).toBe(before);
  });

  it("the next turn uses the changed agent file", async () => {
    const model = new ScriptedModel([text("one"), text("two")]);
    rig = await createRig({ models: { [MODEL.modelId]: model }, services });
    const session = await rig.agent.createSession();
    await rig.files.writeFile(".webcode/agent/build.md", "---\ndescription: Build\n---\nFIRST PROMPT");
    await delivered();
    await rig.agent.prompt(session.id, { text: "hi" });
    await rig.files.writeFile(".webcode/agent/build.md", "---\ndescription: Build\n---\nSECOND PROMPT");
    await delivered();
    await rig.agent.prompt(session.id, { text: "again" });
    expect(model.prompt(0)).toContain("FIRST PROMPT");
    expect(model.prompt(1)).toContain("SECOND PROMPT");
    expect(model.prompt(1)).not.toContain("FIRST PROMPT");
  });
});
