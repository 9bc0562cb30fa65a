// How a step ends: every combination the loop meets, one row each.
import { describe, expect, it } from "vitest";
import { stepEnd, type StepEnd, type StepFacts } from "../../src/agent/session/step-end";
import type { Failure } from "../../src/agent/session/retry";

const overflow: Failure = { kind: "overflow", message: "context too long" };
const auth: Failure = { kind: "auth", message: "bad key", status: 401 };
const none: StepFacts = { aborted: false, toolCalls: 0, blocked: false };

const rows: Array<[string, Partial<StepFacts>, StepEnd]> = [
  ["a plain answer", { finishReason: "stop" }, { finishReason: "stop", finish: "stop", outcome: "stop" }],
  ["tool calls", { finishReason: "tool-calls", toolCalls: 2 }, { finishReason: "tool-calls", finish: "tool-calls", outcome: "continue" }],
  ["tool calls reported as stop", { finishReason: "stop", toolCalls: 1 }, { finishReason: "tool-calls", finish: "tool-calls", outcome: "continue" }],
  ["tool calls cut by the length limit", { finishReason: "length", toolCalls: 1 }, { finishReason: "length", finish: "length", outcome: "stop" }],
  ["tool calls cut by the content filter", { finishReason: "content-filter", toolCalls: 1 }, { finishReason: "content-filter", finish: "content-filter", outcome: "stop" }],
  ["a paused provider turn", { finishReason: "paused" }, { finishReason: "paused", finish: "paused", outcome: "continue" }],
  ["a stream that never finished", {}, { finish: "unknown", outcome: "stop" }],
  ["tool calls with no finish reason", { toolCalls: 1 }, { finish: "unknown", outcome: "stop" }],
  ["a stop by the user", { aborted: true, finishReason: "tool-calls", toolCalls: 1 }, { finishReason: "tool-calls", finish: "aborted", error: { kind: "aborted", message: "aborted" }, outcome: "stop" }],
  ["a rejected permission", { finishReason: "tool-calls", toolCalls: 1, blocked: true }, { finishReason: "tool-calls", finish: "tool-calls", outcome: "stop" }],
  ["a context overflow", { failure: overflow }, { finish: "context-overflow", outcome: "compact" }],
  ["a failure after retries", { failure: auth }, { finish: "error", error: auth, outcome: "stop" }],
  ["an abort during a failure", { aborted: true, failure: auth }, { finish: "aborted", error: { kind: "aborted", message: "aborted" }, outcome: "stop" }],
];

describe("stepEnd", () => {
  it.each(rows)("%s", (_what, facts, expected) => {
    expect(stepEnd({ ...none, ...facts })).toEqual(expected);
  });
});
