// System prompt assembly and the prompt texts (docs/agent.md: "System prompt and environment block", "Context", "Titles").
export { prefersApplyPatch, promptFamily, type PromptFamily } from "./family";
export {
  INSTRUCTION_FILES,
  MAX_INSTRUCTION_BYTES,
  formatInstructions,
  loadDirectoryInstructions,
  loadRootInstructions,
  type InstructionFile,
} from "./instructions";
export { buildSystemPrompt, describeRuntime, environmentBlock, type SystemPromptInput } from "./system-prompt";
export {
  COMPACTION_PROMPT,
  CONTINUE_AFTER_COMPACTION,
  EXPLORE_PROMPT,
  FAMILY_PROMPTS,
  MAX_STEPS_REMINDER,
  PLAN_REMINDER,
  SUMMARY_PROMPT,
  TITLE_PROMPT,
} from "./texts";
