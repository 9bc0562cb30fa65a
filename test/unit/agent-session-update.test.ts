// One way to change a session (store.updateSession(id, change)): changes that land while another
// is waiting on storage all survive, here a generated title and a todo list during a revert.
import { describe, expect, it } from "vitest";
import { EventBus, newId } from "../../src/base";
import type { AgentEvents } from "../../src/agent/session/events";
import type { SessionEnv } from "../../src/agent/session/env";
import { revertSession } from "../../src/agent/session/revert";
import { SessionStore } from "../../src/agent/session/store";
import { openStorage, type MessageRecord, type SessionRecord } from "../../src/storage";

function session(workspaceId: string): SessionRecord {
  const now = Date.now();
  return {
    v: 1,
    id: newId("ses"),
    workspaceId,
    title: "New session",
    createdAt: now,
    updatedAt: now,
    agent: "build",
    permission: [],
    tokens: { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 },
    cost: 0,
    todos: [],
  };
}

describe("updating a session", () => {
  it("keeps a title and a todo update that land during a revert", async () => {
    const storage = await openStorage({ name: newId("testdb") });
    const store = new SessionStore(storage, new EventBus<AgentEvents>());
    const record = session("ws1");
    await store.createSession(record);
    const message: MessageRecord = { v: 1, id: newId("msg"), sessionId: record.id, role: "user", createdAt: Date.now(), agent: "build" } as MessageRecord;
    store.updateMessage(message);

    // The revert's snapshot waits on storage until released: meanwhile, the title and todos land.
    let releaseSnapshot!: (id: string) => void;
    const snapshotTaken = new Promise<string>((resolve) => (releaseSnapshot = resolve));
    const env = {
      store,
      now: () => Date.now(),
      snapshots: { take: () => snapshotTaken, restore: async () => undefined },
    } as unknown as SessionEnv;
    const reverting = revertSession(env, record.id, message.id);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await store.updateSession(record.id, (current) => ({ ...current, title: "Fix the login form" }));
    await store.updateSession(record.id, (current) => ({ ...current, todos: [{ id: "1", content: "write the test", status: "pending", priority: "high" }] }));
    releaseSnapshot("snap_1");
    const reverted = await reverting;

    for (const current of [reverted, await store.getSession(record.id)]) {
      expect(current?.title).toBe("Fix the login form");
      expect(current?.todos.map((t) => t.content)).toEqual(["write the test"]);
      expect(current?.revert).toEqual({ messageId: message.id, snapshot: "snap_1" });
    }
    // And as stored: a new store over the same database reads all three.
    await store.flush(record.id);
    const reloaded = await new SessionStore(storage, new EventBus<AgentEvents>()).getSession(record.id);
    expect(reloaded).toMatchObject({ title: "Fix the login form", revert: { messageId: message.id, snapshot: "snap_1" } });
    expect(reloaded?.todos).toHaveLength(1);
  });

  it("adds turn totals to a session changed meanwhile, and resolves undefined for a deleted one", async () => {
    const storage = await openStorage({ name: newId("testdb") });
    const store = new SessionStore(storage, new EventBus<AgentEvents>());
    const record = session("ws1");
    await store.createSession(record);
    await Promise.all([
      store.updateSession(record.id, (s) => ({ ...s, cost: s.cost + 1 })),
      store.updateSession(record.id, (s) => ({ ...s, title: "Renamed" })),
      store.updateSession(record.id, (s) => ({ ...s, cost: s.cost + 2 })),
    ]);
    expect(await store.getSession(record.id)).toMatchObject({ title: "Renamed", cost: 3 });
    await store.deleteSession(record.id);
    expect(await store.updateSession(record.id, (s) => ({ ...s, title: "gone" }))).toBeUndefined();
  });

  it("a session deleted elsewhere: its subagent sessions held here stop writing too, one started just then is never stored, and a write in flight is swept", async () => {
    const storage = await openStorage({ name: newId("testdb") });
    const store = new SessionStore(storage, new EventBus<AgentEvents>());
    const parent = session("ws1");
    await store.createSession(parent);
    const child = { ...session("ws1"), parentId: parent.id };
    await store.createSession(child);
    // A write of the child is in flight when the delete happens elsewhere.
    const writeBatch = storage.writeBatch.bind(storage);
    let release!: () => void;
    storage.writeBatch = async (batch) => {
      await new Promise<void>((resolve) => (release = resolve));
      return writeBatch(batch);
    };
    const message: MessageRecord = { v: 1, id: newId("msg"), sessionId: child.id, role: "user", createdAt: Date.now(), agent: "build" } as MessageRecord;
    store.updateMessage(message);
    const flushing = store.flush(child.id);
    await storage.sessions.delete(parent.id); // elsewhere: the parent and its stored child
    const sweeping = store.stopWritingDeleted(parent.id, true);
    store.updateMessage({ ...message, id: newId("msg") }); // a late change of the child: dropped
    const late = { ...session("ws1"), parentId: parent.id };
    await store.createSession(late); // a subagent started just then: never stored
    release();
    await flushing;
    await sweeping;
    storage.writeBatch = writeBatch;
    await store.flush();
    expect(await storage.sessions.get(parent.id)).toBeUndefined();
    expect(await storage.sessions.get(child.id)).toBeUndefined();
    expect(await storage.sessions.get(late.id)).toBeUndefined();
    expect(await storage.messages.list(child.id)).toEqual([]);
    expect(store.isDeleted(child.id)).toBe(true);
  });
});
