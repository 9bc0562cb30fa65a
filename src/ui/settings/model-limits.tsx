// The context window and output limit of a model, editable for every model (catalogued or added by
// hand): the agent budgets its context with them (when to compact, how much a tool result may
// take), so a 128k local model should not compact at 32k and an 8k one should not overflow.
import { useId } from "react";
import type { ModelInfo } from "../../providers";

export const MIN_CONTEXT_TOKENS = 1024;
export const MIN_OUTPUT_TOKENS = 256;
/** The no-data timeout a user may set, in seconds (reasoning models may think silently for minutes). */
export const MIN_STALL_SECONDS = 10;
export const MAX_STALL_SECONDS = 900;
/** Shown when a model sets none: the agent's default (DEFAULT_STALL_TIMEOUT_MS). */
const DEFAULT_STALL_SECONDS = 90;
/** The total wait on a silent model a user may set, in seconds, retries included. */
export const MAX_STALL_BUDGET_SECONDS = 3600;
/** Shown when a model sets none: the agent's default (DEFAULT_STALL_BUDGET_MS, or the no-data timeout if longer). */
const DEFAULT_STALL_BUDGET_SECONDS = 180;

/** What is wrong with a model's limits, in words the user can act on; undefined when they are fine. */
export function limitProblem(model: Pick<ModelInfo, "id" | "context" | "output" | "stallTimeoutMs" | "stallBudgetMs">): string | undefined {
  if (!Number.isInteger(model.context) || model.context < MIN_CONTEXT_TOKENS) {
    return `The context window of ${model.id} must be a whole number of at least ${MIN_CONTEXT_TOKENS} tokens.`;
  }
  if (!Number.isInteger(model.output) || model.output < MIN_OUTPUT_TOKENS) {
    return `The output limit of ${model.id} must be a whole number of at least ${MIN_OUTPUT_TOKENS} tokens.`;
  }
  if (model.output >= model.context) {
    return `The output limit of ${model.id} (${model.output}) must be smaller than its context window (${model.context}).`;
  }
  const stall = model.stallTimeoutMs;
  if (stall !== undefined && (!Number.isFinite(stall) || stall < MIN_STALL_SECONDS * 1000 || stall > MAX_STALL_SECONDS * 1000)) {
    return `The no-data timeout of ${model.id} must be between ${MIN_STALL_SECONDS} and ${MAX_STALL_SECONDS} seconds.`;
  }
  const budget = model.stallBudgetMs;
  const timeout = stall ?? DEFAULT_STALL_SECONDS * 1000;
  if (budget !== undefined && (!Number.isFinite(budget) || budget < timeout || budget > MAX_STALL_BUDGET_SECONDS * 1000)) {
    return `The total wait for data of ${model.id} must be between its no-data timeout (${Math.round(timeout / 1000)} s) and ${MAX_STALL_BUDGET_SECONDS} seconds.`;
  }
  return undefined;
}

export function ModelLimitFields({ model, onChange }: { model: ModelInfo; onChange(next: ModelInfo): void }) {
  const contextId = useId();
  const outputId = useId();
  const stallId = useId();
  const budgetId = useId();
  const number = (value: string) => (value.trim() === "" ? 0 : Number(value.replace(/[\s,_]/g, "")));
  return (
    <div className="form-row model-limits" role="group" aria-label={`Limits of ${model.id}`}>
      <label htmlFor={contextId}>Context window (tokens)</label>
      <input
        id={contextId}
        className="text-input"
        // Text, not type=number: the browser's own step/min checks would block Save without saying why here.
        inputMode="numeric"
        value={model.context}
        onChange={(event) => onChange({ ...model, context: number(event.target.value) })}
      />
      <label htmlFor={outputId}>Output limit (tokens)</label>
      <input
        id={outputId}
        className="text-input"
        // Text, not type=number: the browser's own step/min checks would block Save without saying why here.
        inputMode="numeric"
        value={model.output}
        onChange={(event) => onChange({ ...model, output: number(event.target.value) })}
      />
      <label htmlFor={stallId}>No-data timeout (seconds)</label>
      <input
        id={stallId}
        className="text-input"
        inputMode="numeric"
        title="A reply that sends nothing for this long counts as a dropped connection and is retried."
        value={model.stallTimeoutMs === undefined ? DEFAULT_STALL_SECONDS : Math.round(model.stallTimeoutMs / 1000)}
        onChange={(event) => onChange({ ...model, stallTimeoutMs: number(event.target.value) * 1000 })}
      />
      <label htmlFor={budgetId}>Total wait for data (seconds)</label>
      <input
        id={budgetId}
        className="text-input"
        inputMode="numeric"
        title="The most a reply waits on a silent model from the last data it sent, retries included, before it stops with an error."
        value={
          model.stallBudgetMs === undefined
            ? Math.max(DEFAULT_STALL_BUDGET_SECONDS, Math.round((model.stallTimeoutMs ?? DEFAULT_STALL_SECONDS * 1000) / 1000))
            : Math.round(model.stallBudgetMs / 1000)
        }
        onChange={(event) => onChange({ ...model, stallBudgetMs: number(event.target.value) * 1000 })}
      />
    </div>
  );
}
