// How each provider family's usage maps to tokens and cost: recorded-style usage objects, in each
// provider's wire format, through the real AI SDK clients into the stored step.
import { afterEach, describe, expect, it } from "vitest";
import type { ProviderKind } from "../../src/providers";
import type { TokenUsage } from "../../src/storage";
import { runPrompt, startRig, type StreamRig } from "./provider-streams-harness";

let rig: StreamRig | undefined;
afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

/** USD per million tokens for every row. */
const PRICE = { input: 2, output: 10, cacheRead: 0.5, cacheWrite: 2.5 };
const cost = (t: TokenUsage) => (t.input * PRICE.input + t.output * PRICE.output + t.cacheRead * PRICE.cacheRead + t.cacheWrite * PRICE.cacheWrite) / 1e6;

interface Row {
  family: string;
  kind: ProviderKind;
  api?: "chat" | "responses";
  modelId: string;
  wireUsage: unknown;
  tokens: TokenUsage;
}

const ROWS: Row[] = [
  {
    family: "OpenAI chat completions (reasoning inside completion_tokens)",
    kind: "openai",
    api: "chat",
    modelId: "gpt-5",
    wireUsage: { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500, prompt_tokens_details: { cached_tokens: 200 }, completion_tokens_details: { reasoning_tokens: 100 } },
    tokens: { input: 1000, output: 300, reasoning: 100, cacheRead: 200, cacheWrite: 0 },
  },
  {
    family: "OpenAI Responses",
    kind: "openai",
    api: "responses",
    modelId: "gpt-5",
    wireUsage: { input_tokens: 1200, input_tokens_details: { cached_tokens: 200 }, output_tokens: 300, output_tokens_details: { reasoning_tokens: 100 }, total_tokens: 1500 },
    tokens: { input: 1000, output: 300, reasoning: 100, cacheRead: 200, cacheWrite: 0 },
  },
  {
    family: "Anthropic Messages (cache reads and writes apart from input_tokens)",
    kind: "anthropic",
    modelId: "claude-sonnet-4-5",
    wireUsage: {
      start: { input_tokens: 1000, output_tokens: 1, cache_read_input_tokens: 200, cache_creation_input_tokens: 50 },
      delta: { output_tokens: 300 },
    },
    tokens: { input: 1000, output: 300, reasoning: 0, cacheRead: 200, cacheWrite: 50 },
  },
  {
    family: "Gemini (thoughts apart from candidates)",
    kind: "google",
    modelId: "gemini-2.5-pro",
    wireUsage: { promptTokenCount: 1200, cachedContentTokenCount: 200, candidatesTokenCount: 200, thoughtsTokenCount: 100, totalTokenCount: 1500 },
    tokens: { input: 1000, output: 300, reasoning: 100, cacheRead: 200, cacheWrite: 0 },
  },
  {
    family: "xAI over the OpenAI-compatible API (reasoning outside completion_tokens)",
    kind: "openai-compatible",
    modelId: "grok-4",
    wireUsage: { prompt_tokens: 1200, completion_tokens: 200, total_tokens: 1500, prompt_tokens_details: { cached_tokens: 200 }, completion_tokens_details: { reasoning_tokens: 100 } },
    tokens: { input: 1000, output: 300, reasoning: 100, cacheRead: 200, cacheWrite: 0 },
  },
  {
    family: "DeepSeek over the OpenAI-compatible API (cache hit and miss counts)",
    kind: "openai-compatible",
    modelId: "deepseek-reasoner",
    wireUsage: {
      prompt_tokens: 1200,
      completion_tokens: 300,
      total_tokens: 1500,
      prompt_tokens_details: { cached_tokens: 200 },
      prompt_cache_hit_tokens: 200,
      prompt_cache_miss_tokens: 1000,
      completion_tokens_details: { reasoning_tokens: 100 },
    },
    tokens: { input: 1000, output: 300, reasoning: 100, cacheRead: 200, cacheWrite: 0 },
  },
  {
    family: "Groq / Alibaba over the OpenAI-compatible API (no details)",
    kind: "openai-compatible",
    modelId: "qwen3-coder",
    wireUsage: { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500 },
    tokens: { input: 1200, output: 300, reasoning: 0, cacheRead: 0, cacheWrite: 0 },
  },
];

describe("usage to cost per provider family", () => {
  it.each(ROWS)("$family", async (row) => {
    rig = await startRig(row.kind, row.modelId, [{ chunks: [{ type: "text", text: "ok" }], wireUsage: row.wireUsage }], {
      ...(row.api && { api: row.api }),
      model: { cost: PRICE },
    });
    const { sessionId, error } = await runPrompt(rig, "hi");
    expect(error).toBeUndefined();
    const parts = await rig.parts(sessionId);
    const finish = parts.find((p) => p.type === "step-finish");
    expect(finish?.type === "step-finish" && finish.tokens).toEqual(row.tokens);
    expect(finish?.type === "step-finish" && finish.cost).toBeCloseTo(cost(row.tokens), 12);
    const session = await rig.agent.getSession(sessionId);
    expect(session?.cost).toBeCloseTo(cost(row.tokens), 12);
  });
});
