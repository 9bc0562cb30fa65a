// The one function that looks at model ids, the prompt texts, and their size budget (docs/agent.md, "System prompt and environment block").
import { describe, expect, it } from "vitest";
import {
  COMPACTION_PROMPT,
  CONTINUE_AFTER_COMPACTION,
  FAMILY_PROMPTS,
  MAX_STEPS_REMINDER,
  PLAN_REMINDER,
  SUMMARY_PROMPT,
  TITLE_PROMPT,
  prefersApplyPatch,
  promptFamily,
} from "../../src/agent/prompt";

describe("promptFamily", () => {
  it.each([
    ["claude-sonnet-4-5", "anthropic"],
    ["claude-opus-4-1", "anthropic"],
    ["anthropic/claude-sonnet-4.5", "anthropic"],
    ["gpt-5", "openai-reasoning"],
    ["gpt-5.1", "openai-reasoning"],
    ["gpt-5-codex", "openai-reasoning"],
    ["GPT-5-mini", "openai-reasoning"],
    ["o3", "openai-reasoning"],
    ["o4-mini", "openai-reasoning"],
    ["openai/gpt-5", "openai-reasoning"],
    ["gpt-oss:20b", "openai-reasoning"],
    ["gpt-4.1", "openai-gpt"],
    ["gpt-4o-mini", "openai-gpt"],
    ["gemini-2.5-pro", "gemini"],
    ["google/gemini-2.5-flash", "gemini"],
    ["gemini-3-pro-preview", "gemini"],
    ["qwen3-coder", "default"],
    ["llama3.2", "default"],
    ["omni-model", "default"],
    ["", "default"],
  ])("%s -> %s", (modelId, family) => {
    expect(promptFamily(modelId)).toBe(family);
  });
});

describe("prefersApplyPatch", () => {
  it("is true for the GPT-5 family only", () => {
    for (const id of ["gpt-5", "gpt-5.1", "gpt-5-codex", "gpt-5-mini", "openai/gpt-5", "GPT-5-nano"]) expect(prefersApplyPatch(id)).toBe(true);
    for (const id of ["gpt-4.1", "o3", "claude-sonnet-4-5", "gemini-2.5-pro", "qwen3-coder"]) expect(prefersApplyPatch(id)).toBe(false);
  });
});

describe("family prompts", () => {
  const bytes = (text: string) => new TextEncoder().encode(text).length;

  it.each(Object.entries(FAMILY_PROMPTS))("%s is lean (about 1.4-3 KB)", (_family, text) => {
    expect(bytes(text)).toBeGreaterThanOrEqual(1400);
    expect(bytes(text)).toBeLessThanOrEqual(3000);
  });

  it.each(Object.entries(FAMILY_PROMPTS))("%s tells the truth about the browser environment", (_family, text) => {
    expect(text).toMatch(/browser/);
    expect(text).toMatch(/IndexedDB/);
    expect(text).toMatch(/WebContainer/);
    expect(text).toMatch(/fallback/);
    // What each runtime can and cannot run is said once, in the environment block (describeRuntime).
    expect(text).toMatch(/environment block/);
    expect(text).toMatch(/what it can and cannot run/);
    expect(text).toMatch(/editor/);
    expect(text).toMatch(/terminal/);
    // Files through the tools, not bash.
    expect(text).toMatch(/bash/);
    expect(text).toMatch(/\bread\b/);
    expect(text).toMatch(/\bedit\b/);
    // Untrusted content stays data.
    expect(text).toMatch(/data, not instructions/);
  });

  it("only the apply_patch family prompt mentions apply_patch", () => {
    expect(FAMILY_PROMPTS["openai-reasoning"]).toContain("apply_patch");
    for (const family of ["anthropic", "openai-gpt", "gemini", "default"] as const) expect(FAMILY_PROMPTS[family]).not.toContain("apply_patch");
  });
});

describe("other prompts", () => {
  it("compaction has the sections of its summary format", () => {
    for (const heading of ["## Goal", "## Constraints & preferences", "## Progress", "### Done", "### In progress", "### Blocked", "## Key decisions", "## Next steps", "## Critical context", "## Relevant files"]) {
      expect(COMPACTION_PROMPT).toContain(heading);
    }
  });

  it("title asks for one line of at most 50 chars, in the user's language, never refusing", () => {
    expect(TITLE_PROMPT).toMatch(/one line/i);
    expect(TITLE_PROMPT).toMatch(/50 characters/);
    expect(TITLE_PROMPT).toMatch(/language the user wrote in/);
    expect(TITLE_PROMPT).toMatch(/Never refuse/);
  });

  it("reminders and summary say what they are for", () => {
    expect(PLAN_REMINDER).toContain(".webcode/plans/");
    expect(PLAN_REMINDER).toMatch(/read-only/);
    expect(MAX_STEPS_REMINDER).toMatch(/Do not call any tools/);
    expect(MAX_STEPS_REMINDER).toMatch(/remains/);
    expect(SUMMARY_PROMPT).toMatch(/Do not call tools/);
    expect(CONTINUE_AFTER_COMPACTION).toBe("Continue if you have next steps");
  });
});
