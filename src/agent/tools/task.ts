// The task tool: runs a subagent in a child session (docs/agent.md, "Subagents") and returns its final text
// with the child session id, so a later call can resume it with taskId.
import { z } from "zod";
import template from "../../../prompts/tools/task.md?raw";
import type { ToolDefinition } from "./tool";

export interface SubagentInfo {
  name: string;
  description: string;
}

/** The built-in subagents (docs/agent.md, "Agents"); the loop passes the workspace's own list when it has one. */
export const DEFAULT_SUBAGENTS: readonly SubagentInfo[] = [
  { name: "general", description: "General-purpose agent for multi-step research and changes; runs tools on its own." },
  { name: "explore", description: "Fast read-only agent for finding files, searching code and answering questions about the codebase." },
];

const parameters = z.object({
  description: z.string().describe("The task in 3-5 words"),
  prompt: z.string(),
  subagent_type: z.string(),
  taskId: z.string().optional(),
});

/** The task tool describing `subagents`; calls for other subagents are refused with the list. */
export function createTaskTool(subagents: readonly SubagentInfo[] = DEFAULT_SUBAGENTS): ToolDefinition<typeof parameters> {
  const list = subagents.map((a) => `- ${a.name}: ${a.description}`).join("\n");
  return {
    id: "task",
    description: template.replace("{agents}", list),
    parameters,
    async execute(args, context) {
      const available = context.subagents ?? subagents;
      if (!available.some((a) => a.name === args.subagent_type)) {
        throw new Error(`Unknown subagent_type "${args.subagent_type}". Available: ${available.map((a) => a.name).join(", ") || "none"}.`);
      }
      const result = await context.runSubagent({
        description: args.description,
        prompt: args.prompt,
        subagentType: args.subagent_type,
        ...(args.taskId && { taskId: args.taskId }),
      });
      return {
        title: args.description,
        output: `<task_id>${result.sessionId}</task_id>\n\n<task_result>\n${result.text.trim()}\n</task_result>`,
        metadata: { sessionId: result.sessionId, subagent: args.subagent_type },
      };
    },
  };
}
