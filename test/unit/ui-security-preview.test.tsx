// @vitest-environment happy-dom
// The preview frame shows untrusted dev-server pages: it may not read the clipboard, navigate the
// app's tab, or share the app's origin (and with it the stored API keys).
import "../support/happy-dom-node-name";
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { Emitter } from "../../src/base";
import type { Runtime } from "../../src/runtime";
import { PreviewPanel, previewSandbox } from "../../src/ui/preview";
import { render, settle, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
afterEach(async () => {
  await view?.unmount();
  view = undefined;
});

function serverRuntime() {
  const ready = new Emitter<[number, string]>();
  const runtime = { capabilities: { servers: true }, onServerReady: (listener: (port: number, url: string) => void) => ready.event((args) => listener(...args)) } as unknown as Runtime;
  return { runtime, ready };
}

async function frameFor(url: string): Promise<HTMLIFrameElement> {
  const { runtime, ready } = serverRuntime();
  view = await render(<PreviewPanel runtime={runtime} />);
  await act(async () => ready.fire([5173, url]));
  await settle();
  return view.container.querySelector("iframe")!;
}

describe("preview frame", () => {
  it("does not grant clipboard-read; is sandboxed without top navigation; keeps a foreign origin", async () => {
    const frame = await frameFor("https://abc--5173--def.local-credentialless.webcontainer-api.io/");
    const allow = frame.getAttribute("allow")!;
    expect(allow).not.toContain("clipboard-read");
    expect(allow.split(";").map((s) => s.trim())).toEqual(["cross-origin-isolated", "clipboard-write"]);
    const sandbox = frame.getAttribute("sandbox")!.split(" ");
    expect(sandbox.sort()).toEqual(["allow-forms", "allow-modals", "allow-popups", "allow-same-origin", "allow-scripts"]);
  });

  it("a page on the app's own origin runs in an opaque origin", () => {
    const app = "http://localhost:5173";
    expect(previewSandbox("http://localhost:5173/other", app).split(" ")).not.toContain("allow-same-origin");
    expect(previewSandbox("http://localhost:5174/", app).split(" ")).toContain("allow-same-origin");
    expect(previewSandbox("not a url", app).split(" ")).not.toContain("allow-same-origin");
    for (const sandbox of [previewSandbox("http://localhost:5173/", app), previewSandbox("https://x.dev/", app)]) {
      expect(sandbox).not.toMatch(/allow-top-navigation|allow-popups-to-escape-sandbox/);
    }
  });
});
