// The chat store is fed only by bus events, batched per animation frame, and keeps untouched
// messages identical (so memoised views skip them).
import { describe, expect, it } from "vitest";
import { ChatSync } from "../../src/ui/chat/chat-sync";
import { createChatStore, initialChatState, reduceChat, sortedSessions } from "../../src/ui/chat/chat-store";
import { FakeAgent, ManualFrames, assistantMessage, part, session, userMessage } from "./ui-chat-fixtures";

function setup() {
  const agent = new FakeAgent();
  const store = createChatStore();
  const frames = new ManualFrames();
  const sync = new ChatSync(agent, store, frames);
  return { agent, store, frames, sync };
}

describe("ChatSync", () => {
  it("applies a frame's worth of streaming deltas in one store update", async () => {
    const { agent, store, frames, sync } = setup();
    const s = session();
    await sync.openSession(s.id);
    let updates = 0;
    store.subscribe(() => updates++);
    const user = userMessage(s.id);
    const reply = assistantMessage(s.id, user.id);
    agent.bus.emit("message-updated", { message: user });
    agent.bus.emit("message-updated", { message: reply });
    let text = "";
    const textPartId = "prt_text";
    for (let i = 0; i < 1000; i++) {
      text += `word${i} `;
      agent.bus.emit("part-updated", { part: part(reply, { type: "text", text }, textPartId), delta: `word${i} ` });
    }
    expect(updates).toBe(0);
    expect(frames.requested).toBe(1);
    frames.runFrame();
    expect(updates).toBe(1);
    const entries = store.getState().messages[s.id]!;
    expect(entries.map((e) => e.info.id)).toEqual([user.id, reply.id]);
    expect(entries[1]!.parts).toHaveLength(1);
    expect((entries[1]!.parts[0] as { text: string }).text).toBe(text);
    sync.dispose();
  });

  it("stops listening and scheduling when disposed", async () => {
    const { agent, frames, sync } = setup();
    sync.dispose();
    expect(agent.bus.listenerCount("part-updated")).toBe(0);
    agent.bus.emit("session-created", { session: session() });
    expect(frames.pending).toBe(0);
  });

  it("keeps events that arrive while a session loads, over the older snapshot", async () => {
    const { agent, store, frames, sync } = setup();
    const s = session();
    const user = userMessage(s.id);
    const reply = assistantMessage(s.id, user.id);
    const stale = part(reply, { type: "text", text: "Hel" }, "prt_a");
    agent.messages.set(s.id, [
      { info: user, parts: [part(user, { type: "text", text: "hi" })] },
      { info: reply, parts: [stale] },
    ]);
    let open!: () => void;
    agent.gate = new Promise((resolve) => (open = resolve));
    const loading = sync.openSession(s.id);
    agent.bus.emit("part-updated", { part: { ...stale, text: "Hello world" } as typeof stale });
    frames.runFrame();
    open();
    await loading;
    const entries = store.getState().messages[s.id]!;
    expect(entries).toHaveLength(2);
    expect((entries[1]!.parts[0] as { text: string }).text).toBe("Hello world");
    expect(entries[0]!.parts).toHaveLength(1);
  });

  it("loads the session list and pending asks once", async () => {
    const { agent, store, sync } = setup();
    const older = session({ updatedAt: 10, title: "older" });
    const newer = session({ updatedAt: 20, title: "newer" });
    const child = session({ updatedAt: 30, title: "child", parentId: older.id });
    agent.sessions = [older, newer, child];
    await sync.loadSessions();
    const state = store.getState();
    expect(state.sessionsLoaded).toBe(true);
    expect(sortedSessions(state).map((x) => x.title)).toEqual(["newer", "older"]);
    expect(sortedSessions(state, true).map((x) => x.title)).toEqual(["child", "newer", "older"]);
  });
});

describe("reduceChat", () => {
  it("shares untouched messages between states and does not mutate the old state", () => {
    const s = session();
    const first = userMessage(s.id, { id: "msg_1" });
    const second = assistantMessage(s.id, first.id, { id: "msg_2" });
    let state = reduceChat(initialChatState(), [
      { name: "messages-loaded", payload: { sessionId: s.id, messages: [{ info: first, parts: [] }, { info: second, parts: [] }] } },
    ]);
    const before = state;
    const frozenFirst = before.messages[s.id]![0];
    state = reduceChat(state, [{ name: "part-updated", payload: { part: part(second, { type: "text", text: "x" }, "prt_1") } }]);
    expect(state.messages[s.id]![0]).toBe(frozenFirst);
    expect(state.messages[s.id]![1]).not.toBe(before.messages[s.id]![1]);
    expect(before.messages[s.id]![1]!.parts).toHaveLength(0);
  });

  it("orders parts and messages by id whatever order they arrive in", () => {
    const s = session();
    const m = assistantMessage(s.id, "msg_0", { id: "msg_5" });
    const state = reduceChat(initialChatState(), [
      { name: "messages-loading", payload: { sessionId: s.id } },
      { name: "message-updated", payload: { message: m } },
      { name: "message-updated", payload: { message: userMessage(s.id, { id: "msg_3" }) } },
      { name: "part-updated", payload: { part: part(m, { type: "step-start" }, "prt_b") } },
      { name: "part-updated", payload: { part: part(m, { type: "text", text: "t" }, "prt_a") } },
      { name: "part-updated", payload: { part: part(m, { type: "text", text: "u" }, "prt_c") } },
      { name: "part-removed", payload: { sessionId: s.id, messageId: m.id, partId: "prt_c" } },
    ]);
    const entries = state.messages[s.id]!;
    expect(entries.map((e) => e.info.id)).toEqual(["msg_3", "msg_5"]);
    expect(entries[1]!.parts.map((p) => p.id)).toEqual(["prt_a", "prt_b"]);
  });

  it("ignores messages of sessions that are not open (they load when opened)", () => {
    const s = session();
    const state = reduceChat(initialChatState(), [{ name: "message-updated", payload: { message: userMessage(s.id) } }]);
    expect(state.messages[s.id]).toBeUndefined();
  });

  it("tracks pending permissions, questions and status by their events", () => {
    const s = session();
    const ask = { id: "per_1", sessionId: s.id, permission: "bash", patterns: ["ls"], always: ["ls *"], metadata: {}, createdAt: 1 };
    const question = { id: "que_1", sessionId: s.id, questions: [], createdAt: 1 };
    let state = reduceChat(initialChatState(), [
      { name: "permission-asked", payload: ask },
      { name: "question-asked", payload: question },
      { name: "session-status", payload: { sessionId: s.id, status: { type: "retry", attempt: 2, message: "429", nextAt: 5000 } } },
    ]);
    expect(Object.keys(state.permissions)).toEqual(["per_1"]);
    expect(Object.keys(state.questions)).toEqual(["que_1"]);
    expect(state.status[s.id]).toEqual({ type: "retry", attempt: 2, message: "429", nextAt: 5000 });
    state = reduceChat(state, [
      { name: "permission-replied", payload: { sessionId: s.id, requestId: "per_1", reply: "once" } },
      { name: "question-replied", payload: { sessionId: s.id, requestId: "que_1", rejected: true } },
    ]);
    expect(state.permissions).toEqual({});
    expect(state.questions).toEqual({});
  });

  it("drops a deleted session with its messages and status", () => {
    const s = session();
    let state = reduceChat(initialChatState(), [
      { name: "session-created", payload: { session: s } },
      { name: "messages-loading", payload: { sessionId: s.id } },
      { name: "session-status", payload: { sessionId: s.id, status: { type: "busy" } } },
    ]);
    state = reduceChat(state, [{ name: "session-deleted", payload: { sessionId: s.id } }]);
    expect(state.sessions[s.id]).toBeUndefined();
    expect(state.messages[s.id]).toBeUndefined();
    expect(state.status[s.id]).toBeUndefined();
  });
});
