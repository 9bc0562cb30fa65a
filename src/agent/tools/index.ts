// The agent's tools (docs/agent.md, "Tools"): the built-in tool set, lookup, and the shared wrapper the loop
// runs every call through.
import { applyPatchTool } from "./apply-patch";
import { bashTool } from "./bash";
import { codeTool } from "./code";
import { editTool } from "./edit";
import { globTool } from "./glob";
import { grepTool } from "./grep";
import { listTool } from "./list";
import { questionTool } from "./question";
import { readTool } from "./read";
import { createTaskTool, type SubagentInfo } from "./task";
import type { ToolDefinition } from "./tool";
import { todowriteTool } from "./todowrite";
import { createWebfetchTool, type FetchFunction } from "./webfetch";
import { writeTool } from "./write";

export * from "./tool";
export { runTool, InvalidToolInputError, MAX_OUTPUT_LINES, MAX_OUTPUT_BYTES, truncateText, describeZodError } from "./wrapper";
export { applyEdit, EditRefusal } from "./edit-match";
export { createFileTimes } from "./file-times";
export { unifiedDiff } from "./diff";
export { matchGlob } from "../../base";
export { WORKSPACE_ROOTS, toWorkspacePath, OutsideWorkspaceError } from "./workspace-path";
export { DEFAULT_SUBAGENTS, createTaskTool, type SubagentInfo } from "./task";
export { createWebfetchTool, type FetchFunction } from "./webfetch";
export { createGitHubPushTool, type GitHubPushOutcome, type GitHubPushPort, type GitHubPushRequest } from "./github-push";
export { READ_DEFAULT_LIMIT, READ_MAX_BYTES, READ_MAX_LINE_LENGTH, instructionReminders } from "./read";
export * from "./code-intelligence";
export { codeTool, CODE_MAX_RESULTS } from "./code";
export { BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS } from "./bash";

export interface BuildToolsOptions {
  /** Subagents the task tool offers (default: the built-in general and explore). */
  subagents?: readonly SubagentInfo[];
  /** fetch for webfetch (default: the global fetch, looked up per call). */
  fetch?: FetchFunction;
  /** Offer the code tool (the runtime has a code service). */
  code?: boolean;
}

/** The full tool set, in the order the model sees it. */
export function buildTools(options: BuildToolsOptions = {}): ToolDefinition[] {
  return [
    readTool,
    writeTool,
    editTool,
    applyPatchTool,
    globTool,
    grepTool,
    ...(options.code ? [codeTool] : []),
    listTool,
    bashTool,
    createTaskTool(options.subagents),
    todowriteTool,
    createWebfetchTool(options.fetch ? { fetch: options.fetch } : {}),
    questionTool,
  ] as ToolDefinition[];
}

export const BUILTIN_TOOLS: ToolDefinition[] = buildTools();

export function getTool(id: string, tools: readonly ToolDefinition[] = BUILTIN_TOOLS): ToolDefinition | undefined {
  return tools.find((tool) => tool.id === id);
}

/**
 * apply_patch is offered instead of edit and write to models trained on it (prompt's
 * prefersApplyPatch decides which), and never alongside them.
 */
export function toolsForEditStyle(tools: readonly ToolDefinition[], useApplyPatch: boolean): ToolDefinition[] {
  return tools.filter((tool) => (useApplyPatch ? tool.id !== "edit" && tool.id !== "write" : tool.id !== "apply_patch"));
}
