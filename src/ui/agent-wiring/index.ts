// The agent in the IDE, wired for main.tsx: the Chat panel and Settings button (their content and
// the agent core arrive as a lazy chunk), one agent per workspace runtime, Monaco diffs for Changes.
export { createAgentWiring, CHAT_PANEL_ID, SETTINGS_TOP_BAR_ID, type AgentWiring, type AgentWiringOptions } from "./agent-wiring";
export type { AgentHost, AgentHostOptions } from "./agent-host";
export { WorkspaceAgents, type WorkspaceStateSource } from "./workspace-agents";
export type { LiveProviderRegistry, ProviderConfigSource } from "./live-provider-registry";
