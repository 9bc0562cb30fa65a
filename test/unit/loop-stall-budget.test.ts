// A silent provider gives up in bounded time (issue 31 point 3): silence is counted from the step's
// last data across its attempts, so the "no data for N s" notice shows the whole wait and the step
// stops with a final error once the model's budget (default 180 s) is spent, instead of waiting
// the stall timeout again on each of eight attempts (about 14 minutes); Stop works meanwhile.
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_STALL_BUDGET_MS, DEFAULT_STALL_TIMEOUT_MS, StallWatch, type StreamStallError } from "../../src/agent/session/stall-watch";
import { MODEL, ScriptedModel, createRig, modelInfo, partsOf, type Rig, type Turn } from "./agent-harness";

let rig: Rig | undefined;
afterEach(() => {
  rig?.dispose();
  rig = undefined;
  vi.useRealTimers();
});

const silentAfterAWord: Turn = {
  kind: "chunks",
  chunks: [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "I was saying" },
  ] satisfies LanguageModelV4StreamPart[],
  hang: true,
};

describe("StallWatch across attempts (fake timers)", () => {
  const watch = (stalls: StreamStallError[], silences: number[], silentBeforeMs?: number) =>
    new StallWatch({
      timeoutMs: 90_000,
      budgetMs: 180_000,
      ...(silentBeforeMs !== undefined && { silentBeforeMs }),
      noticeMs: 20_000,
      now: () => Date.now(),
      busy: () => false,
      onSilence: (since) => silences.push(since),
      onResume: () => {},
      onStall: (error) => stalls.push(error),
    });

  it("carries the silence of a stalled attempt over: the notice shows the whole wait, and the budget ends the step", () => {
    vi.useFakeTimers({ now: 0 });
    const stalls: StreamStallError[] = [];
    const silences: number[] = [];
    // First attempt: a chunk at 5 s, then nothing: given up 90 s later (at 95 s), retried.
    const first = watch(stalls, silences);
    vi.advanceTimersByTime(5_000);
    first.data();
    vi.advanceTimersByTime(90_000);
    expect(stalls.map((s) => [s.seconds, s.budgetSpent])).toEqual([[90, false]]);
    expect(first.stalledAfterMs).toBe(90_000);
    expect(silences).toEqual([5_000]);
    first.dispose();
    // The retry starts 2 s later with 92 s of silence behind it; its chunks are streamed again
    // (no progress), then nothing. After a second of that, the notice shows the whole wait.
    vi.advanceTimersByTime(2_000);
    const second = watch(stalls, silences, 92_000);
    vi.advanceTimersByTime(500);
    second.data();
    vi.advanceTimersByTime(999);
    expect(silences).toEqual([5_000]);
    vi.advanceTimersByTime(1);
    expect(silences).toHaveLength(2);
    expect(Date.now() - silences[1]!).toBe(92_000 + 1_000);
    // The budget (180 s in all) ends it 88 s after its last chunk, before its own 90 s.
    vi.advanceTimersByTime(86_999);
    expect(stalls).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(stalls.map((s) => [s.seconds, s.budgetSpent])).toEqual([
      [90, false],
      [180, true],
    ]);
    second.dispose();
  });

  it("the defaults: 90 s per attempt, 180 s in all", () => {
    expect(DEFAULT_STALL_TIMEOUT_MS).toBe(90_000);
    expect(DEFAULT_STALL_BUDGET_MS).toBe(180_000);
  });
});

describe("a provider that goes silent on every attempt", () => {
  it("ends the turn with a final error once the model's budget is spent, retries included", async () => {
    const model = new ScriptedModel(Array.from({ length: 8 }, () => silentAfterAWord));
    // 1 s per attempt, 3.5 s in all: the first attempt sends a word and stalls at 1 s, the retry
    // starts at 3 s (the first backoff is 2 s), sends the word again and is given up 0.5 s later.
    rig = await createRig({
      models: { [MODEL.modelId]: model },
      infos: { [MODEL.modelId]: modelInfo(MODEL.modelId, { stallTimeoutMs: 1_000, stallBudgetMs: 3_500 }) },
    });
    const session = await rig.agent.createSession();
    const started = Date.now();
    const result = await rig.agent.prompt(session.id, { text: "answer" });
    const elapsed = Date.now() - started;
    expect(model.calls).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(3_400);
    expect(elapsed).toBeLessThan(6_000);
    expect(result.error?.name).toBe("ProviderStalledError");
    expect(result.error?.message).toMatch(/stopped sending data: no data for [34] s in all, over 2 attempts/);
    expect(result.error?.action).toMatch(/Settings → Providers/);
    expect(await partsOf(rig.agent, session.id, "retry")).toHaveLength(1);
  }, 15_000);

  it("Stop ends the wait at once, during an attempt or the wait before a retry", async () => {
    const model = new ScriptedModel(Array.from({ length: 8 }, () => silentAfterAWord));
    rig = await createRig({
      models: { [MODEL.modelId]: model },
      infos: { [MODEL.modelId]: modelInfo(MODEL.modelId, { stallTimeoutMs: 1_000 }) },
    });
    const session = await rig.agent.createSession();
    const turn = rig.agent.prompt(session.id, { text: "answer" });
    // 1.5 s: the first attempt stalled at 1 s; the turn waits 2 s before the retry.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const stopped = Date.now();
    rig.agent.abort(session.id);
    const result = await turn;
    expect(Date.now() - stopped).toBeLessThan(500);
    expect(result.error?.name ?? "AbortedError").toBe("AbortedError");
    expect(model.calls).toHaveLength(1);
  }, 15_000);
});
