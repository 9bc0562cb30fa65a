// Adding or editing one provider: preset, base URL, key (masked, never shown back), model, small
// model, and "Test connection" that tells a bad key, a CORS refusal, an unreachable server and
// success apart.
import { useId, useRef, useState, type ReactNode } from "react";
import { errorMessage } from "../../base";
import {
  PROVIDER_PRESETS,
  configFromPreset,
  defaultModelInfo,
  maskKey,
  presetOf,
  supportsWebSearch,
  type ConnectionResult,
  type ModelInfo,
  type ProviderConfig,
} from "../../providers";
import { modelLabel } from "./model-picker";
import { ModelLimitFields, limitProblem } from "./model-limits";
import { uniqueProviderId } from "./provider-settings";

export type TestConnection = (config: ProviderConfig) => Promise<ConnectionResult>;

export interface ProviderFormProps {
  /** The saved config being edited; undefined to add a new provider. */
  existing?: ProviderConfig;
  /** All saved configs (for a unique id). */
  configs: readonly ProviderConfig[];
  testConnection: TestConnection;
  /** Saves the config; `modelId` is the model picked in the form. */
  onSave(config: ProviderConfig, modelId: string | undefined): Promise<void>;
  onRemove?(providerId: string): Promise<void>;
  onCancel?(): void;
  /** The model currently used from this provider (preselected). */
  currentModelId?: string;
}

/** The heading shown for each test outcome, so the four cases read differently at a glance. */
export const OUTCOME_HEADINGS: Record<string, string> = {
  ok: "Connected",
  "bad-key": "The API key was refused",
  cors: "Blocked by the browser (CORS)",
  unreachable: "Server unreachable",
  "not-found": "Wrong address",
  error: "The server reported an error",
};

type TestState = { status: "idle" } | { status: "testing" } | { status: "done"; result: ConnectionResult };

export function ProviderForm({ existing, configs, testConnection, onSave, onRemove, onCancel, currentModelId }: ProviderFormProps) {
  const initialPreset = existing ? (presetOf(existing)?.id ?? "custom") : "openai";
  const [presetId, setPresetId] = useState(initialPreset);
  const [draft, setDraft] = useState<ProviderConfig>(() => existing ?? configFromPreset(initialPreset, { id: uniqueProviderId(initialPreset, configs) }));
  const [keyInput, setKeyInput] = useState("");
  const [modelId, setModelId] = useState<string | undefined>(currentModelId ?? existing?.models[0]?.id ?? draft.models[0]?.id);
  const [extraModel, setExtraModel] = useState("");
  const modelSelect = useRef<HTMLSelectElement>(null);
  const [test, setTest] = useState<TestState>({ status: "idle" });
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const ids = { preset: useId(), name: useId(), base: useId(), key: useId(), keyHint: useId(), model: useId(), small: useId(), extra: useId(), search: useId(), searchHint: useId() };
  const preset = PROVIDER_PRESETS.find((p) => p.id === presetId);

  /** The config as it would be saved: a typed key replaces the saved one, an empty box keeps it. */
  const candidate = (): ProviderConfig => {
    const config: ProviderConfig = { ...draft, name: draft.name.trim() || preset?.name || "Provider" };
    const key = keyInput.trim();
    if (key) config.apiKey = key;
    const base = draft.baseUrl?.trim();
    if (base) config.baseUrl = base.replace(/\/+$/, "");
    else delete config.baseUrl;
    return config;
  };

  const changePreset = (id: string) => {
    setPresetId(id);
    const next = configFromPreset(id, { id: existing?.id ?? uniqueProviderId(id, configs) });
    setDraft(next);
    setModelId(next.models[0]?.id);
    setTest({ status: "idle" });
  };

  const addModels = (modelIds: string[]) => {
    setDraft((current) => {
      const known = new Set(current.models.map((m) => m.id));
      const added = modelIds.filter((id) => id && !known.has(id)).map((id) => defaultModelInfo(current.id, id));
      return added.length ? { ...current, models: [...current.models, ...added] } : current;
    });
  };

  const runTest = async () => {
    setTest({ status: "testing" });
    try {
      const result = await testConnection(candidate());
      setTest({ status: "done", result });
      // Local servers list what they have loaded: offer those models.
      if (result.ok && result.models && draft.kind === "openai-compatible") {
        addModels(result.models);
        if (!modelId && result.models[0]) setModelId(result.models[0]);
      }
    } catch (error) {
      setTest({ status: "done", result: { ok: false, kind: "error", message: errorMessage(error) } });
    }
  };

  const selectedModel = draft.models.find((m) => m.id === modelId);
  const changeModel = (next: ModelInfo) => setDraft((current) => ({ ...current, models: current.models.map((m) => (m.id === next.id ? next : m)) }));

  const save = async () => {
    const config = candidate();
    const badLimits = config.models.map(limitProblem).find((p) => p !== undefined);
    if (badLimits) {
      setProblem(badLimits);
      return;
    }
    if (draft.kind === "openai-compatible" && !config.baseUrl) {
      setProblem("Enter the server's base URL (for example http://localhost:11434/v1).");
      return;
    }
    if (preset?.needsKey && !config.apiKey) {
      setProblem(`Paste your ${config.name} API key first.`);
      return;
    }
    setSaving(true);
    setProblem(undefined);
    try {
      await onSave(config, modelId);
      setKeyInput("");
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const savedKey = existing?.apiKey;
  return (
    <form
      className="provider-form"
      aria-label={existing ? `Edit ${existing.name}` : "Add provider"}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Field id={ids.preset} label="Provider">
        <select id={ids.preset} className="select" value={presetId} onChange={(event) => changePreset(event.target.value)} disabled={Boolean(existing)}>
          {PROVIDER_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.id === "custom" ? "Custom (OpenAI-compatible URL)" : p.name}
            </option>
          ))}
        </select>
      </Field>
      {presetId === "custom" && (
        <Field id={ids.name} label="Name">
          <input id={ids.name} className="text-input" value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.target.value })} />
        </Field>
      )}
      <Field id={ids.base} label="Base URL">
        <input
          id={ids.base}
          className="text-input"
          type="url"
          value={draft.baseUrl ?? ""}
          placeholder={draft.kind === "openai-compatible" ? "http://localhost:11434/v1" : "Leave empty for the provider's default"}
          onChange={(event) => setDraft({ ...draft, baseUrl: event.target.value })}
        />
      </Field>
      <Field id={ids.key} label="API key">
        <input
          id={ids.key}
          className="text-input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={keyInput}
          aria-describedby={ids.keyHint}
          placeholder={savedKey ? `Saved: ${maskKey(savedKey)}` : preset?.needsKey ? "Paste your key" : "Not needed for most local servers"}
          onChange={(event) => setKeyInput(event.target.value)}
        />
        <p id={ids.keyHint} className="form-hint">
          {savedKey ? `A key is saved (${maskKey(savedKey)}). Type a new one to replace it. ` : ""}
          Kept only in this browser's storage for this site; never exported or shared.
          {preset?.keyUrl && (
            <>
              {" "}
              <a href={preset.keyUrl} target="_blank" rel="noopener noreferrer">
                Get a key
              </a>
            </>
          )}
        </p>
      </Field>
      {preset?.setupHint && <p className="form-hint">{preset.setupHint}</p>}
      <Field id={ids.model} label="Model">
        <select ref={modelSelect} id={ids.model} className="select model-picker" value={modelId ?? ""} onChange={(event) => setModelId(event.target.value || undefined)}>
          {!modelId && <option value="">Choose a model</option>}
          <ModelOptions models={draft.models} />
        </select>
      </Field>
      {selectedModel && <ModelLimitFields model={selectedModel} onChange={changeModel} />}
      <Field id={ids.extra} label="Other model ID" inline>
        <input id={ids.extra} className="text-input" value={extraModel} placeholder="e.g. qwen2.5-coder:7b" onChange={(event) => setExtraModel(event.target.value)} />
        <button
          type="button"
          className="button"
          disabled={!extraModel.trim()}
          onClick={() => {
            addModels([extraModel.trim()]);
            setModelId(extraModel.trim());
            setExtraModel("");
            // This button is disabled next (the field is emptied): focus the model it just chose.
            modelSelect.current?.focus();
          }}
        >
          Add model
        </button>
      </Field>
      <Field id={ids.small} label="Small model">
        <select
          id={ids.small}
          className="select model-picker"
          value={draft.smallModel ?? ""}
          onChange={(event) => setDraft({ ...draft, ...(event.target.value ? { smallModel: event.target.value } : { smallModel: undefined }) })}
        >
          <option value="">Same as the model (titles and summaries)</option>
          <ModelOptions models={draft.models} />
        </select>
      </Field>
      {supportsWebSearch(draft) && (
        <div className="form-row">
          <div className="form-row-inline">
            <input
              id={ids.search}
              type="checkbox"
              checked={draft.webSearch === true}
              aria-describedby={ids.searchHint}
              onChange={(event) => setDraft({ ...draft, ...(event.target.checked ? { webSearch: true } : { webSearch: undefined }) })}
            />
            <label htmlFor={ids.search}>Let the model search the web</label>
          </div>
          <p id={ids.searchHint} className="form-hint">
            {`Offers ${draft.name || "the provider"}'s own web search tool to the model. It costs money: ${draft.name || "the provider"} bills each search on top of the tokens. Each turn asks you first unless Settings → Permissions → Web searches says otherwise.${draft.kind === "google" ? " Gemini 3 and newer only: older Gemini models cannot search and use webcode's tools in one request." : ""}`}
          </p>
        </div>
      )}
      <div className="form-buttons">
        <button type="button" className="button" onClick={() => void runTest()} disabled={test.status === "testing"}>
          {test.status === "testing" ? "Testing…" : "Test connection"}
        </button>
        <button type="submit" className="button button-primary" disabled={saving}>
          Save
        </button>
        {existing && onRemove && (
          <button type="button" className="button button-danger" onClick={() => void onRemove(existing.id)}>
            Remove provider
          </button>
        )}
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {test.status === "done" && <TestResult result={test.result} />}
      {problem && (
        <p className="input-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** One labelled row of the form; `id` is the control's id (the label points at it). */
function Field({ id, label, inline, children }: { id: string; label: string; inline?: boolean; children: ReactNode }) {
  return (
    <div className={inline ? "form-row form-row-inline" : "form-row"}>
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

/** The provider's models as options of a model picker. */
function ModelOptions({ models }: { models: readonly ModelInfo[] }) {
  return models.map((model) => (
    <option key={model.id} value={model.id}>
      {modelLabel(model)}
    </option>
  ));
}

function TestResult({ result }: { result: ConnectionResult }) {
  const outcome = result.ok ? "ok" : result.kind;
  const message = result.ok
    ? result.models
      ? `The server answered and lists ${result.models.length} model${result.models.length === 1 ? "" : "s"}.`
      : "The server answered and accepted the key."
    : result.message;
  return (
    <div className={`test-result test-result-${outcome}`} role="status" data-outcome={outcome}>
      <strong>{OUTCOME_HEADINGS[outcome] ?? "Result"}</strong>
      <p>{message}</p>
    </div>
  );
}
