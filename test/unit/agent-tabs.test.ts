// Two tabs on one workspace, each with its own agent over the same IndexedDB: a tab that has written
// to a session must still take in what another tab wrote to it later (docs/architecture.md, "Several tabs").
import { afterEach, describe, expect, it } from "vitest";
import { MODEL, ScriptedModel, createRig, text, tools, type Rig } from "./agent-harness";

const rigs: Rig[] = [];
afterEach(() => {
  for (const rig of rigs.splice(0)) rig.dispose();
});

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Waited 10 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("a session written in two tabs", () => {
  it("is reloaded in the tab that wrote it earlier, once its own writes have landed", async () => {
    const a = await createRig({ models: { [MODEL.modelId]: new ScriptedModel([]) } });
    rigs.push(a);
    const b = await createRig({ models: { [MODEL.modelId]: new ScriptedModel([text("Answered in tab B.")]) }, storage: a.storage, workspaceId: a.workspaceId });
    rigs.push(b);

    // Tab A creates and renames the session: it has written to it.
    const session = await a.agent.createSession({ title: "Started in A" });
    await a.agent.renameSession(session.id, "Renamed in A");
    await until(async () => (await a.storage.sessions.get(session.id))?.title === "Renamed in A", "tab A's rename to be stored");

    // Tab B runs a turn in it and renames it.
    await b.agent.prompt(session.id, { text: "question from B" });
    await b.agent.renameSession(session.id, "Renamed in B");
    await until(async () => (await a.storage.sessions.get(session.id))?.title === "Renamed in B", "tab B's rename to be stored");

    // Tab A is told the session changed elsewhere: it drops its copy and reads B's.
    expect(a.agent.forgetChangedElsewhere([session.id])).toEqual([session.id]);
    expect((await a.agent.getSession(session.id))?.title).toBe("Renamed in B");
    const texts = (await a.agent.getMessages(session.id)).flatMap((m) => m.parts).flatMap((p) => (p.type === "text" ? [p.text] : []));
    expect(texts).toEqual(["question from B", "Answered in tab B."]);

    // A later change in tab A starts from B's version, so B's turn is not written over.
    await a.agent.renameSession(session.id, "Renamed in A again");
    await until(async () => (await a.storage.sessions.get(session.id))?.title === "Renamed in A again", "tab A's second rename to be stored");
    const stored = await a.storage.messages.list(session.id);
    expect(stored).toHaveLength(2);
  });

  it("keeps its own copy while its writes are still on the way", async () => {
    const a = await createRig({ models: { [MODEL.modelId]: new ScriptedModel([]) } });
    rigs.push(a);
    const session = await a.agent.createSession({ title: "Started in A" });
    // Hold the next write in flight.
    const writeBatch = a.storage.writeBatch.bind(a.storage);
    let release!: () => void;
    let holding = false;
    a.storage.writeBatch = async (batch) => {
      holding = true;
      await new Promise<void>((resolve) => (release = resolve));
      return writeBatch(batch);
    };
    const renamed = a.agent.renameSession(session.id, "Not stored yet");
    await until(async () => holding, "the rename's write to start");
    // This tab's copy is newer than what is stored: it stays.
    expect(a.agent.forgetChangedElsewhere([session.id])).toEqual([]);
    release();
    await renamed;
    expect((await a.storage.sessions.get(session.id))?.title).toBe("Not stored yet");
    expect(a.agent.forgetChangedElsewhere([session.id])).toEqual([session.id]);
    expect((await a.agent.getSession(session.id))?.title).toBe("Not stored yet");
  });
});

describe("a deleted session", () => {
  it("is not written back by a change that arrives while it is being deleted (a late title, a subagent's totals)", async () => {
    const a = await createRig({ models: { [MODEL.modelId]: new ScriptedModel([]) } });
    rigs.push(a);
    const session = await a.agent.createSession({ title: "To delete" });
    // Hold the delete while its transaction runs, and let a background title land meanwhile.
    const remove = a.storage.sessions.delete.bind(a.storage.sessions);
    let release!: () => void;
    let holding = false;
    a.storage.sessions.delete = async (id) => {
      const done = remove(id);
      holding = true;
      await new Promise<void>((resolve) => (release = resolve));
      return done;
    };
    const deleting = a.agent.deleteSession(session.id);
    await until(async () => holding, "the delete to start");
    const renamed = a.agent.renameSession(session.id, "Late title").catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await deleting;
    await renamed;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await a.storage.sessions.get(session.id)).toBeUndefined();
    expect(await a.agent.getSession(session.id)).toBeUndefined();
  });

  it("deleted by Settings → Storage while a turn runs in it: the turn stops, and what it wrote after the delete goes too", async () => {
    const a = await createRig({ models: { [MODEL.modelId]: new ScriptedModel([tools([{ name: "wait", input: {} }]), text("never said")]) } });
    rigs.push(a);
    const session = await a.agent.createSession({ title: "Busy" });
    const kept = await a.agent.createSession({ title: "Kept" });
    const turn = a.agent.prompt(session.id, { text: "wait" });
    await until(async () => (await a.storage.parts.listBySession(session.id)).some((p) => p.type === "tool" && p.state.status === "running"), "the tool call to be stored");
    const deleted: string[] = [];
    a.agent.bus.on("session-deleted", ({ sessionId }) => deleted.push(sessionId));

    const record = (await a.storage.sessions.get(session.id))!;
    await a.storage.maintenance.deleteSessions(a.workspaceId);
    // A write of the running turn lands before this tab hears of the delete (a step's totals).
    await a.storage.sessions.put({ ...record, title: "Written back" });

    expect(await a.agent.dropDeletedSessions([session.id, kept.id, "ses_unknown"])).toEqual([session.id, kept.id]);
    await turn.catch(() => undefined);
    await a.agent.whenIdle();
    await a.agent.flush();
    expect(deleted.sort()).toEqual([session.id, kept.id].sort());
    expect(await a.storage.sessions.get(session.id)).toBeUndefined();
    expect(await a.storage.messages.list(session.id)).toEqual([]);
    expect(await a.storage.parts.listBySession(session.id)).toEqual([]);
    expect(await a.agent.getSession(session.id)).toBeUndefined();
    // A new session works as before.
    const next = await a.agent.createSession({ title: "Next" });
    expect((await a.agent.getSession(next.id))?.title).toBe("Next");
  });
});
