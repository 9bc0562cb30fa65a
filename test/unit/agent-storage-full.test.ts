// Storage full during a turn (issue 31; docs/agent.md, "Sessions and persistence"): a tool's
// outcome is stored before the model or the card gets it (a smaller record when the full one is
// refused); a write storage refuses is the call's error and ends the turn with that reason; one
// large record never keeps the small ones of its batch out; bash says when a change it made was undone.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolDefinition } from "../../src/agent/tools/tool";
import { EventBus } from "../../src/base";
import { SessionStore } from "../../src/agent/session/store";
import type { AgentEvents } from "../../src/agent/session/events";
import { bashTool } from "../../src/agent/tools/bash";
import { runTool } from "../../src/agent/tools/wrapper";
import { newAssistantMessage, newPart, newSession, openStorage, type PartRecord, type Storage } from "../../src/storage";
import { newId } from "../../src/base";
import { MODEL, ScriptedModel, createRig, text, tools, type Rig } from "./agent-harness";
import { createToolHarness, type ToolHarness } from "../support/tool-context";

const rigs: Rig[] = [];
let harness: ToolHarness | undefined;
afterEach(async () => {
  for (const r of rigs.splice(0)) r.dispose();
  await harness?.dispose();
  harness = undefined;
});

function quotaError(): Error {
  return new DOMException("The quota has been exceeded.", "QuotaExceededError");
}

/** A write whose result carries the content again (as the write tool's diff does). */
const writeWithDiff: ToolDefinition = {
  id: "write",
  description: "Writes a file.",
  parameters: z.object({ path: z.string(), content: z.string() }),
  async execute(args: { path: string; content: string }, context) {
    await context.runtime.fs.writeFile(args.path, args.content, { source: "agent" });
    return { title: args.path, output: `wrote ${args.path}`, metadata: { filePath: args.path, diff: `+${args.content}`, additions: 1 } };
  },
};

/** Session records larger than `maxChars` (as JSON) are refused, like a nearly full quota. */
function nearlyFull(storage: Storage, maxChars: number): Storage {
  return {
    ...storage,
    writeBatch: async (batch) => {
      const records = [...(batch.sessions ?? []), ...(batch.messages ?? []), ...(batch.parts ?? [])];
      if (records.some((r) => JSON.stringify(r).length > maxChars)) throw quotaError();
      return storage.writeBatch(batch);
    },
  };
}

async function storedTool(storage: Storage, sessionId: string) {
  return (await storage.parts.listBySession(sessionId)).find((p) => p.type === "tool");
}

describe("storage full during a turn", () => {
  it("stores a tool's result before the model gets it, smaller when the full record is refused; card, storage and model agree", async () => {
    const base = await createRig();
    rigs.push(base);
    const content = "x".repeat(20_000);
    const model = new ScriptedModel([tools([{ name: "write", input: { path: "big.txt", content } }]), text("done")]);
    const rig = await createRig({
      models: { [MODEL.modelId]: model },
      storage: nearlyFull(base.storage, 30_000),
      workspaceId: base.workspaceId,
      services: { tools: () => [writeWithDiff] },
    });
    rigs.push(rig);
    // The running record (the content once) fits; the completed one (content and diff) does not.
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "write it" });
    await rig.agent.flush();

    const shown = (await rig.agent.getMessages(session.id)).flatMap((m) => m.parts).find((p) => p.type === "tool");
    const stored = await storedTool(base.storage, session.id);
    expect(shown?.type === "tool" && shown.state.status).toBe("completed");
    expect(stored).toEqual(shown);
    // Kept: what happened (path, counts); left out: the content repeated in the input and the diff.
    expect(shown?.type === "tool" && shown.state.status === "completed" && shown.state.metadata).toEqual({ filePath: "big.txt", additions: 1, durationMs: expect.any(Number), truncated: false });
    expect((await base.storage.files.list(base.workspaceId)).find((f) => f.path === "big.txt")?.data).toBe(content);
    // The turn stopped saying why (the full record was refused); the next one gives the model the result.
    const reply = (await rig.agent.getMessages(session.id)).find((m) => m.info.role === "assistant")!.info;
    expect(reply.role === "assistant" && reply.error?.message).toMatch(/storage is full/);
    expect(model.calls).toHaveLength(1);
    await rig.agent.prompt(session.id, { text: "go on" });
    expect(model.prompt(1)).toContain("wrote big.txt");
  });

  it("a write storage refuses is the call's error, and the turn stops saying storage is full", async () => {
    const model = new ScriptedModel([tools([{ name: "put", input: { path: "a.txt", content: "a" } }]), text("went on regardless")]);
    const rig = await createRig({ models: { [MODEL.modelId]: model } });
    rigs.push(rig);
    rig.storage.files.apply = rig.storage.files.applyChecked = async () => {
      throw quotaError();
    };
    const session = await rig.agent.createSession();
    await rig.agent.prompt(session.id, { text: "write it" });
    await rig.agent.flush();

    const messages = await rig.agent.getMessages(session.id);
    const tool = messages.flatMap((m) => m.parts).find((p) => p.type === "tool");
    expect(tool?.type === "tool" && tool.state.status === "error" && tool.state.error).toMatch(/No space left on device/);
    expect(await storedTool(rig.storage, session.id)).toEqual(tool);
    const reply = messages.find((m) => m.info.role === "assistant")!.info;
    expect(reply.role === "assistant" && reply.error?.message).toMatch(/could not be saved: No space left on device/);
    expect(reply.role === "assistant" && reply.error?.action).toContain("Settings → Storage");
    // Not sent back to the model to fail again: the turn ended with the reason.
    expect(model.calls).toHaveLength(1);
    expect(rig.files.statSync("a.txt")).toBeUndefined();
  });

  it("one record too large for storage does not keep the small ones of its batch out", async () => {
    const real = await openStorage({ name: newId("testdb") });
    const storage = nearlyFull(real, 5_000);
    const store = new SessionStore(storage, new EventBus<AgentEvents>());
    const session = newSession({ workspaceId: "ws", title: "t", agent: "build", model: MODEL }, 1);
    await store.createSession(session);
    const message = newAssistantMessage({ sessionId: session.id, parentId: "msg_user", agent: "build", model: MODEL }, 2);
    store.updateMessage(message);
    const small: PartRecord = newPart({ sessionId: session.id, messageId: message.id }, { type: "text", text: "small" }, 3);
    const large: PartRecord = newPart({ sessionId: session.id, messageId: message.id }, { type: "text", text: "y".repeat(10_000) }, 4);
    store.updatePart(small);
    store.updatePart(large);
    await store.flush(session.id);

    expect(await real.messages.get(message.id)).toEqual(message);
    expect((await real.parts.listBySession(session.id)).map((p) => p.id)).toEqual([small.id]);
    expect(store.persistFailure(session.id)?.message).toMatch(/storage is full/);
  });

  it("bash: a change the command made that storage refused makes the call fail, with what it printed", async () => {
    // A runtime whose commands change files without waiting for storage (WebContainer's file
    // sync): the command itself exits 0.
    harness = await createToolHarness({
      exec: async () => {
        harness!.files.writeSync("a.txt", "hi\n", { source: "agent" });
        return { output: "wrote a.txt\n", exitCode: 0 };
      },
    });
    harness.storage.files.apply = harness.storage.files.applyChecked = async () => {
      throw quotaError();
    };
    const run = runTool(bashTool, { command: "make-a", description: "Write" }, harness.context);
    await expect(run).rejects.toMatchObject({ code: "ENOSPC" });
    await expect(run).rejects.toThrow(/could not be saved[\s\S]*wrote a\.txt[\s\S]*Exit code: 0/);
    expect(harness.files.statSync("a.txt")).toBeUndefined();
  });
});
