// @vitest-environment happy-dom
// Issue 9, point 3: `#import=<url>` asks before any request, naming the host and the whole address;
// loopback and private addresses get an explicit warning. (The download itself, its size limit,
// progress and Cancel: security-import-download.test.ts.)
import "../support/happy-dom-node-name";
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { endlessServer, importContext } from "../support/endless-download";
import { localAddressKind } from "../../src/transfer";
import { ImportDialog, ImportFlow, linkSource } from "../../src/ui/transfer";
import { button, click, render } from "./ui-chat-render";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("local addresses", () => {
  it.each([
    ["http://localhost:3000/a.zip", "loopback"],
    ["http://app.localhost/a.zip", "loopback"],
    ["http://127.0.0.1/a.zip", "loopback"],
    ["http://2130706433/a.zip", "loopback"],
    ["http://0x7f.1/a.zip", "loopback"],
    ["http://[::1]/a.zip", "loopback"],
    ["http://[::ffff:127.0.0.1]/a.zip", "loopback"],
    ["http://0.0.0.0/a.zip", "loopback"],
    ["http://10.1.2.3/a.zip", "private"],
    ["http://172.20.0.1/a.zip", "private"],
    ["http://192.168.1.1/a.zip", "private"],
    ["http://[::ffff:192.168.0.1]/a.zip", "private"],
    ["http://100.64.0.1/a.zip", "private"],
    ["http://nas.local/a.zip", "private"],
    ["http://[fd12::1]/a.zip", "private"],
    ["http://169.254.169.254/latest", "link-local"],
    ["http://[fe80::1]/a.zip", "link-local"],
    ["https://github.com/a.zip", undefined],
    ["https://172.32.0.1/a.zip", undefined],
    ["https://8.8.8.8/a.zip", undefined],
  ])("%s is %s", (url, kind) => {
    expect(localAddressKind(new URL(url))).toBe(kind);
  });
});

describe("#import= asks first", () => {
  it("names the host and the whole address, and requests nothing until Download", async () => {
    const server = await endlessServer(cleanups);
    const flow = new ImportFlow();
    const view = await render(<ImportDialog flow={flow} />);
    cleanups.push(() => view.unmount());
    await act(async () => flow.open(linkSource("https://downloads.example.test/releases/project.zip?token=abc"), importContext()));
    const dialog = view.container.querySelector('[role="dialog"]')!;
    expect(dialog.textContent).toContain("Download a zip from downloads.example.test?");
    expect(dialog.querySelector(".transfer-url")?.textContent).toBe("https://downloads.example.test/releases/project.zip?token=abc");
    expect(dialog.querySelector(".transfer-warning")).toBeNull();
    expect(button(dialog, "Download")).toBeDefined();
    await click(button(dialog, "Cancel"));
    expect(flow.state.step).toBe("closed");
    expect(server.requests()).toBe(0);
  });

  it("warns explicitly about this computer and the local network", async () => {
    const flow = new ImportFlow();
    const view = await render(<ImportDialog flow={flow} />);
    cleanups.push(() => view.unmount());
    await act(async () => flow.open(linkSource("http://192.168.1.1/backup.zip"), importContext()));
    expect(view.container.querySelector('[role="alert"].transfer-warning')?.textContent).toMatch(/192\.168\.1\.1 is on your local network/);
    await click(button(view.container, "Cancel"));
    await act(async () => flow.open(linkSource("http://localhost:8080/x.zip"), importContext()));
    expect(view.container.querySelector(".transfer-warning")?.textContent).toMatch(/localhost:8080 is this computer/);
  });
});
