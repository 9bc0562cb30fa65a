import { describe, expect, it, vi } from "vitest";
import { watchInterruption } from "../../src/runtime/interruption";

describe("watchInterruption", () => {
  it("settles with timeout when the time runs out, and not before", async () => {
    vi.useFakeTimers();
    try {
      const watch = watchInterruption({ timeoutMs: 100 });
      let outcome: string | undefined;
      void watch.interrupted.then((value) => (outcome = value));
      await vi.advanceTimersByTimeAsync(99);
      expect(outcome).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toBe("timeout");
      watch.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it("settles with abort when the signal aborts, also when it was aborted before", async () => {
    const controller = new AbortController();
    const watch = watchInterruption({ signal: controller.signal, timeoutMs: 60_000 });
    controller.abort();
    await expect(watch.interrupted).resolves.toBe("abort");
    watch.dispose();
    await expect(watchInterruption({ signal: controller.signal }).interrupted).resolves.toBe("abort");
  });

  it("stops listening once disposed", () => {
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, "removeEventListener");
    const watch = watchInterruption({ signal: controller.signal, timeoutMs: 60_000 });
    watch.dispose();
    expect(remove).toHaveBeenCalledWith("abort", expect.any(Function));
  });
});
