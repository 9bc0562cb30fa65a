// The prompt texts of prompts/*.md, imported as raw strings (the files are the source of truth).
import anthropic from "../../../prompts/anthropic.md?raw";
import compaction from "../../../prompts/compaction.md?raw";
import defaultPrompt from "../../../prompts/default.md?raw";
import explore from "../../../prompts/explore.md?raw";
import gemini from "../../../prompts/gemini.md?raw";
import maxSteps from "../../../prompts/max-steps.md?raw";
import openaiGpt from "../../../prompts/openai-gpt.md?raw";
import openaiReasoning from "../../../prompts/openai-reasoning.md?raw";
import planReminder from "../../../prompts/plan-reminder.md?raw";
import summary from "../../../prompts/summary.md?raw";
import title from "../../../prompts/title.md?raw";
import type { PromptFamily } from "./family";

export const FAMILY_PROMPTS: Readonly<Record<PromptFamily, string>> = Object.freeze({
  anthropic: anthropic.trim(),
  "openai-gpt": openaiGpt.trim(),
  "openai-reasoning": openaiReasoning.trim(),
  gemini: gemini.trim(),
  default: defaultPrompt.trim(),
});

export const EXPLORE_PROMPT = explore.trim();
export const TITLE_PROMPT = title.trim();
export const COMPACTION_PROMPT = compaction.trim();
export const SUMMARY_PROMPT = summary.trim();
export const PLAN_REMINDER = planReminder.trim();
export const MAX_STEPS_REMINDER = maxSteps.trim();
/** The synthetic user message that resumes a turn after an automatic compaction (docs/agent.md, "Context"). */
export const CONTINUE_AFTER_COMPACTION = "Continue if you have next steps";
