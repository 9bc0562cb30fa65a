// What the session core uses from its sibling modules (tools, agents, prompt, providers), bundled
// so the facade wires the real ones and tests can swap a single piece (e.g. a tool that blocks).
import type { ModelInfo } from "../../providers";
import type { Runtime } from "../../runtime";
import type { TokenUsage } from "../../storage";
import type { AgentInfo } from "../agents";
import type { SystemPromptInput } from "../prompt";
import type { ToolContext, ToolDefinition, ToolResult } from "../tools/tool";

export type { AgentInfo, SystemPromptInput };

/** A subagent the task tool may start. */
export interface SubagentSummary {
  name: string;
  description: string;
}

export interface PromptTexts {
  title: string;
  compaction: string;
  maxSteps: string;
  plan: string;
  continueAfterCompaction: string;
}

export interface AgentServices {
  /**
   * Every tool the agent may offer (filtered per agent, model and permission at each step); the
   * task tool's description lists `subagents`.
   */
  tools(subagents: readonly SubagentSummary[]): ToolDefinition[];
  /** The shared wrapper: validation, timing, truncation (tools/index.ts runTool). */
  runTool(tool: ToolDefinition, rawInput: unknown, context: ToolContext): Promise<ToolResult>;
  /** Built-in agents merged with the workspace's custom ones. */
  loadAgents(runtime: Runtime): Promise<AgentInfo[]>;
  buildSystemPrompt(input: SystemPromptInput): Promise<string>;
  prefersApplyPatch(modelId: string): boolean;
  calculateCost(info: ModelInfo, usage: TokenUsage): number;
  prompts: PromptTexts;
}
