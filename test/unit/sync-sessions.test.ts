// Session sync (issue 33 point 2): two devices (each its own fake-indexeddb storage and
// @hocuspocus/provider) against the repository's real sync server script on 127.0.0.1. Sessions,
// messages and parts written on A are stored on B and B's tab is told; a streaming part's text
// reaches B while it streams, as Y.Text edits; deletes follow; a remote document cannot bring
// permission grants; two devices claiming one session's turn at once: exactly one runs; a claim
// of a device that went away expires.
import WebSocket from "ws";
import { afterEach, describe, expect, it } from "vitest";
import { signRoomToken } from "../../scripts/sync-server.mjs";
import { SYNC_SECRET, until } from "../support/sync-server";
import { startSyncServer } from "../support/sync-devices";
import { WorkspaceFiles } from "../../src/runtime";
import { newAssistantMessage, newPart, newSession, newUserMessage, openStorage, type PartOf, type StorageChange } from "../../src/storage";
import { connectWorkspaceSync } from "../../src/storage/sync/connect";

const MODEL = { providerId: "fake", modelId: "fake-model" };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});


let counter = 0;
async function device(url: string, room: string, name: string, lease: { heartbeatMs?: number; expireMs?: number; settleMs?: number } = {}) {
  const storage = await openStorage({ name: `sync-ses-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, room);
  const heard: StorageChange[] = [];
  storage.changes.onDidChange((change) => heard.push(change));
  const errors: unknown[] = [];
  const connection = connectWorkspaceSync({
    files,
    url,
    token: signRoomToken({ room, access: "write", secret: SYNC_SECRET }),
    WebSocketPolyfill: WebSocket,
    sessions: { storage, device: `${name}-${counter}`, deviceName: name, lease },
    onError: (error) => errors.push(error),
  });
  cleanups.push(() => {
    connection.dispose();
    files.dispose();
    storage.close();
  });
  await connection.ready;
  return { storage, files, connection, heard, errors, turns: connection.turns!, sessions: connection.sessions! };
}

describe("session sync through the sync server", () => {
  it("a session with its messages and parts written on A is stored on B, B's tab is told, and a delete follows", async () => {
    const url = await startSyncServer(cleanups);
    const a = await device(url, "ws-s1", "Desktop");
    const b = await device(url, "ws-s1", "Laptop");
    const session = newSession({ workspaceId: "ws-s1", title: "Fix the build", agent: "build", model: MODEL });
    await a.storage.sessions.put(session);
    const user = newUserMessage({ sessionId: session.id, agent: "build", model: MODEL });
    const userText = newPart({ sessionId: session.id, messageId: user.id }, { type: "text" as const, text: "Why does it fail?" });
    const reply = newAssistantMessage({ sessionId: session.id, parentId: user.id, agent: "build", model: MODEL });
    const tool = newPart(
      { sessionId: session.id, messageId: reply.id },
      { type: "tool" as const, callId: "c1", tool: "bash", state: { status: "completed" as const, input: { command: "npm test" }, output: "ok", title: "npm test", metadata: {}, start: 1, end: 2 } },
    );
    await a.storage.writeBatch({ messages: [user, reply], parts: [userText, tool] });

    await until(async () => (await b.storage.parts.listBySession(session.id)).length === 2);
    expect((await b.storage.sessions.get(session.id))?.title).toBe("Fix the build");
    expect((await b.storage.messages.list(session.id)).map((m) => m.id)).toEqual([user.id, reply.id]);
    const parts = await b.storage.parts.listBySession(session.id);
    expect(parts.find((p) => p.id === userText.id)).toMatchObject({ type: "text", text: "Why does it fail?" });
    expect(parts.find((p) => p.id === tool.id)).toMatchObject({ type: "tool", state: { status: "completed", output: "ok" } });
    // B's chat hears of it like another tab's write.
    await until(() => b.heard.some((c) => c.kind === "sessions" && (c.sessionIds === undefined || c.sessionIds.includes(session.id))));
    // Nothing B stored came back to A as a write of its own.
    expect(a.heard.filter((c) => c.kind === "sessions")).toEqual([]);

    await a.storage.sessions.put({ ...session, title: "Renamed", updatedAt: session.updatedAt + 1 });
    await until(async () => (await b.storage.sessions.get(session.id))?.title === "Renamed");
    await a.storage.sessions.delete(session.id);
    await until(async () => (await b.storage.sessions.get(session.id)) === undefined);
    expect(await b.storage.messages.list(session.id)).toEqual([]);
    await until(() => b.heard.some((c) => c.kind === "sessions" && c.deleted?.includes(session.id)));
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it("a streaming part's text reaches B while it streams, as edits of one Y.Text", async () => {
    const url = await startSyncServer(cleanups);
    const a = await device(url, "ws-s2", "Desktop");
    const b = await device(url, "ws-s2", "Laptop");
    const session = newSession({ workspaceId: "ws-s2", title: "t", agent: "build", model: MODEL });
    await a.storage.sessions.put(session);
    const reply = newAssistantMessage({ sessionId: session.id, parentId: "msg_x", agent: "build", model: MODEL });
    let part: PartOf<"text"> = newPart({ sessionId: session.id, messageId: reply.id }, { type: "text" as const, text: "" });
    await a.storage.writeBatch({ messages: [reply], parts: [part] });
    const sizes: number[] = [];
    a.connection.provider.document.on("update", (update: Uint8Array) => sizes.push(update.length));
    const words = "The build fails because the lockfile names a version that was never published. ".repeat(20).split(" ");
    let seenMidway = false;
    for (let i = 0; i < words.length; i++) {
      part = { ...part, text: `${part.text}${words[i]} ` };
      await a.storage.writeBatch({ parts: [part] }); // as the agent's store does, up to 10 times a second
      if (i === Math.floor(words.length / 2)) {
        const midway = part.text;
        await until(async () => ((await b.storage.parts.listByMessage(reply.id))[0] as PartOf<"text"> | undefined)?.text === midway);
        seenMidway = true;
      }
    }
    expect(seenMidway).toBe(true);
    const full = part.text;
    await until(async () => ((await b.storage.parts.listByMessage(reply.id))[0] as PartOf<"text"> | undefined)?.text === full);
    // Each write sent the appended word, not the whole text so far.
    const largest = Math.max(...sizes.slice(2));
    expect(full.length).toBeGreaterThan(1500);
    expect(largest).toBeLessThan(200);
    expect(b.sessions.texts.get(part.id)?.toString()).toBe(full);
  });

  it("measured: a streamed write on A is in B's storage within 100 ms (median), in a few hundred bytes", async () => {
    const url = await startSyncServer(cleanups);
    const a = await device(url, "ws-sm", "Desktop");
    const b = await device(url, "ws-sm", "Laptop");
    const session = newSession({ workspaceId: "ws-sm", title: "t", agent: "build", model: MODEL });
    await a.storage.sessions.put(session);
    const reply = newAssistantMessage({ sessionId: session.id, parentId: "msg_x", agent: "build", model: MODEL });
    let part: PartOf<"text"> = newPart({ sessionId: session.id, messageId: reply.id }, { type: "text" as const, text: "x".repeat(5000) });
    await a.storage.writeBatch({ messages: [reply], parts: [part] });
    await until(async () => (await b.storage.parts.listByMessage(reply.id)).length === 1);
    let bytes = 0;
    a.connection.provider.document.on("update", (update: Uint8Array) => (bytes += update.length));
    const delays: number[] = [];
    for (let i = 0; i < 20; i++) {
      part = { ...part, text: `${part.text} word${i}` };
      const expected = part.text;
      const t0 = performance.now();
      await a.storage.writeBatch({ parts: [part] });
      await until(async () => ((await b.storage.parts.listByMessage(reply.id))[0] as PartOf<"text"> | undefined)?.text === expected, 3000);
      delays.push(performance.now() - t0);
    }
    delays.sort((x, y) => x - y);
    const median = delays[10]!;
    console.log(`session sync: streamed write A -> B's storage median ${median.toFixed(1)} ms, max ${delays.at(-1)!.toFixed(1)} ms; ${(bytes / 20).toFixed(0)} bytes a write on a 5,000-character part`);
    // Target 100 ms; 50 ms of it is the remote side gathering changes into one stored batch.
    expect(median).toBeLessThan(150);
    expect(bytes / 20).toBeLessThan(300);
  });

  it("a synced session never brings permission grants: B keeps its own", async () => {
    const url = await startSyncServer(cleanups);
    const a = await device(url, "ws-s3", "Desktop");
    const b = await device(url, "ws-s3", "Laptop");
    const session = newSession({ workspaceId: "ws-s3", title: "t", agent: "build", model: MODEL });
    await a.storage.sessions.put({ ...session, permission: [{ permission: "bash", pattern: "*", action: "allow" }] });
    await until(async () => (await b.storage.sessions.get(session.id)) !== undefined);
    expect((await b.storage.sessions.get(session.id))?.permission).toEqual([]);
    expect(a.sessions.sessions.get(session.id)).not.toHaveProperty("permission");
    // A document edited by hand (another client) cannot plant them either, nor a session of another workspace.
    b.connection.provider.document.transact(() => {
      b.sessions.sessions.set("ses_forged", { ...session, id: "ses_forged", workspaceId: "other-ws", permission: [{ permission: "*", pattern: "*", action: "allow" }] });
    });
    a.connection.provider.document.transact(() => {
      a.sessions.sessions.set(session.id, { ...session, title: "x", permission: [{ permission: "*", pattern: "*", action: "allow" }] });
    });
    await until(async () => (await b.storage.sessions.get(session.id))?.title === "x");
    expect((await b.storage.sessions.get(session.id))?.permission).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await a.storage.sessions.get("ses_forged")).toBeUndefined();

    // A message of another workspace on A: a document naming its id can neither move nor delete it.
    const elsewhere = newSession({ workspaceId: "other-ws", title: "private", agent: "build", model: MODEL });
    const secret = newUserMessage({ sessionId: elsewhere.id, agent: "build", model: MODEL });
    await a.storage.writeBatch({ sessions: [elsewhere], messages: [secret] });
    b.connection.provider.document.transact(() => b.sessions.messages.set(secret.id, { ...secret, sessionId: session.id }));
    await until(async () => a.sessions.messages.has(secret.id));
    b.connection.provider.document.transact(() => b.sessions.messages.delete(secret.id));
    await until(async () => !a.sessions.messages.has(secret.id));
    await a.sessions.whenStored();
    expect(await a.storage.messages.get(secret.id)).toEqual(secret);
  });

  it("sessions a device had before syncing are merged into the document on first connect", async () => {
    const url = await startSyncServer(cleanups);
    const a = await device(url, "ws-s4", "Desktop");
    const storage = await openStorage({ name: `sync-ses-pre-${Date.now()}` });
    const early = newSession({ workspaceId: "ws-s4", title: "Made offline", agent: "build", model: MODEL });
    const message = newUserMessage({ sessionId: early.id, agent: "build", model: MODEL });
    await storage.writeBatch({ sessions: [early], messages: [message], parts: [newPart({ sessionId: early.id, messageId: message.id }, { type: "text" as const, text: "hello" })] });
    const files = await WorkspaceFiles.open(storage, "ws-s4");
    const connection = connectWorkspaceSync({
      files,
      url,
      token: signRoomToken({ room: "ws-s4", access: "write", secret: SYNC_SECRET }),
      WebSocketPolyfill: WebSocket,
      sessions: { storage, device: "pre", deviceName: "Tablet" },
    });
    cleanups.push(() => {
      connection.dispose();
      files.dispose();
      storage.close();
    });
    await connection.ready;
    await until(async () => (await a.storage.parts.listBySession(early.id)).length === 1);
    expect((await a.storage.sessions.get(early.id))?.title).toBe("Made offline");

    // Connecting again with the same records on both sides stores nothing (the first sweep compares).
    connection.dispose();
    const rewrites: unknown[] = [];
    storage.onDidWriteSessions((event) => event.source === "sync" && rewrites.push(event));
    const again = connectWorkspaceSync({
      files,
      url,
      token: signRoomToken({ room: "ws-s4", access: "write", secret: SYNC_SECRET }),
      WebSocketPolyfill: WebSocket,
      sessions: { storage, device: "pre-2", deviceName: "Tablet" },
    });
    cleanups.push(() => again.dispose());
    await again.ready;
    await again.sessions!.whenStored();
    expect(rewrites).toEqual([]);
  });
});

describe("one turn per session across devices", () => {
  it("two devices starting a turn of one session at once: exactly one runs, the other is told where", async () => {
    const url = await startSyncServer(cleanups);
    const a = await device(url, "ws-t1", "Desktop");
    const b = await device(url, "ws-t1", "Laptop");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ran: string[] = [];
    const attempt = (who: string, d: typeof a) =>
      d.turns.run(
        "ses_1",
        async () => {
          ran.push(who);
          await held;
          return who;
        },
        () => undefined,
      );
    const results = Promise.allSettled([attempt("A", a), attempt("B", b)]);
    await until(() => ran.length === 1);
    // The loser has been told by now (both decided after the same settle time); the winner still runs.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ran).toHaveLength(1);
    const winner = ran[0] === "A" ? a : b;
    const loser = winner === a ? b : a;
    expect(loser.turns.runningElsewhere().get("ses_1")).toBe(winner === a ? "Desktop" : "Laptop");
    // A third try on the loser is refused at once, naming the device.
    await expect(loser.turns.run("ses_1", async () => "again", () => undefined)).rejects.toThrow(`running a turn on ${winner === a ? "Desktop" : "Laptop"}`);
    release();
    const settled = await results;
    expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = settled.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(/running a turn on (Desktop|Laptop)/);
    // Released at the end: the other device may run now.
    await until(() => loser.turns.holder("ses_1") === undefined);
    await expect(loser.turns.run("ses_1", async () => "mine", () => undefined)).resolves.toBe("mine");
  });

  it("Stop on the watching device asks the running one to stop", async () => {
    const url = await startSyncServer(cleanups);
    const a = await device(url, "ws-t2", "Desktop");
    const b = await device(url, "ws-t2", "Laptop");
    const controller = new AbortController();
    const turn = a.turns.run(
      "ses_2",
      () => new Promise<string>((resolve) => controller.signal.addEventListener("abort", () => resolve("stopped"))),
      () => controller.abort(),
    );
    await until(() => b.turns.runningElsewhere().has("ses_2"));
    expect(b.turns.requestStop("ses_2")).toBe(true);
    await expect(turn).resolves.toBe("stopped");
    await until(() => !b.turns.runningElsewhere().has("ses_2"));
  });

  it("a page that is closed lets go of its turns at once", async () => {
    const url = await startSyncServer(cleanups);
    const a = await device(url, "ws-t4", "Desktop");
    const b = await device(url, "ws-t4", "Laptop");
    void a.turns.run("ses_4", () => new Promise<never>(() => undefined), () => undefined);
    await until(() => b.turns.runningElsewhere().get("ses_4") === "Desktop");
    a.turns.releaseAll(); // what SyncController does on pagehide
    await until(() => b.turns.holder("ses_4") === undefined, 1000); // well before the 15 s expiry
  });

  it("a claim of a device that went away expires after a missed heartbeat", async () => {
    const url = await startSyncServer(cleanups);
    const lease = { heartbeatMs: 100, expireMs: 400, settleMs: 50 };
    const a = await device(url, "ws-t3", "Desktop", lease);
    const b = await device(url, "ws-t3", "Laptop", lease);
    void a.turns.run("ses_3", () => new Promise<never>(() => undefined), () => undefined);
    await until(() => b.turns.runningElsewhere().get("ses_3") === "Desktop");
    // Heartbeats keep it alive well past the expiry time.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(b.turns.holder("ses_3")?.name).toBe("Desktop");
    await expect(b.turns.run("ses_3", async () => "no", () => undefined)).rejects.toThrow(/running a turn on Desktop/);
    // A's page goes without a word (its socket drops; its claim stays in the document).
    a.connection.disconnect();
    await until(() => b.turns.holder("ses_3") === undefined, 3000);
    await expect(b.turns.run("ses_3", async () => "now mine", () => undefined)).resolves.toBe("now mine");
  });
});
