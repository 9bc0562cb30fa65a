// The one place that looks at model ids: which prompt family a model gets and whether it edits
// with apply_patch. Everything else asks these functions instead of matching ids itself.

export type PromptFamily = "anthropic" | "openai-gpt" | "openai-reasoning" | "gemini" | "default";

/** "openai/gpt-5" (OpenRouter) and "GPT-5" both mean "gpt-5". */
function bareModelId(modelId: string): string {
  const lower = modelId.trim().toLowerCase();
  return lower.slice(lower.lastIndexOf("/") + 1);
}

const REASONING_OPENAI = /^(gpt-5|o[1-9]($|-)|codex|gpt-oss)/;

export function promptFamily(modelId: string): PromptFamily {
  const id = bareModelId(modelId);
  if (id.includes("claude")) return "anthropic";
  if (REASONING_OPENAI.test(id) || id.includes("codex")) return "openai-reasoning";
  if (id.startsWith("gpt-") || id.startsWith("chatgpt")) return "openai-gpt";
  if (id.includes("gemini")) return "gemini";
  return "default";
}

/** Models trained on the apply_patch envelope (the GPT-5 family): offered apply_patch instead of edit/write. */
export function prefersApplyPatch(modelId: string): boolean {
  const id = bareModelId(modelId);
  return id.startsWith("gpt-5") || id.includes("codex");
}
