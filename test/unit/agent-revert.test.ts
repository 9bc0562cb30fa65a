// Snapshots, revert, unrevert and fork (docs/agent.md, "Snapshots, revert, unrevert, fork") with real files in the browser runtime's
// workspace file service.
import { afterEach, describe, expect, it } from "vitest";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { BlobRecord } from "../../src/storage";
import { sha256Hex } from "../../src/base";
import { MODEL, ScriptedModel, createRig, partsOf, text, tools, type Rig } from "./agent-harness";

let rig: Rig | undefined;
afterEach(() => rig?.dispose());

const put = (path: string, content: string) => ({ name: "put", input: { path, content } });

async function setup() {
  const model = new ScriptedModel([
    tools([put("a.txt", "v2"), put("b.txt", "new")]),
    text("turn one done"),
    tools([put("a.txt", "v3")]),
    text("turn two done"),
  ]);
  rig = await createRig({ models: { [MODEL.modelId]: model } });
  const written: BlobRecord[] = [];
  const putMany = rig.storage.blobs.putMany.bind(rig.storage.blobs);
  rig.storage.blobs.putMany = async (blobs) => {
    written.push(...blobs);
    return putMany(blobs);
  };
  const putSnapshot = rig.storage.snapshots.put.bind(rig.storage.snapshots);
  rig.storage.snapshots.put = async (record, blobs = []) => {
    written.push(...blobs);
    return putSnapshot(record, blobs);
  };
  await rig.files.writeFile("a.txt", "v1", { source: "user" });
  await rig.files.writeFile("c.txt", "unchanged ".repeat(1000), { source: "user" });
  const session = await rig.agent.createSession({ title: "Work" });
  const first = await rig.agent.prompt(session.id, { text: "turn one" });
  const second = await rig.agent.prompt(session.id, { text: "turn two" });
  return { model, session, first, second, written, rig };
}

describe("snapshots and revert", () => {
  it("records patch parts listing the files each step changed, storing each content once", async () => {
    const { session, written } = await setup();
    const patches = await partsOf(rig!.agent, session.id, "patch");
    expect(patches.map((p) => (p.type === "patch" ? p.files : []))).toEqual([["a.txt", "b.txt"], ["a.txt"]]);
    const hashes = written.map((b) => b.hash);
    expect(new Set(hashes).size).toBe(hashes.length);
    const unchanged = await sha256Hex("unchanged ".repeat(1000));
    expect(hashes.filter((h) => h === unchanged)).toHaveLength(1);
  });

  it("reverts files to their state before a message, hides later messages, and unreverts", async () => {
    const { session, first, second } = await setup();
    const r = rig!;
    await r.agent.revert(session.id, second.userMessageId);
    expect(await r.files.readText("a.txt")).toBe("v2");
    expect(await r.files.readText("b.txt")).toBe("new");
    expect((await r.agent.getMessages(session.id)).map((m) => m.info.id)).not.toContain(second.userMessageId);

    await r.agent.revert(session.id, first.userMessageId);
    expect(await r.files.readText("a.txt")).toBe("v1");
    expect(await r.files.exists("b.txt")).toBe(false);
    expect(await r.agent.getMessages(session.id)).toEqual([]);

    await r.agent.unrevert(session.id);
    expect(await r.files.readText("a.txt")).toBe("v3");
    expect(await r.files.readText("b.txt")).toBe("new");
    expect(await r.agent.getMessages(session.id)).toHaveLength(6);
    expect((await r.agent.getSession(session.id))?.revert).toBeUndefined();
  });

  it("is the only change to the session while it runs: a message, a second revert or a fork sent meanwhile is refused", async () => {
    const { session, first, second } = await setup();
    const r = rig!;
    const reverting = r.agent.revert(session.id, second.userMessageId);
    // Not "Stop it first": a revert cannot be stopped, it ends by itself.
    await expect(r.agent.prompt(session.id, { text: "too soon" })).rejects.toThrow("Cannot send a message while a revert is being applied to this session. Try again in a moment.");
    await expect(r.agent.revert(session.id, first.userMessageId)).rejects.toThrow(/Cannot revert while a revert is being applied/);
    await expect(r.agent.fork(session.id)).rejects.toThrow(/Cannot fork while a revert is being applied/);
    await reverting;
    expect(await r.files.readText("a.txt")).toBe("v2");
    expect((await r.agent.getMessages(session.id)).map((m) => m.info.id)).not.toContain(second.userMessageId);
    // Once it is done, the session takes changes again.
    await r.agent.unrevert(session.id);
    expect(await r.files.readText("a.txt")).toBe("v3");
  });

  it("after Settings → Storage deleted the workspace's snapshots and pruned the blobs, the next snapshot stores every content again and revert works", async () => {
    const { session, model } = await setup();
    const r = rig!;
    await r.storage.maintenance.deleteSnapshots(r.workspaceId);
    await r.storage.maintenance.pruneBlobs();
    expect(await r.storage.snapshots.list(r.workspaceId)).toEqual([]);
    (model as unknown as { turns: unknown[] }).turns.push(tools([put("a.txt", "v4")]), text("turn three done"));
    const third = await r.agent.prompt(session.id, { text: "turn three" });
    expect(await r.files.readText("a.txt")).toBe("v4");
    await r.agent.revert(session.id, third.userMessageId);
    expect(await r.files.readText("a.txt")).toBe("v3");
    expect(await r.files.readText("c.txt")).toBe("unchanged ".repeat(1000));
    await r.agent.unrevert(session.id);
    expect(await r.files.readText("a.txt")).toBe("v4");
  });

  it("makes the revert final on the next prompt: the hidden messages are gone for good", async () => {
    const { session, second, model } = await setup();
    const r = rig!;
    await r.agent.revert(session.id, second.userMessageId);
    (model as unknown as { turns: unknown[] }).turns.push(text("fresh"));
    await r.agent.prompt(session.id, { text: "instead do this" });
    expect(model.prompt(4)).not.toContain("turn two");
    expect(model.prompt(4)).toContain("turn one done");
    expect(await r.storage.messages.get(second.userMessageId)).toBeUndefined();
    expect((await r.agent.getSession(session.id))?.revert).toBeUndefined();
    expect(await r.files.readText("a.txt")).toBe("v2");
  });

  it("refuses to revert while the agent is working", async () => {
    const hang: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }];
    const model = new ScriptedModel([text("first"), { kind: "chunks", chunks: hang, hang: true }]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession();
    const first = await rig.agent.prompt(session.id, { text: "one" });
    const running = rig.agent.prompt(session.id, { text: "two" });
    // Refused from the moment the prompt is accepted, before the loop has even started.
    await expect(rig.agent.fork(session.id)).rejects.toThrow(/Stop it first/);
    await new Promise<void>((resolve) => {
      const l = rig!.agent.bus.on("session-status", ({ status }) => {
        if (status.type === "busy") {
          l.dispose();
          resolve();
        }
      });
    });
    await expect(rig.agent.revert(session.id, first.userMessageId)).rejects.toThrow(/Stop it first/);
    await expect(rig.agent.prompt(session.id, { text: "three" })).rejects.toThrow(/working in this session/);
    rig.agent.abort(session.id);
    await running;
  });
});

describe("fork", () => {
  it("copies the messages before a point into '<title> (fork #N)' and can continue there", async () => {
    const { session, second, model } = await setup();
    const r = rig!;
    const fork = await r.agent.fork(session.id, second.userMessageId);
    expect(fork.title).toBe("Work (fork #1)");
    const copied = await r.agent.getMessages(fork.id);
    expect(copied.map((m) => m.info.role)).toEqual(["user", "assistant", "assistant"]);
    expect(copied.every((m) => m.info.sessionId === fork.id)).toBe(true);
    const originalIds = new Set((await r.agent.getMessages(session.id)).map((m) => m.info.id));
    expect(copied.some((m) => originalIds.has(m.info.id))).toBe(false);
    const user = copied[0]!;
    expect(copied.slice(1).every((m) => m.info.role === "assistant" && m.info.parentId === user.info.id)).toBe(true);
    expect(copied[0]!.parts.find((p) => p.type === "text")).toMatchObject({ text: "turn one" });
    // Totals follow the copied messages, not the whole original.
    const cost = copied.reduce((sum, m) => sum + (m.info.role === "assistant" ? m.info.cost : 0), 0);
    expect(fork.cost).toBeCloseTo(cost, 12);

    const again = await r.agent.fork(fork.id);
    expect(again.title).toBe("Work (fork #2)");
    expect(await r.agent.getMessages(again.id)).toHaveLength(3);

    (model as unknown as { turns: unknown[] }).turns.push(text("continued in fork"));
    await r.agent.prompt(fork.id, { text: "carry on" });
    expect(model.prompt(4)).toContain("turn one done");
    expect(model.prompt(4)).not.toContain("turn two");
  });
});

describe("fork after a compaction (issue 3, item 5)", () => {
  it("keeps the turns the compaction kept verbatim: the copy's tailStartId points at the copied turn", async () => {
    const model = new ScriptedModel([text("a1"), text("a2"), text("a3"), text("MANUAL SUMMARY"), text("a4 in fork")]);
    rig = await createRig({ models: { [MODEL.modelId]: model } });
    const session = await rig.agent.createSession({ title: "Long" });
    for (const q of ["q1", "q2", "q3"]) await rig.agent.prompt(session.id, { text: q });
    await rig.agent.compact(session.id);
    const fork = await rig.agent.fork(session.id);
    const copied = await rig.agent.getMessages(fork.id);
    const compaction = copied.flatMap((m) => m.parts).find((p) => p.type === "compaction");
    expect(compaction?.type === "compaction" && compaction.tailStartId).toBeTruthy();
    const tailStart = copied.find((m) => compaction?.type === "compaction" && m.info.id === compaction.tailStartId);
    expect(tailStart?.parts.find((p) => p.type === "text")).toMatchObject({ text: "q2" });

    await rig.agent.prompt(fork.id, { text: "q4" });
    const next = model.prompt(4);
    expect(next).toContain("MANUAL SUMMARY");
    expect(next).toContain('"q2"');
    expect(next).toContain("a3");
    expect(next).not.toContain('"q1"');
  });
});
