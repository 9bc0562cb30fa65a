// Harness for recorded-style provider streams: the agent with the real tools and runtime, the real
// AI SDK provider client of one provider kind, talking to the fake model server on 127.0.0.1, and a
// collector of the AI SDK's warnings. Not a test file itself.
import { createAgent, TITLE_PROMPT, type Agent, type Rule } from "../../src/agent";
import { newId } from "../../src/base";
import { createProviderRegistry, type ModelInfo, type ProviderConfig, type ProviderKind, type ReasoningEffort } from "../../src/providers";
import { WorkspaceFiles, type Runtime } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage, type PartRecord } from "../../src/storage";
import { startFakeModelServer, type FakeModelServer, type FakeTurn, type RecordedRequest } from "../support/fake-model-server";

export const isTitleRequest = (request: RecordedRequest) => JSON.stringify(request.body).includes(TITLE_PROMPT.slice(0, 40));

export function modelInfo(id: string, providerId: string, overrides: Partial<ModelInfo> = {}): ModelInfo {
  return {
    id,
    name: id,
    providerId,
    context: 128_000,
    output: 8_000,
    cost: { input: 2, output: 12 },
    capabilities: { tools: true, images: false, reasoning: true, temperature: false },
    ...overrides,
  };
}

export interface StreamRig {
  agent: Agent;
  runtime: Runtime;
  server: FakeModelServer;
  /** Model requests of the turn (title requests left out). */
  turnRequests(): RecordedRequest[];
  /** Every part of the session, in order. */
  parts(sessionId: string): Promise<PartRecord[]>;
  /** AI SDK warnings logged while the rig ran. */
  warnings: unknown[];
  dispose(): Promise<void>;
}

export async function startRig(
  kind: ProviderKind,
  modelId: string,
  turns: FakeTurn[],
  options: { api?: "chat" | "responses"; model?: Partial<ModelInfo>; smallModel?: string; webSearch?: boolean; userRules?: Rule[] } = {},
): Promise<StreamRig> {
  let step = 0;
  const server = await startFakeModelServer((request) =>
    isTitleRequest(request) ? { chunks: [{ type: "text", text: "A title" }] } : (turns[step++] ?? { error: { status: 500, message: "no turn left" } }),
  );
  const id = "p";
  const config: ProviderConfig = {
    id,
    kind,
    name: `Test ${kind}`,
    baseUrl: server.url,
    apiKey: "test-key",
    ...(options.api && { api: options.api }),
    ...(options.smallModel && { smallModel: options.smallModel }),
    ...(options.webSearch && { webSearch: true }),
    models: [modelInfo(modelId, id, options.model)],
  };
  const warnings: unknown[] = [];
  const globals = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  const previous = globals.AI_SDK_LOG_WARNINGS;
  globals.AI_SDK_LOG_WARNINGS = (event: { warnings: unknown[] }) => warnings.push(...event.warnings);
  const storage = await openStorage({ name: newId("streams") });
  const files = await WorkspaceFiles.open(storage, newId("ws"));
  const runtime = createBrowserRuntime(files);
  const agent = createAgent({
    storage,
    runtime,
    providers: createProviderRegistry([config]),
    defaultModel: () => ({ providerId: id, modelId }),
    ...(options.userRules && { userRules: () => options.userRules! }),
  });
  return {
    agent,
    runtime,
    server,
    warnings,
    turnRequests: () => server.modelRequests().filter((r) => !isTitleRequest(r)),
    parts: async (sessionId) => (await agent.getMessages(sessionId)).flatMap((m) => m.parts),
    dispose: async () => {
      globals.AI_SDK_LOG_WARNINGS = previous;
      agent.dispose();
      runtime.dispose();
      storage.close();
      await server.close();
    },
  };
}

/** Runs one prompt to the end and returns its error (undefined when it answered). */
export async function runPrompt(rig: StreamRig, text: string, reasoning?: ReasoningEffort): Promise<{ sessionId: string; error: unknown }> {
  const session = await rig.agent.createSession();
  const result = await rig.agent.prompt(session.id, { text, ...(reasoning && { reasoning }) });
  await rig.agent.whenIdle();
  return { sessionId: session.id, error: result.error };
}
