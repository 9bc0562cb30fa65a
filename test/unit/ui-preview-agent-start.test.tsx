// @vitest-environment happy-dom
// Issue 30 point 4: a built-in preview the agent's command started (npx serve ., npm run dev) runs
// code the agent wrote. It must not come to the front or load its page by itself: the Preview tab
// says the agent started it and the user opens it with one click. The user's own commands and the
// panel's Open preview open it as before.
import { act, useState } from "react";
import { describe, expect, it } from "vitest";
import { PreviewHub, WorkspaceFiles, type Runtime } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage } from "../../src/storage";
import type { PanelContribution, WorkbenchServices } from "../../src/ui/app";
import { RightPanel } from "../../src/ui/app/right-panel";
import { PreviewPanel } from "../../src/ui/preview";
import { PreviewRequestPolicies } from "../../src/ui/preview/request-policy";
import { button, byLabel, click, render, settle } from "./ui-chat-render";

let counter = 0;

async function browserRuntime(): Promise<Runtime> {
  const storage = await openStorage({ name: `ui-preview-agent-${counter++}-${Date.now()}` });
  const workspace = await WorkspaceFiles.open(storage, "ws");
  await workspace.writeFile(".env", "SECRET=hunter2\n");
  await workspace.writeFile("index.html", "<script>fetch('.env')</script>");
  let ids = 0;
  return createBrowserRuntime(workspace, { preview: new PreviewHub(window.location.origin, () => `s${++ids}`) });
}

/** The side panel wired as app.tsx wires it: Chat selected, the Preview brought forward by onServerReady. */
function SidePanel({ runtime, policies }: { runtime: Runtime; policies: PreviewRequestPolicies }) {
  const [selected, setSelected] = useState<string | undefined>("chat");
  const services = { showPanel: setSelected } as unknown as WorkbenchServices;
  const panels: PanelContribution[] = [
    { id: "preview", title: "Preview", order: 100, render: (s) => <PreviewPanel runtime={runtime} policies={policies} onServerReady={() => s.showPanel("preview")} /> },
    { id: "chat", title: "Chat", order: 0, render: () => <p>chat</p> },
  ];
  return <RightPanel panels={panels} selected={selected} onSelect={setSelected} services={services} />;
}

function selectedTab(container: HTMLElement): string | undefined {
  return container.querySelector('[role="tab"][aria-selected="true"]')?.textContent ?? undefined;
}

async function selectTab(container: HTMLElement, name: string): Promise<void> {
  await click(Array.from(container.querySelectorAll('[role="tab"]')).find((tab) => tab.textContent === name));
}

describe("Preview panel: a preview the agent started", () => {
  it("stays behind Chat and unloaded until the user opens it from the Preview tab", async () => {
    const runtime = await browserRuntime();
    const view = await render(<SidePanel runtime={runtime} policies={new PreviewRequestPolicies()} />);
    try {
      const result = await act(async () => runtime.exec("npx serve .", { source: "agent" }));
      expect(result.exitCode).toBe(0);
      await settle();
      expect(selectedTab(view.container)).toBe("Chat");

      await selectTab(view.container, "Preview");
      const url = `${window.location.origin}/__preview/s1/`;
      expect(view.container.textContent).toContain(`The agent started a preview of ${url}`);
      // Not loaded: no frame, no address bar of the built-in preview.
      expect(view.container.querySelector("iframe")).toBeNull();
      expect(byLabel(view.container, "Preview path")).toBeUndefined();

      await click(button(view.container, "Open preview"));
      await act(async () => settle());
      expect(view.container.textContent).not.toContain("The agent started a preview");
      expect(byLabel<HTMLInputElement>(view.container, "Preview path")?.value).toBe("/");

      // Once opened, the agent running it again leaves it shown (and does not pull the tab forward).
      await selectTab(view.container, "Chat");
      await act(async () => runtime.exec("npx serve .", { source: "agent" }));
      await settle();
      expect(selectedTab(view.container)).toBe("Chat");
      await selectTab(view.container, "Preview");
      expect(byLabel<HTMLInputElement>(view.container, "Preview path")?.value).toBe("/");
    } finally {
      await view.unmount();
      runtime.dispose();
    }
  });

  it("a preview the user started from the terminal comes to the front as before", async () => {
    const runtime = await browserRuntime();
    const view = await render(<SidePanel runtime={runtime} policies={new PreviewRequestPolicies()} />);
    try {
      await act(async () => runtime.exec("npx serve .", { source: "terminal" }));
      await act(async () => settle());
      expect(selectedTab(view.container)).toBe("Preview");
      expect(view.container.textContent).not.toContain("The agent started a preview");
      expect(byLabel<HTMLInputElement>(view.container, "Preview path")?.value).toBe("/");
    } finally {
      await view.unmount();
      runtime.dispose();
    }
  });
});
