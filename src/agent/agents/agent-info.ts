// What an agent is (docs/agent.md, "Agents"): a named profile of prompt, model settings and permission rules.
import type { ModelRef } from "../../storage";
import type { Rule } from "../permission";

export type AgentMode = "primary" | "subagent" | "all";

export interface AgentInfo {
  name: string;
  description: string;
  /** primary: chosen by the user; subagent: called through the task tool; all: both. */
  mode: AgentMode;
  /** Not shown in pickers (title, compaction, summary). */
  hidden?: boolean;
  /** Replaces the model family's prompt when set. */
  prompt?: string;
  model?: ModelRef;
  temperature?: number;
  topP?: number;
  /** Maximum model calls in one turn (unlimited when unset). */
  steps?: number;
  /** The built-in agent's own rules, applied after the defaults and the user's config (last match wins). */
  permission: Rule[];
  /**
   * Rules from workspace agent files (.webcode/agent, .opencode/agent). A workspace may come from an
   * imported zip, so these only tighten: they can turn an allow into ask or deny, never loosen what
   * defaults, user config and `permission` decide (decide() in the permission module).
   */
  workspacePermission?: Rule[];
  color?: string;
  builtIn: boolean;
  /** The workspace file that defined this agent, or redefined the built-in of that name (last one wins). */
  source?: string;
}
