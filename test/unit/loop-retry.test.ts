// Retries (docs/agent.md, "The loop"): retry-after honoured, backoff doubling with its cap, at most 8 attempts,
// 401 never retried (with an API-key action), exhausted quota never retried (with a billing action),
// and a retry part + status for the UI countdown.
// Fake timers drive the delays; IndexedDB (fake-indexeddb) keeps its real macrotasks.
import { APICallError } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionStatus } from "../../src/agent/session/events";
import { RETRY_INITIAL_DELAY_MS, RETRY_MAX_ATTEMPTS, RETRY_MAX_DELAY_MS, classifyFailure, retryDelay } from "../../src/agent/session/retry";
import { MODEL, ScriptedModel, apiError, createRig, partsOf, text, type Rig } from "./agent-harness";

let rig: Rig | undefined;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  rig?.dispose();
  vi.useRealTimers();
});

function nextRetry(r: Rig): Promise<Extract<SessionStatus, { type: "retry" }>> {
  return new Promise((resolve) => {
    const listener = r.agent.bus.on("session-status", ({ status }) => {
      if (status.type !== "retry") return;
      listener.dispose();
      resolve(status);
    });
  });
}

describe("retry delays", () => {
  it("uses retry-after-ms, retry-after seconds and HTTP dates, else doubles from 2 s up to 30 s", () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(retryDelay(1, { "retry-after-ms": "1500" }, now)).toBe(1500);
    expect(retryDelay(1, { "Retry-After": "7" }, now)).toBe(7000);
    expect(retryDelay(1, { "retry-after": new Date(now + 12_000).toUTCString() }, now)).toBe(12_000);
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelay(n, undefined, now))).toEqual([2000, 4000, 8000, 16000, 30000, 30000]);
    expect(RETRY_INITIAL_DELAY_MS).toBe(2000);
    expect(RETRY_MAX_DELAY_MS).toBe(30_000);
  });

  it("classifies failures", () => {
    const kind = (e: unknown) => classifyFailure(e).kind;
    expect(kind({ statusCode: 429 })).toBe("retryable");
    expect(kind({ statusCode: 503 })).toBe("retryable");
    expect(kind({ statusCode: 408 })).toBe("retryable");
    expect(kind({ statusCode: 401 })).toBe("auth");
    expect(kind({ statusCode: 403 })).toBe("auth");
    expect(kind({ statusCode: 400, message: "This model's maximum context length is 8192 tokens" })).toBe("overflow");
    expect(kind({ statusCode: 400, responseBody: '{"error":{"code":"context_length_exceeded"}}' })).toBe("overflow");
    expect(kind({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })).toBe("retryable");
    expect(kind(new TypeError("fetch failed"))).toBe("retryable");
    expect(kind({ statusCode: 400, message: "bad request" })).toBe("fatal");
    expect(kind(new Error("something odd"))).toBe("fatal");
    // Quota or credit used up: no retry helps (OpenAI, Anthropic, Google wordings).
    expect(kind({ statusCode: 429, responseBody: '{"error":{"type":"insufficient_quota","code":"insufficient_quota"}}' })).toBe("quota");
    expect(kind({ statusCode: 400, message: "Your credit balance is too low to access the Anthropic API." })).toBe("quota");
    expect(kind({ statusCode: 429, message: "You exceeded your current quota, please check your plan and billing details." })).toBe("quota");
    // ...but a per-minute limit that says when to retry is still a rate limit.
    expect(kind({ statusCode: 429, message: "You exceeded your current quota, please check your plan and billing details. Please retry in 37.5s." })).toBe("retryable");
    expect(kind({ statusCode: 429, message: "Rate limit reached for requests per min" })).toBe("retryable");
  });
});

describe("retries in the loop", () => {
  it("waits the provider's retry-after on 429, shows a retry part and countdown, then succeeds", async () => {
    const model = new ScriptedModel([apiError(429, { "retry-after": "3" }), text("ok now")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const retrying = nextRetry(rig);
    const done = rig.agent.prompt(session.id, { text: "hi" });
    const status = await retrying;
    expect(status.attempt).toBe(1);
    expect(status.nextAt - Date.now()).toBe(3000);
    await vi.advanceTimersByTimeAsync(2999);
    expect(model.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const result = await done;
    expect(result.error).toBeUndefined();
    expect(model.calls).toHaveLength(2);
    const retries = await partsOf(rig.agent, session.id, "retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 3000, error: { status: 429 } });
  });

  it("backs off 2, 4, 8, 16, 30, 30, 30 s on 503 and gives up after 8 attempts", async () => {
    const model = new ScriptedModel(Array.from({ length: 10 }, () => apiError(503)));
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const delays: number[] = [];
    let retrying = nextRetry(rig);
    const done = rig.agent.prompt(session.id, { text: "hi" });
    for (let i = 0; i < RETRY_MAX_ATTEMPTS - 1; i++) {
      const status = await retrying;
      retrying = nextRetry(rig);
      delays.push(status.nextAt - Date.now());
      await vi.advanceTimersByTimeAsync(status.nextAt - Date.now());
    }
    const result = await done;
    expect(delays).toEqual([2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(model.calls).toHaveLength(RETRY_MAX_ATTEMPTS);
    expect(result.error?.name).toBe("ProviderUnavailableError");
    expect(result.error?.action).toBeTruthy();
    expect(rig.agent.status(session.id)).toEqual({ type: "idle" });
  });

  it("never retries 401 and says to check the API key for the provider", async () => {
    const model = new ScriptedModel([apiError(401, {}, "Incorrect API key provided"), text("never")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const result = await rig.agent.prompt(session.id, { text: "hi" });
    expect(model.calls).toHaveLength(1);
    expect(result.error?.name).toBe("ProviderAuthError");
    expect(result.error?.action).toContain("Check your API key for Fake AI");
    expect(await partsOf(rig.agent, session.id, "retry")).toHaveLength(0);
  });

  it("does not retry a 429 that says the quota is used up, and says to check billing for the provider", async () => {
    const body = '{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}';
    const error = new APICallError({
      message: "You exceeded your current quota, please check your plan and billing details.",
      url: "https://fake.test/v1/chat",
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: {},
      responseBody: body,
      isRetryable: true,
    });
    const model = new ScriptedModel([{ kind: "error", error }, text("never")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const result = await rig.agent.prompt(session.id, { text: "hi" });
    expect(model.calls).toHaveLength(1);
    expect(result.error?.name).toBe("ProviderQuotaError");
    expect(result.error?.action).toContain("Check billing and quota for Fake AI");
    expect(await partsOf(rig.agent, session.id, "retry")).toHaveLength(0);
  });

  it("aborting during the wait ends the turn without another call", async () => {
    const model = new ScriptedModel([apiError(500), text("never")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const retrying = nextRetry(rig);
    const done = rig.agent.prompt(session.id, { text: "hi" });
    await retrying;
    rig.agent.abort(session.id);
    const result = await done;
    expect(result.error?.name).toBe("AbortedError");
    expect(model.calls).toHaveLength(1);
  });
});
