// The context window and output limit of a model, editable for every model (catalogued or added by
// hand): the agent budgets its context with them (when to compact, how much a tool result may
// take), so a 128k local model should not compact at 32k and an 8k one should not overflow.
import { useId } from "react";
import type { ModelInfo } from "../../providers";

export const MIN_CONTEXT_TOKENS = 1024;
export const MIN_OUTPUT_TOKENS = 256;

/** What is wrong with a model's limits, in words the user can act on; undefined when they are fine. */
export function limitProblem(model: Pick<ModelInfo, "id" | "context" | "output">): string | undefined {
  if (!Number.isInteger(model.context) || model.context < MIN_CONTEXT_TOKENS) {
    return `The context window of ${model.id} must be a whole number of at least ${MIN_CONTEXT_TOKENS} tokens.`;
  }
  if (!Number.isInteger(model.output) || model.output < MIN_OUTPUT_TOKENS) {
    return `The output limit of ${model.id} must be a whole number of at least ${MIN_OUTPUT_TOKENS} tokens.`;
  }
  if (model.output >= model.context) {
    return `The output limit of ${model.id} (${model.output}) must be smaller than its context window (${model.context}).`;
  }
  return undefined;
}

export function ModelLimitFields({ model, onChange }: { model: ModelInfo; onChange(next: ModelInfo): void }) {
  const contextId = useId();
  const outputId = useId();
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
    </div>
  );
}
