// @vitest-environment happy-dom
// Settings → Sync (issue 33): without a server URL and a token nothing connects and the switch is
// off; with both and "Sync this workspace" on, the workspace's files connect (the sync code is
// loaded only then) and the status is shown with an accessible name; switching off disconnects.
// The connection itself is a fake here (test/unit/sync-workspace.test.ts runs the real one).
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { act } from "react";
import { openStorage, type HeldChange, type Storage, type SyncConnectOptions, type SyncedFiles } from "../../src/storage";
import { RuntimeSettingsStore } from "../../src/ui/settings";
import { SyncController, type Connect } from "../../src/ui/sync/sync-controller";
import { askHeldChange, SyncIndicator, SyncSection } from "../../src/ui/sync/sync-section";
import { isPermissionConfigFile } from "../../src/ui/sync/guarded-files";
import { DialogHost, Dialogs } from "../../src/ui/common";
import { parseInviteHash } from "../../src/ui/sync/invite-link";
import { button, byLabel, click, render, settle, settleUntil, typeInto, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
let storage: Storage | undefined;
afterEach(async () => {
  await view?.unmount();
  storage?.close();
  view = undefined;
});

async function setup(fetchImpl?: typeof fetch) {
  storage = await openStorage({ name: `sync-settings-${Math.random()}` });
  const runtime = new RuntimeSettingsStore(storage);
  await runtime.load();
  const loads: number[] = [];
  const connections: Array<{ options: SyncConnectOptions; disposed: boolean }> = [];
  const connect: Connect = (options) => {
    const record = { options, disposed: false };
    connections.push(record);
    return { dispose: () => void (record.disposed = true) } as unknown as ReturnType<Connect>;
  };
  const controller = new SyncController(runtime.store, async () => {
    loads.push(1);
    return connect;
  });
  const files = { workspaceId: "ws-1" } as SyncedFiles;
  const binding = controller.bind({ files, info: () => {}, error: () => {} });
  const copied: string[] = [];
  const problems: unknown[] = [];
  view = await render(
    <>
      <SyncSection
        runtime={runtime}
        controller={controller}
        workspaceId="ws-1"
        onProblem={(action) => void action().catch((error: unknown) => problems.push(error))}
        copyText={async (text) => void copied.push(text)}
        pageUrl="https://webcode.example/"
        {...(fetchImpl && { fetch: fetchImpl })}
      />
      <SyncIndicator controller={controller} />
    </>,
  );
  return { runtime, controller, loads, connections, binding, copied, problems };
}

const q = <T extends Element>(label: string) => byLabel<T>(view!.container, label);

describe("Settings → Sync", () => {
  it("connects only with a server, a token and the switch on; shows the status; disconnects when switched off", async () => {
    const t = await setup();
    const toggle = q<HTMLInputElement>("Sync this workspace")!;
    expect(toggle.getAttribute("role")).toBe("switch");
    expect(toggle.disabled).toBe(true);
    expect(q("Sync status")?.textContent).toContain("Off");

    await typeInto(q<HTMLInputElement>("Sync server URL")!, "https://sync.example.com");
    expect(view!.container.querySelector("[role=alert]")?.textContent).toContain("ws://");
    expect(button(view!.container, "Set sync server URL")?.disabled).toBe(true);
    await typeInto(q<HTMLInputElement>("Sync server URL")!, "ws://127.0.0.1:1234/");
    await click(button(view!.container, "Set sync server URL"));
    await typeInto(q<HTMLInputElement>("Sync token")!, "payload.signature");
    await click(button(view!.container, "Set sync token"));
    await settleUntil(() => t.runtime.settings.syncAccessToken === "payload.signature", "token stored");
    expect(t.runtime.settings.syncServerUrl).toBe("ws://127.0.0.1:1234");
    expect(t.loads).toHaveLength(0); // configured, but this workspace is not switched on

    await click(q<HTMLInputElement>("Sync this workspace"));
    await settleUntil(() => t.connections.length === 1, "connected");
    expect(t.connections[0]!.options).toMatchObject({ url: "ws://127.0.0.1:1234", token: "payload.signature" });
    expect(t.connections[0]!.options.files.workspaceId).toBe("ws-1");
    await act(async () => t.connections[0]!.options.onStatus?.("connected"));
    expect(q("Sync status")?.textContent).toContain("Connected");
    expect(q("Sync: Connected")).toBeDefined();
    await act(async () => t.connections[0]!.options.onStatus?.("error", "The sync server refused the token: permission-denied"));
    expect(q("Sync status")?.textContent).toContain("refused the token");

    await click(q<HTMLInputElement>("Sync this workspace"));
    await settleUntil(() => t.connections[0]!.disposed, "disconnected");
    expect(t.runtime.settings.syncWorkspaces).toEqual([]);
    await settle();
    expect(q("Sync status")?.textContent).toContain("Off");
    expect(view!.container.querySelector(".sync-indicator")).toBeNull();
    expect(t.problems).toEqual([]);
    t.binding.dispose();
  });

  it("shows the token command for this workspace's room with a copy button", async () => {
    const t = await setup();
    await click(button(view!.container, "Copy token command"));
    expect(t.copied).toEqual(["npm run sync-server -- token --room ws-1 --access write"]);
    expect(button(view!.container, "Copied")).toBeDefined();
    t.binding.dispose();
  });

  it("Invite asks the server for a token with the chosen rights and copies a link carrying it; your name is kept", async () => {
    const requests: Array<{ url: string; authorization: string | null; body: unknown }> = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      requests.push({ url, authorization: new Headers(init.headers).get("authorization"), body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify({ room: "ws-1", access: "read", exp: 1, token: "cmVhZA.sig" }), { status: 200 });
    }) as unknown as typeof fetch;
    const t = await setup(fakeFetch);
    expect(button(view!.container, "Copy read-only invite link")).toBeUndefined(); // not syncing yet
    await t.runtime.update({ syncServerUrl: "wss://sync.example.com", syncAccessToken: "mine.tok", syncWorkspaces: ["ws-1"] });
    await settle();
    await click(button(view!.container, "Copy read-only invite link"));
    await settleUntil(() => t.copied.length === 1, "link copied");
    expect(requests).toEqual([{ url: "https://sync.example.com/invite", authorization: "Bearer mine.tok", body: { access: "read" } }]);
    const link = new URL(t.copied[0]!);
    expect(link.origin + link.pathname).toBe("https://webcode.example/");
    expect(parseInviteHash(link.hash)).toEqual({ url: "wss://sync.example.com", room: "ws-1", token: "cmVhZA.sig" });
    expect(q<HTMLInputElement>("Invite link")?.value).toBe(t.copied[0]);

    await typeInto(q<HTMLInputElement>("Your name for others")!, "  Ann Lee ");
    await click(button(view!.container, "Set name"));
    await settleUntil(() => t.runtime.settings.syncDisplayName === "Ann Lee", "name stored");
    expect(t.problems).toEqual([]);
    t.binding.dispose();
  });
});

describe("held changes to files that can loosen permissions", () => {
  async function connected() {
    storage = await openStorage({ name: `sync-held-${Math.random()}` });
    const runtime = new RuntimeSettingsStore(storage);
    await runtime.load();
    await runtime.update({ syncServerUrl: "ws://127.0.0.1:1234", syncAccessToken: "t", syncWorkspaces: ["ws-1"] });
    const calls: string[] = [];
    const connections: SyncConnectOptions[] = [];
    // Like WorkspaceSync: answering one reports the list without it.
    let held: HeldChange[] = [];
    const answered = (what: string, path: string) => {
      calls.push(`${what} ${path}`);
      held = held.filter((change) => change.path !== path);
      connections[0]!.onHeld?.(held);
    };
    const sync = { acceptHeld: (path: string) => answered("accept", path), keepMineHeld: (path: string) => answered("keep", path) };
    const hold = (changes: HeldChange[]) => act(async () => connections[0]!.onHeld?.((held = changes)));
    const controller = new SyncController(runtime.store, async () => (options) => {
      connections.push(options);
      return { sync, dispose: () => {} } as unknown as ReturnType<Connect>;
    });
    const dialogs = new Dialogs();
    const binding = controller.bind({ files: { workspaceId: "ws-1" } as SyncedFiles, info: () => {}, error: () => {}, ask: askHeldChange(dialogs) });
    view = await render(
      <>
        <SyncIndicator controller={controller} />
        <DialogHost dialogs={dialogs} />
      </>,
    );
    await settleUntil(() => connections.length === 1, "connected");
    return { controller, calls, options: connections[0]!, binding, hold };
  }

  it("asks in an accessible dialog; Accept takes the remote version, Keep mine keeps the local one", async () => {
    const t = await connected();
    expect(t.options.guarded).toBe(isPermissionConfigFile);
    expect(t.options.localName).toBe("webcode-sync-ws-1");
    await act(async () => t.options.onStatus?.("connected"));
    await t.hold([
      { path: "opencode.json", change: "changed" },
      { path: ".mcp.json", change: "deleted" },
    ]);
    const dialog = view!.container.querySelector("[role=alertdialog]");
    expect(dialog?.textContent).toContain("Another device changed opencode.json");
    await click(button(view!.container, "Accept"));
    await settleUntil(() => (view!.container.querySelector("[role=alertdialog]")?.textContent ?? "").includes(".mcp.json"), "next question");
    await click(button(view!.container, "Keep mine"));
    expect(t.calls).toEqual(["accept opencode.json", "keep .mcp.json"]);
    expect(view!.container.querySelector("[role=alertdialog]")).toBeNull();
    t.binding.dispose();
  });

  it("Decide later leaves it held; the top bar's button asks again", async () => {
    const t = await connected();
    await act(async () => t.options.onStatus?.("connected"));
    await t.hold([{ path: "opencode.json", change: "changed" }]);
    await click(button(view!.container, "Decide later"));
    await settle();
    expect(view!.container.querySelector("[role=alertdialog]")).toBeNull();
    expect(t.calls).toEqual([]);
    await click(button(view!.container, "Review 1 synced change"));
    await settleUntil(() => view!.container.querySelector("[role=alertdialog]") !== null, "asked again");
    await click(button(view!.container, "Accept"));
    expect(t.calls).toEqual(["accept opencode.json"]);
    t.binding.dispose();
  });
});

describe("isPermissionConfigFile", () => {
  it("is opencode.json(c), the MCP config files and files in the agent folders", () => {
    for (const path of ["opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".mcp.json", ".webcode/agent/x.md", ".opencode/agent/y.md"]) {
      expect(isPermissionConfigFile(path)).toBe(true);
    }
    for (const path of ["src/opencode.json", "README.md", ".webcode/plans/p.md", ".webcode/agentx.md"]) expect(isPermissionConfigFile(path)).toBe(false);
  });
});
