// The agent side of the IDE, loaded as a lazy chunk after the frame has painted: provider and
// permission settings, the provider registry that follows them, one agent per open workspace
// runtime, and the chat UI (Chat panel, Settings button, Monaco diff for the Changes view).
import type { Disposable } from "../../base";
import { createAgent, ruleset, type Agent, type CodeIntelligence } from "../../agent";
import { createProviderRegistry, testConnection } from "../../providers";
import type { WorkspaceFs } from "../../runtime";
import type { Storage } from "../../storage";
import { createAgentUi, type AgentUi } from "../chat";
import { BudgetSettings, PermissionSettings, ProviderSettings, RuntimeSettingsStore } from "../settings";
import { LiveProviderRegistry } from "./live-provider-registry";
import { renderMonacoDiff } from "./monaco-diff";
import { WorkspaceAgents } from "./workspace-agents";
import { webLocksTurns } from "./tab-turns";

export interface AgentHostOptions {
  storage: Storage;
  /** The page's origin, for the connection test's CORS advice. */
  origin: string;
  /** Makes the code service for a workspace's files (each agent owns and disposes its own). */
  codeIntelligence?: (fs: WorkspaceFs) => CodeIntelligence;
}

export interface AgentHost extends Disposable {
  readonly ui: AgentUi;
  readonly settings: ProviderSettings;
  readonly permissions: PermissionSettings;
  readonly budget: BudgetSettings;
  readonly agents: WorkspaceAgents<Agent>;
  readonly providers: LiveProviderRegistry;
}

/** Builds the host and loads the stored settings (providers, default model, permissions, budget). */
export async function createAgentHost({ storage, origin, codeIntelligence }: AgentHostOptions): Promise<AgentHost> {
  const settings = new ProviderSettings(storage);
  const permissions = new PermissionSettings(storage);
  const runtime = new RuntimeSettingsStore(storage);
  const budget = new BudgetSettings(storage);
  await Promise.all([settings.load(), permissions.load(), runtime.load(), budget.load()]);
  // Requests carrying a locked key's stand-in wait for the passphrase (ProviderSettings.fetchWithKeys).
  const providers = new LiveProviderRegistry(settings.store, (configs) => createProviderRegistry(configs, { fetch: settings.fetchWithKeys }));
  const agents = new WorkspaceAgents<Agent>((runtime, services) =>
    createAgent({
      storage,
      runtime,
      providers,
      ...(codeIntelligence && { codeIntelligence: codeIntelligence(runtime.fs) }),
      // Read at each use: a model or permission changed in Settings applies to the next request.
      defaultModel: () => settings.defaultModel,
      userRules: () => ruleset(permissions.choices),
      sessionBudget: () => budget.budget,
      onWorkspaceProblem: (problem) => services.notifications.notify("warning", `${problem.path}: ${problem.message}`),
      onPersistError: (error) => {
        services.storageHealth?.report(error);
        services.notifications.error(error, "The chat could not be saved to browser storage");
      },
      ...(typeof navigator !== "undefined" && navigator.locks && { turns: webLocksTurns(navigator.locks) }),
    }),
  );
  const ui = createAgentUi({
    settings,
    permissions,
    runtime,
    budget,
    testConnection: (config) => testConnection(config, { origin, fetch: settings.fetchWithKeys }),
    agentFor: (services) => agents.agentFor(services),
    renderDiff: renderMonacoDiff,
  });
  return {
    ui,
    settings,
    permissions,
    budget,
    agents,
    providers,
    dispose() {
      agents.dispose();
      providers.dispose();
    },
  };
}
