// Settings: providers (presets, keys kept in this origin's IndexedDB), default and small model,
// connection test; and the first-run guide shown until a provider exists.
export { SettingsDialog, type SettingsDialogProps } from "./settings-dialog";
export { SettingsButton, type SettingsButtonProps } from "./settings-button";
export { ProviderForm, OUTCOME_HEADINGS, type ProviderFormProps, type TestConnection } from "./provider-form";
export { ModelPicker, modelLabel, type ModelPickerProps } from "./model-picker";
export { ProviderSettings, DEFAULT_MODEL_KEY, findModel, uniqueProviderId, type ProviderSettingsState } from "./provider-settings";
export { FirstRunGuide } from "./first-run-guide";
export { PermissionSettings, PERMISSION_KINDS, PERMISSION_SETTINGS_KEY, restoreOrigins, restorePermissionChoices, TRUSTED_ORIGINS_KEY, type PermissionChoice, type PermissionChoices } from "./permission-settings";
export { PermissionSection } from "./permission-section";
export { RuntimeSettingsStore } from "./runtime-settings-store";
export { RuntimeSection } from "./runtime-section";
export { BudgetSettings, BUDGET_SETTINGS_KEY, restoreBudget, type SessionBudgetChoice } from "./budget-settings";
export { BudgetSection } from "./budget-section";
export { BackupSection, backupFileName, describeRestore, type BackupActions } from "./backup-section";
export { McpSettings, USER_SKILLS_KEY, type McpSettingsState } from "./mcp-settings";
export { McpSection, MCP_OUTCOME_HEADINGS, type McpActions } from "./mcp-section";
export { SkillsSection } from "./skills-section";
export { OAUTH_CALLBACK_PATH, OAUTH_CHANNEL, signInWithPopup } from "./mcp-sign-in";
