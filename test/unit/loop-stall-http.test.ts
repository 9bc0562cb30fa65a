// Stalled and malformed streams over real HTTP (issue 20 points 5 and 8): the fake OpenAI-compatible
// server on 127.0.0.1 and the real AI SDK provider. A server that stops sending mid-answer is
// given up after the model's no-data timeout and retried; one that sends an event that is not
// JSON is retried like a dropped stream, not failed with a raw parser error.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterEach, describe, expect, it } from "vitest";
import type { ProviderRegistry } from "../../src/providers";
import { createRig, modelInfo, partsOf, type Rig } from "./agent-harness";
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from "../support/fake-model-server";

let rig: Rig | undefined;
let server: FakeModelServer | undefined;
afterEach(async () => {
  rig?.dispose();
  await server?.close();
});

async function run(turns: FakeTurn[], stallTimeoutMs?: number) {
  // Title requests (no tools) get a title; the agent's requests get the turns in order.
  let next = 0;
  server = await startFakeModelServer((request) =>
    Array.isArray((request.body as { tools?: unknown }).tools)
      ? (turns[next++] ?? { error: { status: 500, message: "no turn left" } })
      : { chunks: [{ type: "text", text: "A title" }] },
  );
  const model = createOpenAICompatible({ name: "fake", baseURL: server.url, apiKey: "sk-fake", includeUsage: true })("fake-model");
  const providers: ProviderRegistry = {
    languageModel: () => model,
    modelInfo: (ref) => modelInfo(ref.modelId, stallTimeoutMs === undefined ? {} : { stallTimeoutMs }),
    smallModel: (ref) => ref,
    providerName: () => "Fake",
  };
  rig = await createRig({ deps: { providers } });
  const session = await rig.agent.createSession();
  const result = await rig.agent.prompt(session.id, { text: "answer" });
  const retries = (await partsOf(rig.agent, session.id, "retry")).map((p) => (p.type === "retry" ? p.error.message : ""));
  const texts = (await partsOf(rig.agent, session.id, "text")).map((p) => (p.type === "text" ? p.text : "")).filter((t) => t !== "answer");
  const agentCalls = server.requests.filter((r) => r.protocol === "openai-chat" && Array.isArray((r.body as { tools?: unknown }).tools));
  return { result, retries, texts, calls: agentCalls.length };
}

describe("streams over HTTP", () => {
  it("a server that stops sending is retried after the no-data timeout", async () => {
    const { result, retries, texts, calls } = await run(
      [
        { chunks: [{ type: "text", text: "I was say" }, { type: "delay", ms: 30_000 }, { type: "text", text: "ing" }] },
        { chunks: [{ type: "text", text: "The whole answer." }] },
      ],
      // Long enough that a loaded machine cannot take the second, healthy stream for a stalled one.
      1_500,
    );
    expect(result.error).toBeUndefined();
    expect(calls).toBe(2);
    expect(retries).toEqual([expect.stringMatching(/^No data from the model for \d+ s; the connection is treated as dropped/)]);
    expect(texts).toEqual(["The whole answer."]);
  }, 60_000);

  it("a malformed event is retried like a dropped stream", async () => {
    const { result, retries, texts, calls } = await run([
      { chunks: [{ type: "text", text: "Hel" }, { type: "raw", data: '{"choices":[{"delta":{"content":"lo"' }] },
      { chunks: [{ type: "text", text: "Recovered." }] },
    ]);
    expect(result.error).toBeUndefined();
    expect(calls).toBe(2);
    expect(retries).toEqual([expect.stringMatching(/malformed stream event/)]);
    expect(texts).toEqual(["Recovered."]);
  }, 20_000);
});
