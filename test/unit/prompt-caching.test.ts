// Prompt caching per provider (docs/agent.md, "Prompt caching"), on the request bodies the real AI SDK
// clients send: Anthropic's cache_control breakpoints (the stable system prompt and the latest
// messages, so each step reads what the previous one wrote), OpenAI's prompt_cache_key per session,
// OpenRouter's top-level cache_control for Claude models, and Gemini's stable prefix.
import { afterEach, describe, expect, it } from "vitest";
import type { ProviderKind } from "../../src/providers";
import type { FakeTurn, RecordedRequest } from "../support/fake-model-server";
import { isTitleRequest, startRig, type StreamRig } from "./provider-streams-harness";

let rig: StreamRig | undefined;
afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

/** Two tool steps and an answer. */
const TURNS: FakeTurn[] = [
  { chunks: [{ type: "tool-call", name: "glob", input: { pattern: "*.md" } }] },
  { chunks: [{ type: "tool-call", name: "glob", input: { pattern: "*.ts" } }] },
  { chunks: [{ type: "text", text: "Nothing there." }] },
];

type Body = Record<string, unknown>;
const bodyOf = (request: RecordedRequest) => request.body as Body;

async function run(kind: ProviderKind, modelId: string, options: { api?: "chat" | "responses"; turns?: FakeTurn[]; prompts?: string[] } = {}) {
  const turns = options.turns ?? TURNS;
  rig = await startRig(kind, modelId, turns, { ...(options.api && { api: options.api }), model: { capabilities: { tools: true, images: false, reasoning: false, temperature: true } } });
  await rig.runtime.fs.writeFile("README.md", "# Demo\n");
  const session = await rig.agent.createSession();
  for (const text of options.prompts ?? ["Look around."]) {
    const result = await rig.agent.prompt(session.id, { text });
    await rig.agent.whenIdle();
    expect(result.error).toBeUndefined();
  }
  return { sessionId: session.id, requests: rig.turnRequests().map(bodyOf), titles: rig.server.modelRequests().filter(isTitleRequest).map(bodyOf) };
}

/** Every cache_control in a body, with the path to it. */
function breakpoints(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => breakpoints(v, `${path}[${i}]`));
  if (!value || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, v]) => (key === "cache_control" ? [path] : breakpoints(v, `${path}.${key}`)));
}

/** A value with every cache_control left out: what the provider hashes for its cache. */
function withoutMarks(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === "cache_control" ? undefined : v)));
}

type Block = Record<string, unknown>;
type Message = { role: string; content: Block[] };

/** The blocks of an Anthropic request in the order the provider reads them (tools, system, messages), marks kept. */
function anthropicBlocks(body: Body): Block[] {
  const messages = body.messages as Message[];
  return [...(body.tools as Block[]), ...(body.system as Block[]), ...messages.flatMap((m) => m.content.map((c) => ({ role: m.role, ...c })))];
}

describe("Anthropic: cache_control breakpoints", () => {
  it("marks the system prompt and the latest messages, at most four, so that each step reads the prefix the previous one wrote", async () => {
    const { requests, titles } = await run("anthropic", "claude-sonnet-4-5", { turns: [...TURNS, ...TURNS.slice(2)], prompts: ["Look around.", "And now?"] });
    expect(requests).toHaveLength(4);
    for (const body of requests) {
      const marks = breakpoints(body);
      expect(marks.length).toBeLessThanOrEqual(4);
      // The stable prefix: tools + system, cached by the mark on the system prompt.
      expect(marks).toContain(".system[0]");
      // The last message's last block is marked: the next step reads it.
      const messages = body.messages as Message[];
      const last = messages.length - 1;
      expect(marks).toContain(`.messages[${last}].content[${messages[last]!.content.length - 1}]`);
    }
    // Each later request carries a mark exactly where the previous request ended: the prefix the
    // previous step wrote to the cache is read as it is.
    for (let i = 1; i < requests.length; i++) {
      const before = anthropicBlocks(requests[i - 1]!);
      const now = anthropicBlocks(requests[i]!);
      const end = before.length - 1;
      expect(now[end]?.cache_control, `request ${i + 1} marks block ${end}`).toEqual({ type: "ephemeral" });
      expect(withoutMarks(now.slice(0, end + 1))).toEqual(withoutMarks(before));
    }
    // A title is a one-off: nothing in it is cached.
    expect(titles.length).toBeGreaterThan(0);
    for (const body of titles) expect(breakpoints(body)).toEqual([]);
  });
});

describe("OpenAI: a prompt cache key per session", () => {
  for (const api of ["responses", "chat"] as const) {
    it(`sends the session's id as prompt_cache_key on every step (${api})`, async () => {
      const { sessionId, requests } = await run("openai", "gpt-4.1", { api });
      expect(requests).toHaveLength(3);
      for (const body of requests) expect(body.prompt_cache_key).toBe(sessionId);
    });
  }
});

describe("OpenRouter: Claude's caching passed through", () => {
  it("asks for automatic caching (a top-level cache_control) for a Claude model", async () => {
    const { requests, titles } = await run("openrouter", "anthropic/claude-sonnet-4.5");
    for (const body of requests) expect(body.cache_control).toEqual({ type: "ephemeral" });
    for (const body of titles) expect(body.cache_control).toBeUndefined();
  });

  it("sends nothing of the kind for other models, nor to other OpenAI-compatible servers", async () => {
    const { requests } = await run("openrouter", "qwen/qwen3-coder");
    for (const body of requests) expect(breakpoints(body)).toEqual([]);
    await rig?.dispose();
    const local = await run("openai-compatible", "claude-sonnet-4-5");
    for (const body of local.requests) expect(breakpoints(body)).toEqual([]);
  });
});

describe("Gemini: implicit caching of a stable prefix", () => {
  it("keeps system instruction and tools the same on every step, and each step's contents a prefix of the next", async () => {
    const { requests } = await run("google", "gemini-2.5-flash");
    expect(requests).toHaveLength(3);
    const [first, ...rest] = requests;
    for (const body of rest) {
      expect(body.systemInstruction).toEqual(first!.systemInstruction);
      expect(body.tools).toEqual(first!.tools);
    }
    for (let i = 1; i < requests.length; i++) {
      const before = requests[i - 1]!.contents as unknown[];
      expect((requests[i]!.contents as unknown[]).slice(0, before.length)).toEqual(before);
    }
  });
});

describe("the reminders", () => {
  it("follow the cached system prompt apart on Anthropic, unmarked", async () => {
    rig = await startRig("anthropic", "claude-sonnet-4-5", TURNS, { model: { capabilities: { tools: true, images: false, reasoning: false, temperature: true } } });
    const session = await rig.agent.createSession();
    const result = await rig.agent.prompt(session.id, { text: "Plan it.", agent: "plan" });
    await rig.agent.whenIdle();
    expect(result.error).toBeUndefined();
    const system = bodyOf(rig.turnRequests()[0]!).system as Block[];
    expect(system).toHaveLength(2);
    expect(system[0]!.cache_control).toEqual({ type: "ephemeral" });
    expect(system[1]!.cache_control).toBeUndefined();
    expect(String(system[1]!.text)).toMatch(/plan/i);
  });
});
