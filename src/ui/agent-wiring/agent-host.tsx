// The agent side of the IDE, loaded as a lazy chunk after the frame has painted: provider and
// permission settings, the provider registry that follows them, one agent per open workspace
// runtime, and the chat UI (Chat panel, Settings button, Monaco diff for the Changes view).
import type { Disposable } from "../../base";
import { MCP_CONFIG_FILES, McpHub, createAgent, createGitHubPushTool, createMcpOAuthProvider, probeMcpServer, readWorkspaceServers, type Agent, type Rule, type CodeIntelligence, type McpServerConfig } from "../../agent";
import { createProviderRegistry, providerOrigin, testConnection, type ProviderConfig } from "../../providers";
import type { WorkspaceFs } from "../../runtime";
import { NetworkLog, recordingFetch } from "../../runtime";
import type { Storage } from "../../storage";
import { createAgentUi, type AgentUi } from "../chat";
import { BudgetSettings, McpSettings, OAUTH_CALLBACK_PATH, PermissionSettings, ProviderSettings, RuntimeSettingsStore, signInWithPopup } from "../settings";
import { LiveProviderRegistry } from "./live-provider-registry";
import { githubPushPort } from "./github-push-port";
import { renderMonacoDiff } from "./monaco-diff";
import { WorkspaceAgents } from "./workspace-agents";
import { webLocksTurns } from "./tab-turns";
import { turnsAcrossDevices } from "./device-turns";
import { SyncController } from "../sync/sync-controller";

export interface AgentHostOptions {
  storage: Storage;
  /** The page's origin, for the connection test's CORS advice. */
  origin: string;
  /** Makes the code service for a workspace's files (each agent owns and disposes its own). */
  codeIntelligence?: (fs: WorkspaceFs) => CodeIntelligence;
  /** The page's record of requests (commands write theirs; webfetch and MCP write theirs here). */
  networkLog?: NetworkLog;
}

export interface AgentHost extends Disposable {
  readonly ui: AgentUi;
  readonly settings: ProviderSettings;
  readonly permissions: PermissionSettings;
  readonly budget: BudgetSettings;
  readonly agents: WorkspaceAgents<Agent>;
  readonly providers: LiveProviderRegistry;
  readonly mcp: McpSettings;
  readonly mcpHub: McpHub;
}

/** Builds the host and loads the stored settings (providers, default model, permissions, budget). */
export async function createAgentHost({ storage, origin, codeIntelligence, networkLog = new NetworkLog() }: AgentHostOptions): Promise<AgentHost> {
  const settings = new ProviderSettings(storage);
  const permissions = new PermissionSettings(storage);
  const runtime = new RuntimeSettingsStore(storage);
  const budget = new BudgetSettings(storage);
  // MCP headers and OAuth tokens are kept under the provider keys' passphrase too.
  const mcp = new McpSettings(storage, settings);
  settings.addSealedStore(mcp);
  await Promise.all([settings.load(), permissions.load(), runtime.load(), budget.load(), mcp.load()]);
  // The MCP servers connect in the background as they are enabled; their tools join each agent's.
  // Background connections and Test use stored tokens (refreshed as they expire) but never open a sign-in.
  const storedAuth = (config: McpServerConfig) =>
    config.secret?.oauth?.tokens
      ? createMcpOAuthProvider({
          config,
          redirectUrl: `${origin}${OAUTH_CALLBACK_PATH}`,
          store: { load: () => mcp.oauthOf(config.id), update: (change) => mcp.updateOAuth(config.id, change) },
        })
      : undefined;
  const pageFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);
  const mcpHub = new McpHub({ authProvider: storedAuth, fetch: recordingFetch(networkLog, pageFetch, "user", "MCP server") });
  mcpHub.setServers(mcp.servers);
  const unsubscribeMcp = mcp.store.subscribe((state, previous) => {
    if (state.servers !== previous.servers) mcpHub.setServers(state.servers);
  });
  // Requests carrying a locked key's stand-in wait for the passphrase (ProviderSettings.fetchWithKeys).
  const providers = new LiveProviderRegistry(settings.store, (configs) => createProviderRegistry(configs, { fetch: settings.fetchWithKeys }));
  // Settings → Runtime, read by github_push at each push (`runtime` below is the workspace's runtime).
  const runtimeSettings = runtime;
  // Settings → Sync: the open workspace's files and sessions, and its turns' lease across devices.
  const sync = new SyncController(runtime.store);
  const agents = new WorkspaceAgents<Agent>((runtime, services) => {
    // Servers the workspace declares are added disabled, with their source, until the user enables
    // them; read when the agent starts and again when one of those files changes.
    const readDeclared = () =>
      void readWorkspaceServers(runtime.fs)
        .then(async ({ servers, problems }) => {
          for (const problem of problems) services.notifications.notify("warning", `${problem.path}: ${problem.message}`);
          await mcp.addDeclared(services.workspace.id, services.workspace.name, servers);
        })
        .catch((error: unknown) => services.notifications.error(error, "The workspace's MCP servers could not be read"));
    readDeclared();
    const watch = runtime.fs.onDidChange((changes) => {
      if (changes.some((c) => (MCP_CONFIG_FILES as readonly string[]).includes(c.path))) readDeclared();
    });
    const upstream = services.workspace.upstream;
    const githubTool = upstream
      ? createGitHubPushTool(githubPushPort({ upstream, files: runtime.fs, settings: () => runtimeSettings.settings, fetch: recordingFetch(networkLog, pageFetch, "agent", "GitHub") }))
      : undefined;
    // Another device's Stop reaches this page's turn through the lease (set once the agent exists).
    let stopTurn: (sessionId: string) => void = () => undefined;
    const tabTurns = typeof navigator !== "undefined" && navigator.locks ? webLocksTurns(navigator.locks) : undefined;
    const agent = createAgent({
      storage,
      runtime,
      providers,
      fetch: recordingFetch(networkLog, pageFetch, "agent", "webfetch"),
      ...(codeIntelligence && { codeIntelligence: codeIntelligence(runtime.fs) }),
      // Read at each use: a model or permission changed in Settings applies to the next request.
      defaultModel: () => settings.defaultModel,
      // The user's choices and trusted sites, and the provider endpoints in Settings: commands may
      // reach those without an ask (docs/agent.md, "Permissions").
      userRules: () => [...providerRules(settings.configs), ...permissions.rules()],
      sessionBudget: () => budget.budget,
      onWorkspaceProblem: (problem) => services.notifications.notify("warning", `${problem.path}: ${problem.message}`),
      onPersistError: (error) => {
        services.storageHealth?.report(error);
        services.notifications.error(error, "The chat could not be saved to browser storage");
      },
      turns: turnsAcrossDevices(tabTurns, () => sync.leases(runtime.fs.workspaceId), (sessionId) => stopTurn(sessionId)),
      // A workspace opened from GitHub gets github_push (it asks every time).
      extraTools: () => [...mcpHub.tools(services.workspace.id), ...(githubTool ? [githubTool] : [])],
      extraInstructions: () => mcpHub.instructions(services.workspace.id),
      userSkills: () => mcp.skills,
    });
    stopTurn = (sessionId) => agent.abort(sessionId);
    const disposeAgent = agent.dispose.bind(agent);
    agent.dispose = () => {
      watch.dispose();
      disposeAgent();
    };
    return agent;
  });
  const ui = createAgentUi({
    settings,
    sync,
    permissions,
    networkLog,
    runtime,
    budget,
    testConnection: (config) => testConnection(config, { origin, fetch: settings.fetchWithKeys }),
    agentFor: (services) => agents.agentFor(services),
    renderDiff: renderMonacoDiff,
    mcp: {
      settings: mcp,
      status: mcpHub.store,
      test: (config) => {
        const authProvider = storedAuth(config);
        return probeMcpServer(config, { origin, ...(authProvider && { authProvider }) });
      },
      signIn: (config) => signInWithPopup(config, mcp, origin),
      signOut: (id) => mcp.updateOAuth(id, () => undefined),
      unlock: () => settings.requireKeys(),
    },
  });
  return {
    ui,
    settings,
    permissions,
    budget,
    agents,
    providers,
    mcp,
    mcpHub,
    dispose() {
      agents.dispose();
      providers.dispose();
      unsubscribeMcp();
      mcpHub.dispose();
    },
  };
}

/** An allow of "network" for each configured provider's origin (before the user's own rules, which may still say otherwise). */
function providerRules(configs: readonly ProviderConfig[]): Rule[] {
  const origins = new Set(configs.map(providerOrigin).filter((origin): origin is string => origin !== undefined));
  return [...origins].map((origin) => ({ permission: "network", pattern: origin, action: "allow" }));
}
