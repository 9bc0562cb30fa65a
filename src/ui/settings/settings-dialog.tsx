// The Settings dialog: the configured providers (add, edit, remove), the default model, and the
// small model used for titles and summaries. Keys are shown masked only.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useStore } from "zustand";
import { errorMessage } from "../../base";
import { maskKey, type ProviderConfig } from "../../providers";
import { FOCUSABLE, modalKeyDown } from "../common";
import { AccessibilitySection } from "./accessibility-section";
import { BudgetSection } from "./budget-section";
import type { BudgetSettings } from "./budget-settings";
import { KeyProtectionSection } from "./key-protection-section";
import { McpSection, type McpActions } from "./mcp-section";
import { ModelPicker } from "./model-picker";
import { SkillsSection } from "./skills-section";
import { PermissionSection } from "./permission-section";
import type { PermissionSettings } from "./permission-settings";
import { ProviderForm, type TestConnection } from "./provider-form";
import { RuntimeSection } from "./runtime-section";
import { BackupSection, type BackupActions } from "./backup-section";
import type { RuntimeSettingsStore } from "./runtime-settings-store";
import type { ProviderSettings } from "./provider-settings";
import type { NetworkLog } from "../../runtime";
import "./settings.css";

export interface SettingsDialogProps {
  settings: ProviderSettings;
  testConnection: TestConnection;
  /** The user's permission choices; the Permissions section shows when given. */
  permissions?: PermissionSettings;
  /** The page's record of requests by commands and tools, listed under Permissions when given. */
  networkLog?: NetworkLog;
  /** Settings → Runtime (WebContainer on/off, its API key, boot timeout); shown when given. */
  runtime?: RuntimeSettingsStore;
  /** The spending limit per session; the Budget section shows when given. */
  budget?: BudgetSettings;
  /** Sections the app adds at the end (storage used per workspace). */
  extraSections?: ReactNode;
  /** Back up everything / restore from backup; the Backup section shows when given. */
  backup?: BackupActions;
  /** MCP servers and the user's skills; those sections show when given. */
  mcp?: McpActions;
  onClose(): void;
}

type Editing = { mode: "none" } | { mode: "add" } | { mode: "edit"; providerId: string };

export function SettingsDialog({ settings, testConnection, permissions, networkLog, runtime, budget, backup, mcp, extraSections, onClose }: SettingsDialogProps) {
  const state = useStore(settings.store);
  const [editing, setEditing] = useState<Editing>(() => (state.configs.length === 0 ? { mode: "add" } : { mode: "none" }));
  const [problem, setProblem] = useState<string | undefined>();
  const dialog = useRef<HTMLDivElement>(null);
  const defaultModel = settings.defaultModel;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialog.current?.querySelector<HTMLElement>("select, input, button")?.focus();
    return () => previous?.focus?.();
  }, []);

  const onKeyDown = modalKeyDown(onClose);
  // A form that closes (Save, Cancel, Remove) takes its focused button with it: focus would fall to
  // <body>. After Save it goes to the saved provider's Edit button; otherwise to the first control.
  const [focusProvider, setFocusProvider] = useState<string | undefined>();
  useEffect(() => {
    const root = dialog.current;
    const saved = focusProvider ? root?.querySelector<HTMLElement>(`[data-provider-id="${CSS.escape(focusProvider)}"]`) : undefined;
    if (saved) {
      saved.focus();
      setFocusProvider(undefined);
      return;
    }
    const active = document.activeElement;
    if (!active || active === document.body) root?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
  });

  const run = async (action: () => Promise<void>) => {
    setProblem(undefined);
    try {
      await action();
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };

  const saveProvider = async (config: ProviderConfig, modelId: string | undefined) => {
    await settings.saveProvider(config);
    // The first provider's model becomes the default; so does a model picked for the default provider.
    // Any other provider remembers its model, the default if the default provider is removed.
    const current = settings.store.getState().defaultModel;
    if (modelId && (!current || current.providerId === config.id)) await settings.setDefaultModel({ providerId: config.id, modelId });
    else if (modelId) await settings.setProviderModel(config.id, modelId);
    setFocusProvider(config.id);
    setEditing({ mode: "none" });
  };

  const editingConfig = editing.mode === "edit" ? state.configs.find((c) => c.id === editing.providerId) : undefined;
  const defaultProvider = defaultModel ? state.configs.find((c) => c.id === defaultModel.providerId) : undefined;

  return (
    <div className="modal-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div ref={dialog} className="modal settings-dialog" role="dialog" aria-modal="true" aria-label="Settings" onKeyDown={onKeyDown}>
        <header className="settings-header">
          <h2>Settings</h2>
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </header>
        {state.problems.length > 0 && (
          <ul className="settings-problems" role="alert">
            {state.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        <section className="settings-section" aria-labelledby="settings-providers">
          <h3 id="settings-providers">Providers</h3>
          {state.configs.length === 0 ? (
            <p className="form-hint">No provider yet. Add one to start chatting with the agent.</p>
          ) : (
            <ul className="provider-list">
              {state.configs.map((config) => (
                <li key={config.id} className="provider-row">
                  <span className="provider-name">{config.name}</span>
                  <span className="provider-detail">
                    {config.baseUrl ?? "default URL"}
                    {config.apiKey ? (state.keys === "locked" ? " · key locked" : ` · key ${maskKey(config.apiKey)}`) : " · no key"}
                  </span>
                  <button
                    type="button"
                    className="button"
                    aria-label={`Edit ${config.name}`}
                    data-provider-id={config.id}
                    // A locked key is unlocked first: the form edits the real one.
                    onClick={() => void run(async () => (await settings.requireKeys(), setEditing({ mode: "edit", providerId: config.id })))}
                  >
                    Edit
                  </button>
                </li>
              ))}
            </ul>
          )}
          {editing.mode === "none" && (
            <button type="button" className="button" onClick={() => setEditing({ mode: "add" })}>
              Add provider
            </button>
          )}
          {(editing.mode === "add" || editingConfig) && (
            <ProviderForm
              key={editing.mode === "edit" ? editing.providerId : "add"}
              existing={editingConfig}
              configs={state.configs}
              testConnection={testConnection}
              currentModelId={editingConfig ? (defaultModel?.providerId === editingConfig.id ? defaultModel.modelId : settings.providerModel(editingConfig.id)) : undefined}
              onSave={saveProvider}
              onRemove={(id) =>
                run(async () => {
                  await settings.removeProvider(id);
                  setEditing({ mode: "none" });
                })
              }
              onCancel={state.configs.length > 0 ? () => setEditing({ mode: "none" }) : undefined}
            />
          )}
        </section>
        {state.configs.length > 0 && (
          <section className="settings-section" aria-labelledby="settings-models">
            <h3 id="settings-models">Models</h3>
            <div className="form-row">
              <label>
                <span className="form-label">Default model</span>
                <ModelPicker label="Default model" providers={state.configs} value={defaultModel} onChange={(ref) => void run(() => settings.setDefaultModel(ref))} />
              </label>
            </div>
            {defaultProvider && (
              <div className="form-row">
                <label>
                  <span className="form-label">Small model for titles and summaries</span>
                  <ModelPicker
                    label="Small model"
                    providers={[defaultProvider]}
                    value={defaultProvider.smallModel ? { providerId: defaultProvider.id, modelId: defaultProvider.smallModel } : undefined}
                    emptyLabel="Same as the default model"
                    onChange={(ref) => void run(() => settings.setSmallModel(defaultProvider.id, ref?.modelId))}
                  />
                </label>
              </div>
            )}
          </section>
        )}
        {mcp && <McpSection actions={mcp} onProblem={(action) => void run(action)} />}
        {mcp && <SkillsSection settings={mcp.settings} onProblem={(action) => void run(action)} />}
        {permissions && <PermissionSection permissions={permissions} {...(networkLog && { networkLog })} onProblem={(action) => void run(action)} />}
        {runtime && <RuntimeSection runtime={runtime} onProblem={(action) => void run(action)} />}
        {backup && <BackupSection actions={backup} />}
        {budget && <BudgetSection budget={budget} onProblem={(action) => void run(action)} />}
        <KeyProtectionSection settings={settings} onProblem={(action) => void run(action)} />
        {extraSections}
        <AccessibilitySection />
        {problem && (
          <p className="input-error" role="alert">
            {problem}
          </p>
        )}
      </div>
    </div>
  );
}
