// Retry delays the provider says in the error body rather than a header: Google's RetryInfo
// `retryDelay` and the "try again in Ns" wording, over the real Google client and as a table.
import { APICallError } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { bodyRetryDelay, classifyFailure, retryDelay } from "../../src/agent/session/retry";
import { runPrompt, startRig, type StreamRig } from "./provider-streams-harness";

let rig: StreamRig | undefined;
afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

/** Google's 429 as recorded, with the delay it asks for. */
function google429(delay: string) {
  return {
    error: {
      code: 429,
      message: `You exceeded your current quota, please check your plan and billing details. Please retry in ${delay}.`,
      status: "RESOURCE_EXHAUSTED",
      details: [
        { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests", quotaId: "GenerateRequestsPerMinutePerProjectPerModel-FreeTier" }] },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: delay },
      ],
    },
  };
}

describe("retry delay from the error body", () => {
  it.each([
    [JSON.stringify(google429("34.441985958s")), 34_442],
    ["Rate limit reached for gpt-4.1 on tokens per min. Please try again in 1.5s.", 1500],
    ["Rate limit reached. Please try again in 120ms.", 120],
    ["Rate limit exceeded, retry after 2 minutes", 120_000],
    ["Service overloaded", undefined],
    ["Please retry in a moment", undefined],
  ])("reads %s", (text, expected) => {
    expect(bodyRetryDelay(text)).toBe(expected);
  });

  it("classifies Google's quota 429 that says when to retry as retryable, with that delay; a header still wins", () => {
    const error = new APICallError({
      message: "You exceeded your current quota",
      url: "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent",
      requestBodyValues: {},
      statusCode: 429,
      responseBody: JSON.stringify(google429("34.4s")),
      isRetryable: true,
    });
    const failure = classifyFailure(error);
    expect([failure.kind, failure.retryAfterMs]).toEqual(["retryable", 34_400]);
    expect(retryDelay(1, undefined, 0, failure.retryAfterMs)).toBe(34_400);
    expect(retryDelay(1, { "retry-after": "3" }, 0, failure.retryAfterMs)).toBe(3000);
    expect(retryDelay(1, undefined, 0, undefined)).toBe(2000);
  });

  it("waits what Google's body asks for (shown on the retry part), then answers", async () => {
    rig = await startRig("google", "gemini-2.5-flash", [
      { error: { status: 429, body: google429("0.25s") } },
      { chunks: [{ type: "text", text: "Answered after the wait." }] },
    ]);
    const { sessionId, error } = await runPrompt(rig, "hi");
    expect(error).toBeUndefined();
    const parts = await rig.parts(sessionId);
    const retries = parts.filter((p) => p.type === "retry");
    expect(retries.map((p) => (p.type === "retry" ? [p.attempt, p.delayMs] : []))).toEqual([[1, 250]]);
    expect(parts.some((p) => p.type === "text" && p.text === "Answered after the wait.")).toBe(true);
  });
});
