// The agent core's public surface: the facade (createAgent), its events and session types, and
// the tools, permission, agents and prompt modules.
export * from "./tools";
export * from "./permission";
export * from "./agents";
export * from "./prompt";
export { createAgent, userEditsReminder, type Agent, type AgentDeps, type CreateSessionInput, type PromptInput, type PromptResult, type TurnCoordinator } from "./agent";
export type { AgentBus, AgentEvents, PendingQuestion, QuestionReplied, SessionStatus } from "./session/events";
export type { MessageWithParts } from "./session/store";
export type { AgentServices, PromptTexts, SubagentSummary } from "./session/services";
export { defaultServices, type DefaultServicesOptions } from "./session/default-services";
export { QuestionRejectedError } from "./session/questions";
export { PERSIST_INTERVAL_MS } from "./session/store";
export {
  RETRY_BACKOFF_FACTOR,
  RETRY_INITIAL_DELAY_MS,
  RETRY_MAX_ATTEMPTS,
  RETRY_MAX_DELAY_MS,
  classifyFailure,
  retryDelay,
} from "./session/retry";
export { INPUT_LIMIT_RESERVE, OUTPUT_TOKEN_RESERVE_MAX, contextTokens, isOverflow, usableContext } from "./session/usage";
export { COMPACTION_KEEP_TURNS, COMPACTION_TOOL_OUTPUT_CHARS } from "./session/compaction";
export { PRUNE_MINIMUM_TOKENS, PRUNE_PROTECT_TOKENS } from "./session/prune";
export { CLEARED_TOOL_OUTPUT } from "./session/model-messages";
export { DEFAULT_SESSION_TITLE, TITLE_MAX_CHARS } from "./session/title";
export { SNAPSHOT_MAX_FILE_BYTES } from "./session/snapshot";
export { DOOM_LOOP_THRESHOLD } from "./session/tool-calls";
export { INTERRUPTED_ERROR } from "./session/recovery";
export { MAX_COMPACTIONS_PER_TURN } from "./session/loop";
export { BUDGET_ERROR_NAME, budgetExceeded, type SessionBudget } from "./session/budget";
export * from "./mcp";
export * from "./skills";
