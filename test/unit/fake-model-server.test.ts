// The fake model server speaks each protocol well enough for the real AI SDK clients: text,
// reasoning, streamed tool calls, usage, finish reasons, errors with headers, drops and delays.
import { afterEach, describe, expect, it } from "vitest";
import { APICallError, generateText, streamText, tool, type LanguageModel } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { z } from "zod";
import { inspect } from "node:util";
import { startFakeModelServer, type FakeModelServer, type FakeScript, type FakeTurn } from "../support/fake-model-server";

const KEY = "sk-test-secret-123";
let server: FakeModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Flavour = "chat" | "responses" | "anthropic";

function model(flavour: Flavour, url: string): LanguageModel {
  if (flavour === "chat") return createOpenAICompatible({ name: "fake", baseURL: url, apiKey: KEY, includeUsage: true })("fake-model");
  if (flavour === "responses") return createOpenAI({ baseURL: url, apiKey: KEY }).responses("gpt-5");
  return createAnthropic({ baseURL: url, apiKey: KEY })("claude-sonnet-4-5");
}

const tools = {
  read: tool({ description: "Read a file", inputSchema: z.object({ filePath: z.string(), limit: z.number().optional() }) }),
};

async function run(flavour: Flavour, script: FakeScript, extra: { maxRetries?: number } = {}) {
  server = await startFakeModelServer(script);
  const result = streamText({ model: model(flavour, server.url), prompt: "hello", tools, maxRetries: extra.maxRetries ?? 0 });
  let text = "";
  let reasoning = "";
  const inputDeltas: string[] = [];
  const calls: { id: string; name: string; input: unknown }[] = [];
  const errors: unknown[] = [];
  let finish: string | undefined;
  let usage: { input?: number; output?: number; reasoning?: number; cacheRead?: number } = {};
  try {
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") text += part.text;
      else if (part.type === "reasoning-delta") reasoning += part.text;
      else if (part.type === "tool-input-delta") inputDeltas.push(part.delta);
      else if (part.type === "tool-call") calls.push({ id: part.toolCallId, name: part.toolName, input: part.input });
      else if (part.type === "error") errors.push(part.error);
      else if (part.type === "finish-step") {
        finish = part.finishReason;
        usage = {
          input: part.usage.inputTokens,
          output: part.usage.outputTokens,
          reasoning: part.usage.outputTokenDetails.reasoningTokens,
          cacheRead: part.usage.inputTokenDetails.cacheReadTokens,
        };
      }
    }
  } catch (error) {
    // A broken connection surfaces as a thrown error from the stream, not an error part.
    errors.push(error);
  }
  return { text, reasoning, inputDeltas, calls, errors, finish, usage };
}

const toolTurn: FakeTurn = {
  chunks: [
    { type: "reasoning", text: "Let me " },
    { type: "reasoning", text: "look." },
    { type: "text", text: "Reading " },
    { type: "text", text: "the file." },
    { type: "tool-call", id: "call_a", name: "read", input: { filePath: "src/a.ts", limit: 20 } },
  ],
  usage: { input: 100, output: 40, reasoning: 12, cacheRead: 30 },
};

describe.each<Flavour>(["chat", "responses", "anthropic"])("%s protocol", (flavour) => {
  it("streams reasoning, text and a tool call with usage and finish reason", async () => {
    const out = await run(flavour, [toolTurn]);
    expect(out.errors).toEqual([]);
    expect(out.reasoning).toBe("Let me look.");
    expect(out.text).toBe("Reading the file.");
    expect(out.calls).toEqual([{ id: "call_a", name: "read", input: { filePath: "src/a.ts", limit: 20 } }]);
    // The arguments arrive in several deltas, as real servers send them.
    expect(out.inputDeltas.length).toBeGreaterThan(1);
    expect(out.inputDeltas.join("")).toBe(JSON.stringify({ filePath: "src/a.ts", limit: 20 }));
    expect(out.finish).toBe("tool-calls");
    expect(out.usage.output).toBe(40);
    expect(out.usage.cacheRead).toBe(30);
    expect(out.usage.input).toBe(130);
    if (flavour !== "anthropic") expect(out.usage.reasoning).toBe(12);
  });

  it("streams several tool calls in one turn", async () => {
    const out = await run(flavour, [
      {
        chunks: [
          { type: "tool-call", name: "read", input: { filePath: "a" } },
          { type: "tool-call", name: "read", input: { filePath: "b" } },
        ],
      },
    ]);
    expect(out.errors).toEqual([]);
    expect(out.calls.map((c) => c.input)).toEqual([{ filePath: "a" }, { filePath: "b" }]);
    expect(new Set(out.calls.map((c) => c.id)).size).toBe(2);
  });

  it("ends a text-only turn with stop, and a cut-off turn with length", async () => {
    const out = await run(flavour, [{ chunks: [{ type: "text", text: "done" }] }]);
    expect([out.text, out.finish]).toEqual(["done", "stop"]);
    await server?.close();
    const cut = await run(flavour, [{ chunks: [{ type: "text", text: "partial" }], finish: "length" }]);
    expect([cut.text, cut.finish]).toEqual(["partial", "length"]);
  });

  it("records the request body with the prompt and tools, and the key in headers", async () => {
    await run(flavour, [{ chunks: [{ type: "text", text: "ok" }] }]);
    const [request] = server!.modelRequests();
    expect(request!.stream).toBe(true);
    const body = JSON.stringify(request!.body);
    expect(body).toContain("hello");
    expect(body).toContain("filePath");
    const key = flavour === "anthropic" ? request!.headers["x-api-key"] : request!.headers.authorization;
    expect(key).toContain(KEY);
    // Printed forms never show the key.
    expect(JSON.stringify(request)).not.toContain(KEY);
    expect(inspect(request)).not.toContain(KEY);
  });

  it("answers a scripted HTTP error with its status and headers", async () => {
    const out = await run(flavour, [{ error: { status: 429, headers: { "retry-after": "7" }, message: "slow down" } }]);
    expect(out.errors).toHaveLength(1);
    const error = out.errors[0];
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(429);
    expect((error as APICallError).responseHeaders?.["retry-after"]).toBe("7");
    expect((error as APICallError).message).toContain("slow down");
  });

  it("answers 401 for a bad key", async () => {
    const out = await run(flavour, [{ error: { status: 401, message: "Incorrect API key provided." } }]);
    expect((out.errors[0] as APICallError).statusCode).toBe(401);
  });

  it("drops the connection mid-stream after the text sent so far", async () => {
    const out = await run(flavour, [{ chunks: [{ type: "text", text: "partial " }, { type: "drop" }, { type: "text", text: "never" }] }]);
    expect(out.text).toBe("partial ");
    expect(out.errors.length).toBeGreaterThan(0);
    expect(out.finish).not.toBe("stop");
  });

  it("paces chunks with delays", async () => {
    const started = Date.now();
    const out = await run(flavour, [{ chunks: [{ type: "text", text: "a" }, { type: "delay", ms: 150 }, { type: "text", text: "b" }] }]);
    expect(out.text).toBe("ab");
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("answers non-streaming calls (generateText) with text, tool calls and usage", async () => {
    server = await startFakeModelServer([toolTurn]);
    const result = await generateText({ model: model(flavour, server.url), prompt: "hi", tools, maxRetries: 0 });
    expect(server.modelRequests()[0]!.stream).toBe(false);
    expect(result.text).toBe("Reading the file.");
    expect(result.toolCalls.map((c) => [c.toolName, c.input])).toEqual([["read", { filePath: "src/a.ts", limit: 20 }]]);
    expect(result.finishReason).toBe("tool-calls");
    expect(result.usage.outputTokens).toBe(40);
  });
});

describe("fake model server", () => {
  it("lets a function decide each turn from the request", async () => {
    server = await startFakeModelServer((request, index) => ({
      chunks: [{ type: "text", text: `turn ${index} for ${(request.body as { model: string }).model}` }],
    }));
    const m = createOpenAICompatible({ name: "fake", baseURL: server.url })("m1");
    expect((await generateText({ model: m, prompt: "x" })).text).toBe("turn 0 for m1");
    expect((await generateText({ model: m, prompt: "x" })).text).toBe("turn 1 for m1");
  });

  it("sends the usage chunk only when the client asks for it", async () => {
    server = await startFakeModelServer([{ chunks: [{ type: "text", text: "x" }], usage: { input: 9, output: 3 } }]);
    const m = createOpenAICompatible({ name: "fake", baseURL: server.url })("m");
    const result = streamText({ model: m, prompt: "x" });
    await result.consumeStream();
    expect((await result.usage).inputTokens).toBeUndefined();
  });

  it("fails clearly when the script runs out of turns", async () => {
    const out = await run("chat", []);
    expect((out.errors[0] as APICallError).message).toContain("no scripted turn left");
  });

  it("answers CORS preflight and adds CORS headers", async () => {
    server = await startFakeModelServer([]);
    const response = await fetch(`${server.url}/chat/completions`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(response.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    expect(server.requests[0]!.protocol).toBe("preflight");
    expect(server.modelRequests()).toEqual([]);
  });

  it("lists models in the OpenAI, Anthropic and Google shapes", async () => {
    server = await startFakeModelServer([], { models: ["m1", "m2"] });
    const openai = (await (await fetch(`${server.url}/models`)).json()) as { data: { id: string }[] };
    expect(openai.data.map((m) => m.id)).toEqual(["m1", "m2"]);
    const anthropic = (await (await fetch(`${server.url}/models`, { headers: { "anthropic-version": "2023-06-01" } })).json()) as {
      data: { id: string; type: string }[];
    };
    expect(anthropic.data.map((m) => [m.type, m.id])).toEqual([["model", "m1"], ["model", "m2"]]);
    const google = (await (await fetch(`${server.url}/models`, { headers: { "x-goog-api-key": "k" } })).json()) as { models: { name: string }[] };
    expect(google.models.map((m) => m.name)).toEqual(["models/m1", "models/m2"]);
  });

  it("refuses requests without the required key", async () => {
    server = await startFakeModelServer([{ chunks: [{ type: "text", text: "x" }] }], { requireKey: "right" });
    expect((await fetch(`${server.url}/models`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await fetch(`${server.url}/models`, { headers: { authorization: "Bearer right" } })).status).toBe(200);
    expect((await fetch(`${server.url}/models`, { headers: { "x-api-key": "right" } })).status).toBe(200);
  });
});
