// Benchmark of the agent loop through the fake model server (OpenAI-compatible chat completions,
// streamed SSE) with the real tools, browser runtime and IndexedDB (fake-indexeddb): a fixed task
// of 5 tool steps and a final answer. Reports the first request's size (system prompt + the build
// agent's tool schemas), the total bytes sent, and the agent's own overhead per step.
//
// Overhead of step n = (time the agent calls fetch for request n+1) − (time the SDK finished
// reading response n's body) − (time within that gap during which a tool was executing). It covers
// everything the agent does between two model calls besides running tools: finishing the parts,
// the end-of-step snapshot and patch, persisting (flush), reloading the history, resolving tools,
// building the system prompt and converting the messages. Tools are timed by wrapping runTool.
// The task runs RUNS times in fresh sessions of one agent; the first run warms the JIT and the
// file hashes, the overhead figure is the median over the steps of the later runs.
import { it } from "vitest";
import { createAgent, runTool, TITLE_PROMPT, type AgentServices } from "../../src/agent";
import { newId } from "../../src/base";
import { createProviderRegistry, type ProviderConfig } from "../../src/providers";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage } from "../../src/storage";
import { startFakeModelServer, type FakeTurn } from "../support/fake-model-server";
import { median, report } from "./report";

const NOTE = "fake server on 127.0.0.1, fake-indexeddb, 120-file workspace";
const RUNS = 11;

const TASK: FakeTurn[] = [
  { chunks: [{ type: "text", text: "Reading the entry point." }, { type: "tool-call", name: "read", input: { filePath: "src/main.ts" } }] },
  { chunks: [{ type: "tool-call", name: "grep", input: { pattern: "export function", include: "*.ts" } }] },
  { chunks: [{ type: "tool-call", name: "edit", input: { filePath: "src/main.ts", oldString: "return x * 1;", newString: "return x * 2;" } }] },
  { chunks: [{ type: "tool-call", name: "write", input: { filePath: "src/new-module.ts", content: "export const answer = 42;\n" } }] },
  { chunks: [{ type: "tool-call", name: "bash", input: { command: "cat src/new-module.ts && wc -l src/main.ts", description: "Check the new files" } }] },
  { chunks: [{ type: "text", text: "Done: doubled the result in src/main.ts and added src/new-module.ts." }] },
];

interface Interval {
  start: number;
  end: number;
}

/** Time inside [from, to] covered by at least one interval. */
function covered(intervals: Interval[], from: number, to: number): number {
  const clipped = intervals
    .map((i) => ({ start: Math.max(i.start, from), end: Math.min(i.end, to) }))
    .filter((i) => i.end > i.start)
    .sort((a, b) => a.start - b.start);
  let total = 0;
  let cursor = from;
  for (const i of clipped) {
    const start = Math.max(i.start, cursor);
    if (i.end > start) total += i.end - start;
    cursor = Math.max(cursor, i.end);
  }
  return total;
}

it("runs a 5-tool-step task and measures request sizes and per-step overhead", async () => {
  let step = 0;
  const isTitle = (body: string) => body.includes(TITLE_PROMPT.slice(0, 40));
  const server = await startFakeModelServer((request) =>
    isTitle(JSON.stringify(request.body)) ? { chunks: [{ type: "text", text: "Double the result" }] } : TASK[step++ % TASK.length]!,
  );

  const calls: Array<{ start: number; bodyEnd?: number; bytes: number }> = [];
  const timedFetch: typeof fetch = async (input, init) => {
    const body = typeof init?.body === "string" ? init.body : "";
    if (isTitle(body)) return fetch(input, init);
    const call: { start: number; bodyEnd?: number; bytes: number } = { start: performance.now(), bytes: new TextEncoder().encode(body).length };
    calls.push(call);
    const response = await fetch(input, init);
    if (!response.body) return response;
    const stream = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        flush() {
          call.bodyEnd = performance.now();
        },
      }),
    );
    return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  const toolTimes: Interval[] = [];
  const services: Partial<AgentServices> = {
    runTool: async (tool, input, context) => {
      const interval = { start: performance.now(), end: Number.POSITIVE_INFINITY };
      toolTimes.push(interval);
      try {
        return await runTool(tool, input, context);
      } finally {
        interval.end = performance.now();
      }
    },
  };

  const storage = await openStorage({ name: newId("bench-agent") });
  const files = await WorkspaceFiles.open(storage, newId("ws"));
  for (let i = 0; i < 120; i++) {
    await files.writeFile(`src/lib/module-${i}.ts`, `export function f${i}(x: number): number {\n  return x * ${i};\n}\n`.repeat(10));
  }
  await files.writeFile("src/main.ts", "export function main(x: number): number {\n  return x * 1;\n}\n");
  await files.writeFile("AGENTS.md", "# Project\nUse TypeScript strict mode. Run the tests before finishing.\n");
  const runtime = createBrowserRuntime(files);
  const config: ProviderConfig = {
    id: "local",
    kind: "openai-compatible",
    name: "Local",
    baseUrl: server.url,
    models: [
      {
        id: "bench-model",
        name: "Bench model",
        providerId: "local",
        context: 128_000,
        output: 8_000,
        cost: { input: 1, output: 2 },
        capabilities: { tools: true, images: false, reasoning: false, temperature: true },
      },
    ],
  };
  const model = { providerId: "local", modelId: "bench-model" };
  const agent = createAgent({
    storage,
    runtime,
    providers: createProviderRegistry([config], { fetch: timedFetch }),
    defaultModel: () => model,
    services,
  });

  const overheads: number[][] = [];
  let firstRequestBytes = 0;
  let runBytes = 0;
  for (let run = 0; run < RUNS; run++) {
    calls.length = 0;
    toolTimes.length = 0;
    // Each run edits main.ts from the same starting point.
    await files.writeFile("src/main.ts", "export function main(x: number): number {\n  return x * 1;\n}\n");
    if (await files.exists("src/new-module.ts")) await files.remove("src/new-module.ts");
    const session = await agent.createSession();
    const result = await agent.prompt(session.id, { text: "Double the result of main in src/main.ts and add a module exporting the answer." });
    await agent.whenIdle();
    if (result.error) throw new Error(`the scripted task failed: ${result.error.message}`);
    const tools = (await agent.getMessages(session.id)).flatMap((m) => m.parts).filter((p) => p.type === "tool");
    const failed = tools.filter((p) => p.type === "tool" && p.state.status !== "completed");
    if (tools.length !== 5 || failed.length > 0) throw new Error(`expected 5 completed tool calls, got ${tools.length} (${failed.length} failed)`);
    const perStep: number[] = [];
    for (let n = 0; n + 1 < calls.length; n++) {
      const end = calls[n]!.bodyEnd!;
      const next = calls[n + 1]!.start;
      perStep.push(next - end - covered(toolTimes, end, next));
    }
    overheads.push(perStep);
    if (run === 0) {
      firstRequestBytes = calls[0]!.bytes;
      runBytes = calls.reduce((sum, c) => sum + c.bytes, 0);
    }
  }
  const measured = overheads.slice(1).flat();

  report({
    name: "agent first request (system + tools)",
    value: firstRequestBytes,
    unit: "bytes",
    target: "<= 12288",
    note: "build agent, full tool set, OpenAI chat format",
  });
  report({ name: "agent total request bytes (6 calls)", value: runBytes, unit: "bytes", note: NOTE });
  report({
    name: "agent overhead per step (median)",
    value: Math.round(median(measured) * 100) / 100,
    unit: "ms",
    target: "<= 10",
    note: `excl. model and tool time; median of runs 2-${RUNS} (${measured.length} steps; warm-up run: ${overheads[0]!.map((o) => o.toFixed(1)).join(", ")}); ${NOTE}`,
  });

  agent.dispose();
  runtime.dispose();
  storage.close();
  await server.close();
});
