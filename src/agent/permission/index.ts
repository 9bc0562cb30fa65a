// The permission layer of the agent (docs/agent.md, "Permissions"): rules, defaults, bash patterns and pending asks.
export { wildcardMatch } from "./wildcard";
export {
  DEFAULT_PERMISSION_CONFIG,
  DEFAULT_RULES,
  PermissionConfigError,
  decide,
  disabledTools,
  evaluate,
  mergeRules,
  networkRules,
  isNetworkPermission,
  NETWORK_PERMISSIONS,
  DEFAULT_NETWORK_ORIGINS,
  ruleset,
  stricter,
  toolPermission,
  type PermissionAction,
  type PermissionConfig,
  type Rule,
} from "./rules";
export { NETWORK_PERMISSION, commandGate, textChecks, type CommandGate } from "./command-gate";
export { BASH_ARITY, argvPermission, bashPermission, commandPrefix, shellWords, splitCommands, type BashPermission, type UnanalysableCommand } from "./bash-permission";
export { canonicalCommand, type CanonicalCommand } from "./canonical-command";
export { looserDecisions, type LooserDecision } from "./loosening";
export {
  PermissionManager,
  type AskInput,
  type PendingPermission,
  type PermissionManagerOptions,
  type PermissionReplied,
  type PermissionReply,
} from "./permission-manager";
