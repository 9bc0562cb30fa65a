// The real sibling modules behind AgentServices: the built-in tools and shared wrapper, the
// agents (built-in + workspace), the system prompt and prompt texts, and the catalogue's costs.
import { calculateCost } from "../../providers";
import { loadAgents, type AgentProblem } from "../agents";
import {
  COMPACTION_PROMPT,
  CONTINUE_AFTER_COMPACTION,
  MAX_STEPS_REMINDER,
  PLAN_REMINDER,
  TITLE_PROMPT,
  buildSystemPrompt,
  prefersApplyPatch,
} from "../prompt";
import { buildTools, runTool, type FetchFunction } from "../tools";
import type { ToolDefinition } from "../tools/tool";
import type { AgentServices, SubagentSummary } from "./services";

export interface DefaultServicesOptions {
  /** fetch for the webfetch tool (default: the global fetch). */
  fetch?: FetchFunction;
  /** Offer the code tool (a code service is injected). */
  code?: boolean;
  /** Problems in the workspace's agent files and opencode.json (shown to the user; they never stop the agent). */
  onWorkspaceProblem?: (problem: AgentProblem) => void;
}

export function defaultServices(options: DefaultServicesOptions = {}): AgentServices {
  // The tool set only changes when the workspace's subagents do; build it once per list.
  let cachedKey: string | undefined;
  let cachedTools: ToolDefinition[] = [];
  return {
    tools(subagents: readonly SubagentSummary[]) {
      const key = JSON.stringify(subagents);
      if (key !== cachedKey) {
        cachedTools = buildTools({ subagents, ...(options.fetch && { fetch: options.fetch }), ...(options.code && { code: true }) });
        cachedKey = key;
      }
      return cachedTools;
    },
    runTool,
    loadAgents: (runtime) => loadAgents(runtime.fs, options.onWorkspaceProblem),
    buildSystemPrompt,
    prefersApplyPatch,
    calculateCost,
    prompts: {
      title: TITLE_PROMPT,
      compaction: COMPACTION_PROMPT,
      maxSteps: MAX_STEPS_REMINDER,
      plan: PLAN_REMINDER,
      continueAfterCompaction: CONTINUE_AFTER_COMPACTION,
    },
  };
}
