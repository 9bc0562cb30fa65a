// What a screen reader hears when a turn ends: the last reply's own text (not synthetic parts),
// shortened, or that the agent finished when the reply has no text.
import { describe, expect, it } from "vitest";
import { finishedAnswerText } from "../../src/ui/chat/answer-announcer";
import type { MessageEntry } from "../../src/ui/chat/chat-store";

function entry(role: "user" | "assistant", parts: Array<{ type: "text"; text: string; synthetic?: boolean } | { type: "reasoning"; text: string }>): MessageEntry {
  return { info: { id: `m${Math.random()}`, role }, parts } as unknown as MessageEntry;
}

describe("finished answer announcement", () => {
  it("says the last reply's text, whitespace folded, synthetic and reasoning parts left out", () => {
    const entries = [
      entry("user", [{ type: "text", text: "Hi" }]),
      entry("assistant", [{ type: "text", text: "Old reply" }]),
      entry("assistant", [{ type: "reasoning", text: "thinking" }, { type: "text", text: "Done:\n\nthe  title" }, { type: "text", text: "note", synthetic: true }]),
    ];
    expect(finishedAnswerText(entries)).toBe("The agent answered: Done: the title");
  });

  it("shortens long replies and says the agent finished when there is no text", () => {
    const long = "x".repeat(400);
    expect(finishedAnswerText([entry("assistant", [{ type: "text", text: long }])])).toBe(`The agent answered: ${"x".repeat(300)}…`);
    expect(finishedAnswerText([entry("assistant", [])])).toBe("The agent finished.");
    expect(finishedAnswerText([])).toBe("The agent finished.");
  });
});
