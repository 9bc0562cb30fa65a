// @vitest-environment happy-dom
// The Preview panel over the WebContainer runtime (fake container): it must not steal the side
// panel. Regression for issue 17 point 1: the host passed a new onServerReady callback on every
// render, the panel re-subscribed, the runtime replayed its running servers synchronously, and each
// replay brought the Preview forward again and reset a typed URL.
import { act, useState } from "react";
import { describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime";
import type { PanelContribution, WorkbenchServices } from "../../src/ui/app";
import { RightPanel } from "../../src/ui/app/right-panel";
import { PreviewPanel } from "../../src/ui/preview";
import { byLabel, click, render, settle, typeInto } from "./ui-chat-render";
import { setup } from "./webcontainer-harness";

const URL_A = "https://abc--5173--x.local-credentialless.webcontainer-api.io";
const URL_B = "https://abc--3000--x.local-credentialless.webcontainer-api.io";

/** Renders the panel the way app.tsx does: a fresh callback on each render; `rerender` re-renders the host. */
function Host({ runtime, onShow, tick }: { runtime: Runtime; onShow: () => void; tick: number }) {
  const [, setLocal] = useState(0);
  return (
    <div data-tick={tick}>
      <button type="button" onClick={() => setLocal((n) => n + 1)}>
        Chat
      </button>
      <PreviewPanel runtime={runtime} onServerReady={() => onShow()} />
    </div>
  );
}

/** The side panel as the workbench hosts it: Preview (wired as app.tsx wires it) and Chat tabs. */
function SidePanel({ runtime, tick }: { runtime: Runtime; tick: number }) {
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const services = { showPanel: setSelected } as unknown as WorkbenchServices;
  const panels: PanelContribution[] = [
    { id: "preview", title: "Preview", order: 100, render: (s) => <PreviewPanel runtime={runtime} onServerReady={() => s.showPanel("preview")} /> },
    { id: "chat", title: "Chat", order: 0, render: () => <p data-tick={tick}>chat</p> },
  ];
  return <RightPanel panels={panels} selected={selected} onSelect={setSelected} services={services} />;
}

function selectedTab(container: HTMLElement): string | undefined {
  return container.querySelector('[role="tab"][aria-selected="true"]')?.textContent ?? undefined;
}

describe("Preview panel", () => {
  it("after npm run dev, Chat stays selected when the user goes back to it (side panel regression)", async () => {
    const { fake, runtime } = await setup();
    const view = await render(<SidePanel runtime={runtime} tick={0} />);
    try {
      expect(selectedTab(view.container)).toBe("Chat");
      await act(async () => fake.emit("server-ready", 5173, URL_A));
      await settle();
      expect(selectedTab(view.container)).toBe("Preview");
      const chatTab = Array.from(view.container.querySelectorAll('[role="tab"]')).find((tab) => tab.textContent === "Chat");
      await click(chatTab);
      for (let tick = 1; tick <= 5; tick++) await view.rerender(<SidePanel runtime={runtime} tick={tick} />);
      await settle();
      expect(selectedTab(view.container)).toBe("Chat");
    } finally {
      await view.unmount();
    }
  });

  it("brings the Preview forward once per newly ready server, never for replays, and keeps a typed URL", async () => {
    const { fake, runtime } = await setup();
    let shown = 0;
    const onShow = () => shown++;
    const view = await render(<Host runtime={runtime} onShow={onShow} tick={0} />);
    try {
      await act(async () => fake.emit("server-ready", 5173, URL_A));
      await settle();
      expect(shown).toBe(1);
      const input = byLabel<HTMLInputElement>(view.container, "Preview URL")!;
      expect(input.value).toBe(URL_A);
      expect(view.container.querySelector("iframe")?.getAttribute("src")).toBe(URL_A);

      // The user moves to Chat and types another address; the app re-renders many times meanwhile.
      await typeInto(input, `${URL_A}/about`);
      for (let tick = 1; tick <= 5; tick++) await view.rerender(<Host runtime={runtime} onShow={onShow} tick={tick} />);
      await settle();
      expect(shown).toBe(1);
      expect(byLabel<HTMLInputElement>(view.container, "Preview URL")!.value).toBe(`${URL_A}/about`);

      // The same server announced again is no news; a new server is, once.
      await act(async () => fake.emit("server-ready", 5173, URL_A));
      expect(shown).toBe(1);
      await act(async () => fake.emit("server-ready", 3000, URL_B));
      await settle();
      expect(shown).toBe(2);
      expect(view.container.querySelector("iframe")?.getAttribute("src")).toBe(URL_B);
    } finally {
      await view.unmount();
    }
  });

  it("a panel opened while servers run shows them quietly (replay)", async () => {
    const { fake, runtime } = await setup();
    fake.emit("server-ready", 5173, URL_A);
    let shown = 0;
    const view = await render(<PreviewPanel runtime={runtime} onServerReady={() => shown++} />);
    try {
      await settle();
      expect(shown).toBe(0);
      expect(view.container.querySelector("iframe")?.getAttribute("src")).toBe(URL_A);
    } finally {
      await view.unmount();
    }
  });

  it("says so when the shown server stops, and says the preview only works inside webcode", async () => {
    const { fake, runtime } = await setup();
    const view = await render(<PreviewPanel runtime={runtime} />);
    try {
      await act(async () => fake.emit("server-ready", 5173, URL_A));
      await settle();
      expect(view.container.textContent).toMatch(/works only inside webcode/);
      await act(async () => fake.emit("port", 5173, "close", URL_A));
      await settle();
      expect(view.container.querySelector("iframe")).toBeNull();
      expect(view.container.textContent).toMatch(/The server on port 5173 stopped/);
      // It starts again: shown again.
      await act(async () => fake.emit("server-ready", 5173, URL_A));
      await settle();
      expect(view.container.querySelector("iframe")?.getAttribute("src")).toBe(URL_A);
    } finally {
      await view.unmount();
    }
  });
});
