// @vitest-environment happy-dom
// Sharing in the UI: the Share dialog (secret findings left out by default, size against the cap,
// Copy link, .webcode file when it does not fit), opening links and files read-only, Continue,
// `#share=` on load, the runtime guard, and a transcript view that renders payloads inert.
import "../support/happy-dom-node-name";
import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeAddressBar } from "../support/fake-address-bar";
import { WorkspaceFiles, createWorkspace } from "../../src/runtime";
import { RECORD_VERSION, openStorage, type MessageRecord, type PartRecord, type SessionRecord, type Storage, type WorkspaceRecord } from "../../src/storage";
import { ShareError, decodeShareFile, decodeShareLink, encodeShareLink, type SecretFinding } from "../../src/transfer";
import type { WorkbenchServices } from "../../src/ui/app";
import { Dialogs, Notifications } from "../../src/ui/common";
import {
  ReadOnlyWorkspaceError,
  ShareDialog,
  SharedTranscript,
  continueShared,
  createShareUi,
  groupFindings,
  openShareLink,
  refuseRuntimeWhenReadOnly,
  shareLinkBase,
  shareOptionsFor,
  type ShareContext,
} from "../../src/ui/share";
import { button, click, render, settle } from "./ui-chat-render";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const FAKE_KEY = `sk-proj-${"A1b2C3d4E5".repeat(4)}`;
const FAKE_TOKEN = `ghp_${"x9Y8z7W6v5".repeat(4)}`;
const PWN = "window.__pwned=1";

let counter = 0;
async function seeded(options: { withSession?: boolean } = {}) {
  const storage = await openStorage({ name: `ui-transfer-share-${counter++}-${Date.now()}` });
  const workspace = await createWorkspace(storage, "Demo", { seedReadme: false });
  const files = await WorkspaceFiles.open(storage, workspace.id);
  files.writeSync("src/app.ts", 'export const greeting = "hello";\n');
  files.writeSync("config.js", `export const key = "${FAKE_KEY}";\n`);
  files.writeSync(".env", `API_KEY=${FAKE_KEY}\n`);
  await files.flush();
  cleanups.push(() => {
    files.dispose();
    storage.close();
  });
  let session: SessionRecord | undefined;
  if (options.withSession ?? true) {
    const now = Date.now();
    const model = { providerId: "anthropic", modelId: "claude-sonnet-4-5" };
    const usage = { input: 1, output: 1, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
    session = { v: RECORD_VERSION, id: "ses_1", workspaceId: workspace.id, title: `Greeting <img src=x onerror="${PWN}">`, createdAt: now, updatedAt: now, agent: "build", model, permission: [], tokens: usage, cost: 0, todos: [] };
    const older: SessionRecord = { ...session, id: "ses_0", title: "Older session", updatedAt: now - 1000 };
    const messages: MessageRecord[] = [
      { v: RECORD_VERSION, id: "msg_1", sessionId: "ses_1", role: "user", createdAt: now, agent: "build", model },
      { v: RECORD_VERSION, id: "msg_2", sessionId: "ses_1", role: "assistant", createdAt: now + 1, parentId: "msg_1", agent: "build", model, tokens: usage, cost: 0, finish: "stop" },
    ];
    const part = (id: string, messageId: string, rest: object) => ({ v: RECORD_VERSION, id, sessionId: "ses_1", messageId, ...rest }) as PartRecord;
    const parts: PartRecord[] = [
      part("prt_1", "msg_1", { type: "text", text: `Add a **greeting**\n\n<img src=x onerror="${PWN}">\n\n<script>${PWN}</script>\n\n[link](javascript:${PWN})` }),
      part("prt_2", "msg_2", {
        type: "tool",
        callId: "c1",
        tool: "bash",
        state: { status: "completed", input: { command: "echo" }, output: `<img src=x onerror="${PWN}"> ${FAKE_TOKEN}`, title: `<b>title</b>`, metadata: {}, start: 1, end: 2 },
      }),
      part("prt_3", "msg_2", { type: "text", text: "Done." }),
    ];
    await storage.writeBatch({ sessions: [older, session], messages, parts });
  }
  return { storage, workspace, files, session };
}

/** Settles until `condition` holds, for up to 10 s (compression and hashing run off the test's thread, slower on a busy machine). */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (condition()) return;
    await settle();
  }
  if (condition()) return;
  throw new Error(`timed out waiting for ${what}`);
}

function checkbox(container: ParentNode, label: RegExp): HTMLInputElement {
  const found = Array.from(container.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')).find((c) => label.test(c.closest("label")?.textContent ?? ""));
  if (!found) throw new Error(`no checkbox ${label}`);
  return found;
}

const linkField = (container: ParentNode) => {
  const label = Array.from(container.querySelectorAll("label")).find((l) => l.textContent === "Share link");
  return label ? container.querySelector<HTMLInputElement>(`[id="${label.getAttribute("for")}"]`) : null;
};

describe("finding groups", () => {
  const finding = (rest: Partial<SecretFinding>): SecretFinding => ({ where: "file", kind: "openai-key", preview: "sk-…", ...rest });
  it("groups findings per file and one for the transcript, and maps choices to encoder options", () => {
    const groups = groupFindings([
      finding({ path: "b.js" }),
      finding({ path: "a.env", kind: "env-file" }),
      finding({ path: "b.js", kind: "github-token" }),
      finding({ where: "message", messageId: "m1" }),
    ]);
    expect(groups.map((g) => [g.key, g.findings.length])).toEqual([
      ["file:a.env", 1],
      ["file:b.js", 2],
      ["transcript", 1],
    ]);
    expect(shareOptionsFor(groups, new Set(groups.map((g) => g.key)))).toEqual({ excludePaths: ["a.env", "b.js"], redactFindings: true, knownSecrets: [] });
    expect(shareOptionsFor(groups, new Set(["file:b.js"]), ["configured-key-123"])).toEqual({ excludePaths: ["b.js"], redactFindings: false, knownSecrets: ["configured-key-123"] });
    expect(shareOptionsFor(groups, new Set())).toEqual({ excludePaths: [], redactFindings: false, knownSecrets: [] });
  });
});

describe("shareLinkBase", () => {
  it("keeps the origin and path, never the sender's query parameters or fragment", () => {
    expect(shareLinkBase("https://webcode.test/?runtime=browser")).toBe("https://webcode.test/");
    expect(shareLinkBase("https://host.example/app/index.html?runtime=webcontainer&debug=1#share=v1.abc")).toBe("https://host.example/app/index.html");
    expect(shareLinkBase("http://127.0.0.1:4173/")).toBe("http://127.0.0.1:4173/");
  });
});

describe("ShareDialog", () => {
  async function openDialog(props: { cap?: number; preferredSessionId?: string; withSession?: boolean } = {}) {
    const data = await seeded({ withSession: props.withSession });
    const copied: string[] = [];
    const saved: Array<{ name: string; bytes: Uint8Array }> = [];
    const flush = vi.fn(async () => {});
    const view = await render(
      <ShareDialog
        storage={data.storage}
        workspace={data.workspace}
        flush={flush}
        linkBase="https://webcode.test/?runtime=browser"
        onClose={() => {}}
        copyText={async (text) => {
          copied.push(text);
        }}
        save={(bytes, name) => saved.push({ bytes, name })}
        {...(props.cap !== undefined && { cap: props.cap })}
        {...(props.preferredSessionId && { preferredSessionId: props.preferredSessionId })}
      />,
    );
    cleanups.push(() => view.unmount());
    return { ...data, view, copied, saved, flush };
  }

  it("leaves out secrets by default, shows the size and what was left out, and copies a link that opens to the same session", async () => {
    const { view, copied, flush } = await openDialog();
    await waitFor(() => linkField(view.container) !== null, "the link");
    const dialog = view.container.querySelector('[role="dialog"]')!;
    expect(dialog.getAttribute("aria-label")).toBe("Share");
    expect(flush).toHaveBeenCalled();
    // The most recently updated session is picked; the other one can be chosen.
    const select = dialog.querySelector("select")!;
    expect(dialog.querySelector(`label[for="${select.id}"]`)?.textContent).toBe("Session");
    expect(select.value).toBe("ses_1");
    expect(checkbox(dialog, /^Leave out \.env: an environment file \(\.env\), OpenAI API key sk-pro… \(48 characters\)$/).checked).toBe(true);
    expect(checkbox(dialog, /^Leave out config\.js: OpenAI API key/).checked).toBe(true);
    expect(checkbox(dialog, /^Redact key-like strings everywhere in the share \(1 found in the transcript\)$/).checked).toBe(true);
    expect(dialog.textContent).not.toContain(FAKE_KEY);
    expect(dialog.querySelector('[aria-label="Link size"]')!.textContent).toMatch(/^Link size: [\d.]+ (B|KB) of 1\.4 MB$/);
    const omitted = Array.from(dialog.querySelectorAll('[aria-label="Left out of the share"] li')).map((li) => li.textContent);
    expect(omitted).toEqual([".env — left out by you", "config.js — left out by you"]);
    expect(button(dialog, "Download .webcode file")).toBeUndefined();

    const link = linkField(dialog)!.value;
    // The sender's ?runtime= (and any other query parameter) is not carried.
    expect(link.startsWith("https://webcode.test/#share=v1.")).toBe(true);
    expect(linkField(dialog)!.readOnly).toBe(true);
    await click(button(dialog, "Copy link"));
    expect(copied).toEqual([link]);
    expect(dialog.textContent).toContain("Link copied to the clipboard.");

    const restored = decodeShareLink(link);
    expect(restored.entries.map((e) => e.path)).toEqual(["src/app.ts"]);
    expect(restored.envelope.session.title).toBe(`Greeting <img src=x onerror="${PWN}">`);
    expect(restored.envelope.messages).toHaveLength(2);
    expect(JSON.stringify(restored.envelope)).not.toContain(FAKE_TOKEN);
    expect(JSON.stringify(restored.envelope)).toContain("[redacted github-token]");

    // Keeping config.js in: the next link holds it (redaction of key-like strings still applies).
    await act(async () => checkbox(dialog, /^Leave out config\.js/).click());
    await waitFor(() => linkField(dialog) !== null && linkField(dialog)!.value !== link, "a new link");
    const second = decodeShareLink(linkField(dialog)!.value);
    expect(second.entries.map((e) => e.path)).toEqual(["config.js", "src/app.ts"]);
    expect(Array.from(dialog.querySelectorAll('[aria-label="Left out of the share"] li')).map((li) => li.textContent)).toEqual([".env — left out by you"]);
  });

  it("offers a .webcode file when even the transcript is over the cap, and the file opens", async () => {
    const { view, saved } = await openDialog({ cap: 300 });
    await waitFor(() => button(view.container, "Download .webcode file") !== undefined, "the download button");
    expect(view.container.querySelector('[aria-label="Link size"]')!.textContent).toMatch(/too large for a link$/);
    expect(linkField(view.container)).toBeNull();
    expect(button(view.container, "Copy link")).toBeUndefined();
    await click(button(view.container, "Download .webcode file"));
    expect(saved.map((s) => s.name)).toEqual(["Greeting -img src=x onerror=-window.__pwned=1-.webcode"]);
    const restored = decodeShareFile(saved[0]!.bytes);
    expect(restored.entries.map((e) => e.path)).toEqual(["src/app.ts"]);
  });

  it("shares the files alone when the workspace has no session", async () => {
    const { view } = await openDialog({ withSession: false });
    await waitFor(() => linkField(view.container) !== null, "the link");
    expect(view.container.textContent).toContain("This workspace has no chat session yet: the share holds its files only.");
    const restored = decodeShareLink(linkField(view.container)!.value);
    expect(restored.envelope.messages).toEqual([]);
    expect(restored.envelope.session.title).toBe("Demo");
  });
});

function context(storage: Storage) {
  const infos: string[] = [];
  const switchTo = vi.fn(async () => {});
  const ctx: ShareContext = { storage, workspaces: { refresh: async () => {}, switchTo }, notifications: { info: (m) => infos.push(m) } };
  return { ctx, infos, switchTo };
}

async function linkOf(storage: Storage, workspace: WorkspaceRecord, session: SessionRecord): Promise<string> {
  const source = { session, messages: await storage.messages.list(session.id), parts: await storage.parts.listBySession(session.id), files: await storage.files.list(workspace.id) };
  return `https://webcode.test/${encodeShareLink(source).fragment!}`;
}

describe("opening shares", () => {
  it("opens a link as a new read-only workspace and session, switches to it; Continue forks an editable copy", async () => {
    const { storage, workspace, session } = await seeded();
    const link = await linkOf(storage, workspace, session!);
    const target = await openStorage({ name: `ui-transfer-share-target-${counter++}` });
    cleanups.push(() => target.close());
    const { ctx, infos, switchTo } = context(target);
    const opened = await openShareLink(ctx, link);
    expect(opened.workspace.readOnly).toBe(true);
    expect(opened.session.share).toEqual({ openedFrom: "link", readOnly: true });
    expect(switchTo).toHaveBeenCalledWith(opened.workspace.id);
    expect(infos[0]).toMatch(/^Opened the shared session "Greeting <img.*" read-only\. Nothing runs until you press Continue\.$/);
    expect((await target.files.list(opened.workspace.id)).filter((f) => f.kind === "file").map((f) => f.path).sort()).toEqual([".env", "config.js", "src/app.ts"]);

    await continueShared(ctx, opened.workspace.id);
    const all = await target.workspaces.list();
    expect(all).toHaveLength(2);
    const editable = all.find((w) => w.id !== opened.workspace.id)!;
    expect(editable.readOnly).toBeUndefined();
    expect(switchTo).toHaveBeenLastCalledWith(editable.id);
    const [forked] = await target.sessions.list(editable.id);
    expect(forked!.share).toBeUndefined();
    expect(await target.messages.list(forked!.id)).toHaveLength(2);
    // The shared original stays read-only.
    expect((await target.workspaces.get(opened.workspace.id))!.readOnly).toBe(true);
  });

  it("shows a shared title's text-direction characters as ⟨U+…⟩ in the workspace name, the notices and the Shared panel", async () => {
    const { storage, workspace, files, session } = await seeded();
    const hostile = { ...session!, title: "Fix \u202Egnp.exe" };
    await storage.sessions.put(hostile);
    const link = await linkOf(storage, workspace, hostile);
    const target = await openStorage({ name: `ui-transfer-share-target-${counter++}` });
    cleanups.push(() => target.close());
    const { ctx, infos } = context(target);
    const opened = await openShareLink(ctx, link);
    const invisible = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;
    expect(opened.workspace.name).toBe("Shared: Fix ⟨U+202E⟩gnp.exe");
    expect(infos[0]).toContain('"Fix ⟨U+202E⟩gnp.exe"');
    expect(infos.join("")).not.toMatch(invisible);

    const ui = createShareUi({ address: { href: () => "https://webcode.test/", replace: () => {} } });
    const services = { storage: target, workspace: opened.workspace, files, notifications: new Notifications(), dialogs: new Dialogs(), workspaces: ctx.workspaces, documents: { tabs: [] }, showPanel: () => {} } as unknown as WorkbenchServices;
    const view = await render(<>{ui.panels[0]!.render(services)}</>);
    cleanups.push(() => view.unmount());
    await waitFor(() => view.container.querySelector(".shared-title")?.textContent !== "Shared session", "the title");
    const title = view.container.querySelector(".shared-title bdi")!;
    expect(title.textContent).toBe("Fix ⟨U+202E⟩gnp.exe");
    expect(view.container.textContent).not.toMatch(invisible);
  });

  it("refuses a cut-off or altered link and writes nothing", async () => {
    const { storage, workspace, session } = await seeded();
    const link = await linkOf(storage, workspace, session!);
    const target = await openStorage({ name: `ui-transfer-share-target-${counter++}` });
    cleanups.push(() => target.close());
    const { ctx, switchTo } = context(target);
    // Cut off when copied, and a character no share link has.
    for (const bad of [link.slice(0, Math.floor(link.length * 0.6)), `${link.slice(0, -5)}*${link.slice(-4)}`]) {
      await expect(openShareLink(ctx, bad)).rejects.toBeInstanceOf(ShareError);
    }
    expect(await target.workspaces.list()).toEqual([]);
    expect(await target.sessions.list()).toEqual([]);
    expect(switchTo).not.toHaveBeenCalled();
  });

  it("asks before opening #share= on load (after removing it from the address); Open opens it; a bad link only shows an error", async () => {
    const { storage, workspace, files, session } = await seeded();
    const link = await linkOf(storage, workspace, session!);
    const fragment = link.slice(link.indexOf("#"));
    for (const [href, expectOpened] of [
      [`https://webcode.test/?runtime=browser${fragment}`, true],
      ["https://webcode.test/?runtime=browser#share=v1.AAAA", false],
    ] as const) {
      const replaced: string[] = [];
      const ui = createShareUi({ address: { href: () => href, replace: (url) => replaced.push(url) } });
      const switchTo = vi.fn(async () => {});
      const notifications = new Notifications((() => 0) as unknown as typeof setTimeout);
      const dialogs = new Dialogs();
      const before = (await storage.workspaces.list()).length;
      const services = {
        storage,
        workspace,
        files,
        notifications,
        dialogs,
        workspaces: { refresh: async () => {}, switchTo },
        documents: { tabs: [], saveAll: async () => true },
        showPanel: () => {},
      } as unknown as WorkbenchServices;
      const view = await render(<>{ui.topBar[0]!.render(services)}</>);
      cleanups.push(() => view.unmount());
      expect(replaced).toEqual(["https://webcode.test/?runtime=browser"]);
      if (expectOpened) {
        await waitFor(() => dialogs.store.getState().current !== undefined, "the question");
        const asked = dialogs.store.getState().current!;
        expect(asked.request).toMatchObject({ kind: "choice", title: "Open shared session?", cancelId: "cancel" });
        expect(asked.request.kind === "choice" && asked.request.buttons.map((b) => b.label)).toEqual(["Cancel", "Open"]);
        expect((await storage.workspaces.list()).length).toBe(before);
        expect(switchTo).not.toHaveBeenCalled();
        await act(async () => asked.resolve("open"));
      }
      await waitFor(() => switchTo.mock.calls.length > 0 || notifications.store.getState().items.length > 0, "the outcome");
      const items = notifications.store.getState().items;
      if (expectOpened) {
        expect(switchTo).toHaveBeenCalledTimes(1);
        expect((await storage.workspaces.list()).length).toBe(before + 1);
        expect(items.map((i) => i.level)).toEqual(["info"]);
      } else {
        expect(switchTo).not.toHaveBeenCalled();
        expect((await storage.workspaces.list()).length).toBe(before);
        expect(items.map((i) => [i.level, i.message])).toEqual([["error", expect.stringMatching(/damaged or was changed/)]]);
      }
      expect(button(view.container, "Share")).toBeDefined();
    }
  });

  it("Cancel on the question opens nothing; #import= before #share= leaves the share alone", async () => {
    const { storage, workspace, files, session } = await seeded();
    const link = await linkOf(storage, workspace, session!);
    const fragment = link.slice(link.indexOf("#") + 1);
    for (const [href, expectAsked] of [
      [`https://webcode.test/#${fragment}`, true],
      [`https://webcode.test/#import=https%3A%2F%2Fx.test%2Fa.zip&${fragment}`, false],
    ] as const) {
      const replaced: string[] = [];
      const ui = createShareUi({ address: { href: () => href, replace: (url) => replaced.push(url) } });
      const switchTo = vi.fn(async () => {});
      const notifications = new Notifications((() => 0) as unknown as typeof setTimeout);
      const dialogs = new Dialogs();
      const before = (await storage.workspaces.list()).length;
      const services = { storage, workspace, files, notifications, dialogs, workspaces: { refresh: async () => {}, switchTo }, documents: { tabs: [], saveAll: async () => true }, showPanel: () => {} } as unknown as WorkbenchServices;
      const view = await render(<>{ui.topBar[0]!.render(services)}</>);
      cleanups.push(() => view.unmount());
      for (let i = 0; i < 20; i++) await settle();
      const asked = dialogs.store.getState().current;
      if (expectAsked) {
        expect(replaced).toEqual(["https://webcode.test/"]);
        expect(asked).toBeDefined();
        await act(async () => asked!.resolve("cancel"));
        for (let i = 0; i < 20; i++) await settle();
      } else {
        // The import handler (transfer UI) owns this address; the share UI neither asks nor rewrites it.
        expect(asked).toBeUndefined();
        expect(replaced).toEqual([]);
      }
      expect(switchTo).not.toHaveBeenCalled();
      expect((await storage.workspaces.list()).length).toBe(before);
      expect(notifications.store.getState().items).toEqual([]);
    }
  });

  it("asks the same question when #share= is pasted into an open tab (hashchange, no reload), then removes it", async () => {
    const { storage, workspace, files, session } = await seeded();
    const link = await linkOf(storage, workspace, session!);
    const bar = fakeAddressBar("https://webcode.test/?runtime=browser");
    const { address, replaced } = bar;
    const ui = createShareUi({ address });
    const switchTo = vi.fn(async () => {});
    const dialogs = new Dialogs();
    const notifications = new Notifications((() => 0) as unknown as typeof setTimeout);
    const services = { storage, workspace, files, notifications, dialogs, workspaces: { refresh: async () => {}, switchTo }, documents: { tabs: [], saveAll: async () => true }, showPanel: () => {} } as unknown as WorkbenchServices;
    const view = await render(<>{ui.topBar[0]!.render(services)}</>);
    cleanups.push(() => view.unmount());
    for (let i = 0; i < 10; i++) await settle();
    expect(dialogs.store.getState().current).toBeUndefined();
    expect(bar.listenerCount()).toBe(1);

    await act(async () => bar.paste(`https://webcode.test/?runtime=browser${link.slice(link.indexOf("#"))}`));
    await waitFor(() => dialogs.store.getState().current !== undefined, "the question");
    expect(replaced).toEqual(["https://webcode.test/?runtime=browser"]);
    const asked = dialogs.store.getState().current!;
    expect(asked.request).toMatchObject({ kind: "choice", title: "Open shared session?" });
    await act(async () => asked.resolve("open"));
    await waitFor(() => switchTo.mock.calls.length > 0, "the switch");
    // Unmounting (a workspace switch) unsubscribes; the next top bar subscribes again.
    view.unmount();
    expect(bar.listenerCount()).toBe(0);
  });

  it("shows the read-only banner with Continue, and the Shared panel shows the transcript", async () => {
    const { storage, workspace, session } = await seeded();
    const link = await linkOf(storage, workspace, session!);
    const { ctx } = context(storage);
    const opened = await openShareLink(ctx, link);
    const switchTo = vi.fn(async () => {});
    const showPanel = vi.fn();
    const sharedFiles = await WorkspaceFiles.open(storage, opened.workspace.id);
    cleanups.push(() => sharedFiles.dispose());
    const ui = createShareUi({ address: { href: () => "https://webcode.test/", replace: () => {} } });
    const services = {
      storage,
      workspace: opened.workspace,
      files: sharedFiles,
      notifications: new Notifications((() => 0) as unknown as typeof setTimeout),
      dialogs: new Dialogs(),
      workspaces: { refresh: async () => {}, switchTo },
      documents: { tabs: [], saveAll: async () => true },
      showPanel,
    } as unknown as WorkbenchServices;
    const bar = await render(<>{ui.topBar[0]!.render(services)}</>);
    const panel = await render(<>{ui.panels[0]!.render(services)}</>);
    cleanups.push(() => bar.unmount(), () => panel.unmount());
    expect(ui.panels[0]!.title).toBe("Shared");
    expect(showPanel).toHaveBeenCalledWith("shared");
    const banner = bar.container.querySelector('[aria-label="Read-only shared session"]')!;
    expect(banner.textContent).toContain("nothing runs until you continue it");
    await waitFor(() => panel.container.querySelector('[aria-label="Shared transcript"]') !== null, "the transcript");
    expect(panel.container.querySelector("h2")!.textContent).toBe(`Greeting <img src=x onerror="${PWN}">`);
    await click(button(banner, "Continue"));
    await waitFor(() => switchTo.mock.calls.length > 0, "Continue");
    const editable = (await storage.workspaces.list()).find((w) => w.id !== workspace.id && w.id !== opened.workspace.id)!;
    expect(switchTo).toHaveBeenCalledWith(editable.id);
  });
});

describe("SharedTranscript", () => {
  it("renders markdown and tool output as inert text", async () => {
    const { storage, session } = await seeded();
    const view = await render(<SharedTranscript storage={storage} session={session!} />);
    cleanups.push(() => view.unmount());
    await waitFor(() => view.container.querySelector('[aria-label="Shared transcript"]') !== null, "the transcript");
    const list = view.container.querySelector('[aria-label="Shared transcript"]')!;
    expect(Array.from(list.querySelectorAll(".shared-message-role")).map((r) => r.textContent)).toEqual(["User", "Assistant · claude-sonnet-4-5"]);
    expect(list.querySelector("strong")?.textContent).toBe("greeting");
    expect(list.querySelectorAll("img, script, iframe, [onerror]").length).toBe(0);
    expect(Array.from(list.querySelectorAll("a")).filter((a) => /^\s*javascript:/i.test(a.getAttribute("href") ?? ""))).toEqual([]);
    expect(list.querySelector(".shared-tool-output")!.textContent).toBe(`<img src=x onerror="${PWN}"> ${FAKE_TOKEN}`);
    expect(list.querySelector(".shared-tool summary")!.textContent).toBe("bash <b>title</b>");
    expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
  });
});

describe("refuseRuntimeWhenReadOnly", () => {
  it("starts no runtime for a read-only workspace and passes the others through", async () => {
    const { storage, workspace } = await seeded();
    const readOnly = { ...(await createWorkspace(storage, "Shared", { seedReadme: false })), readOnly: true };
    await storage.workspaces.put(readOnly);
    const start = vi.fn(async (files: { workspaceId: string }) => `runtime for ${files.workspaceId}`);
    const guarded = refuseRuntimeWhenReadOnly(storage, start);
    await expect(guarded({ workspaceId: workspace.id })).resolves.toBe(`runtime for ${workspace.id}`);
    await expect(guarded({ workspaceId: readOnly.id })).rejects.toBeInstanceOf(ReadOnlyWorkspaceError);
    expect(start).toHaveBeenCalledTimes(1);
  });
});
