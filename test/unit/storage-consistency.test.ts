// Files and transcript stay consistent after any storage failure: a scripted turn (three file
// writes over two steps, then an answer) runs against a storage that becomes full after its N-th
// write, for every N; after a reload, no completed write claims content storage does not hold,
// every stored change was recorded by a call of the turn, and memory never showed an unstored file.
import { afterEach, describe, expect, it, vi } from "vitest";
import { StorageQuotaError, type Storage } from "../../src/storage";
import { MODEL, ScriptedModel, createRig, text, titleModel, tools, SMALL_MODEL, type Rig } from "./agent-harness";
import { newId } from "../../src/base";
import { openStorage } from "../../src/storage";

const rigs: Rig[] = [];
afterEach(() => {
  for (const r of rigs.splice(0)) r.dispose();
});

/** Storage that accepts `allowed` writes (of any kind), then refuses every write as a full quota does. */
function fillsUpAfter(base: Storage, allowed: number): { storage: Storage; writes: () => number; full: () => boolean } {
  let writes = 0;
  const gate = <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (writes >= allowed) throw new StorageQuotaError(new DOMException("The quota has been exceeded.", "QuotaExceededError"));
      writes++;
      return write(...args);
    };
  const wrap = <T extends object>(repo: T, methods: string[]): T => {
    const copy = Object.create(repo) as Record<string, unknown>;
    for (const name of methods) {
      const method = (repo as Record<string, unknown>)[name] as (...args: unknown[]) => Promise<unknown>;
      copy[name] = gate(method.bind(repo));
    }
    return copy as T;
  };
  const storage: Storage = {
    ...base,
    workspaces: wrap(base.workspaces, ["put"]),
    files: wrap(base.files, ["apply"]),
    sessions: wrap(base.sessions, ["put"]),
    messages: wrap(base.messages, ["put"]),
    parts: wrap(base.parts, ["put"]),
    blobs: wrap(base.blobs, ["putMany"]),
    snapshots: wrap(base.snapshots, ["put"]),
    settings: wrap(base.settings, ["put"]),
    writeBatch: gate((batch) => base.writeBatch(batch)),
    close: () => undefined,
  };
  return { storage, writes: () => writes, full: () => writes >= allowed };
}

const put = (path: string, content: string) => ({ name: "put", input: { path, content } });

function script(): ScriptedModel {
  return new ScriptedModel([
    tools([put("a.txt", "alpha"), put("src/b.txt", "beta")]),
    tools([put("c.txt", "gamma")]),
    text("All three files are written."),
  ]);
}

async function runWithFullStorageAfter(allowed: number) {
  const base = await openStorage({ name: newId("consistency") });
  const workspaceId = newId("ws");
  const gated = fillsUpAfter(base, allowed);
  const rig = await createRig({
    models: { [MODEL.modelId]: script(), [SMALL_MODEL.modelId]: titleModel() },
    storage: gated.storage,
    workspaceId,
  });
  rigs.push(rig);
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  let turnError: unknown;
  let sessionId: string | undefined;
  try {
    const session = await rig.agent.createSession();
    sessionId = session.id;
    const result = await rig.agent.prompt(session.id, { text: "write three files" });
    turnError = result.error;
  } catch (error) {
    turnError = error;
  }
  await rig.agent.flush();
  await new Promise((resolve) => setTimeout(resolve, 20));
  // What the workspace showed before the reload: never a file storage does not hold.
  const shown = new Map<string, string>();
  for (const [path, data] of rig.files.entries()) if (typeof data === "string") shown.set(path, data);
  rig.dispose();

  // Reload: a fresh agent and workspace over what storage holds.
  const reloaded = await createRig({ models: { [MODEL.modelId]: new ScriptedModel([]) }, storage: base, workspaceId });
  rigs.push(reloaded);
  const stored = new Map<string, string>();
  for (const [path, data] of reloaded.files.entries()) if (typeof data === "string") stored.set(path, data);
  const messages = sessionId && (await base.sessions.get(sessionId)) ? await reloaded.agent.getMessages(sessionId) : [];
  const calls = messages
    .flatMap((m) => m.parts)
    .flatMap((p) => (p.type === "tool" && p.tool === "put" ? [p] : []))
    .map((p) => ({ status: p.state.status, ...(p.state.input as { path: string; content: string }) }));
  return { full: gated.full(), turnError, shown, stored, calls, messages };
}

describe("files and transcript after storage fills up mid-turn", () => {
  it("stay consistent wherever the turn is cut off", async () => {
    const cutAt = new Set<string>();
    let completedWithoutFailure = false;
    for (let allowed = 0; allowed <= 40 && !completedWithoutFailure; allowed++) {
      const run = await runWithFullStorageAfter(allowed);
      const context = `storage full after ${allowed} writes`;
      // Memory showed exactly what storage holds.
      expect(run.shown, context).toEqual(run.stored);
      // A completed write claims only content storage holds.
      for (const call of run.calls.filter((c) => c.status === "completed")) expect(run.stored.get(call.path), context).toBe(call.content);
      // Every stored file was written by a call the transcript records (at worst as interrupted).
      for (const [path, content] of run.stored) {
        expect(
          run.calls.some((c) => c.path === path && c.content === content),
          `${context}: ${path} is stored but no recorded call wrote it`,
        ).toBe(true);
      }
      if (!run.full || run.turnError === undefined) {
        // A turn that reports no error lost nothing (a refused snapshot only limits revert).
        completedWithoutFailure ||= !run.full;
        expect(run.stored, context).toEqual(new Map([["a.txt", "alpha"], ["src/b.txt", "beta"], ["c.txt", "gamma"]]));
        expect(run.calls.map((c) => c.status), context).toEqual(["completed", "completed", "completed"]);
        const answer = run.messages.flatMap((m) => m.parts).some((p) => p.type === "text" && p.text === "All three files are written.");
        expect(answer, context).toBe(true);
      } else {
        // A failed turn says so in plain words.
        expect(run.turnError, context).toBeDefined();
        expect(String((run.turnError as { message?: string }).message), context).toMatch(/storage is full|No space left on device/);
        cutAt.add(`${run.stored.size} files`);
      }
    }
    expect(completedWithoutFailure).toBe(true);
    // The sweep cut the turn off before, between and after the file writes.
    expect([...cutAt]).toEqual(expect.arrayContaining(["0 files", "1 files", "2 files"]));
  }, 60_000);
});

describe("session records that cannot be stored", () => {
  it("stop the turn with a clear message instead of it going on in memory", async () => {
    const base = await openStorage({ name: newId("consistency") });
    let full = false;
    const storage: Storage = {
      ...base,
      writeBatch: async (batch) => {
        if (full) throw new StorageQuotaError(new DOMException("The quota has been exceeded.", "QuotaExceededError"));
        return base.writeBatch(batch);
      },
    };
    const model = new ScriptedModel([
      (): ReturnType<typeof tools> => {
        full = true;
        return tools([put("a.txt", "alpha")]);
      },
      tools([put("b.txt", "beta")]),
      text("done"),
    ]);
    const rig = await createRig({ models: { [MODEL.modelId]: model, [SMALL_MODEL.modelId]: titleModel() }, storage });
    rigs.push(rig);
    const session = await rig.agent.createSession();
    const result = await rig.agent.prompt(session.id, { text: "write two files" });
    expect(result.error?.message).toMatch(/^The chat could not be saved: this site's browser storage is full\. The agent stopped/);
    // One model call, no tool run: the call could not be recorded, so it did not run.
    expect(model.calls).toHaveLength(1);
    expect(await rig.files.exists("a.txt")).toBe(false);
    const calls = (await rig.agent.getMessages(session.id)).flatMap((m) => m.parts).filter((p) => p.type === "tool");
    expect(calls.map((p) => p.type === "tool" && p.state.status)).toEqual(["error"]);
  });
});
