// @vitest-environment happy-dom
// The shell contributions: the Chat panel and the top bar's Settings button share one dialog.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toDisposable } from "../../src/base";
import { openStorage, type Storage } from "../../src/storage";
import type { WorkbenchServices } from "../../src/ui/app";
import { Dialogs, Notifications } from "../../src/ui/common";
import { createAgentUi } from "../../src/ui/chat";
import { ProviderSettings } from "../../src/ui/settings";
import { configFromPreset } from "../../src/providers";
import { FakeAgent } from "./ui-chat-fixtures";
import { button, click, render, settle, type Rendered } from "./ui-chat-render";

let views: Rendered[] = [];
let storage: Storage | undefined;
afterEach(async () => {
  for (const view of views) await view.unmount();
  views = [];
  storage?.close();
});

describe("createAgentUi", () => {
  it("contributes a Chat panel whose Open Settings opens the top bar's Settings dialog", async () => {
    storage = await openStorage({ name: `agent-ui-${Math.random()}` });
    const settings = new ProviderSettings(storage);
    await settings.load();
    const agent = new FakeAgent();
    const ui = createAgentUi({ settings, testConnection: async () => ({ ok: true }), agentFor: () => agent });
    const services = {
      storage,
      notifications: new Notifications(),
      dialogs: new Dialogs(),
      files: { listAll: async () => [], list: async () => [], readFile: async () => new Uint8Array(), readText: async () => "", onDidChange: () => toDisposable(() => {}) },
      runtime: { status: "starting" },
      documents: { open: async () => {} },
    } as unknown as WorkbenchServices;
    expect(ui.panels.map((p) => p.title)).toEqual(["Chat"]);
    const bar = await render(<>{ui.topBar[0]!.render(services)}</>);
    const panel = await render(<>{ui.panels[0]!.render(services)}</>);
    views = [panel, bar];
    await settle();
    expect(panel.container.textContent).toContain("Connect a model to start");
    expect(bar.container.querySelector('[role="dialog"]')).toBeNull();
    await click(button(panel.container, "Open Settings"));
    expect(bar.container.querySelector('[role="dialog"]')?.getAttribute("aria-label")).toBe("Settings");
    await click(button(bar.container, "Close"));
    expect(bar.container.querySelector('[role="dialog"]')).toBeNull();
    await click(button(bar.container, "Settings"));
    expect(bar.container.querySelector('[role="dialog"]')).not.toBeNull();
    // Settings shows the storage used per workspace.
    await vi.waitFor(() => expect(bar.container.querySelector('table[aria-label="Storage used per workspace"]')).not.toBeNull(), { timeout: 10_000 });
    expect(bar.container.querySelector("#settings-storage")?.textContent).toBe("Storage");
  });

  it("says a read-only shared workspace is a state to continue from, not a runtime failure", async () => {
    storage = await openStorage({ name: `agent-ui-${Math.random()}` });
    const settings = new ProviderSettings(storage);
    await settings.load();
    await settings.saveProvider(configFromPreset("openai", { apiKey: "sk-test-1234567890" }));
    const ui = createAgentUi({ settings, testConnection: async () => ({ ok: true }), agentFor: () => undefined });
    const services = {
      storage,
      notifications: new Notifications(),
      dialogs: new Dialogs(),
      files: { readOnly: true, listAll: async () => [], list: async () => [], onDidChange: () => toDisposable(() => {}) },
      runtime: { status: "failed", message: "This workspace was opened from a share and is read-only." },
      documents: { open: async () => {} },
    } as unknown as WorkbenchServices;
    const panel = await render(<>{ui.panels[0]!.render(services)}</>);
    views = [panel];
    await settle();
    expect(panel.container.textContent).toContain("This shared session is read-only");
    expect(panel.container.textContent).toContain("Continue");
    expect(panel.container.textContent).not.toContain("failed");
  });
});
