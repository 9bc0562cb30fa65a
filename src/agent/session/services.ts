// What the session core uses from its sibling modules (tools, agents, prompt, providers), bundled
// so the facade wires the real ones and tests can swap a single piece (e.g. a tool that blocks).
import type { Runtime } from "../../runtime";
import type { ModelInfo } from "../../providers";
import type { ModelRef, TokenUsage } from "../../storage";
import type { Rule } from "../permission";
import type { ToolContext, ToolDefinition, ToolResult } from "../tools/tool";

/** An agent profile (spec §6); the agents module defines it, this is the shape the loop relies on. */
export interface AgentInfo {
  name: string;
  description: string;
  mode: "primary" | "subagent" | "all";
  hidden?: boolean;
  prompt?: string;
  model?: ModelRef;
  temperature?: number;
  topP?: number;
  steps?: number;
  permission: Rule[];
  color?: string;
  builtIn: boolean;
}

export interface SystemPromptInput {
  agent: AgentInfo;
  model: ModelRef;
  modelName: string;
  runtime: Runtime;
  date: Date;
  userSystem?: string;
  reminders?: string[];
}

export interface PromptTexts {
  title: string;
  compaction: string;
  maxSteps: string;
  plan: string;
  continueAfterCompaction: string;
}

export interface AgentServices {
  /** Every tool the agent may offer (filtered per agent, model and permission at each step). */
  tools: ToolDefinition[];
  /** The shared wrapper: validation, timing, truncation (tools/index.ts runTool). */
  runTool(tool: ToolDefinition, rawInput: unknown, context: ToolContext): Promise<ToolResult>;
  /** Built-in agents merged with the workspace's custom ones. */
  loadAgents(runtime: Runtime): Promise<AgentInfo[]>;
  buildSystemPrompt(input: SystemPromptInput): Promise<string>;
  prefersApplyPatch(modelId: string): boolean;
  calculateCost(info: ModelInfo, usage: TokenUsage): number;
  prompts: PromptTexts;
}
