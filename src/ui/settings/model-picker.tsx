// A model select that shows what matters when choosing: context size and price.
import type { ModelInfo, ProviderConfig } from "../../providers";
import type { ModelRef } from "../../storage";

/** "Claude Sonnet 4.5 — 200k context · $3 / $15 per M". */
export function modelLabel(model: ModelInfo): string {
  const context = model.context >= 1_000_000 ? `${(model.context / 1_000_000).toFixed(1).replace(/\.0$/, "")}M` : `${Math.round(model.context / 1000)}k`;
  const price = model.cost.input === 0 && model.cost.output === 0 ? "free or unknown price" : `$${model.cost.input} / $${model.cost.output} per M tokens`;
  return `${model.name} — ${context} context · ${price}`;
}

const refValue = (ref: ModelRef) => `${ref.providerId}\u0000${ref.modelId}`;

export interface ModelPickerProps {
  label: string;
  providers: readonly ProviderConfig[];
  value: ModelRef | undefined;
  onChange(ref: ModelRef | undefined): void;
  /** Text of the empty choice; omit to require a model. */
  emptyLabel?: string;
  id?: string;
}

/** Models of several providers, grouped by provider. */
export function ModelPicker({ label, providers, value, onChange, emptyLabel, id }: ModelPickerProps) {
  const withModels = providers.filter((p) => p.models.length > 0);
  const current = value ? refValue(value) : "";
  return (
    <select
      id={id}
      className="select model-picker"
      aria-label={id ? undefined : label}
      value={current}
      onChange={(event) => {
        const [providerId, modelId] = event.target.value.split("\u0000");
        onChange(providerId && modelId ? { providerId, modelId } : undefined);
      }}
    >
      {(emptyLabel !== undefined || !value) && <option value="">{emptyLabel ?? "Choose a model"}</option>}
      {withModels.map((provider) => (
        <optgroup key={provider.id} label={provider.name}>
          {provider.models.map((model) => (
            <option key={model.id} value={refValue({ providerId: provider.id, modelId: model.id })}>
              {modelLabel(model)}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}
