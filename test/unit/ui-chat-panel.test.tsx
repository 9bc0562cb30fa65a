// @vitest-environment happy-dom
// The chat panel end to end against a fake agent: events in, the right views and calls out.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { toDisposable } from "../../src/base";
import type { FileChange, FileStat } from "../../src/runtime";
import type { SessionRecord } from "../../src/storage";
import { ChatController } from "../../src/ui/chat/chat-controller";
import { ChatPanel, type ChatPanelProps } from "../../src/ui/chat/chat-panel";
import { INIT_PROMPT } from "../../src/ui/chat/slash-commands";
import { FakeAgent, ManualFrames, assistantMessage, part, session, userMessage } from "./ui-chat-fixtures";
import { button, byLabel, click, press, render, settle, typeInto, type Rendered } from "./ui-chat-render";
import { act } from "react";

let view: Rendered | undefined;
let controller: ChatController | undefined;
afterEach(async () => {
  await view?.unmount();
  controller?.dispose();
  view = undefined;
});

type FakeFiles = ChatPanelProps["files"] & {
  /** Writes (or with undefined removes) a file and tells the listeners, as the workspace service does. */
  change(path: string, text: string | undefined): void;
};

function fakeFiles(files: Record<string, string>): FakeFiles {
  const listeners: ((changes: FileChange[]) => void)[] = [];
  const stat = (path: string): FileStat => ({ path, kind: "file", size: files[path]!.length, mtime: 1 });
  return {
    listAll: async () => Object.keys(files).map(stat),
    list: async (dir = "") => {
      const inDir = Object.keys(files).filter((p) => p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes("/"));
      if (inDir.length === 0) throw new Error("no such folder");
      return inDir.map(stat);
    },
    readFile: async (path) => new TextEncoder().encode(files[path]),
    readText: async (path) => files[path]!,
    onDidChange: (listener) => {
      listeners.push(listener);
      return toDisposable(() => listeners.splice(listeners.indexOf(listener), 1));
    },
    change(path, text) {
      const existed = path in files;
      if (text === undefined) delete files[path];
      else files[path] = text;
      const change = { path, kind: "file", type: text === undefined ? "deleted" : existed ? "changed" : "created", source: "user" } as unknown as FileChange;
      for (const listener of [...listeners]) listener([change]);
    },
  };
}

async function setup(options: { hasProvider?: boolean; files?: Record<string, string>; contextWindow?: ChatPanelProps["contextWindow"]; seed?: (agent: FakeAgent, s: SessionRecord) => void } = {}) {
  const agent = new FakeAgent();
  const frames = new ManualFrames();
  const problems: string[] = [];
  const opened: string[] = [];
  controller = new ChatController(agent, { scheduler: frames, onProblem: (m) => problems.push(m) });
  const s = session({ title: "Fix the build", updatedAt: 5 });
  agent.sessions = [s];
  options.seed?.(agent, s);
  await controller.start();
  let settingsOpened = 0;
  const files = fakeFiles(options.files ?? { "src/app.ts": "export {};" });
  view = await render(
    <ChatPanel
      controller={controller}
      files={files}
      hasProvider={options.hasProvider ?? true}
      onOpenSettings={() => settingsOpened++}
      onOpenFile={(path) => opened.push(path)}
      onProblem={(m) => problems.push(m)}
      contextWindow={options.contextWindow}
    />,
  );
  const frame = async () => {
    await act(async () => frames.runFrame());
    await settle();
  };
  return { agent, files, frames, frame, s, problems, opened, settingsOpened: () => settingsOpened };
}

describe("ChatPanel", () => {
  it("shows the first-run guide instead of the chat until a provider exists", async () => {
    const { settingsOpened } = await setup({ hasProvider: false });
    expect(view!.container.textContent).toContain("Connect a model to start");
    expect(view!.container.textContent).toContain("Add a model provider in Settings to start.");
    await typeInto(byLabel<HTMLTextAreaElement>(view!.container, "Message")!, "hello");
    expect(button(view!.container, "Send")!.disabled).toBe(true);
    await click(button(view!.container, "Open Settings"));
    expect(settingsOpened()).toBe(1);
  });

  it("without a provider, keeps an existing transcript readable with the connect-a-model prompt beside it", async () => {
    const { settingsOpened } = await setup({
      hasProvider: false,
      seed: (agent, s) => {
        const user = userMessage(s.id);
        agent.messages.set(s.id, [{ info: user, parts: [part(user, { type: "text", text: "Shared question about the build" })] }]);
      },
    });
    await settle();
    expect(view!.container.textContent).toContain("Shared question about the build");
    expect(view!.container.textContent).not.toContain("Connect a model to start");
    expect(view!.container.querySelector('[aria-label="Connect a model"]')?.textContent).toContain("Connect a model to continue this session");
    await click(button(view!.container, "Open Settings"));
    expect(settingsOpened()).toBe(1);
  });

  it("opens the newest session and sends the message to it with the picked agent", async () => {
    const { agent, s } = await setup();
    expect(view!.container.querySelector(".chat-title")?.textContent).toBe("Fix the build");
    const agentSelect = byLabel<HTMLSelectElement>(view!.container, "Agent")!;
    expect(Array.from(agentSelect.options).map((o) => o.value)).toEqual(["build", "plan"]);
    await act(async () => {
      agentSelect.value = "plan";
      agentSelect.dispatchEvent(new Event("change", { bubbles: true }));
    });
    await typeInto(byLabel<HTMLTextAreaElement>(view!.container, "Message")!, "make a plan");
    await press(byLabel(view!.container, "Message")!, "Enter");
    expect(agent.callsOf("prompt")).toEqual([[s.id, { text: "make a plan", agent: "plan" }]]);
  });

  it("renders streamed text, live bash output, usage and cost from bus events, once per frame", async () => {
    const { agent, frame, s } = await setup();
    const user = userMessage(s.id);
    const reply = assistantMessage(s.id, user.id);
    agent.bus.emit("message-updated", { message: user });
    agent.bus.emit("part-updated", { part: part(user, { type: "text", text: "run the tests" }) });
    agent.bus.emit("message-updated", { message: reply });
    agent.bus.emit("session-status", { sessionId: s.id, status: { type: "busy" } });
    agent.bus.emit("part-updated", { part: part(reply, { type: "text", text: "Running **tests** now." }, "prt_1") });
    const running = { status: "running" as const, input: { command: "npm test", description: "Run tests" }, start: 1, metadata: { output: "PASS a.test.ts\n" } };
    const bash = part(reply, { type: "tool", callId: "c1", tool: "bash", state: running }, "prt_2");
    agent.bus.emit("part-updated", { part: bash });
    expect(view!.container.textContent).not.toContain("Running");
    await frame();
    const text = view!.container.textContent!;
    expect(text).toContain("run the tests");
    expect(view!.container.querySelector("strong")?.textContent).toBe("tests");
    expect(view!.container.querySelector('[aria-label="Command output"]')?.textContent).toBe("PASS a.test.ts\n");
    expect(button(view!.container, "Stop")).toBeDefined();

    agent.bus.emit("part-updated", { part: part(reply, { type: "tool", callId: "c1", tool: "bash", state: { ...running, metadata: { output: "PASS a.test.ts\nPASS b.test.ts\n" } } }, "prt_2") });
    agent.bus.emit("message-updated", { message: { ...reply, completedAt: 2, cost: 0.0123, tokens: { input: 1200, output: 340, reasoning: 0, cacheRead: 0, cacheWrite: 0 } } });
    agent.bus.emit("session-updated", { session: { ...s, cost: 0.0123, tokens: { input: 1200, output: 340, reasoning: 0, cacheRead: 0, cacheWrite: 0 } } });
    agent.bus.emit("session-status", { sessionId: s.id, status: { type: "idle" } });
    await frame();
    expect(view!.container.querySelector('[aria-label="Command output"]')?.textContent).toContain("PASS b.test.ts");
    expect(view!.container.querySelector('[aria-label="Message usage"]')?.textContent).toBe("gpt-5 · in 1.2k · out 340 · $0.01");
    expect(view!.container.querySelector('[aria-label="Session usage"]')?.textContent).toContain("$0.01");
    expect(button(view!.container, "Stop")).toBeUndefined();
  });

  it("shows a permission card from the bus, replies through the agent, and drops it when replied", async () => {
    const { agent, frame, s } = await setup();
    agent.bus.emit("permission-asked", { id: "per_1", sessionId: s.id, permission: "bash", patterns: ["npm publish"], always: ["npm publish *"], metadata: { command: "npm publish" }, createdAt: 1 });
    agent.bus.emit("permission-asked", { id: "per_other", sessionId: "ses_elsewhere", permission: "bash", patterns: ["ls"], always: [], metadata: {}, createdAt: 1 });
    await frame();
    expect(view!.container.querySelectorAll(".permission-card")).toHaveLength(1);
    await click(button(view!.container, "Allow once"));
    expect(agent.callsOf("replyPermission")).toEqual([["per_1", "once", undefined]]);
    agent.bus.emit("permission-replied", { sessionId: s.id, requestId: "per_1", reply: "once" });
    await frame();
    expect(view!.container.querySelector(".permission-card")).toBeNull();
  });

  it("counts down to the next retry", async () => {
    const { agent, frame, s } = await setup();
    agent.bus.emit("session-status", { sessionId: s.id, status: { type: "retry", attempt: 2, message: "Rate limited (HTTP 429)", nextAt: Date.now() + 60_000 } });
    await frame();
    const status = view!.container.querySelector(".status-retry")!;
    // A minute away: shown as 60 s, or a little less if the machine is slow to render it.
    expect(status.textContent).toMatch(/Retrying in (60|5\d)s \(attempt 2\)/);
    expect(status.textContent).toContain("Rate limited (HTTP 429)");
  });

  it("shows an error with the action to take, and Open Settings for a key error", async () => {
    const { agent, frame, s, settingsOpened } = await setup();
    const user = userMessage(s.id);
    agent.bus.emit("message-updated", { message: user });
    agent.bus.emit("message-updated", {
      message: assistantMessage(s.id, user.id, { completedAt: 3, error: { name: "APICallError", status: 401, message: "Incorrect API key provided.", action: "Check your API key for OpenAI in Settings." } }),
    });
    await frame();
    const alert = view!.container.querySelector('[role="alert"]')!;
    expect(alert.textContent).toContain("Incorrect API key provided.");
    expect(alert.textContent).toContain("Check your API key for OpenAI in Settings.");
    await click(button(alert, "Open Settings"));
    expect(settingsOpened()).toBe(1);
  });

  it("forks from a message and opens the fork; reverts and unreverts", async () => {
    const { agent, frame, s } = await setup();
    const user = userMessage(s.id);
    agent.bus.emit("message-updated", { message: user });
    agent.bus.emit("part-updated", { part: part(user, { type: "text", text: "first" }) });
    await frame();
    await click(button(view!.container, "Fork from here"));
    await frame();
    expect(agent.callsOf("fork")).toEqual([[s.id, user.id]]);
    expect(view!.container.querySelector(".chat-title")?.textContent).toBe("Fork");

    await act(async () => controller!.openSession(s.id));
    await click(button(view!.container, "Revert to here"));
    expect(agent.callsOf("revert")).toEqual([[s.id, user.id]]);
    agent.bus.emit("session-updated", { session: { ...s, revert: { messageId: user.id, snapshot: "snap" } } });
    await frame();
    expect(view!.container.textContent).not.toContain("first");
    expect(view!.container.querySelector(".revert-banner")?.textContent).toContain("1 later message is hidden");
    await click(button(view!.container, "Unrevert"));
    expect(agent.callsOf("unrevert")).toEqual([[s.id]]);
  });

  it("runs /compact, /init and custom commands from .webcode/command", async () => {
    const { agent, s } = await setup({ files: { ".webcode/command/review.md": "---\ndescription: Review a file\nagent: plan\n---\nReview $ARGUMENTS for bugs." } });
    await settle();
    const box = () => byLabel<HTMLTextAreaElement>(view!.container, "Message")!;
    await typeInto(box(), "/compact");
    await press(box(), "Escape");
    await press(box(), "Enter");
    expect(agent.callsOf("compact")).toEqual([[s.id]]);
    await typeInto(box(), "/init");
    await press(box(), "Escape");
    await press(box(), "Enter");
    expect(agent.callsOf("prompt")[0]).toEqual([s.id, { text: INIT_PROMPT, agent: "build" }]);
    await typeInto(box(), "/rev");
    expect(view!.container.querySelector('[role="option"]')?.textContent).toContain("Review a file");
    await press(box(), "Enter");
    await typeInto(box(), "/review src/app.ts");
    await press(box(), "Enter");
    expect(agent.callsOf("prompt")[1]).toEqual([s.id, { text: "Review src/app.ts for bugs.", agent: "plan" }]);
  });

  it("reloads workspace commands and agents when their files change, without a page reload", async () => {
    const { agent, files } = await setup();
    const box = () => byLabel<HTMLTextAreaElement>(view!.container, "Message")!;
    const options = () => Array.from(view!.container.querySelectorAll('[role="option"]')).map((o) => o.textContent ?? "");
    await typeInto(box(), "/rev");
    expect(options()).toEqual([]);
    await act(async () => files.change(".webcode/commands/review.md", "---\ndescription: Review a file\n---\nReview $ARGUMENTS."));
    await settle();
    await typeInto(box(), "");
    await typeInto(box(), "/rev");
    expect(options().join()).toContain("Review a file");
    await act(async () => files.change(".webcode/commands/review.md", undefined));
    await settle();
    await typeInto(box(), "");
    await typeInto(box(), "/rev");
    expect(options()).toEqual([]);

    // A workspace build.md redefines the built-in agent: the picker says so, with the path.
    agent.agents = [
      { name: "build", description: "Builds", mode: "primary", builtIn: true, source: ".webcode/agent/build.md" },
      { name: "plan", description: "Plans", mode: "primary", builtIn: true },
      { name: "reviewer", description: "Reviews", mode: "primary", builtIn: false, source: ".opencode/agent/reviewer.md" },
    ];
    await act(async () => agent.bus.emit("agents-changed", {}));
    await settle();
    const picker = byLabel<HTMLSelectElement>(view!.container, "Agent")!;
    expect(Array.from(picker.options).map((o) => o.textContent)).toEqual([
      "build (redefined by .webcode/agent/build.md)",
      "plan",
      "reviewer (from .opencode/agent/reviewer.md)",
    ]);
    expect(picker.options[0]!.title).toContain("Built-in agent redefined by the workspace file .webcode/agent/build.md");
  });

  it("shows a context meter: the last call's tokens against the model's context window", async () => {
    const windows: Record<string, number> = { "gpt-5": 200_000 };
    const { agent, frame, s } = await setup({ contextWindow: (model) => windows[model.modelId] });
    const user = userMessage(s.id);
    agent.bus.emit("message-updated", { message: user });
    await frame();
    expect(byLabel(view!.container, "Context used")).toBeUndefined();
    const first = assistantMessage(s.id, user.id, { completedAt: 2, tokens: { input: 20_000, output: 1_000, reasoning: 0, cacheRead: 0, cacheWrite: 0 } });
    const second = assistantMessage(s.id, user.id, { completedAt: 3, tokens: { input: 4_000, output: 2_000, reasoning: 0, cacheRead: 40_000, cacheWrite: 4_000 } });
    agent.bus.emit("message-updated", { message: first });
    agent.bus.emit("message-updated", { message: second });
    await frame();
    const meter = byLabel<HTMLMeterElement>(view!.container, "Context used")!;
    // The newest call counts (cached input too), not the session's total.
    expect(meter.getAttribute("value")).toBe("50000");
    expect(meter.getAttribute("max")).toBe("200000");
    expect(view!.container.querySelector(".chat-context")?.textContent).toContain("50k of 200k (25%)");
    // A model whose window is unknown shows no meter rather than a guess.
    delete windows["gpt-5"];
    agent.bus.emit("message-updated", { message: { ...second, completedAt: 4 } });
    await frame();
    expect(byLabel(view!.container, "Context used")).toBeUndefined();
  });

  it("opens a subagent's child session from its task part", async () => {
    const { agent, frame, s } = await setup();
    const child = session({ title: "Explore (@explore subagent)", parentId: s.id });
    agent.bus.emit("session-created", { session: child });
    const user = userMessage(s.id);
    const reply = assistantMessage(s.id, user.id);
    agent.bus.emit("message-updated", { message: user });
    agent.bus.emit("message-updated", { message: reply });
    agent.bus.emit("part-updated", {
      part: part(reply, { type: "tool", callId: "t1", tool: "task", state: { status: "running", input: { description: "Explore", subagent_type: "explore" }, start: 1, metadata: { sessionId: child.id, summary: [{ callId: "x", tool: "grep", status: "completed", title: "TODO" }] } } }),
    });
    await frame();
    expect(view!.container.querySelector('[aria-label="Subagent progress"]')?.textContent).toContain("grep");
    await click(button(view!.container, "Open subagent session"));
    await frame();
    expect(view!.container.querySelector(".chat-title")?.textContent).toBe(child.title);
    await click(button(view!.container, "Back to parent session"));
    expect(view!.container.querySelector(".chat-title")?.textContent).toBe(s.title);
  });
});
