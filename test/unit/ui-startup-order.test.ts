// The start-up order: Monaco's evaluation waits for the terminal's prompt and the chat, and for a
// pause in the user's typing, but never longer than the cap.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StartupOrder } from "../../src/ui/common/startup-order";

describe("StartupOrder", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  const order = (capMs = 1500, quietMs = 200, commandMs = 1000, typingCapMs = 3000) =>
    new StartupOrder(capMs, quietMs, () => Date.now(), commandMs, typingCapMs);
  const track = (startup: StartupOrder) => {
    const state = { clear: false };
    void startup.whenClear().then(() => (state.clear = true));
    return state;
  };

  it("lets the heavy work go at once when nothing holds it", async () => {
    const startup = order();
    const state = track(startup);
    await vi.advanceTimersByTimeAsync(0);
    expect(state.clear).toBe(true);
  });

  it("waits for every hold, then for a quiet moment after the last release", async () => {
    const startup = order();
    startup.hold("terminal");
    startup.hold("chat");
    const state = track(startup);
    startup.release("terminal");
    await vi.advanceTimersByTimeAsync(500);
    expect(state.clear).toBe(false);
    startup.release("chat");
    await vi.advanceTimersByTimeAsync(199);
    expect(state.clear).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.clear).toBe(true);
  });

  it("keeps waiting while the user types into what has started", async () => {
    const startup = order();
    startup.hold("terminal");
    const state = track(startup);
    startup.release("terminal");
    for (let key = 0; key < 5; key++) {
      await vi.advanceTimersByTimeAsync(150);
      startup.input();
    }
    expect(state.clear).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(state.clear).toBe(true);
  });

  it("never waits longer than the cap, held or typed", async () => {
    const startup = order(1000);
    startup.hold("terminal");
    const state = track(startup);
    await vi.advanceTimersByTimeAsync(999);
    expect(state.clear).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.clear).toBe(true);
    // Later holds are ignored: the page has started.
    startup.hold("chat");
    const later = track(startup);
    await vi.advanceTimersByTimeAsync(0);
    expect(later.clear).toBe(true);
  });

  it("goes at once when the user asks for the heavy part or nothing is coming", async () => {
    const startup = order();
    startup.hold("terminal");
    const state = track(startup);
    startup.expedite();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.clear).toBe(true);
  });

  it("ignores releases of what was never held", async () => {
    const startup = order();
    startup.hold("terminal");
    const state = track(startup);
    startup.release("chat");
    await vi.advanceTimersByTimeAsync(500);
    expect(state.clear).toBe(false);
  });

  it("waits longer after a command the user started, also past the cap, then goes", async () => {
    const startup = order(1500, 200, 1000);
    startup.hold("terminal");
    const state = track(startup);
    await vi.advanceTimersByTimeAsync(1000);
    startup.release("terminal");
    await vi.advanceTimersByTimeAsync(100);
    startup.input("command");
    // A key would have let it go 200 ms later, and the cap at 1,500 ms.
    await vi.advanceTimersByTimeAsync(999);
    expect(state.clear).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.clear).toBe(true);
  });

  it("lets the cap go on time after a command when the command's wait ends before it", async () => {
    const startup = order(1500, 200, 1000);
    startup.hold("terminal");
    const state = track(startup);
    startup.input("command");
    await vi.advanceTimersByTimeAsync(1499);
    expect(state.clear).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.clear).toBe(true);
  });

  it("once everything is released, waits out the user's typing past the cap, up to the typing cap", async () => {
    const startup = order(1500, 200, 1000, 3000);
    startup.hold("terminal");
    const state = track(startup);
    await vi.advanceTimersByTimeAsync(1200);
    startup.release("terminal");
    // Typing from 1,300 ms to 2,500 ms: the cap (1,500 ms) no longer cuts into the line.
    for (let at = 1300; at <= 2500; at += 100) {
      await vi.advanceTimersByTimeAsync(100);
      startup.input();
    }
    expect(state.clear).toBe(false);
    await vi.advanceTimersByTimeAsync(199);
    expect(state.clear).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.clear).toBe(true);
  });

  it("goes at the typing cap after the last release however long the user types", async () => {
    const startup = order(1500, 200, 1000, 3000);
    startup.hold("terminal");
    const state = track(startup);
    await vi.advanceTimersByTimeAsync(500);
    startup.release("terminal");
    let typed = 0;
    while (!state.clear && typed < 100) {
      await vi.advanceTimersByTimeAsync(100);
      startup.input();
      typed++;
    }
    expect(state.clear).toBe(true);
    // Released at 500 ms; 3,000 ms later it went, mid-typing.
    expect(typed).toBe(30);
  });
});
