// Streams that stall or break (issue 20 point 5): silence longer than the model's stall timeout
// counts as a dropped connection and is retried with "no data for N s"; from the notice time on the
// session status says since when nothing arrived; a tool running is not silence; a malformed
// stream event is retried like a dropped stream instead of failing the reply with a parser error.
import { JSONParseError } from "ai";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionStatus } from "../../src/agent/session/events";
import { StallWatch, StreamStallError } from "../../src/agent/session/stall-watch";
import { classifyFailure } from "../../src/agent/session/retry";
import { MODEL, ScriptedModel, createRig, modelInfo, partsOf, text, type Rig } from "./agent-harness";

let rig: Rig | undefined;
afterEach(() => rig?.dispose());

const started: LanguageModelV4StreamPart[] = [
  { type: "stream-start", warnings: [] },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "I was saying" },
];

describe("a stream that stops sending", () => {
  it("is given up after the stall timeout and retried, saying how long nothing came", async () => {
    const model = new ScriptedModel([{ kind: "chunks", chunks: started, hang: true }, text("The whole answer.")]);
    rig = await createRig({ models: { [MODEL.modelId]: model }, infos: { [MODEL.modelId]: modelInfo(MODEL.modelId, { stallTimeoutMs: 1_000 }) } });
    const session = await rig.agent.createSession();
    const statuses: SessionStatus[] = [];
    rig.agent.bus.on("session-status", ({ status }) => statuses.push(status));
    const result = await rig.agent.prompt(session.id, { text: "answer" });
    expect(result.error).toBeUndefined();
    expect(model.calls).toHaveLength(2);
    const retry = (await partsOf(rig.agent, session.id, "retry"))[0];
    expect(retry?.type === "retry" && retry.error.message).toMatch(/^No data from the model for \d+ s; the connection is treated as dropped/);
    expect(statuses.some((s) => s.type === "retry" && /No data from the model/.test(s.message))).toBe(true);
    const texts = (await partsOf(rig.agent, session.id, "text")).map((p) => (p.type === "text" ? p.text : ""));
    // The stalled attempt's partial text is dropped; the retry's answer stays.
    expect(texts.filter((t) => t !== "answer")).toEqual(["The whole answer."]);
  }, 15_000);
});

describe("the stall watch", () => {
  it("reports silence from the notice time, gives up at the timeout, and does not count tool time", async () => {
    const events: string[] = [];
    let busy = false;
    const start = Date.now();
    const watch = new StallWatch({
      timeoutMs: 120,
      noticeMs: 40,
      now: () => Date.now(),
      busy: () => busy,
      onSilence: (since) => events.push(`silence since +${Math.round((since - start) / 40) * 40}`),
      onResume: () => events.push("resume"),
      onStall: (error) => events.push(`stall ${error instanceof StreamStallError}`),
    });
    await new Promise((resolve) => setTimeout(resolve, 70));
    expect(events).toEqual(["silence since +0"]);
    watch.data();
    expect(events).toEqual(["silence since +0", "resume"]);
    // A tool runs for longer than the timeout: no notice, no stall.
    busy = true;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events).toEqual(["silence since +0", "resume"]);
    busy = false;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events.at(-1)).toBe("stall true");
    expect(watch.stalled).toBe(true);
    watch.dispose();
  });
});

describe("the stall watch over a long stream", () => {
  afterEach(() => void vi.useRealTimers());

  it("counts silence from the last chunk, and sets no timer per chunk", async () => {
    vi.useFakeTimers();
    const events: string[] = [];
    const setTimer = vi.spyOn(globalThis, "setTimeout");
    const watch = new StallWatch({
      timeoutMs: 1000,
      noticeMs: 400,
      now: () => Date.now(),
      busy: () => false,
      onSilence: () => events.push(`silence at ${Date.now() - start}`),
      onResume: () => events.push("resume"),
      onStall: () => events.push(`stall at ${Date.now() - start}`),
    });
    const start = Date.now();
    // 2,000 chunks over 600 ms: the notice (400 ms) and the stall (1,000 ms) count from the last one.
    for (let chunk = 0; chunk < 2000; chunk++) {
      if (chunk % 10 === 0) await vi.advanceTimersByTimeAsync(3);
      watch.data();
    }
    expect(setTimer.mock.calls.length).toBeLessThan(10);
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(399);
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(events).toEqual(["silence at 1000"]);
    await vi.advanceTimersByTimeAsync(600);
    expect(events).toEqual(["silence at 1000", "stall at 1600"]);
    watch.dispose();
    setTimer.mockRestore();
  });
});

describe("a malformed stream event", () => {
  it("is retried like a dropped stream, not shown as a parser error", async () => {
    const broken: LanguageModelV4StreamPart[] = [
      ...started,
      { type: "error", error: new JSONParseError({ text: '{"choices":[{"delta":{"content":"x"', cause: new SyntaxError("Unexpected end of JSON input") }) },
    ];
    const model = new ScriptedModel([{ kind: "chunks", chunks: broken }, text("Recovered.")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const result = await rig.agent.prompt(session.id, { text: "answer" });
    expect(result.error).toBeUndefined();
    expect(model.calls).toHaveLength(2);
    const retry = (await partsOf(rig.agent, session.id, "retry"))[0];
    expect(retry?.type === "retry" && retry.error.message).toMatch(/malformed stream event/);
    expect(classifyFailure(new JSONParseError({ text: "{", cause: new Error("bad") })).kind).toBe("retryable");
    // An HTTP error whose body does not parse is still not retried blindly.
    expect(classifyFailure({ name: "AI_JSONParseError", statusCode: 400, message: "bad" }).kind).toBe("fatal");
  }, 15_000);
});
