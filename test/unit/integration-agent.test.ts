// The agent end to end in Node: the real tools over the real browser runtime (WorkspaceFiles +
// just-bash), real AI SDK provider clients from createProviderRegistry, talking streamed SSE to
// the fake model server on 127.0.0.1 — once per protocol (OpenAI-compatible chat completions,
// Anthropic Messages, OpenAI Responses).
import { afterEach, describe, expect, it } from "vitest";
import { createAgent, TITLE_PROMPT, type Agent } from "../../src/agent";
import { newId } from "../../src/base";
import { createProviderRegistry, type ModelInfo, type ProviderConfig } from "../../src/providers";
import { WorkspaceFiles, type Runtime } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage, type ModelRef } from "../../src/storage";
import { startFakeModelServer, type FakeModelServer, type FakeTurn, type RecordedRequest } from "../support/fake-model-server";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function info(id: string, providerId: string): ModelInfo {
  return {
    id,
    name: id,
    providerId,
    context: 128_000,
    output: 8_000,
    cost: { input: 3, output: 15 },
    capabilities: { tools: true, images: false, reasoning: false, temperature: true },
  };
}

/** Write, read, edit, run, answer: five model calls, four of them tool steps. */
const TASK: FakeTurn[] = [
  { chunks: [{ type: "text", text: "Creating the file." }, { type: "tool-call", name: "write", input: { filePath: "notes/hello.txt", content: "hello\n" } }], usage: { input: 900, output: 30 } },
  { chunks: [{ type: "tool-call", name: "read", input: { filePath: "notes/hello.txt" } }], usage: { input: 1000, output: 20 } },
  { chunks: [{ type: "tool-call", name: "edit", input: { filePath: "notes/hello.txt", oldString: "hello", newString: "hello world" } }], usage: { input: 1100, output: 25 } },
  { chunks: [{ type: "tool-call", name: "bash", input: { command: "cat notes/hello.txt", description: "Show the edited file" } }], usage: { input: 1200, output: 20 } },
  { chunks: [{ type: "text", text: "Done: notes/hello.txt says hello world." }], usage: { input: 1300, output: 15 } },
];

const isTitleRequest = (request: RecordedRequest) => JSON.stringify(request.body).includes(TITLE_PROMPT.slice(0, 40));

async function setUp(protocol: "chat" | "anthropic" | "responses"): Promise<{ agent: Agent; runtime: Runtime; server: FakeModelServer; model: ModelRef }> {
  let step = 0;
  const server = await startFakeModelServer((request) =>
    isTitleRequest(request) ? { chunks: [{ type: "text", text: "Create and edit hello notes" }], usage: { input: 50, output: 5 } } : TASK[step++]!,
  );
  cleanups.push(() => server.close());
  const id = "local";
  const modelId = protocol === "anthropic" ? "claude-sonnet-4-5" : protocol === "responses" ? "gpt-4.1" : "qwen-coder";
  const config: ProviderConfig =
    protocol === "chat"
      ? { id, kind: "openai-compatible", name: "Local server", baseUrl: server.url, models: [info(modelId, id)] }
      : protocol === "anthropic"
        ? { id, kind: "anthropic", name: "Anthropic", baseUrl: server.url, apiKey: "sk-test", models: [info(modelId, id)] }
        : { id, kind: "openai", api: "responses", name: "OpenAI", baseUrl: server.url, apiKey: "sk-test", models: [info(modelId, id)] };
  const storage = await openStorage({ name: newId("itest") });
  const files = await WorkspaceFiles.open(storage, newId("ws"));
  const runtime = createBrowserRuntime(files);
  const model = { providerId: id, modelId };
  const agent = createAgent({ storage, runtime, providers: createProviderRegistry([config]), defaultModel: () => model });
  cleanups.push(() => {
    agent.dispose();
    runtime.dispose();
    storage.close();
  });
  return { agent, runtime, server, model };
}

describe.each(["chat", "anthropic", "responses"] as const)("agent over the %s protocol", (protocol) => {
  it("runs a scripted multi-step task with the real tools and runtime", async () => {
    const { agent, runtime, server } = await setUp(protocol);
    const session = await agent.createSession();
    const result = await agent.prompt(session.id, { text: "Create notes/hello.txt saying hello, then make it say hello world." });
    await agent.whenIdle();
    expect(result.error).toBeUndefined();
    expect(await runtime.fs.readText("notes/hello.txt")).toBe("hello world\n");

    const parts = (await agent.getMessages(session.id)).flatMap((m) => m.parts);
    const tools = parts.filter((p) => p.type === "tool");
    expect(tools.map((p) => (p.type === "tool" ? `${p.tool}:${p.state.status}` : ""))).toEqual([
      "write:completed",
      "read:completed",
      "edit:completed",
      "bash:completed",
    ]);
    const bash = tools[3]!;
    expect(bash.type === "tool" && bash.state.status === "completed" && bash.state.output).toContain("hello world");
    const finalText = parts.filter((p) => p.type === "text" && !p.synthetic).at(-1);
    expect(finalText?.type === "text" && finalText.text).toBe("Done: notes/hello.txt says hello world.");

    const modelRequests = server.modelRequests().filter((r) => !isTitleRequest(r));
    expect(modelRequests).toHaveLength(5);
    expect(modelRequests.every((r) => r.stream)).toBe(true);
    // Each request carries the previous tool result back to the model.
    expect(JSON.stringify(modelRequests[2]!.body)).toContain("hello");
    expect(JSON.stringify(modelRequests[4]!.body)).toContain("hello world");

    const stored = await agent.getSession(session.id);
    expect(stored?.title).toBe("Create and edit hello notes");
    expect(stored?.tokens.input).toBeGreaterThanOrEqual(5500);
    expect(stored?.cost).toBeGreaterThan(0);
    const patches = parts.filter((p) => p.type === "patch");
    expect(patches.flatMap((p) => (p.type === "patch" ? p.files : []))).toContain("notes/hello.txt");
  });
});

describe("provider failures over real HTTP", () => {
  async function withScript(turns: FakeTurn[], options: { apiKey?: string } = {}) {
    let step = 0;
    const server = await startFakeModelServer((request) =>
      isTitleRequest(request) ? { chunks: [{ type: "text", text: "Title" }] } : turns[step++] ?? { chunks: [{ type: "text", text: "unexpected" }] },
    );
    cleanups.push(() => server.close());
    const config: ProviderConfig = {
      id: "local",
      kind: options.apiKey ? "openai" : "openai-compatible",
      ...(options.apiKey && { api: "chat" as const, apiKey: options.apiKey }),
      name: "Test Provider",
      baseUrl: server.url,
      models: [info("m", "local")],
    };
    const storage = await openStorage({ name: newId("itest") });
    const files = await WorkspaceFiles.open(storage, newId("ws"));
    const runtime = createBrowserRuntime(files);
    const agent = createAgent({ storage, runtime, providers: createProviderRegistry([config]), defaultModel: () => ({ providerId: "local", modelId: "m" }) });
    cleanups.push(() => {
      agent.dispose();
      runtime.dispose();
      storage.close();
    });
    return { agent, server };
  }

  it("retries a stream dropped mid-way and a 429 after the server's retry-after-ms, then answers", async () => {
    const { agent, server } = await withScript([
      { chunks: [{ type: "text", text: "partial" }, { type: "drop" }] },
      { error: { status: 429, headers: { "retry-after-ms": "30" }, message: "Rate limit reached" } },
      { chunks: [{ type: "text", text: "complete answer" }] },
    ]);
    const session = await agent.createSession();
    const result = await agent.prompt(session.id, { text: "hi" });
    await agent.whenIdle();
    expect(result.error).toBeUndefined();
    const parts = (await agent.getMessages(session.id)).flatMap((m) => m.parts);
    const retries = parts.filter((p) => p.type === "retry");
    expect(retries.map((p) => (p.type === "retry" ? p.attempt : 0))).toEqual([1, 2]);
    // The drop waits the 2 s backoff; the 429 the server's 30 ms.
    expect(retries.map((p) => (p.type === "retry" ? p.delayMs : 0))).toEqual([2000, 30]);
    const texts = parts.filter((p) => p.type === "text" && p.messageId === result.assistantMessageId);
    expect(texts.map((p) => (p.type === "text" ? p.text : ""))).toEqual(["complete answer"]);
    expect(server.modelRequests().filter((r) => !isTitleRequest(r))).toHaveLength(3);
  }, 30_000);

  it("does not retry a 401 and names the provider whose key to check", async () => {
    const { agent, server } = await withScript([{ error: { status: 401, message: "Incorrect API key" } }], { apiKey: "sk-wrong" });
    const session = await agent.createSession();
    const result = await agent.prompt(session.id, { text: "hi" });
    await agent.whenIdle();
    expect(result.error?.name).toBe("ProviderAuthError");
    expect(result.error?.action).toContain("Check your API key for Test Provider");
    expect(server.modelRequests().filter((r) => !isTitleRequest(r))).toHaveLength(1);
  });

  it("fails the prompt with the registry's message when the provider has no key, leaving no empty reply", async () => {
    const storage = await openStorage({ name: newId("itest") });
    const files = await WorkspaceFiles.open(storage, newId("ws"));
    const runtime = createBrowserRuntime(files);
    const config: ProviderConfig = { id: "openai", kind: "openai", name: "OpenAI", models: [info("gpt-4.1", "openai")] };
    const agent = createAgent({ storage, runtime, providers: createProviderRegistry([config]), defaultModel: () => ({ providerId: "openai", modelId: "gpt-4.1" }) });
    cleanups.push(() => {
      agent.dispose();
      runtime.dispose();
      storage.close();
    });
    const session = await agent.createSession();
    await expect(agent.prompt(session.id, { text: "hi" })).rejects.toThrow(/No API key is set for OpenAI/);
    await agent.whenIdle();
    const messages = await agent.getMessages(session.id);
    expect(messages.map((m) => m.info.role)).toEqual(["user"]);
    expect(agent.status(session.id)).toEqual({ type: "idle" });
  });
});

