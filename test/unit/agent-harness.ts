// Test harness for the agent loop: a real storage (fake-indexeddb) and browser runtime over
// WorkspaceFiles, scripted mock models (the AI SDK's MockLanguageModelV4), a small provider
// registry over them, and session services with a few small test tools run through the real
// shared wrapper (runTool). Not a test file itself.
import { APICallError, type LanguageModel } from "ai";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { z } from "zod";
import { newId } from "../../src/base";
import type { ModelInfo, ProviderRegistry } from "../../src/providers";
import { calculateCost } from "../../src/providers";
import { WorkspaceFiles, type Runtime } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage, type ModelRef, type Storage } from "../../src/storage";
import { createAgent, type Agent, type AgentDeps } from "../../src/agent/agent";
import type { AgentInfo, AgentServices } from "../../src/agent/session/services";
import type { ToolDefinition } from "../../src/agent/tools/tool";
import { runTool } from "../../src/agent/tools";

export const MODEL: ModelRef = { providerId: "fake", modelId: "fake-model" };
export const SMALL_MODEL: ModelRef = { providerId: "fake", modelId: "fake-small" };

export function modelInfo(id: string, overrides: Partial<ModelInfo> = {}): ModelInfo {
  return {
    id,
    name: `Fake ${id}`,
    providerId: "fake",
    context: 100_000,
    output: 8_000,
    cost: { input: 1, output: 2, cacheRead: 0.1 },
    capabilities: { tools: true, images: false, reasoning: false, temperature: true },
    ...overrides,
  };
}

// ---- scripted model turns -------------------------------------------------------------------

export interface Usage {
  input?: number;
  output?: number;
  cacheRead?: number;
}

function usage(u: Usage = {}) {
  const input = u.input ?? 100;
  return {
    inputTokens: { total: input + (u.cacheRead ?? 0), noCache: input, cacheRead: u.cacheRead ?? 0, cacheWrite: 0 },
    outputTokens: { total: u.output ?? 10, text: u.output ?? 10, reasoning: 0 },
  };
}

export type Turn =
  | { kind: "chunks"; chunks: LanguageModelV4StreamPart[]; delayMs?: number; hang?: boolean }
  | { kind: "error"; error: unknown };

export function text(content: string, u?: Usage): Turn {
  const deltas = content.match(/.{1,5}/gs) ?? [""];
  return {
    kind: "chunks",
    chunks: [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id: "t", delta })),
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: usage(u) },
    ],
  };
}

export interface Call {
  name: string;
  input: unknown;
  id?: string;
}

let callCounter = 0;
export function tools(calls: Call[], u?: Usage, preface?: string): Turn {
  const chunks: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (preface) {
    chunks.push({ type: "text-start", id: "p" }, { type: "text-delta", id: "p", delta: preface }, { type: "text-end", id: "p" });
  }
  for (const call of calls) {
    const id = call.id ?? `call_${++callCounter}`;
    const json = typeof call.input === "string" ? call.input : JSON.stringify(call.input);
    chunks.push(
      { type: "tool-input-start", id, toolName: call.name },
      { type: "tool-input-delta", id, delta: json },
      { type: "tool-input-end", id },
      { type: "tool-call", toolCallId: id, toolName: call.name, input: json },
    );
  }
  chunks.push({ type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: usage(u) });
  return { kind: "chunks", chunks };
}

export function apiError(status: number, headers: Record<string, string> = {}, message = `HTTP ${status}`): Turn {
  return {
    kind: "error",
    error: new APICallError({
      message,
      url: "https://fake.test/v1/chat",
      requestBodyValues: {},
      statusCode: status,
      responseHeaders: headers,
      isRetryable: status === 429 || status >= 500,
    }),
  };
}

/** A model that plays turns in order and records every call's options. */
export class ScriptedModel {
  readonly calls: LanguageModelV4CallOptions[] = [];
  readonly model: MockLanguageModelV4;
  /** When each call started (performance.now). */
  readonly startedAt: number[] = [];
  /** When each call's stream was fully consumed. */
  readonly endedAt: number[] = [];

  constructor(
    private readonly turns: Array<Turn | ((options: LanguageModelV4CallOptions) => Turn)>,
    readonly modelId = MODEL.modelId,
  ) {
    this.model = new MockLanguageModelV4({
      modelId,
      doStream: async (options) => {
        this.calls.push(options);
        const index = this.calls.length - 1;
        this.startedAt.push(performance.now());
        const next = this.turns.shift();
        if (!next) throw new Error(`ScriptedModel ${modelId}: no turn scripted for call ${index + 1}`);
        const turn = typeof next === "function" ? next(options) : next;
        if (turn.kind === "error") throw turn.error;
        const endedAt = this.endedAt;
        const base = simulateReadableStream({ chunks: turn.chunks, initialDelayInMs: null, chunkDelayInMs: turn.delayMs ?? null });
        const reader = base.getReader();
        const hang = turn.hang;
        const signal = options.abortSignal;
        const stream = new ReadableStream<LanguageModelV4StreamPart>({
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) {
              if (hang) {
                // Never ends on its own: only an abort stops it.
                await new Promise<void>((_, reject) => {
                  const fail = () => reject(signal?.reason ?? new DOMException("aborted", "AbortError"));
                  if (signal?.aborted) fail();
                  signal?.addEventListener("abort", fail, { once: true });
                }).catch((error: unknown) => controller.error(error));
                return;
              }
              endedAt[index] = performance.now();
              controller.close();
              return;
            }
            controller.enqueue(value);
          },
        });
        return { stream };
      },
    });
  }

  get remaining(): number {
    return this.turns.length;
  }

  /** The text of every message of call `index`, for asserting what the model was sent. */
  prompt(index: number): string {
    return JSON.stringify(this.calls[index]?.prompt ?? []);
  }

  toolNames(index: number): string[] {
    return (this.calls[index]?.tools ?? []).map((t) => t.name).sort();
  }
}

/** A title model that always answers the same, so titles never eat the main model's script. */
export function titleModel(title = "A test title"): ScriptedModel {
  const turns: Turn[] = [];
  const model = new ScriptedModel(turns, SMALL_MODEL.modelId);
  for (let i = 0; i < 100; i++) turns.push(text(title));
  return model;
}

export function fakeRegistry(models: Record<string, ScriptedModel>, infos: Record<string, ModelInfo> = {}): ProviderRegistry {
  const all = { [SMALL_MODEL.modelId]: titleModel(), ...models };
  return {
    languageModel(ref): LanguageModel {
      const model = all[ref.modelId];
      if (!model) throw new Error(`no fake model ${ref.modelId}`);
      return model.model;
    },
    modelInfo: (ref) => infos[ref.modelId] ?? modelInfo(ref.modelId),
    smallModel: () => SMALL_MODEL,
    providerName: () => "Fake AI",
  };
}

// ---- test tools and services --------------------------------------------------------------

export const echoTool: ToolDefinition = {
  id: "echo",
  description: "Echoes text.",
  parameters: z.object({ text: z.string() }),
  async execute(args: { text: string }) {
    return { title: `echo ${args.text}`, output: `echo: ${args.text}`, metadata: {} };
  },
};

export const writeFileTool: ToolDefinition = {
  id: "put",
  description: "Writes a file.",
  parameters: z.object({ path: z.string(), content: z.string() }),
  async execute(args: { path: string; content: string }, context) {
    await context.ask({ permission: "edit", patterns: [args.path], always: [args.path], metadata: {} });
    await context.runtime.fs.writeFile(args.path, args.content, { source: "agent" });
    return { title: args.path, output: `wrote ${args.path}`, metadata: {} };
  },
};

/** A tool that runs until aborted, reporting progress first. */
export const waitTool: ToolDefinition = {
  id: "wait",
  description: "Waits until aborted.",
  parameters: z.object({}),
  async execute(_args, context) {
    context.update({ title: "waiting", metadata: { progress: "started" } });
    await new Promise<void>((_, reject) => {
      const fail = () => reject(context.abort.reason ?? new DOMException("aborted", "AbortError"));
      if (context.abort.aborted) fail();
      context.abort.addEventListener("abort", fail, { once: true });
    });
    return { title: "", output: "", metadata: {} };
  },
};

export const taskTool: ToolDefinition = {
  id: "task",
  description: "Runs a subagent.",
  parameters: z.object({ description: z.string(), prompt: z.string(), subagent_type: z.string(), taskId: z.string().optional() }),
  async execute(args: { description: string; prompt: string; subagent_type: string; taskId?: string }, context) {
    const result = await context.runSubagent({
      description: args.description,
      prompt: args.prompt,
      subagentType: args.subagent_type,
      ...(args.taskId && { taskId: args.taskId }),
    });
    return { title: args.description, output: `${result.text}\ntask_id: ${result.sessionId}`, metadata: { sessionId: result.sessionId } };
  },
};

export const questionTool: ToolDefinition = {
  id: "question",
  description: "Asks the user.",
  parameters: z.object({ question: z.string() }),
  async execute(args: { question: string }, context) {
    const answers = await context.askQuestions([{ question: args.question, header: "Q", options: [], multiple: false }]);
    return { title: "asked", output: JSON.stringify(answers), metadata: {} };
  },
};

export const todoTool: ToolDefinition = {
  id: "todowrite",
  description: "Writes todos.",
  parameters: z.object({ todos: z.array(z.object({ content: z.string(), status: z.enum(["pending", "in_progress", "completed", "cancelled"]), priority: z.enum(["high", "medium", "low"]) })) }),
  async execute(args: { todos: Array<{ content: string; status: "pending"; priority: "high" }> }, context) {
    await context.setTodos(args.todos);
    return { title: "todos", output: "ok", metadata: {} };
  },
};

const allow = (permission: string) => ({ permission, pattern: "*", action: "allow" as const });
const deny = (permission: string) => ({ permission, pattern: "*", action: "deny" as const });

export const TEST_AGENTS: AgentInfo[] = [
  { name: "build", description: "default", mode: "primary", permission: [], builtIn: true },
  { name: "limited", description: "two steps", mode: "primary", steps: 2, permission: [], builtIn: true },
  { name: "careful", description: "may not put files", mode: "primary", permission: [deny("put")], builtIn: true },
  { name: "general", description: "general subagent", mode: "subagent", permission: [], builtIn: true },
  { name: "explore", description: "read-only", mode: "subagent", permission: [deny("*"), allow("echo"), allow("wait")], builtIn: true },
  { name: "compaction", description: "", mode: "primary", hidden: true, prompt: "COMPACTION AGENT PROMPT", permission: [deny("*")], builtIn: true },
  { name: "title", description: "", mode: "primary", hidden: true, prompt: "TITLE AGENT PROMPT", permission: [deny("*")], builtIn: true },
];

export function testServices(overrides: Partial<AgentServices> = {}): AgentServices {
  return {
    tools: () => [echoTool, writeFileTool, waitTool, taskTool, questionTool, todoTool],
    runTool,
    loadAgents: async () => TEST_AGENTS,
    buildSystemPrompt: async (input) => [`SYSTEM for ${input.agent.name}`, ...(input.userSystem ? [input.userSystem] : []), ...(input.reminders ?? [])].join("\n"),
    prefersApplyPatch: (modelId) => modelId.startsWith("gpt-5"),
    calculateCost,
    prompts: {
      title: "TITLE PROMPT",
      compaction: "COMPACTION PROMPT",
      maxSteps: "MAX STEPS REACHED: stop calling tools and summarise.",
      plan: "PLAN MODE",
      continueAfterCompaction: "Continue if you have next steps",
    },
    ...overrides,
  };
}

// ---- the whole rig --------------------------------------------------------------------------

export interface Rig {
  storage: Storage;
  files: WorkspaceFiles;
  runtime: Runtime;
  agent: Agent;
  workspaceId: string;
  dispose(): void;
}

export async function createRig(
  options: {
    models?: Record<string, ScriptedModel>;
    infos?: Record<string, ModelInfo>;
    services?: Partial<AgentServices>;
    storage?: Storage;
    workspaceId?: string;
    deps?: Partial<AgentDeps>;
  } = {},
): Promise<Rig> {
  const storage = options.storage ?? (await openStorage({ name: newId("testdb") }));
  const workspaceId = options.workspaceId ?? newId("ws");
  const files = await WorkspaceFiles.open(storage, workspaceId);
  const runtime = createBrowserRuntime(files);
  const agent = createAgent({
    storage,
    runtime,
    providers: options.deps?.providers ?? fakeRegistry(options.models ?? {}, options.infos),
    services: testServices(options.services),
    defaultModel: () => MODEL,
    ...options.deps,
  });
  return {
    storage,
    files,
    runtime,
    agent,
    workspaceId,
    dispose() {
      agent.dispose();
      runtime.dispose();
    },
  };
}

/** Parts of the given type across the session's messages. */
export async function partsOf(agent: Agent, sessionId: string, type?: string) {
  const messages = await agent.getMessages(sessionId);
  return messages.flatMap((m) => m.parts).filter((p) => type === undefined || p.type === type);
}
