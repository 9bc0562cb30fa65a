// @vitest-environment happy-dom
// One transcript message as rendered: the user's line breaks, dividers for the agent's own messages,
// usage shown once, a stop shown as a status rather than an error.
import "../support/happy-dom-node-name";
import { readFileSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { MessageView } from "../../src/ui/chat/message-view";
import type { MessageEntry } from "../../src/ui/chat/chat-store";
import { assistantMessage, part, userMessage } from "./ui-chat-fixtures";
import { button, render, type Rendered } from "./ui-chat-render";

// The chat's real stylesheet, so computed styles are the app's.
beforeAll(() => {
  const style = document.createElement("style");
  style.textContent = readFileSync("src/ui/chat/chat.css", "utf8");
  document.head.appendChild(style);
});

let view: Rendered | undefined;
afterEach(async () => {
  await view?.unmount();
  view = undefined;
});

const noop = () => {};

async function show(entry: MessageEntry) {
  view = await render(<MessageView entry={entry} busy={false} onFork={noop} onRevert={noop} />);
  return view.container;
}

describe("MessageView", () => {
  it("keeps the line breaks of the user's message", async () => {
    const user = userMessage("ses_1");
    const container = await show({ info: user, parts: [part(user, { type: "text", text: "line one\nline two\n  indented" })] });
    const text = container.querySelector<HTMLElement>(".part-user-text")!;
    expect(text.textContent).toBe("line one\nline two\n  indented");
    // Shown as typed: no markdown, so the newline is not folded into a space by a <p>.
    expect(getComputedStyle(text).whiteSpace).toBe("pre-wrap");
    expect(container.querySelector(".md")).toBeNull();
  });

  it("shows the user's markdown characters as typed, not as formatting", async () => {
    const user = userMessage("ses_1");
    const container = await show({ info: user, parts: [part(user, { type: "text", text: "use **bold** and <b>x</b>" })] });
    expect(container.querySelector("strong")).toBeNull();
    expect(container.querySelector("b")).toBeNull();
    expect(container.textContent).toContain("use **bold** and <b>x</b>");
  });

  it("renders the automatic compaction request as a divider, not an empty bubble with actions", async () => {
    const request = userMessage("ses_1", { synthetic: true });
    const container = await show({ info: request, parts: [part(request, { type: "compaction", auto: true })] });
    const divider = container.querySelector('[role="separator"]');
    expect(divider?.textContent).toBe("Context compacted automatically");
    expect(container.querySelector(".message-user")).toBeNull();
    expect(button(container, "Fork from here")).toBeUndefined();
    expect(button(container, "Revert to here")).toBeUndefined();
  });

  it("renders a manual /compact request as a 'Context compacted' divider", async () => {
    const request = userMessage("ses_1", { synthetic: true });
    const container = await show({ info: request, parts: [part(request, { type: "compaction", auto: false })] });
    expect(container.querySelector('[role="separator"]')?.textContent).toBe("Context compacted");
  });

  it("renders the synthetic 'continue' message after compaction as a divider, without its text", async () => {
    const resume = userMessage("ses_1", { synthetic: true });
    const container = await show({ info: resume, parts: [part(resume, { type: "text", text: "Continue if you have next steps", synthetic: true })] });
    expect(container.querySelector('[role="separator"]')?.textContent).toBe("Continued automatically");
    expect(container.textContent).not.toContain("Continue if you have next steps");
    expect(button(container, "Fork from here")).toBeUndefined();
  });

  it("still gives a real user message its bubble and actions", async () => {
    const user = userMessage("ses_1");
    const container = await show({ info: user, parts: [part(user, { type: "text", text: "hello" })] });
    expect(container.querySelector(".message-user")).not.toBeNull();
    expect(container.querySelector('[role="separator"]')).toBeNull();
    expect(button(container, "Fork from here")).toBeDefined();
  });

  it("shows a step's usage once: in the message footer, not again as a step line", async () => {
    const reply = assistantMessage("ses_1", "msg_u", { completedAt: 2, cost: 0.0001, tokens: { input: 10, output: 5, reasoning: 0, cacheRead: 0, cacheWrite: 0 } });
    const tokens = { input: 10, output: 5, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
    const container = await show({
      info: reply,
      parts: [
        part(reply, { type: "step-start" }),
        part(reply, { type: "text", text: "Done." }),
        part(reply, { type: "step-finish", reason: "stop", tokens, cost: 0.0001 }),
      ],
    });
    expect(container.querySelector('[aria-label="Message usage"]')?.textContent).toBe("gpt-5 · in 10 · out 5 · $0.0001");
    expect(container.textContent!.match(/in 10 · out 5/g)).toHaveLength(1);
  });

  it("shows a stop by the user as a neutral status note, not an error alert", async () => {
    const reply = assistantMessage("ses_1", "msg_u", { completedAt: 2, finish: "aborted", error: { name: "AbortedError", message: "Stopped by the user." } });
    const container = await show({ info: reply, parts: [part(reply, { type: "text", text: "word0 word1" })] });
    expect(container.querySelector('[role="alert"]')).toBeNull();
    expect(container.querySelector(".message-error")).toBeNull();
    expect(container.querySelector('[role="status"]')?.textContent).toBe("Stopped by the user.");
  });

  it("labels a tool call the user stopped 'Stopped', not 'Done' or 'Failed'", async () => {
    const reply = assistantMessage("ses_1", "msg_u", { completedAt: 2, finish: "aborted" });
    const input = { command: "npm run dev", description: "Start the dev server" };
    const killed = { status: "completed" as const, input, output: "ready\n\n(The command was aborted by the user.)", title: "Start the dev server", metadata: { aborted: true, exitCode: 130 }, start: 1, end: 2 };
    const cut = { status: "error" as const, input: { filePath: "a.ts" }, error: "aborted", start: 1, end: 2 };
    const finished = { ...killed, metadata: { aborted: false, exitCode: 0 } };
    const container = await show({
      info: reply,
      parts: [
        part(reply, { type: "tool", callId: "c1", tool: "bash", state: killed }),
        part(reply, { type: "tool", callId: "c2", tool: "read", state: cut }),
        part(reply, { type: "tool", callId: "c3", tool: "bash", state: finished }),
      ],
    });
    const labels = Array.from(container.querySelectorAll(".tool-status")).map((s) => s.textContent);
    expect(labels).toEqual(["Stopped", "Stopped", "Done"]);
    expect(container.querySelector('[aria-label="bash tool call, Stopped"]')).not.toBeNull();
  });

  it("shows a reasoning part without timing (from a share link) instead of throwing", async () => {
    const reply = assistantMessage("ses_1", "msg_u", { completedAt: 2 });
    const shared = part(reply, { type: "reasoning", text: "Let me check the tests first." });
    const broken = { ...part(reply, { type: "reasoning", text: "Odd timing." }), time: "soon" } as unknown as typeof shared;
    const timed = part(reply, { type: "reasoning", text: "Timed.", time: { start: 1000, end: 4000 } });
    const container = await show({ info: reply, parts: [shared, broken, timed] });
    const summaries = Array.from(container.querySelectorAll(".part-reasoning summary")).map((s) => s.textContent);
    expect(summaries).toEqual(["Reasoning", "Reasoning", "Thought for 3 s"]);
    expect(container.textContent).toContain("Let me check the tests first.");
  });

  it("still shows a real failure as an alert", async () => {
    const reply = assistantMessage("ses_1", "msg_u", { completedAt: 2, finish: "error", error: { name: "ProviderError", message: "The server failed (HTTP 500)." } });
    const container = await show({ info: reply, parts: [] });
    expect(container.querySelector('[role="alert"]')?.textContent).toContain("The server failed (HTTP 500).");
  });
});
