import { describe, expect, it } from "vitest";
import { openStorage, RECORD_VERSION, StorageQuotaError, type FileRecord, type SessionRecord } from "../../src/storage";
import { emptyUsage } from "../../src/storage";

let dbCounter = 0;
const freshStorage = () => openStorage({ name: `storage-test-${dbCounter++}` });

function file(workspaceId: string, path: string, data: string | Uint8Array): FileRecord {
  return { v: RECORD_VERSION, workspaceId, path, kind: "file", data, mtime: 1 };
}

function session(id: string, workspaceId: string, parentId?: string): SessionRecord {
  return {
    v: RECORD_VERSION,
    id,
    workspaceId,
    title: id,
    parentId,
    createdAt: 1,
    updatedAt: 1,
    agent: "build",
    permission: [],
    tokens: emptyUsage(),
    cost: 0,
    todos: [],
  };
}

describe("storage", () => {
  it("keeps text as strings and binary files as bytes", async () => {
    const storage = await freshStorage();
    const bytes = new Uint8Array([0, 1, 2, 255]);
    await storage.files.apply("w1", [file("w1", "a.txt", "hello"), file("w1", "img.png", bytes)], []);
    const text = await storage.files.get("w1", "a.txt");
    const binary = await storage.files.get("w1", "img.png");
    expect(text?.data).toBe("hello");
    expect(binary?.data).toBeInstanceOf(Uint8Array);
    expect(Array.from(binary?.data as Uint8Array)).toEqual([0, 1, 2, 255]);
  });

  it("lists only the files of one workspace and applies deletes with puts atomically", async () => {
    const storage = await freshStorage();
    await storage.files.apply("w1", [file("w1", "a", "1"), file("w1", "b", "2")], []);
    await storage.files.apply("w2", [file("w2", "a", "x")], []);
    await storage.files.apply("w1", [file("w1", "c", "3")], ["a"]);
    expect((await storage.files.list("w1")).map((f) => f.path).sort()).toEqual(["b", "c"]);
    expect((await storage.files.list("w2")).map((f) => f.path)).toEqual(["a"]);
  });

  it("drops invalid records on load instead of failing", async () => {
    const invalid: unknown[] = [];
    const storage = await openStorage({ name: `storage-test-${dbCounter++}`, onInvalidRecord: (e) => invalid.push(e) });
    await storage.files.apply("w1", [file("w1", "ok", "1"), { ...file("w1", "bad", "x"), kind: "weird" as "file" }], []);
    expect((await storage.files.list("w1")).map((f) => f.path)).toEqual(["ok"]);
    expect(invalid).toHaveLength(1);
  });

  it("refuses records written by a newer version", async () => {
    const storage = await freshStorage();
    await storage.sessions.put({ ...session("s1", "w1"), v: RECORD_VERSION + 1 });
    await expect(storage.sessions.get("s1")).rejects.toThrow(/newer webcode/);
  });

  it("deleting a workspace removes its files and sessions with their messages", async () => {
    const storage = await freshStorage();
    await storage.workspaces.put({ v: 1, id: "w1", name: "one", createdAt: 1, updatedAt: 1 });
    await storage.files.apply("w1", [file("w1", "a", "1")], []);
    await storage.sessions.put(session("s1", "w1"));
    await storage.sessions.put(session("s2", "w2"));
    await storage.messages.put({ v: 1, id: "m1", sessionId: "s1", role: "user", createdAt: 1, agent: "build" });
    await storage.workspaces.delete("w1");
    expect(await storage.workspaces.get("w1")).toBeUndefined();
    expect(await storage.files.list("w1")).toEqual([]);
    expect(await storage.sessions.get("s1")).toBeUndefined();
    expect(await storage.messages.get("m1")).toBeUndefined();
    expect(await storage.sessions.get("s2")).toBeDefined();
  });

  it("deleting a session removes its child sessions", async () => {
    const storage = await freshStorage();
    await storage.sessions.put(session("p", "w1"));
    await storage.sessions.put(session("c", "w1", "p"));
    await storage.sessions.delete("p");
    expect(await storage.sessions.list("w1")).toEqual([]);
  });

  it("turns a quota failure into a StorageQuotaError the user can act on", async () => {
    const storage = await freshStorage();
    const original = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function () {
      throw new DOMException("quota", "QuotaExceededError");
    };
    try {
      await expect(storage.settings.put("k", 1)).rejects.toBeInstanceOf(StorageQuotaError);
    } finally {
      IDBObjectStore.prototype.put = original;
    }
    await storage.settings.put("k", 2);
    expect(await storage.settings.get("k")).toBe(2);
  });
});
