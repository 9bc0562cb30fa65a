// The permission rule engine (docs/agent.md, "Permissions"): flat rules, the config form, the defaults, last match wins,
// and which tools are not offered at all because their permission is denied outright.
import type { PermissionRule } from "../../storage";
import { wildcardMatch } from "./wildcard";

export type Rule = PermissionRule;
export type PermissionAction = Rule["action"];

/**
 * The config form: `{"bash": "ask", "edit": {"*.md": "allow", "*": "ask"}}`. Keys are read in
 * insertion order (note: JavaScript puts integer-like keys such as "1" first).
 */
export type PermissionConfig = Record<string, PermissionAction | Record<string, PermissionAction>>;

const ACTIONS: ReadonlySet<string> = new Set(["allow", "ask", "deny"]);

export class PermissionConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermissionConfigError";
  }
}

function checkAction(value: unknown, where: string): PermissionAction {
  if (typeof value === "string" && ACTIONS.has(value)) return value as PermissionAction;
  throw new PermissionConfigError(`${where} must be "allow", "ask" or "deny", not ${JSON.stringify(value)}.`);
}

/** Turns the config form into flat rules, keeping the order of the keys. Throws on bad values. */
export function ruleset(config: PermissionConfig): Rule[] {
  const rules: Rule[] = [];
  for (const [permission, value] of Object.entries(config)) {
    if (typeof value === "string") {
      rules.push({ permission, pattern: "*", action: checkAction(value, `Permission "${permission}"`) });
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new PermissionConfigError(
        `Permission "${permission}" must be an action or a map of patterns to actions, not ${JSON.stringify(value)}.`,
      );
    }
    for (const [pattern, action] of Object.entries(value)) {
      rules.push({ permission, pattern, action: checkAction(action, `Permission "${permission}" pattern "${pattern}"`) });
    }
  }
  return rules;
}

/**
 * Permissions that reach the network: webfetch, the provider's web search, "mcp" for the tools of
 * MCP servers (pattern: the tool's name "<server>_<tool>"), and "network" for a request a command
 * makes (pattern: the destination's origin, see command-gate.ts). In a browser tab the page may
 * reach any origin, so these are what stand between a prompt-injected agent and the exfiltration of
 * workspace data: they ask by default, and the user's choice for them is final over what an agent's
 * own rules say (networkRules()).
 */
export const NETWORK_PERMISSIONS: readonly string[] = ["webfetch", "websearch", "mcp", "network"];

/** Whether `permission` reaches the network (see NETWORK_PERMISSIONS). */
export function isNetworkPermission(permission: string): boolean {
  return NETWORK_PERMISSIONS.some((pattern) => wildcardMatch(permission, pattern));
}

/**
 * Origins commands reach without an ask: the public package registries npm and pip use by default.
 * A registry or index named in a workspace file (.npmrc, pip.conf, requirements.txt's -i) is another
 * origin and asks the first time, like any other.
 */
export const DEFAULT_NETWORK_ORIGINS: readonly string[] = ["https://registry.npmjs.org", "https://pypi.org", "https://files.pythonhosted.org"];

/** The defaults: everything allowed except the few asks of docs/agent.md, "Permissions". Users can override all of it. */
export const DEFAULT_PERMISSION_CONFIG: PermissionConfig = {
  "*": "allow",
  doom_loop: "ask",
  external_directory: "ask",
  // Each push is a new, visible change on GitHub (a branch, a pull request): asked every time.
  github_push: "ask",
  ...Object.fromEntries(NETWORK_PERMISSIONS.map((permission) => [permission, "ask" as const])),
  network: { "*": "ask", ...Object.fromEntries(DEFAULT_NETWORK_ORIGINS.map((origin) => [origin, "allow" as const])) },
  read: {
    "*": "allow",
    "*.env": "ask",
    "*.env.*": "ask",
    "*.env.example": "allow",
  },
  bash: {
    "*": "allow",
    // Commands are matched in canonical form (canonical-command.ts): "rm -rf" stands for every
    // spelling of recursive and forced, "git push" for git with any global options before it, and
    // find always names its start path, so these few rules catch every way of writing them.
    "rm -rf *": "ask",
    "find * -delete *": "ask",
    "find * -exec *": "ask",
    "find * -execdir *": "ask",
    "find * -ok *": "ask",
    "find * -okdir *": "ask",
    "git push *": "ask",
    "npm publish *": "ask",
  },
};

export const DEFAULT_RULES: readonly Rule[] = Object.freeze(ruleset(DEFAULT_PERMISSION_CONFIG));

/**
 * The rule deciding `permission` for `pattern`: the last matching rule across the rulesets in
 * order (defaults, user config, agent config). No match: ask. Session grants and workspace limits
 * are not plain rulesets: see decide() and PermissionManager.ask.
 */
export function evaluate(permission: string, pattern: string, ...rulesets: (readonly Rule[])[]): Rule {
  for (let i = rulesets.length - 1; i >= 0; i--) {
    const rule = lastMatch(permission, pattern, rulesets[i]!);
    if (rule) return rule;
  }
  return { permission, pattern: "*", action: "ask" };
}

/** How strict each action is: a limit may move a decision only towards deny. */
const STRICTNESS: Readonly<Record<PermissionAction, number>> = { allow: 0, ask: 1, deny: 2 };

/** The stricter of two actions. */
export function stricter(a: PermissionAction, b: PermissionAction): PermissionAction {
  return STRICTNESS[b] > STRICTNESS[a] ? b : a;
}

/**
 * The action for `permission` on `pattern`: the last matching rule of `rules` (defaults, user config,
 * built-in agent rules, session overrides; no match: ask), then made stricter by the last matching
 * rule of `limits` (rules from workspace files, which may tighten but never loosen).
 */
export function decide(permission: string, pattern: string, rules: readonly Rule[], limits: readonly Rule[] = []): PermissionAction {
  const base = evaluate(permission, pattern, rules).action;
  const limit = lastMatch(permission, pattern, limits);
  return limit ? stricter(base, limit.action) : base;
}

function lastMatch(permission: string, pattern: string, rules: readonly Rule[]): Rule | undefined {
  for (let j = rules.length - 1; j >= 0; j--) {
    const rule = rules[j]!;
    if (wildcardMatch(permission, rule.permission) && wildcardMatch(pattern, rule.pattern)) return rule;
  }
  return undefined;
}

/** Tools that share one permission: the edit family and the read family (docs/agent.md, "Permissions"). */
const TOOL_PERMISSIONS: Readonly<Record<string, string>> = {
  edit: "edit",
  write: "edit",
  apply_patch: "edit",
  read: "read",
  glob: "read",
  grep: "read",
  list: "read",
  code: "read",
};

/** The permission a tool asks for; tools not listed ask for their own name. */
export function toolPermission(toolId: string): string {
  return TOOL_PERMISSIONS[toolId] ?? toolId;
}

/**
 * Tools not to offer the model: those whose last rule for their permission, in `rules` or in the
 * tightening `limits`, is a deny of `*` (so every call would be denied by decide()). A later narrower
 * allow (plan mode's ".webcode/plans/*.md") keeps the tool offered. Session grants play no part:
 * they only turn asks into allows, never a deny.
 */
export function disabledTools(toolIds: string[], rules: readonly Rule[], limits: readonly Rule[] = []): Set<string> {
  const disabled = new Set<string>();
  const deniesAll = (permission: string, list: readonly Rule[]) => {
    for (let i = list.length - 1; i >= 0; i--) {
      const rule = list[i]!;
      if (wildcardMatch(permission, rule.permission)) return rule.pattern === "*" && rule.action === "deny";
    }
    return false;
  };
  for (const toolId of toolIds) {
    const permission = toolPermission(toolId);
    if (deniesAll(permission, rules) || deniesAll(permission, limits)) disabled.add(toolId);
  }
  return disabled;
}

/**
 * The user's rules for network permissions, to be applied after an agent's own rules: a built-in
 * agent's "webfetch: allow" must not pass over the user's "ask" or "deny" in Settings, and the
 * user's "allow" holds for every agent. (Workspace agent files are limits and only tighten.)
 */
export function networkRules(userRules: readonly Rule[]): Rule[] {
  return userRules.filter((rule) => isNetworkPermission(rule.permission));
}

/** Rules are merged by concatenation: later rulesets override earlier ones (last match wins). */
export function mergeRules(...rulesets: (readonly Rule[] | undefined)[]): Rule[] {
  const merged: Rule[] = [];
  for (const rules of rulesets) if (rules) merged.push(...rules);
  return merged;
}
