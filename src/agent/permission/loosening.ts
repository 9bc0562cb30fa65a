// Which decisions a change of rules loosens (issue 30): restoring a backup or importing settings must
// not let the agent do more without the user seeing what. A change loosens a permission when, for
// some pattern, its decision moves towards allow (deny → ask or allow, ask → allow).
import { decide, stricter, type PermissionAction, type Rule } from "./rules";
import { wildcardMatch } from "./wildcard";

export interface LooserDecision {
  permission: string;
  /** A pattern whose decision moves ("*": anything no narrower rule names). */
  pattern: string;
  from: PermissionAction;
  to: PermissionAction;
}

/**
 * The patterns worth deciding for `permission`: the patterns of every rule that applies to it in
 * either ruleset, and "*" for what no rule names. Decisions only change where some rule's pattern
 * matches, so each rule's own pattern (read as text) stands for the commands or paths it covers.
 */
function probes(permission: string, rulesets: readonly (readonly Rule[])[]): string[] {
  const patterns = new Set<string>(["*"]);
  for (const rules of rulesets) for (const rule of rules) if (wildcardMatch(permission, rule.permission)) patterns.add(rule.pattern);
  return [...patterns];
}

/**
 * The decisions that `after` makes looser than `before`, for each of `permissions` (both rulesets in
 * the order decide() reads them: defaults first, last match wins).
 */
export function looserDecisions(before: readonly Rule[], after: readonly Rule[], permissions: readonly string[]): LooserDecision[] {
  const looser: LooserDecision[] = [];
  for (const permission of permissions) {
    for (const pattern of probes(permission, [before, after])) {
      const from = decide(permission, pattern, before);
      const to = decide(permission, pattern, after);
      if (from !== to && stricter(from, to) === from) looser.push({ permission, pattern, from, to });
    }
  }
  return looser;
}
