// Gemini 3 over the real Google client: thought signatures on function calls, thoughts and text are
// kept on the stored parts and sent back with them, so a multi-step turn raises no AI SDK warning
// (the SDK's "skip validator" placeholder is never needed).
import { afterEach, describe, expect, it } from "vitest";
import type { FakeTurn } from "../support/fake-model-server";
import { runPrompt, startRig, type StreamRig } from "./provider-streams-harness";

let rig: StreamRig | undefined;
afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name: string; args: unknown };
}

/** The model turns of a recorded Gemini request body, parts only. */
function modelParts(body: unknown): GeminiPart[][] {
  const contents = (body as { contents: Array<{ role: string; parts: GeminiPart[] }> }).contents;
  return contents.filter((c) => c.role === "model").map((c) => c.parts);
}

const TURNS: FakeTurn[] = [
  {
    chunks: [
      { type: "reasoning", text: "I should read the notes first.", signature: "sig-thought-1" },
      { type: "tool-call", name: "read", input: { filePath: "notes.txt" }, signature: "sig-call-1" },
    ],
    usage: { input: 400, output: 60, reasoning: 40 },
  },
  {
    chunks: [{ type: "tool-call", name: "read", input: { filePath: "todo.txt" }, signature: "sig-call-2" }],
    usage: { input: 500, output: 20 },
  },
  { chunks: [{ type: "text", text: "Both files say hello.", signature: "sig-text-3" }], usage: { input: 600, output: 10 } },
];

describe("Gemini 3 thought signatures", () => {
  it("keeps each part's signature and sends it back on every later step, without AI SDK warnings", async () => {
    rig = await startRig("google", "gemini-3-pro-preview", TURNS);
    await rig.runtime.fs.writeFile("notes.txt", "hello\n");
    await rig.runtime.fs.writeFile("todo.txt", "hello too\n");
    const { sessionId, error } = await runPrompt(rig, "Read notes.txt and todo.txt.");
    expect(error).toBeUndefined();

    const parts = await rig.parts(sessionId);
    const calls = parts.filter((p) => p.type === "tool");
    expect(calls.map((p) => (p.type === "tool" ? [p.tool, p.state.status, p.providerMetadata?.google?.thoughtSignature] : []))).toEqual([
      ["read", "completed", "sig-call-1"],
      ["read", "completed", "sig-call-2"],
    ]);
    const reasoning = parts.find((p) => p.type === "reasoning");
    expect(reasoning?.type === "reasoning" && reasoning.providerMetadata?.google?.thoughtSignature).toBe("sig-thought-1");

    const requests = rig.turnRequests();
    expect(requests).toHaveLength(3);
    // Step 2 carries step 1's thought and call with their signatures.
    const second = modelParts(requests[1]!.body);
    expect(second).toHaveLength(1);
    expect(second[0]!.find((p) => p.thought)?.thoughtSignature).toBe("sig-thought-1");
    expect(second[0]!.find((p) => p.functionCall)?.thoughtSignature).toBe("sig-call-1");
    // Step 3 carries both calls, each with its own signature, and never the SDK's placeholder.
    const third = modelParts(requests[2]!.body);
    expect(third.flat().filter((p) => p.functionCall).map((p) => p.thoughtSignature)).toEqual(["sig-call-1", "sig-call-2"]);
    expect(JSON.stringify(requests.map((r) => r.body))).not.toContain("skip_thought_signature_validator");
    expect(rig.warnings).toEqual([]);
  });

  it("sends the signatures of the previous turn's answer with the next prompt", async () => {
    rig = await startRig("google", "gemini-3-pro-preview", [
      { chunks: [{ type: "text", text: "Hello.", signature: "sig-answer" }] },
      { chunks: [{ type: "text", text: "Again." }] },
    ]);
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "hi" });
    await rig.agent.prompt(session.id, { text: "once more" });
    await rig.agent.whenIdle();
    const second = modelParts(rig.turnRequests()[1]!.body);
    expect(second.flat()).toEqual([{ text: "Hello.", thoughtSignature: "sig-answer" }]);
    expect(rig.warnings).toEqual([]);
  });
});
