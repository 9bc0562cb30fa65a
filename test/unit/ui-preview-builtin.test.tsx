// @vitest-environment happy-dom
// The Preview panel with the browser runtime: "Open preview" starts the built-in preview, which
// then shows with the site's path in the address bar; without a service worker it says why.
import { act } from "react";
import { describe, expect, it } from "vitest";
import { Emitter, toDisposable } from "../../src/base";
import type { PreviewStart, Runtime } from "../../src/runtime";
import { PreviewPanel, sitePath } from "../../src/ui/preview";
import { button, byLabel, click, render, settle } from "./ui-chat-render";

function browserRuntime(): { runtime: Runtime; starts: number } {
  const ready = new Emitter<{ port: number; url: string }>();
  const state = { starts: 0 } as { runtime: Runtime; starts: number };
  const url = `${window.location.origin}/__preview/s1/`;
  state.runtime = {
    kind: "browser",
    capabilities: { node: false, npm: false, servers: false },
    fs: { onDidChange: () => toDisposable(() => undefined) },
    onServerReady: (listener: (port: number, url: string) => void) => ready.event(({ port, url: u }) => listener(port, u)),
    startPreview: async (): Promise<PreviewStart> => {
      state.starts++;
      ready.fire({ port: 5173, url });
      return { url, root: "", port: 5173 };
    },
  } as unknown as Runtime;
  return state;
}

describe("Preview panel: built-in preview", () => {
  it("offers Open preview in the browser runtime, and shows the preview it starts", async () => {
    const state = browserRuntime();
    let shown = 0;
    const view = await render(<PreviewPanel runtime={state.runtime} onServerReady={() => shown++} />);
    try {
      expect(view.container.textContent).toContain("See the workspace as a website");
      await click(button(view.container, "Open preview"));
      await act(async () => settle());
      expect(state.starts).toBe(1);
      expect(shown).toBe(1);
      expect(byLabel<HTMLInputElement>(view.container, "Preview path")!.value).toBe("/");
      // happy-dom has no service workers: the panel says what is missing instead of an empty frame.
      await act(async () => settle());
      expect(view.container.querySelector('[role="alert"]')?.textContent).toContain("needs a service worker");
    } finally {
      await view.unmount();
    }
  });

  it("reads a typed address as a path of the site", () => {
    const base = "http://app.test/__preview/s1/";
    expect(sitePath("about.html", base)).toBe("/about.html");
    expect(sitePath(" /docs/ ", base)).toBe("/docs/");
    expect(sitePath(`${base}a/b.html`, base)).toBe("/a/b.html");
  });
});
