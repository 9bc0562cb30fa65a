// Session sync with the real agent (issue 33 point 2): two devices, each with its own storage,
// agent and sync connection to the repository's sync server script. A turn run on A streams into
// B's storage while it runs (B's agent reads it as it grows and does not close it as interrupted);
// B's send meanwhile is refused, naming A; once A's turn ends B's turn runs and reaches A.
import WebSocket from "ws";
import { afterEach, describe, expect, it } from "vitest";
import { signRoomToken } from "../../scripts/sync-server.mjs";
import { SYNC_SECRET, until as untilHolds } from "../support/sync-server";
import { startSyncServer } from "../support/sync-devices";
import { newId } from "../../src/base";
import type { PartOf } from "../../src/storage";
import { connectWorkspaceSync } from "../../src/storage/sync/connect";
import { turnsAcrossDevices } from "../../src/ui/agent-wiring/device-turns";
import type { Agent } from "../../src/agent";
import { ScriptedModel, createRig, text } from "./agent-harness";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const until = (check: () => boolean | Promise<boolean>, ms = 8000) => untilHolds(check, ms);


async function device(url: string, workspaceId: string, name: string, model: ScriptedModel) {
  // The agent and the connection know each other: the lease is read at each turn, Stop aborts.
  const late: { agent?: Agent; connection?: ReturnType<typeof connectWorkspaceSync> } = {};
  const rig = await createRig({
    workspaceId,
    models: { "fake-model": model },
    deps: { turns: turnsAcrossDevices(undefined, () => late.connection?.turns, (id) => late.agent?.abort(id)) },
  });
  late.agent = rig.agent;
  const errors: unknown[] = [];
  const connection = connectWorkspaceSync({
    files: rig.files,
    url,
    token: signRoomToken({ room: workspaceId, access: "write", secret: SYNC_SECRET }),
    WebSocketPolyfill: WebSocket,
    sessions: { storage: rig.storage, device: newId("dev"), deviceName: name },
    onError: (error) => errors.push(error),
  });
  late.connection = connection;
  const sessionsChanged: string[][] = [];
  rig.storage.changes.onDidChange((change) => {
    if (change.kind === "sessions") {
      sessionsChanged.push(change.sessionIds ?? []);
      rig.agent.forgetChangedElsewhere(change.sessionIds); // as the chat does (followOtherTab)
    }
  });
  cleanups.push(async () => {
    await rig.agent.whenIdle();
    connection.dispose();
    rig.dispose();
  });
  await connection.ready;
  return { ...rig, connection, errors, sessionsChanged };
}

const replyText = (messages: Awaited<ReturnType<Agent["getMessages"]>>) =>
  messages
    .filter((m) => m.info.role === "assistant")
    .flatMap((m) => m.parts)
    .filter((p): p is PartOf<"text"> => p.type === "text")
    .map((p) => p.text)
    .join("");

describe("agent turns across devices", () => {
  it("a turn on A streams into B; B's send meanwhile is refused naming A; then B's turn reaches A", async () => {
    const url = await startSyncServer(cleanups);
    const answer = "The lockfile pins a version that was never published; regenerate it. ".repeat(12);
    // About 4 s of streaming (170 chunks): B checks mid-way, with room for a loaded machine.
    const streaming = { ...text(answer), delayMs: 25 };
    const a = await device(url, "ws-agent", "Desktop", new ScriptedModel([streaming]));
    const b = await device(url, "ws-agent", "Laptop", new ScriptedModel([text("Done on the laptop.")]));

    const session = await a.agent.createSession({ title: "Build" });
    await until(async () => (await b.agent.getSession(session.id)) !== undefined);
    const turn = a.agent.prompt(session.id, { text: "Why does the build fail?" });

    // B sees the user's message, then the reply growing while A's turn still runs.
    await until(async () => (await b.agent.getMessages(session.id)).some((m) => m.info.role === "user"));
    await until(async () => {
      const seen = replyText(await b.agent.getMessages(session.id));
      return seen.length > 0 && seen.length < answer.length / 2;
    });
    expect(a.agent.status(session.id).type).toBe("busy");
    await expect(b.agent.prompt(session.id, { text: "me too" })).rejects.toThrow(/running a turn on Desktop/);

    const result = await turn;
    expect(result.error).toBeUndefined();
    await until(async () => replyText(await b.agent.getMessages(session.id)) === answer);
    // B never closed A's streaming reply as interrupted.
    const onB = await b.agent.getMessages(session.id);
    expect(onB.filter((m) => m.info.role === "assistant").map((m) => (m.info.role === "assistant" ? m.info.error : undefined))).toEqual([undefined]);
    expect(b.sessionsChanged.length).toBeGreaterThan(2); // told as it grew, not once at the end

    // A's lease went with its turn: B may run the next one, and it reaches A.
    await until(() => b.connection.turns!.holder(session.id) === undefined);
    const second = await b.agent.prompt(session.id, { text: "and now?" });
    expect(second.error).toBeUndefined();
    await until(async () => replyText(await a.agent.getMessages(session.id)).endsWith("Done on the laptop."));
    expect([...a.errors, ...b.errors]).toEqual([]);
  });
});
