// @vitest-environment happy-dom
// Sessions sidebar: newest first, search, children under their parent, rename and delete (confirmed).
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { ChatController } from "../../src/ui/chat/chat-controller";
import type { PartRecord } from "../../src/storage";
import { SessionTextSearch, SessionsSidebar, sessionTree } from "../../src/ui/sessions";
import { FakeAgent, ManualFrames, session } from "./ui-chat-fixtures";
import { button, byLabel, click, press, render, typeInto, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
afterEach(async () => {
  await view?.unmount();
  view = undefined;
});

const older = session({ id: "ses_a", title: "Add login page", updatedAt: 100 });
const newer = session({ id: "ses_b", title: "Fix flaky test", updatedAt: 200 });
const child = session({ id: "ses_c", title: "Search for usages (@explore subagent)", updatedAt: 300, parentId: "ses_a" });
const archived = session({ id: "ses_d", title: "Old", updatedAt: 400, archived: true });

describe("sessionTree", () => {
  it("lists top-level sessions newest first with their children, without archived ones", () => {
    const tree = sessionTree([older, newer, child, archived]);
    expect(tree.map((t) => t.session.title)).toEqual(["Fix flaky test", "Add login page"]);
    expect(tree[1]!.children.map((c) => c.id)).toEqual(["ses_c"]);
  });

  it("searches titles, keeping a parent whose child matches", () => {
    expect(sessionTree([older, newer, child], "flaky").map((t) => t.session.id)).toEqual(["ses_b"]);
    const byChild = sessionTree([older, newer, child], "usages");
    expect(byChild.map((t) => t.session.id)).toEqual(["ses_a"]);
    expect(byChild[0]!.children.map((c) => c.id)).toEqual(["ses_c"]);
  });
});

describe("session search in messages", () => {
  const textPart = (text: string, type: "text" | "reasoning" = "text") => ({ type, text }) as unknown as PartRecord;
  const transcripts: Record<string, PartRecord[]> = {
    ses_a: [textPart("Please add a login page with OAuth")],
    ses_b: [textPart("The test is flaky"), textPart("I think the Retry helper is at fault", "reasoning")],
    ses_c: [textPart("grep for useSession")],
  };

  it("finds sessions whose messages contain the query, reading each transcript once per version", async () => {
    const loads: string[] = [];
    const search = new SessionTextSearch({
      getMessages: async (id) => {
        loads.push(id);
        if (id === "ses_c") throw new Error("gone");
        return [{ parts: transcripts[id] ?? [] }];
      },
    });
    expect([...(await search.matching([older, newer, child], "oauth"))]).toEqual(["ses_a"]);
    expect([...(await search.matching([older, newer, child], "retry HELPER"))]).toEqual(["ses_b"]);
    expect(loads.sort()).toEqual(["ses_a", "ses_b", "ses_c", "ses_c"]);
    const changed = { ...newer, updatedAt: 999 };
    await search.matching([older, changed], "x");
    expect(loads.filter((id) => id === "ses_b")).toHaveLength(2);
    expect(sessionTree([older, newer, child], "oauth", new Set(["ses_a"])).map((t) => t.session.id)).toEqual(["ses_a"]);
  });

  it("shows a session found by its messages in the sidebar", async () => {
    const search = new SessionTextSearch({ getMessages: async (id) => [{ parts: transcripts[id] ?? [] }] });
    view = await render(<SessionsSidebar sessions={[older, newer, child]} onOpen={() => {}} onNew={() => {}} now={250} textSearch={search} />);
    await typeInto(byLabel<HTMLInputElement>(view.container, "Search sessions")!, "OAuth");
    const titles = () => Array.from(view!.container.querySelectorAll(".session-title")).map((t) => t.textContent);
    // Not in any title: first nothing matches, then the messages' search finds it (with its child).
    for (let i = 0; i < 50 && titles().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(titles()).toEqual(["Add login page", "Search for usages (@explore subagent)"]);
  });
});

describe("SessionsSidebar", () => {
  it("opens, creates, renames and deletes through its callbacks", async () => {
    const calls: string[] = [];
    view = await render(
      <SessionsSidebar
        sessions={[older, newer, child]}
        activeSessionId="ses_b"
        onOpen={(id) => calls.push(`open ${id}`)}
        onNew={() => calls.push("new")}
        onRename={(id) => calls.push(`rename ${id}`)}
        onDelete={(id) => calls.push(`delete ${id}`)}
        now={250}
      />,
    );
    const titles = Array.from(view.container.querySelectorAll(".session-title")).map((t) => t.textContent);
    expect(titles).toEqual(["Fix flaky test", "Add login page", "Search for usages (@explore subagent)"]);
    expect(view.container.querySelector('[aria-current="true"]')?.textContent).toContain("Fix flaky test");
    await click(view.container.querySelectorAll<HTMLButtonElement>(".session-open")[1]);
    await click(button(view.container, "New session"));
    await click(button(view.container, "Rename Add login page"));
    await click(button(view.container, "Delete Fix flaky test"));
    expect(calls).toEqual(["open ses_a", "new", "rename ses_a", "delete ses_b"]);
    await typeInto(byLabel<HTMLInputElement>(view.container, "Search sessions")!, "nothing like this");
    expect(view.container.textContent).toContain('No session matches "nothing like this"');
  });

  it("draws rename and delete as SVG icons with accessible names, not emoji", async () => {
    view = await render(<SessionsSidebar sessions={[older]} onOpen={() => {}} onNew={() => {}} onRename={() => {}} onDelete={() => {}} now={250} />);
    for (const name of ["Rename Add login page", "Delete Add login page"]) {
      const action = button(view.container, name)!;
      expect(action.querySelector("svg")).not.toBeNull();
      // No text in the button: an emoji needs a font the machine may not have.
      expect(action.textContent).toBe("");
    }
  });

  it("as a drawer over the transcript, closes after opening a session and on Escape", async () => {
    // The chat stylesheet positions the sidebar over the transcript in a narrow panel.
    const style = document.createElement("style");
    style.textContent = ".sessions-sidebar { position: absolute; }";
    document.head.appendChild(style);
    const calls: string[] = [];
    try {
      view = await render(<SessionsSidebar sessions={[older, newer]} onOpen={(id) => calls.push(`open ${id}`)} onNew={() => {}} onDismiss={() => calls.push("dismiss")} now={250} />);
      await click(view.container.querySelectorAll<HTMLButtonElement>(".session-open")[0]);
      expect(calls).toEqual(["open ses_b", "dismiss"]);
      await press(byLabel(view.container, "Search sessions")!, "Escape");
      expect(calls).toEqual(["open ses_b", "dismiss", "dismiss"]);
    } finally {
      style.remove();
    }
  });

  it("beside the transcript, stays open after opening a session", async () => {
    const calls: string[] = [];
    view = await render(<SessionsSidebar sessions={[older, newer]} onOpen={(id) => calls.push(`open ${id}`)} onNew={() => {}} onDismiss={() => calls.push("dismiss")} now={250} />);
    await click(view.container.querySelectorAll<HTMLButtonElement>(".session-open")[0]);
    expect(calls).toEqual(["open ses_b"]);
  });

  it("asks before deleting and renames with the entered title (controller)", async () => {
    const agent = new FakeAgent();
    agent.sessions = [older];
    const answers = { confirm: false, title: "Login page" as string | undefined };
    const controller = new ChatController(agent, {
      scheduler: new ManualFrames(),
      confirm: async () => answers.confirm,
      promptTitle: async () => answers.title,
    });
    await controller.sync.loadSessions();
    await controller.remove("ses_a");
    expect(agent.callsOf("deleteSession")).toEqual([]);
    answers.confirm = true;
    await controller.remove("ses_a");
    expect(agent.callsOf("deleteSession")).toEqual([["ses_a"]]);
    await controller.rename("ses_a");
    expect(agent.callsOf("renameSession")).toEqual([["ses_a", "Login page"]]);
    controller.dispose();
  });
});

describe("ChatController.noteFileChanges", () => {
  it("reports the user's own file edits to the open session, not the agent's", async () => {
    const agent = new FakeAgent();
    agent.sessions = [older];
    const noted: unknown[][] = [];
    const withEdits = Object.assign(agent, { noteUserEdits: async (...args: unknown[]) => void noted.push(args) });
    const controller = new ChatController(withEdits, { scheduler: new ManualFrames() });
    await controller.start();
    controller.noteFileChanges([
      { type: "changed", path: "src/a.ts", kind: "file", source: "editor" },
      { type: "changed", path: "src/b.ts", kind: "file", source: "agent" },
      { type: "created", path: "out.txt", kind: "file", source: "terminal" },
      { type: "created", path: "src", kind: "dir", source: "editor" },
    ]);
    controller.noteFileChanges([{ type: "changed", path: "src/c.ts", kind: "file", source: "agent" }]);
    expect(noted).toEqual([["ses_a", ["src/a.ts", "out.txt"]]]);
    controller.dispose();
  });
});

describe("ChatController.sessionsDeleted", () => {
  it("first stops the agent's work in sessions deleted elsewhere, then drops them from the list", async () => {
    const agent = new FakeAgent();
    agent.sessions = [older, newer];
    const order: string[] = [];
    const withDrop = Object.assign(agent, {
      dropDeletedSessions: async (ids: readonly string[]) => {
        order.push(`drop ${ids.join(",")} (listed: ${Object.keys(controller.store.getState().sessions).sort().join(",")})`);
        return [...ids];
      },
    });
    const controller = new ChatController(withDrop, { scheduler: new ManualFrames() });
    await controller.start();
    agent.sessions = [newer];
    await controller.sessionsDeleted(["ses_a"]);
    expect(order).toEqual(["drop ses_a (listed: ses_a,ses_b)"]);
    expect(Object.keys(controller.store.getState().sessions)).toEqual(["ses_b"]);
    controller.dispose();
  });
});
