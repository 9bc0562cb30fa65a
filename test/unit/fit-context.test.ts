// One tool result bigger than what is left of the model's window is cut before sending, with a
// note saying how to read the rest; the stored result stays whole (issue 20 point 7).
import { describe, expect, it } from "vitest";
import type { ModelMessage } from "ai";
import { CHARS_PER_TOKEN, fitToolResults } from "../../src/agent/session/fit-context";
import { MODEL, ScriptedModel, createRig, echoTool, modelInfo, partsOf, text, tools } from "./agent-harness";

const toolMessage = (value: string): ModelMessage => ({
  role: "tool",
  content: [{ type: "tool-result", toolCallId: "c1", toolName: "read", output: { type: "text", value } }],
});

describe("fitToolResults", () => {
  it("leaves messages that fit alone and cuts the one result that does not, saying how to read the rest", () => {
    const small: ModelMessage[] = [{ role: "user", content: "hi" }, toolMessage("short")];
    const budget = { contextTokens: 1000, reserveTokens: 200, fixedChars: 400 };
    expect(fitToolResults(small, budget)).toBe(small);

    const huge = "line\n".repeat(5000);
    const messages: ModelMessage[] = [{ role: "user", content: "read it" }, toolMessage(huge), toolMessage("small result")];
    const fitted = fitToolResults(messages, budget);
    const total = fitted.reduce((sum, m) => sum + JSON.stringify(m.content).length, 0);
    expect(total).toBeLessThanOrEqual((1000 - 200) * CHARS_PER_TOKEN - 400);
    const cut = (fitted[1]!.content as Array<{ output: { value: string } }>)[0]!.output.value;
    expect(cut.startsWith("line\nline\n")).toBe(true);
    expect(cut).toMatch(/\[Result truncated to fit the model's context window: showing the first \d+ of 25000 characters\. Read the rest in smaller pieces: the read tool with offset and limit/);
    // The other result and the input are untouched.
    expect(fitted[2]).toBe(messages[2]);
    expect((messages[1]!.content as Array<{ output: { value: string } }>)[0]!.output.value).toBe(huge);
  });

  it("in a turn: the model gets the cut result, the chat keeps the whole one", async () => {
    const huge = "x".repeat(30_000);
    const bigEcho = { ...echoTool, id: "big", async execute() { return { title: "big", output: huge, metadata: {} }; } };
    const model = new ScriptedModel([tools([{ name: "big", input: { text: "all of it" } }]), text("done")]);
    const rig = await createRig({
      models: { [MODEL.modelId]: model },
      infos: { [MODEL.modelId]: modelInfo(MODEL.modelId, { context: 4_000, output: 1_000 }) },
      services: { tools: () => [bigEcho] },
    });
    try {
      const session = await rig.agent.createSession();
      const result = await rig.agent.prompt(session.id, { text: "go" });
      expect(result.error).toBeUndefined();
      const sent = model.prompt(1);
      expect(sent).toContain("Result truncated to fit the model's context window");
      expect(sent.length).toBeLessThan(4_000 * CHARS_PER_TOKEN);
      const part = (await partsOf(rig.agent, session.id, "tool"))[0];
      expect(part?.type === "tool" && part.state.status === "completed" && part.state.output).toBe(huge);
    } finally {
      rig.dispose();
    }
  });
});
