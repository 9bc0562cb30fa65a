// A model select that shows what matters when choosing: context size and price.
import type { ModelInfo, ProviderConfig } from "../../providers";
import type { ModelRef } from "../../storage";

/**
 * A context size as the catalogue writes it, rounded down so a limit is never overstated:
 * 200_000 -> "200k", 32_768 -> "32k", 1_047_576 -> "1M", 1_500_000 -> "1.5M".
 */
export function formatContext(tokens: number): string {
  if (tokens >= 1_000_000) return `${Math.floor(tokens / 100_000) / 10}M`;
  if (tokens >= 1000) return `${Math.floor(tokens / 1000)}k`;
  return String(tokens);
}

/** "Claude Sonnet 4.5 — 200k context · $3 / $15 per M". */
export function modelLabel(model: ModelInfo): string {
  const context = formatContext(model.context);
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
