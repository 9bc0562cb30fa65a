// @vitest-environment happy-dom
// The prompt box's keys: Enter sends, Shift+Enter does not, @ mentions attach files, / runs commands.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FileAttachment } from "../../src/storage";
import { PromptBox, filterMentions, mentionAt, type PromptBoxProps } from "../../src/ui/chat/prompt-box";
import { BUILTIN_COMMANDS } from "../../src/ui/chat/slash-commands";
import { button, byLabel, click, press, render, settle, typeInto, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
afterEach(async () => {
  await view?.unmount();
  view = undefined;
});

function props(overrides: Partial<PromptBoxProps> = {}) {
  const sent: { text: string; files: FileAttachment[] }[] = [];
  const commands: [string, string][] = [];
  const base: PromptBoxProps = {
    busy: false,
    commands: [...BUILTIN_COMMANDS, { name: "review", description: "Review a file", kind: "custom", template: "Review $ARGUMENTS" }],
    onSend: (input) => sent.push(input),
    onStop: vi.fn(),
    onCommand: (command, args) => commands.push([command.name, args]),
    listFiles: async () => ["src/app.ts", "src/api/client.ts", "README.md", "test/app.test.ts"],
    readAttachment: async (path) => ({ mime: "text/plain", filename: path, url: `contents of ${path}` }),
    ...overrides,
  };
  return { base, sent, commands };
}

function textbox(): HTMLTextAreaElement {
  return byLabel<HTMLTextAreaElement>(view!.container, "Message")!;
}

describe("PromptBox", () => {
  it("sends on Enter and clears the box", async () => {
    const { base, sent } = props();
    view = await render(<PromptBox {...base} />);
    await typeInto(textbox(), "fix the bug");
    await press(textbox(), "Enter");
    expect(sent).toEqual([{ text: "fix the bug", files: [] }]);
    expect(textbox().value).toBe("");
  });

  it("does not send on Shift+Enter (the browser inserts the new line)", async () => {
    const { base, sent } = props();
    view = await render(<PromptBox {...base} />);
    await typeInto(textbox(), "line one");
    const event = new KeyboardEvent("keydown", { key: "Enter", shiftKey: true, bubbles: true, cancelable: true });
    textbox().dispatchEvent(event);
    await settle();
    expect(event.defaultPrevented).toBe(false);
    expect(sent).toEqual([]);
  });

  it("does not send while an IME composition is in progress", async () => {
    const { base, sent } = props();
    view = await render(<PromptBox {...base} />);
    await typeInto(textbox(), "にほん");
    await press(textbox(), "Enter", { isComposing: true });
    expect(sent).toEqual([]);
  });

  it("sends with the Send button and ignores an empty box", async () => {
    const { base, sent } = props();
    view = await render(<PromptBox {...base} />);
    expect(button(view.container, "Send")!.disabled).toBe(true);
    await press(textbox(), "Enter");
    expect(sent).toEqual([]);
    await typeInto(textbox(), "  hello  ");
    await click(button(view.container, "Send"));
    expect(sent).toEqual([{ text: "hello", files: [] }]);
  });

  it("shows Stop while busy, which stops the agent, and does not send", async () => {
    const { base, sent } = props({ busy: true });
    view = await render(<PromptBox {...base} />);
    expect(button(view.container, "Send")!.disabled).toBe(true);
    await typeInto(textbox(), "more");
    await press(textbox(), "Enter");
    expect(sent).toEqual([]);
    await click(button(view.container, "Stop"));
    expect(base.onStop).toHaveBeenCalledTimes(1);
  });

  it("explains why sending is disabled", async () => {
    const { base } = props({ disabledReason: "Add a provider in Settings to start." });
    view = await render(<PromptBox {...base} />);
    expect(view.container.textContent).toContain("Add a provider in Settings to start.");
    await typeInto(textbox(), "hi");
    expect(button(view.container, "Send")!.disabled).toBe(true);
  });

  it("mentions a file with @: lists matches, Enter picks one, the file is attached to the message", async () => {
    const { base, sent } = props();
    view = await render(<PromptBox {...base} />);
    await typeInto(textbox(), "look at @app");
    const listbox = view.container.querySelector('[role="listbox"]')!;
    expect(listbox.getAttribute("aria-label")).toBe("Workspace files");
    const options = Array.from(listbox.querySelectorAll('[role="option"]')).map((o) => o.textContent);
    expect(options[0]).toBe("src/app.ts");
    expect(options).toContain("test/app.test.ts");
    await press(textbox(), "ArrowDown");
    await press(textbox(), "ArrowUp");
    await press(textbox(), "Enter");
    expect(textbox().value).toBe("look at @src/app.ts ");
    expect(view.container.querySelector('[role="listbox"]')).toBeNull();
    expect(button(view.container, "Remove attachment src/app.ts")).toBeDefined();
    await press(textbox(), "Enter");
    expect(sent).toEqual([{ text: "look at @src/app.ts", files: [{ mime: "text/plain", filename: "src/app.ts", url: "contents of src/app.ts" }] }]);
  });

  it("closes the mention popup on Escape without sending", async () => {
    const { base, sent } = props();
    view = await render(<PromptBox {...base} />);
    await typeInto(textbox(), "@READ");
    expect(view.container.querySelector('[role="listbox"]')).not.toBeNull();
    await press(textbox(), "Escape");
    expect(view.container.querySelector('[role="listbox"]')).toBeNull();
    expect(sent).toEqual([]);
  });

  it("offers slash commands and runs the chosen one with its arguments", async () => {
    const { base, sent, commands } = props();
    view = await render(<PromptBox {...base} />);
    await typeInto(textbox(), "/comp");
    const options = Array.from(view.container.querySelectorAll('[role="option"]')).map((o) => o.querySelector(".prompt-option-label")?.textContent);
    expect(options).toEqual(["/compact"]);
    await press(textbox(), "Enter");
    expect(textbox().value).toBe("/compact ");
    await press(textbox(), "Enter");
    expect(commands).toEqual([["compact", ""]]);
    await typeInto(textbox(), "/review src/app.ts");
    await press(textbox(), "Enter");
    expect(commands[1]).toEqual(["review", "src/app.ts"]);
    // An unknown /word is an ordinary message.
    await typeInto(textbox(), "/usr/bin is where it lives");
    await press(textbox(), "Enter");
    expect(sent).toEqual([{ text: "/usr/bin is where it lives", files: [] }]);
  });

  it("runs a complete slash command on the first Enter, while the popup is still open", async () => {
    const { base, sent, commands } = props({
      commands: [...BUILTIN_COMMANDS, { name: "newest", description: "Open the newest session", kind: "custom", template: "x" }],
    });
    view = await render(<PromptBox {...base} />);
    await typeInto(textbox(), "/new");
    // Both /new and /newest are offered, and the text already names /new exactly.
    expect(view.container.querySelectorAll('[role="option"]').length).toBe(2);
    await press(textbox(), "Enter");
    expect(commands).toEqual([["new", ""]]);
    expect(textbox().value).toBe("");
    expect(sent).toEqual([]);
    // Tab still completes, and a partial name is completed by Enter.
    await typeInto(textbox(), "/compa");
    await press(textbox(), "Enter");
    expect(textbox().value).toBe("/compact ");
    expect(commands).toHaveLength(1);
  });

  it("turns a pasted image into an attachment, and refuses it for models without vision", async () => {
    const problems: string[] = [];
    const { base, sent } = props({ onProblem: (m) => problems.push(m) });
    view = await render(<PromptBox {...base} />);
    const image = new File([new Uint8Array([137, 80, 78, 71])], "image.png", { type: "image/png" });
    const paste = new Event("paste", { bubbles: true, cancelable: true }) as Event & { clipboardData: unknown };
    paste.clipboardData = { items: [{ kind: "file", type: "image/png", getAsFile: () => image }] };
    textbox().dispatchEvent(paste);
    await settle();
    await settle();
    expect(button(view.container, "Remove attachment pasted-image-1.png")).toBeDefined();
    await click(button(view.container, "Send"));
    expect(sent[0]!.files[0]!.mime).toBe("image/png");
    expect(sent[0]!.files[0]!.url).toMatch(/^data:image\/png;base64,/);

    await view.rerender(<PromptBox {...base} supportsImages={false} />);
    textbox().dispatchEvent(paste);
    await settle();
    expect(problems[0]).toMatch(/does not accept images/);
  });
});

describe("mention helpers", () => {
  it("finds the @query before the caret only at a word start", () => {
    expect(mentionAt("see @src/a", 10)).toEqual({ query: "src/a", start: 4 });
    expect(mentionAt("mail me@host", 12)).toBeUndefined();
    expect(mentionAt("@", 1)).toEqual({ query: "", start: 0 });
  });

  it("ranks substring matches (shortest first) before subsequence matches", () => {
    expect(filterMentions(["src/components/app-shell.tsx", "app.ts", "a/p/p.ts"], "app")).toEqual(["app.ts", "src/components/app-shell.tsx", "a/p/p.ts"]);
  });
});
