// How a model call (a step) ends, decided from what happened in it: the finish reason recorded, the
// message's finish, the error shown, and what the loop does next. A pure function, so every case
// has a row in a table test (test/unit/loop-step-end.test.ts).
import type { Failure } from "./retry";

/** What the loop does after a step: another step, stop the turn, or compact and go on. */
export type StepOutcome = "continue" | "stop" | "compact";

/** The finish reason of a step that stopped to wait for the user and goes on afterwards. */
export const PAUSED_FINISH = "paused";

export interface StepFacts {
  /** The user stopped the turn (or the page aborted it) during the step. */
  aborted: boolean;
  /** Why the step's model call failed for good (after retries). */
  failure?: Failure;
  /** The provider's finish reason, when the stream got that far. */
  finishReason?: string;
  /** Tool calls the model made in this step (provider-run tools not counted). */
  toolCalls: number;
  /** A tool call stopped the turn (a rejected permission or question). */
  blocked: boolean;
}

export interface StepEnd {
  /** The finish reason to record: "tool-calls" when the model called tools, whatever the provider said. */
  finishReason?: string;
  /** The assistant message's finish. */
  finish: string;
  /** The failure to show on the message; none for an overflow, which compaction handles. */
  error?: Failure;
  outcome: StepOutcome;
}

export function stepEnd(facts: StepFacts): StepEnd {
  const { aborted, failure, blocked } = facts;
  // Some providers report "stop" although the model called tools; the results still need a reply.
  const finishReason =
    facts.toolCalls > 0 && facts.finishReason !== "length" && facts.finishReason !== "content-filter" && facts.finishReason !== undefined
      ? "tool-calls"
      : facts.finishReason;
  const error: Failure | undefined = aborted ? { kind: "aborted", message: "aborted" } : failure && failure.kind !== "overflow" ? failure : undefined;
  const finish = aborted ? "aborted" : failure ? (failure.kind === "overflow" ? "context-overflow" : "error") : (finishReason ?? "unknown");
  let outcome: StepOutcome;
  if (aborted || blocked) outcome = "stop";
  else if (failure?.kind === "overflow") outcome = "compact";
  else if (failure) outcome = "stop";
  else if (finishReason === "tool-calls" || finishReason === PAUSED_FINISH) outcome = "continue";
  else outcome = "stop";
  return { ...(finishReason !== undefined && { finishReason }), finish, ...(error && { error }), outcome };
}
