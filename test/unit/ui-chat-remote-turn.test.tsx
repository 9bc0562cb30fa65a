// @vitest-environment happy-dom
// A synced workspace's session running a turn on another device: the chat says where, Send waits
// (with the reason in the prompt's hint), Stop asks that device, and all of it ends with the turn.
// Plus the coordinator that puts the devices' lease inside the tabs' lock.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { act } from "react";
import type { TurnCoordinator } from "../../src/agent";
import { UserFacingError } from "../../src/base";
import { turnsAcrossDevices, type DeviceLeases } from "../../src/ui/agent-wiring/device-turns";
import { ChatController } from "../../src/ui/chat/chat-controller";
import { ChatPanel } from "../../src/ui/chat/chat-panel";
import type { RemoteTurns } from "../../src/ui/sync/sync-controller";
import { deviceName } from "../../src/ui/sync/device-name";
import { FakeAgent, ManualFrames, session } from "./ui-chat-fixtures";
import { button, byLabel, click, render, settle, typeInto, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
let controller: ChatController | undefined;
afterEach(async () => {
  await view?.unmount();
  controller?.dispose();
  view = undefined;
});

class FakeRemoteTurns implements RemoteTurns {
  running = new Map<string, string>();
  stops: string[] = [];
  private listeners = new Set<() => void>();
  runningOn = (sessionId: string) => this.running.get(sessionId);
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  requestStop = (sessionId: string) => void this.stops.push(sessionId);
  set(sessionId: string, device: string | undefined): void {
    if (device) this.running.set(sessionId, device);
    else this.running.delete(sessionId);
    for (const listener of this.listeners) listener();
  }
}

describe("a turn running on another device", () => {
  it("is shown, holds Send with the reason, and Stop asks that device", async () => {
    const agent = new FakeAgent();
    controller = new ChatController(agent, { scheduler: new ManualFrames() });
    const s = session({ title: "Fix the build", updatedAt: 5 });
    agent.sessions = [s];
    await controller.start();
    const remote = new FakeRemoteTurns();
    view = await render(<ChatPanel controller={controller} files={{ listAll: async () => [], list: async () => [], readFile: async () => new Uint8Array(), readText: async () => "", onDidChange: () => ({ dispose: () => undefined }) }} hasProvider onOpenSettings={() => undefined} remoteTurns={remote} />);
    await typeInto(byLabel<HTMLTextAreaElement>(view.container, "Message")!, "hello");
    expect(button(view.container, "Send")!.disabled).toBe(false);

    await act(async () => remote.set(s.id, "Chrome on Linux"));
    await settle();
    expect(view.container.querySelector('[role="status"]')?.textContent).toContain("Running on Chrome on Linux");
    expect(button(view.container, "Send")!.disabled).toBe(true);
    const hint = document.getElementById(byLabel(view.container, "Message")!.getAttribute("aria-describedby")!);
    expect(hint?.textContent).toContain("running on Chrome on Linux");
    await click(button(view.container, "Stop"));
    expect(remote.stops).toEqual([s.id]);
    expect(agent.callsOf("abort")).toEqual([]);

    await act(async () => remote.set(s.id, undefined));
    await settle();
    expect(view.container.textContent).not.toContain("Running on");
    expect(button(view.container, "Send")!.disabled).toBe(false);
    expect(button(view.container, "Stop")).toBeUndefined();
  });
});

describe("a session started elsewhere", () => {
  it("opens in a chat that had none open, so its turn is followed; an open session stays open", async () => {
    const agent = new FakeAgent();
    controller = new ChatController(agent, { scheduler: new ManualFrames() });
    await controller.start();
    expect(controller.view.getState().activeSessionId).toBeUndefined();
    const first = session({ title: "Started on the desktop", updatedAt: 5 });
    agent.sessions = [first];
    await controller.followOtherTab([first.id]);
    expect(controller.view.getState().activeSessionId).toBe(first.id);
    const second = session({ title: "Another one", updatedAt: 9 });
    agent.sessions = [first, second];
    await controller.followOtherTab([second.id]);
    expect(controller.view.getState().activeSessionId).toBe(first.id);
  });
});

describe("turnsAcrossDevices", () => {
  it("takes the tabs' lock first, then the devices' lease; without sync only the lock", async () => {
    const order: string[] = [];
    const local: TurnCoordinator = {
      run: async (_id, turn) => {
        order.push("lock");
        return turn();
      },
      runningElsewhere: async () => false,
    };
    const current: { leases?: DeviceLeases } = {};
    const stopped: string[] = [];
    const turns = turnsAcrossDevices(local, () => current.leases, (id) => stopped.push(id));
    await expect(turns.run("s1", async () => (order.push("turn"), "ok"))).resolves.toBe("ok");
    expect(order).toEqual(["lock", "turn"]);

    order.length = 0;
    let holder: ReturnType<DeviceLeases["holder"]> = undefined;
    current.leases = {
      run: async (_id, turn, onStop) => {
        order.push("lease");
        onStop();
        return turn();
      },
      holder: () => holder,
    };
    await turns.run("s1", async () => order.push("turn"));
    expect(order).toEqual(["lock", "lease", "turn"]);
    expect(stopped).toEqual(["s1"]);
    expect(await turns.runningElsewhere("s1")).toBe(false);
    holder = { name: "Laptop", nonce: "n", state: "running" };
    expect(await turns.runningElsewhere("s1")).toBe(true);
  });

  it("a refusal from the lease reaches the caller", async () => {
    const leases: DeviceLeases = {
      run: async () => {
        throw new UserFacingError("This session is running a turn on Laptop.", "turn-elsewhere");
      },
      holder: () => undefined,
    };
    const turns = turnsAcrossDevices(undefined, () => leases, () => undefined);
    await expect(turns.run("s1", async () => "never")).rejects.toThrow("running a turn on Laptop");
  });
});

describe("deviceName", () => {
  it("names the browser and the system from the user agent", () => {
    expect(deviceName("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36")).toBe("Chrome on Linux");
    expect(deviceName("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15")).toBe("Safari on macOS");
    expect(deviceName("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0")).toBe("Firefox on Windows");
    expect(deviceName("")).toBe("A browser");
  });
});
