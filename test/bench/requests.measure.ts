// What webcode sends to Anthropic and what it is billed for (issue 36), through the real agent, tools,
// browser runtime, code service and Anthropic client against the fake model server on 127.0.0.1:
// 1. Request sizes of a five-request task (bash; glob + grep; read; edit; answer) in a small
//    TypeScript project: the first request (system prompt + tool schemas) and all five, beside
//    OpenCode's 28.8 KiB and 147.4 KiB for the same task.
// 2. The billed input cost of a 20-step session (19 tool steps and an answer), the server reporting
//    cache reads and writes as Anthropic does for the prefixes the requests mark
//    (test/support/anthropic-prompt-cache.ts): as billed with the marks webcode sends, and as it
//    would be billed with none (every input token at the input price), at Claude Sonnet 4.5 prices.
import { it } from "vitest";
import { createAgent, TITLE_PROMPT } from "../../src/agent";
import { newId } from "../../src/base";
import { catalogueModels, createProviderRegistry, type ProviderConfig } from "../../src/providers";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage, type TokenUsage } from "../../src/storage";
import { AnthropicPromptCache } from "../support/anthropic-prompt-cache";
import { inProcessCodeIntelligence } from "../support/code-service";
import { startFakeModelServer, type FakeChunk, type FakeTurn, type FakeUsage, type RecordedRequest } from "../support/fake-model-server";
import { report } from "./report";

const OPENCODE_FIRST = 28.8 * 1024;
const OPENCODE_TOTAL = 147.4 * 1024;
const KIB = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

const isTitle = (request: RecordedRequest) => JSON.stringify(request.body).includes(TITLE_PROMPT.slice(0, 40));
const call = (name: string, input: Record<string, unknown>): FakeChunk => ({ type: "tool-call", name, input });

const MAIN_TS = `import { formatTotal } from "./format";
import { sum } from "./util";

export function main(values: number[]): string {
  return formatTotal(sum(values) * 1);
}
`;

/** A small TypeScript project (the code tool is offered, as in most webcode workspaces). */
async function project(files: WorkspaceFiles, extraModules = 0): Promise<void> {
  await files.writeFile("package.json", JSON.stringify({ name: "demo", type: "module", scripts: { test: "node --test" } }, null, 2) + "\n");
  await files.writeFile("README.md", "# demo\n\nSums numbers and prints the total.\n");
  await files.writeFile("src/main.ts", MAIN_TS);
  await files.writeFile("src/util.ts", "export function sum(values: number[]): number {\n  return values.reduce((a, b) => a + b, 0);\n}\n");
  await files.writeFile("src/format.ts", 'export function formatTotal(total: number): string {\n  return `Total: ${total}`;\n}\n');
  for (let i = 0; i < extraModules; i++) {
    const body = Array.from({ length: 30 }, (_, n) => `export function f${i}_${n}(x: number): number {\n  return x * ${n} + ${i};\n}\n`).join("");
    await files.writeFile(`src/lib/module-${i}.ts`, body);
  }
}

async function rig(script: (request: RecordedRequest) => FakeTurn, extraModules = 0) {
  const server = await startFakeModelServer((request) => (isTitle(request) ? { chunks: [{ type: "text", text: "Double the total" }], usage: { input: 0, output: 0 } } : script(request)));
  const storage = await openStorage({ name: newId("bench-requests") });
  const files = await WorkspaceFiles.open(storage, newId("ws"));
  await project(files, extraModules);
  const runtime = createBrowserRuntime(files);
  const codeIntelligence = inProcessCodeIntelligence(runtime.fs);
  const config: ProviderConfig = { id: "anthropic", kind: "anthropic", name: "Anthropic", baseUrl: server.url, apiKey: "test-key", models: catalogueModels("anthropic") };
  const model = { providerId: "anthropic", modelId: "claude-sonnet-4-5" };
  const agent = createAgent({ storage, runtime, codeIntelligence, providers: createProviderRegistry([config]), defaultModel: () => model });
  return {
    server,
    agent,
    turnRequests: () => server.modelRequests().filter((r) => !isTitle(r)),
    async prompt(text: string) {
      const session = await agent.createSession();
      const result = await agent.prompt(session.id, { text });
      await agent.whenIdle();
      if (result.error) throw new Error(`the scripted task failed: ${result.error.message}`);
      return session.id;
    },
    async dispose() {
      agent.dispose();
      runtime.dispose();
      storage.close();
      await server.close();
    },
  };
}

const bytesOf = (request: RecordedRequest) => Buffer.byteLength(JSON.stringify(request.body));

it("five-request task: request sizes", async () => {
  const task: FakeTurn[] = [
    { chunks: [{ type: "text", text: "Looking at the project." }, call("bash", { command: "ls src && cat package.json", description: "List the sources" })] },
    { chunks: [call("glob", { pattern: "src/**/*.ts" }), call("grep", { pattern: "export function", include: "*.ts" })] },
    { chunks: [call("read", { filePath: "src/main.ts" })] },
    { chunks: [call("edit", { filePath: "src/main.ts", oldString: "sum(values) * 1", newString: "sum(values) * 2" })] },
    { chunks: [{ type: "text", text: "Done: main now doubles the total." }] },
  ];
  let step = 0;
  const r = await rig(() => task[step++]!);
  try {
    const sessionId = await r.prompt("Double the total main prints.");
    const tools = (await r.agent.getMessages(sessionId)).flatMap((m) => m.parts).filter((p) => p.type === "tool");
    if (tools.length !== 5 || tools.some((p) => p.type === "tool" && p.state.status !== "completed")) throw new Error("expected 5 completed tool calls");
    const sizes = r.turnRequests().map(bytesOf);
    if (sizes.length !== 5) throw new Error(`expected 5 requests, got ${sizes.length}`);
    const total = sizes.reduce((a, b) => a + b, 0);
    const note = `Anthropic Messages format, build agent, code tool offered; requests ${sizes.map(KIB).join(" + ")} KiB`;
    report({ name: "five-request task: first request", value: sizes[0]!, unit: "bytes", target: "<= 12288", note: `${KIB(sizes[0]!)} KiB, ${(sizes[0]! / OPENCODE_FIRST).toFixed(2)}x OpenCode's 28.8 KiB; ${note}` });
    report({ name: "five-request task: all five requests", value: total, unit: "bytes", target: "<= 67932 (0.45x OpenCode)", note: `${KIB(total)} KiB, ${(total / OPENCODE_TOTAL).toFixed(2)}x OpenCode's 147.4 KiB` });
  } finally {
    await r.dispose();
  }
});

/** USD per million tokens, Claude Sonnet 4.5. */
const PRICE = { input: 3, cacheRead: 0.3, cacheWrite: 3.75 };
const inputCost = (u: Pick<TokenUsage, "input" | "cacheRead" | "cacheWrite">) => (u.input * PRICE.input + u.cacheRead * PRICE.cacheRead + u.cacheWrite * PRICE.cacheWrite) / 1e6;

it("20-step session: billed input cost with and without prompt caching", async () => {
  const files = Array.from({ length: 12 }, (_, i) => `src/lib/module-${i}.ts`);
  const steps: FakeChunk[][] = [];
  for (let i = 0; i < 19; i++) {
    const kind = i % 4;
    if (kind === 0) steps.push([call("read", { filePath: files[i % files.length] })]);
    else if (kind === 1) steps.push([call("grep", { pattern: `f${i % 12}_1\\b`, include: "*.ts" })]);
    else if (kind === 2) steps.push([call("glob", { pattern: "src/**/*.ts" })]);
    else steps.push([call("bash", { command: `wc -l ${files[(i + 3) % files.length]}`, description: "Count lines" })]);
  }
  steps.push([{ type: "text", text: "Here is what the modules do." }]);
  const cache = new AnthropicPromptCache();
  const usages: FakeUsage[] = [];
  let step = 0;
  const r = await rig((request) => {
    const usage = cache.usage(request.body as Record<string, unknown>);
    usages.push(usage);
    return { chunks: steps[step++]!, usage };
  }, 12);
  try {
    const sessionId = await r.prompt("Explain what the modules in src/lib do.");
    if (usages.length !== 20) throw new Error(`expected 20 requests, got ${usages.length}`);
    const served = usages.reduce<TokenUsage>((a, u) => ({ input: a.input + u.input, output: a.output + u.output, reasoning: 0, cacheRead: a.cacheRead + (u.cacheRead ?? 0), cacheWrite: a.cacheWrite + (u.cacheWrite ?? 0) }), { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 });
    // The session's own totals must be what the server reported, and its cost their price.
    const session = await r.agent.getSession(sessionId);
    const recorded = session!.tokens;
    if (recorded.input !== served.input || recorded.cacheRead !== served.cacheRead || recorded.cacheWrite !== served.cacheWrite) {
      throw new Error(`session tokens ${JSON.stringify(recorded)} differ from the usage served ${JSON.stringify(served)}`);
    }
    const expectedCost = inputCost(served) + (served.output * 15) / 1e6;
    if (Math.abs(session!.cost - expectedCost) > 1e-9) throw new Error(`session cost ${session!.cost} is not ${expectedCost}`);
    const withCaching = inputCost(served);
    const allInput = served.input + served.cacheRead + served.cacheWrite;
    const withoutCaching = inputCost({ input: allInput, cacheRead: 0, cacheWrite: 0 });
    const note = `${allInput} input tokens over 20 requests: ${served.cacheRead} read from cache, ${served.cacheWrite} written, ${served.input} uncached; Sonnet 4.5 prices`;
    report({ name: "20-step session: input cost with caching", value: Math.round(withCaching * 10000) / 10000, unit: "USD", note });
    report({ name: "20-step session: input cost without caching", value: Math.round(withoutCaching * 10000) / 10000, unit: "USD", note: `every input token at the input price; caching bills ${(withCaching / withoutCaching).toFixed(2)}x` });
  } finally {
    await r.dispose();
  }
});
