// @vitest-environment happy-dom
// The notice under the top bar and the status bar: a read-only shared session is shown as a neutral
// state (not a failure), dismissals are remembered per reason, and the tree's file actions are
// disabled in a read-only workspace.
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles, type FallbackReason, type Runtime, type RuntimeStage } from "../../src/runtime";
import type { RuntimeStatus } from "../../src/ui/app/workspace-controller";
import { openStorage } from "../../src/storage";
import { DISMISSED_NOTICE_KEY, RuntimeNotice } from "../../src/ui/app/runtime-notice";
import { StatusBar } from "../../src/ui/app/status-bar";
import { Dialogs, Notifications } from "../../src/ui/common";
import { EditorDocuments } from "../../src/ui/editor";
import { FileTree, READ_ONLY_REASON } from "../../src/ui/files/file-tree";
import { render, settle, type Rendered } from "./ui-chat-render";

function memorySettings(initial: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    values,
    get: async <T,>(key: string) => values.get(key) as T | undefined,
    put: async (key: string, value: unknown) => void values.set(key, value),
  };
}

const timeout: FallbackReason = { kind: "boot-timeout", timeoutMs: 1000 };
const rendered: Rendered[] = [];
const mount = async (element: Parameters<typeof render>[0]) => {
  const r = await render(element);
  rendered.push(r);
  return r;
};
const frame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

afterEach(async () => {
  for (const r of rendered.splice(0)) await r.unmount();
  document.body.innerHTML = "";
});

describe("read-only shared session", () => {
  it("shows one neutral notice (role status) pointing to Continue, and a neutral Read-only status", async () => {
    const failure = "This workspace is a read-only shared session. Press Continue to make an editable copy.";
    const r = await mount(
      <>
        <RuntimeNotice failure={failure} readOnly settings={memorySettings()} />
        <StatusBar runtime={{ status: "failed", message: failure }} readOnly />
      </>,
    );
    await settle();
    expect(r.container.querySelectorAll('[role="alert"]')).toHaveLength(0);
    const notices = r.container.querySelectorAll('[role="status"]');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.textContent).toMatch(/read-only.*Press Continue in the top bar/);
    expect(r.container.textContent).not.toContain("Runtime failed");
    expect(r.container.querySelector(".status-runtime")?.textContent).toBe("Read-only");
    expect(r.container.querySelector(".status-runtime-failed")).toBeNull();
  });

  it("disables New file, New folder, Rename and Delete in the tree, with a tooltip saying why", async () => {
    const storage = await openStorage({ name: `ui-runtime-notice-${Date.now()}` });
    const writable = await WorkspaceFiles.open(storage, "ws");
    await writable.writeFile("a.txt", "a");
    await writable.close();
    const files = await WorkspaceFiles.open(storage, "ws", { readOnly: true });
    const documents = new EditorDocuments({ files, loadBuffers: async () => ({ create: () => { throw new Error("no editor here"); } }), askUnsaved: async () => "cancel", onError: () => {} });
    const notifications = new Notifications();
    try {
      const r = await mount(<FileTree files={files} documents={documents} dialogs={new Dialogs()} notifications={notifications} workspaceName="Shared" />);
      await settle();
      for (const label of ["New file", "New folder"]) {
        const button = r.container.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`)!;
        expect(button.disabled).toBe(true);
        expect(button.title).toBe(READ_ONLY_REASON);
      }
      const row = [...r.container.querySelectorAll('[role="treeitem"]')].find((e) => e.textContent?.includes("a.txt"))!;
      expect(row.getAttribute("draggable")).toBe("false");
      await act(async () => row.dispatchEvent(new MouseEvent("contextmenu", { bubbles: true, clientX: 5, clientY: 5 })));
      const items = [...document.querySelectorAll('[role="menuitem"]')];
      const state = Object.fromEntries(items.map((i) => [i.textContent!.replace(/F2|Delete$/, "").trim() || "Delete", i.getAttribute("aria-disabled")]));
      expect(state).toEqual({ Open: null, "New file": "true", "New folder": "true", Rename: "true", Delete: "true" });
      // Running a disabled item (or its key) does nothing: no rename box, no error toast.
      await act(async () => (items.find((i) => i.textContent?.startsWith("Rename")) as HTMLElement).click());
      await act(async () => r.container.querySelector('[role="tree"]')!.dispatchEvent(new KeyboardEvent("keydown", { key: "F2", bubbles: true })));
      expect(r.container.querySelector("input")).toBeNull();
      expect(notifications.store.getState().items).toEqual([]);
    } finally {
      documents.dispose();
      files.dispose();
      storage.close();
    }
  });
});

describe("read-only notice dismissal", () => {
  it("is remembered across remounts (workspace switch, reload) and a failure still shows", async () => {
    const settings = memorySettings();
    let r = await mount(<RuntimeNotice readOnly settings={settings} />);
    await settle();
    await act(async () => r.container.querySelector<HTMLButtonElement>('button[aria-label="Dismiss read-only notice"]')!.click());
    await settle();
    expect(r.container.querySelector('[aria-label="Read-only notice"]')).toBeNull();
    expect(settings.values.get(DISMISSED_NOTICE_KEY)).toBe("read-only");

    await r.unmount();
    rendered.pop();
    r = await mount(<RuntimeNotice readOnly settings={settings} />);
    await settle();
    expect(r.container.querySelector('[aria-label="Read-only notice"]')).toBeNull();

    await r.rerender(<RuntimeNotice failure="The runtime could not start: boom." settings={settings} />);
    await settle();
    expect(r.container.querySelector('[role="alert"]')?.textContent).toContain("boom");
  });

  it("after Dismiss the keyboard goes to the editor (or the tree), not to <body>", async () => {
    const host = document.createElement("div");
    host.innerHTML = `<aside class="pane pane-tree"><div role="tree" tabindex="0" id="tree"></div></aside>
      <section class="editor-panel"><div class="monaco-editor"><div class="native-edit-context" tabindex="0" id="editor"></div></div></section>`;
    document.body.appendChild(host);
    const r = await mount(<RuntimeNotice readOnly settings={memorySettings()} />);
    await settle();
    const dismiss = r.container.querySelector<HTMLButtonElement>('button[aria-label="Dismiss read-only notice"]')!;
    dismiss.focus();
    await act(async () => dismiss.click());
    await frame();
    expect(document.activeElement?.id).toBe("editor");

    host.querySelector(".editor-panel")!.remove();
    const again = await mount(<RuntimeNotice readOnly settings={memorySettings()} />);
    await settle();
    await act(async () => again.container.querySelector<HTMLButtonElement>('button[aria-label="Dismiss read-only notice"]')!.click());
    await frame();
    expect(document.activeElement?.id).toBe("tree");
  });
});

describe("status bar runtime item", () => {
  const ready = (stage: RuntimeStage): RuntimeStatus => ({ status: "ready", runtime: {} as Runtime, stage });

  it("says where commands run, quietly, for every stage", async () => {
    const cases: Array<[RuntimeStage, string]> = [
      [{ stage: "browser", reason: { kind: "disabled" } }, "Browser runtime"],
      [{ stage: "starting" }, "Starting Node.js (WebContainer)…"],
      [{ stage: "node" }, "Node.js (WebContainer)"],
      [{ stage: "unavailable", reason: timeout, canRetry: true }, "WebContainer unavailable"],
    ];
    for (const [stage, label] of cases) {
      const r = await mount(<StatusBar runtime={ready(stage)} />);
      expect(r.container.querySelector(".status-runtime")?.textContent).toBe(label);
      // No banner or alert anywhere: the reason is behind the item.
      expect(r.container.querySelector('[role="alert"]')).toBeNull();
      await r.unmount();
      rendered.pop();
    }
  });

  it("shows the reason one click away, with Retry after a timeout; Escape closes and gives focus back", async () => {
    let retried = 0;
    const r = await mount(<StatusBar runtime={ready({ stage: "unavailable", reason: timeout, canRetry: true })} retry={() => retried++} />);
    const item = r.container.querySelector<HTMLButtonElement>('button[aria-label="Runtime: WebContainer unavailable"]')!;
    expect(item.getAttribute("aria-expanded")).toBe("false");
    await act(async () => item.click());
    const panel = r.container.querySelector('[role="dialog"][aria-label="Runtime details"]')!;
    expect(item.getAttribute("aria-expanded")).toBe("true");
    expect(panel.textContent).toMatch(/did not start within 1 s/);
    expect(panel.textContent).toMatch(/third-party cookies/);
    const retry = [...panel.querySelectorAll("button")].find((b) => b.textContent === "Retry")!;
    expect(document.activeElement).toBe(retry);
    await act(async () => retry.click());
    expect(retried).toBe(1);
    expect(r.container.querySelector('[role="dialog"]')).toBeNull();
    expect(document.activeElement).toBe(item);

    await act(async () => item.click());
    await act(async () => r.container.querySelector('[role="dialog"]')!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true })));
    expect(r.container.querySelector('[role="dialog"]')).toBeNull();
    expect(document.activeElement).toBe(item);
  });

  it("offers no Retry where another try cannot help (not isolated)", async () => {
    const r = await mount(<StatusBar runtime={ready({ stage: "unavailable", reason: { kind: "not-isolated" }, canRetry: false })} retry={() => undefined} />);
    await act(async () => r.container.querySelector<HTMLButtonElement>(".status-runtime")!.click());
    const panel = r.container.querySelector('[role="dialog"]')!;
    expect(panel.textContent).toMatch(/cross-origin isolated/);
    expect([...panel.querySelectorAll("button")].map((b) => b.textContent)).toEqual(["Close"]);
  });
});
