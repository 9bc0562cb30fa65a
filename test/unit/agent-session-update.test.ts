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
});
