// The budget per session (issue 21, item 6): before a step that would pass the user's limit in
// tokens or dollars, the turn stops with a message saying so; a raised limit lets the next one go on.
import { afterEach, describe, expect, it } from "vitest";
import { budgetExceeded, type SessionBudget } from "../../src/agent";
import { MODEL, ScriptedModel, createRig, modelInfo, text, tools, type Rig } from "./agent-harness";

let rig: Rig | undefined;
afterEach(() => rig?.dispose());

describe("budget per session", () => {
  it("stops before the step that would pass the token budget, and goes on once it is raised", async () => {
    let budget: SessionBudget | undefined = { tokens: 1_000 };
    const model = new ScriptedModel([
      tools([{ name: "echo", input: { text: "a" } }], { input: 600, output: 50 }),
      text("never sent"),
      text("after raising"),
    ]);
    rig = await createRig({ models: { [MODEL.modelId]: model }, deps: { sessionBudget: () => budget } });
    const session = await rig.agent.createSession();
    const result = await rig.agent.prompt(session.id, { text: "go" });
    // The first call fit; the second (650 used + about 650 more) would not.
    expect(model.calls).toHaveLength(1);
    expect(result.error).toMatchObject({ name: "BudgetError" });
    expect(result.error?.message).toMatch(/used 650 tokens.*budget of 1,000 tokens/);
    expect(result.error?.action).toMatch(/Raise or remove the budget in Settings/);
    const messages = await rig.agent.getMessages(session.id);
    const stopped = messages.at(-1)!;
    expect(stopped.info.role === "assistant" && stopped.info.error?.name).toBe("BudgetError");
    expect(rig.agent.status(session.id)).toEqual({ type: "idle" });

    budget = { tokens: 100_000 };
    const next = await rig.agent.prompt(session.id, { text: "continue" });
    expect(next.error).toBeUndefined();
    expect(model.calls).toHaveLength(2);
  });

  it("stops before the step that would pass the dollar budget; no budget means no limit", async () => {
    const expensive = { [MODEL.modelId]: modelInfo(MODEL.modelId, { cost: { input: 10_000, output: 10_000 } }) };
    let budget: SessionBudget | undefined = { dollars: 5 };
    const model = new ScriptedModel([text("first", { input: 300, output: 10 }), text("second"), text("third")]);
    rig = await createRig({ models: { [MODEL.modelId]: model }, infos: expensive, deps: { sessionBudget: () => budget } });
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "one" });
    // 310 tokens at $10,000 per million cost $3.10; the next request would cost about $3 more.
    expect((await rig.agent.getSession(session.id))?.cost).toBeCloseTo(3.1, 5);
    const stopped = await rig.agent.prompt(session.id, { text: "two" });
    expect(stopped.error?.message).toMatch(/cost \$3\.10.*budget of \$5\.00/);
    expect(model.calls).toHaveLength(1);
    budget = undefined;
    await rig.agent.prompt(session.id, { text: "three" });
    expect(model.calls).toHaveLength(2);
  });

  it("budgetExceeded: either limit, and nothing without one", () => {
    const session = { tokens: { input: 900, output: 50, reasoning: 0, cacheRead: 40, cacheWrite: 0 }, cost: 0.5 } as Parameters<typeof budgetExceeded>[0];
    const info = { cost: { input: 2, output: 8 } };
    expect(budgetExceeded(session, 100, info, undefined)).toBeUndefined();
    expect(budgetExceeded(session, 100, info, { tokens: 2_000 })).toBeUndefined();
    expect(budgetExceeded(session, 100, info, { tokens: 1_050 })?.name).toBe("BudgetError");
    expect(budgetExceeded(session, 100_000, info, { dollars: 0.75 })).toBeUndefined();
    expect(budgetExceeded(session, 200_000, info, { dollars: 0.75 })?.message).toMatch(/\$0\.50.*\$0\.40.*\$0\.75/);
  });
});
