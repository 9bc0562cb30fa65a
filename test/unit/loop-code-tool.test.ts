// The code tool is offered only where it can answer (docs/agent.md, "Tools"): a workspace with a
// TypeScript or JavaScript file of its own. Its schema is sent with every request, so a Python or
// Markdown workspace does not pay for it; the first .ts file brings it back on the next step. The
// lazy code service main.tsx hands to the agent answers this without loading the service.
import { afterEach, expect, it } from "vitest";
import { createAgent, type Agent } from "../../src/agent";
import { newId } from "../../src/base";
import { createProviderRegistry, type ProviderConfig } from "../../src/providers";
import { WorkspaceFiles, type Runtime } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { lazyCodeIntelligence } from "../../src/runtime/code-intel/lazy";
import { openStorage, type Storage } from "../../src/storage";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../support/fake-model-server";
import { isTitleRequest } from "./provider-streams-harness";

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

const offered = (request: RecordedRequest) => ((request.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);

async function rig(): Promise<{ agent: Agent; runtime: Runtime; server: FakeModelServer; storage: Storage; loads: () => number }> {
  const server = await startFakeModelServer((request) =>
    isTitleRequest(request)
      ? { chunks: [{ type: "text", text: "T" }] }
      : JSON.stringify(request.body).includes("tool_call_id")
        ? { chunks: [{ type: "text", text: "Done." }] }
        : { chunks: [{ type: "tool-call", name: "write", input: { filePath: "src/app.ts", content: "export const x = 1;\n" } }] },
  );
  const storage = await openStorage({ name: newId("code-tool") });
  const files = await WorkspaceFiles.open(storage, newId("ws"));
  await files.writeFile("README.md", "# Notes\n");
  await files.writeFile("main.py", "print('hi')\n");
  await files.writeFile("node_modules/left-pad/index.js", "module.exports = 1;\n");
  const runtime = createBrowserRuntime(files);
  let loads = 0;
  const codeIntelligence = lazyCodeIntelligence(async () => {
    loads++;
    return { diagnose: async () => [], query: async () => ({ locations: [] }), warm: () => undefined, dispose: () => undefined };
  }, runtime.fs);
  const config: ProviderConfig = {
    id: "local",
    kind: "openai-compatible",
    name: "Local",
    baseUrl: server.url,
    models: [{ id: "m", name: "m", providerId: "local", context: 128_000, output: 8_000, cost: { input: 0, output: 0 }, capabilities: { tools: true, images: false, reasoning: false, temperature: true } }],
  };
  const agent = createAgent({ storage, runtime, codeIntelligence, providers: createProviderRegistry([config]), defaultModel: () => ({ providerId: "local", modelId: "m" }) });
  cleanup.push(() => server.close(), () => storage.close(), () => runtime.dispose(), () => agent.dispose());
  return { agent, runtime, server, storage, loads: () => loads };
}

it("is left out while the workspace has no TS/JS file of its own, and offered from the step after one is written", async () => {
  const { agent, server } = await rig();
  const session = await agent.createSession();
  const result = await agent.prompt(session.id, { text: "Add a TypeScript module." });
  await agent.whenIdle();
  expect(result.error).toBeUndefined();
  const [first, second] = server.modelRequests().filter((r) => !isTitleRequest(r));
  expect(offered(first!)).toContain("read");
  expect(offered(first!)).not.toContain("code");
  expect(offered(second!)).toContain("code");
});

it("the lazy code service answers whether there are scripts without loading the service", async () => {
  const { runtime, loads } = await rig();
  const lazy = lazyCodeIntelligence(async () => {
    throw new Error("not loaded for this");
  }, runtime.fs);
  expect(await lazy.hasScripts!()).toBe(false);
  await runtime.fs.writeFile("web/app.mjs", "export {};\n");
  expect(await lazy.hasScripts!()).toBe(true);
  expect(loads()).toBe(0);
});
