// Agents (docs/agent.md, "Agents"): the built-in profiles and the custom ones defined in the workspace.
export type { AgentInfo, AgentMode } from "./agent-info";
export { BUILTIN_AGENTS, DEFAULT_AGENT, PLAN_FILES_PATTERN, builtinAgent } from "./builtin";
export {
  AGENT_FOLDERS,
  MAX_AGENT_FILE_BYTES,
  affectsAgents,
  loadAgents,
  loadAgentsWithProblems,
  type AgentProblem,
  type LoadedAgents,
} from "./load-agents";
export {
  OPENCODE_CONFIG_FILES,
  MAX_CONFIG_BYTES,
  JsoncError,
  loadOpencodeConfig,
  parseJsonc,
  type ConfigProblem,
  type JsonValue,
  type OpencodeConfig,
} from "./opencode-config";
export { FrontmatterError, parseFrontmatter, splitFrontmatter, type FrontmatterMap, type FrontmatterValue } from "./frontmatter";
