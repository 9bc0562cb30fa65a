// Spec §7 "keep prompts lean": the first request of a session (system prompt plus the build
// agent's whole tool set, schemas as the agent sends them) stays within 12 KB on the wire, measured on the fake model server.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jsonSchema, streamText, tool, zodSchema, type JSONSchema7, type ToolSet } from "ai";
import { openStorage, type Storage } from "../../src/storage";
import { WorkspaceFiles, type Runtime } from "../../src/runtime";
import { builtinAgent } from "../../src/agent/agents";
import { buildSystemPrompt, prefersApplyPatch } from "../../src/agent/prompt";
import { BUILTIN_TOOLS, toolsForEditStyle } from "../../src/agent/tools";
import { leanJsonSchema } from "../../src/agent/session/tool-calls";
import { configFromPreset, createProviderRegistry } from "../../src/providers";
import { startFakeModelServer, type FakeModelServer } from "../support/fake-model-server";

/** The budget for the first request's body (docs/agent.md, "System prompt and environment block"). */
const FIRST_REQUEST_BUDGET_BYTES = 12 * 1024;

let storage: Storage;
let fs: WorkspaceFiles;
let server: FakeModelServer;

beforeEach(async () => {
  storage = await openStorage({ name: `budget-${Math.random()}` });
  fs = await WorkspaceFiles.open(storage, "ws");
  server = await startFakeModelServer(() => ({ chunks: [{ type: "text", text: "ok" }] }));
});
afterEach(async () => {
  await server.close();
  fs.dispose();
  storage.close();
});

function runtime(): Runtime {
  const unused = () => {
    throw new Error("not used");
  };
  return { kind: "webcontainer", capabilities: { node: true, npm: true, servers: true }, fs, exec: unused, openShell: unused, onServerReady: unused, dispose: () => {} };
}

describe("first request size", () => {
  it.each([
    ["anthropic", "claude-sonnet-4-5"],
    ["openai", "gpt-5"],
    ["openai", "gpt-4.1"],
    ["openrouter", "google/gemini-2.5-pro"],
  ])("%s %s stays within 12 KB", async (presetId, modelId) => {
    const registry = createProviderRegistry([configFromPreset(presetId, { apiKey: "k", baseUrl: server.url })]);
    const model = { providerId: presetId, modelId };
    const system = await buildSystemPrompt({ agent: builtinAgent("build")!, model, modelName: modelId, runtime: runtime(), date: new Date() });
    const tools: ToolSet = {};
    for (const definition of toolsForEditStyle(BUILTIN_TOOLS, prefersApplyPatch(modelId))) {
      tools[definition.id] = tool({ description: definition.description, inputSchema: jsonSchema(leanJsonSchema(zodSchema(definition.parameters).jsonSchema) as JSONSchema7) });
    }
    const result = streamText({ model: registry.languageModel(model), system, prompt: "Add a dark mode toggle to the settings page.", tools, maxRetries: 0 });
    await result.consumeStream();
    const body = JSON.stringify(server.modelRequests().at(-1)!.body);
    const bytes = new TextEncoder().encode(body).length;
    expect(bytes).toBeLessThanOrEqual(FIRST_REQUEST_BUDGET_BYTES);
  });
});
