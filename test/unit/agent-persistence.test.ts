// Persistence (docs/agent.md, "Sessions and persistence"; docs/architecture.md, "How data flows"): parts are published for every delta but written in
// batches (at most ~10 transactions per second per session, always at step end), and a session
// left mid-stream by a crash loads consistent and resumable in a new agent over the same storage.
import { afterEach, describe, expect, it } from "vitest";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { PERSIST_INTERVAL_MS } from "../../src/agent/session/store";
import type { Storage } from "../../src/storage";
import { MODEL, ScriptedModel, createRig, text, tools, type Rig } from "./agent-harness";

const rigs: Rig[] = [];
afterEach(() => {
  for (const r of rigs.splice(0)) r.dispose();
});

function slowText(deltas: number): LanguageModelV4StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    ...Array.from({ length: deltas }, (_, i): LanguageModelV4StreamPart => ({ type: "text-delta", id: "t", delta: `w${i} ` })),
    { type: "text-end", id: "t" },
    {
      type: "finish",
      finishReason: { unified: "stop", raw: "stop" },
      usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } },
    },
  ];
}

/** A storage whose writes can be cut off, like a tab that was closed. */
function killable(storage: Storage): { storage: Storage; kill(): void; batches: number } {
  const state = { dead: false, batches: 0 };
  const wrapped: Storage = {
    ...storage,
    writeBatch: async (batch) => {
      if (state.dead) return new Promise<void>(() => {});
      state.batches++;
      return storage.writeBatch(batch);
    },
  };
  return {
    storage: wrapped,
    kill: () => {
      state.dead = true;
    },
    get batches() {
      return state.batches;
    },
  };
}

async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("batched persistence", () => {
  it("publishes every delta but writes at most one transaction per interval while streaming", async () => {
    const model = new ScriptedModel([{ kind: "chunks", chunks: slowText(150), delayMs: 4 }]);
    const first = await createRig({ models: { [MODEL.modelId]: model } });
    rigs.push(first);
    const counted = killable(first.storage);
    const rig = await createRig({ models: { [MODEL.modelId]: model }, storage: counted.storage, workspaceId: first.workspaceId });
    rigs.push(rig);
    const session = await rig.agent.createSession();
    let deltas = 0;
    rig.agent.bus.on("part-updated", ({ delta }) => {
      if (delta !== undefined) deltas++;
    });
    const before = counted.batches;
    const started = Date.now();
    await rig.agent.prompt(session.id, { text: "stream a lot" });
    const elapsed = Date.now() - started;
    const transactions = counted.batches - before;
    expect(deltas).toBe(150);
    expect(elapsed).toBeGreaterThan(500);
    // The interval bound plus the forced writes (prompt, step end, turn end).
    expect(transactions).toBeLessThanOrEqual(Math.ceil(elapsed / PERSIST_INTERVAL_MS) + 6);
    // Far fewer writes than deltas, however long a loaded machine makes the turn.
    expect(transactions).toBeLessThan(deltas / 2);
    const stored = (await rig.storage.parts.listBySession(session.id)).find((p) => p.type === "text" && p.text.startsWith("w0"));
    expect(stored?.type === "text" && stored.text.split(" ").filter(Boolean)).toHaveLength(150);
  });
});

describe("crash consistency", () => {
  it("closes a reply left mid-stream as interrupted and lets the user continue", async () => {
    const hang: LanguageModelV4StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "I was in the middle of" },
    ];
    const base = await createRig();
    rigs.push(base);
    const tab = killable(base.storage);
    const modelA = new ScriptedModel([{ kind: "chunks", chunks: hang, hang: true }]);
    const a = await createRig({ models: { [MODEL.modelId]: modelA }, storage: tab.storage, workspaceId: base.workspaceId });
    rigs.push(a);
    const session = await a.agent.createSession();
    void a.agent.prompt(session.id, { text: "start something" });
    await until(async () =>
      (await base.storage.parts.listBySession(session.id)).some((p) => p.type === "text" && p.text === "I was in the middle of"),
    );
    tab.kill(); // the tab is gone: nothing more reaches storage

    const modelB = new ScriptedModel([text("continuing")]);
    const b = await createRig({ models: { [MODEL.modelId]: modelB }, storage: base.storage, workspaceId: base.workspaceId });
    rigs.push(b);
    const messages = await b.agent.getMessages(session.id);
    const reply = messages.find((m) => m.info.role === "assistant")!;
    expect(reply.info.role === "assistant" && reply.info.completedAt).toBeTypeOf("number");
    expect(reply.info.role === "assistant" && reply.info.error?.name).toBe("InterruptedError");
    await b.agent.flush();
    const stored = await base.storage.messages.get(reply.info.id);
    expect(stored?.role === "assistant" && stored.completedAt).toBeTypeOf("number");

    await b.agent.prompt(session.id, { text: "go on" });
    expect(modelB.prompt(0)).toContain("I was in the middle of");
    expect(modelB.prompt(0)).toContain("go on");
    a.agent.abort(session.id);
  });

  it("marks a tool call that was running at the crash as error 'interrupted'", async () => {
    const base = await createRig();
    rigs.push(base);
    const tab = killable(base.storage);
    const modelA = new ScriptedModel([tools([{ name: "wait", input: {} }])]);
    const a = await createRig({ models: { [MODEL.modelId]: modelA }, storage: tab.storage, workspaceId: base.workspaceId });
    rigs.push(a);
    const session = await a.agent.createSession();
    void a.agent.prompt(session.id, { text: "wait" });
    await until(async () =>
      (await base.storage.parts.listBySession(session.id)).some((p) => p.type === "tool" && p.state.status === "running"),
    );
    tab.kill();

    const modelB = new ScriptedModel([text("recovered")]);
    const b = await createRig({ models: { [MODEL.modelId]: modelB }, storage: base.storage, workspaceId: base.workspaceId });
    rigs.push(b);
    const parts = (await b.agent.getMessages(session.id)).flatMap((m) => m.parts);
    const tool = parts.find((p) => p.type === "tool");
    expect(tool?.type === "tool" && tool.state).toMatchObject({ status: "error", error: "interrupted" });
    await b.agent.prompt(session.id, { text: "try again" });
    expect(modelB.calls).toHaveLength(1);
    expect(modelB.prompt(0)).toContain("interrupted");
    a.agent.abort(session.id);
  });
});
