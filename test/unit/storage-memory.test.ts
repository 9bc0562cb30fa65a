// The in-memory stand-in for IndexedDB (openMemoryStorage): when the browser's IndexedDB cannot be
// opened at all, webcode runs on the same Storage interface in memory. Checked here with the same
// services the app uses over it: the workspace file service, the browser runtime's shell, the
// agent's record batches, deleting a workspace (cursors), usage and backup; and the check whether the
// browser's own storage opens again.
import { afterEach, describe, expect, it } from "vitest";
import { newId } from "../../src/base";
import { WorkspaceFiles, createWorkspace, deleteWorkspace } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { RECORD_VERSION, checkBrowserIndexedDB, decodeBackup, openMemoryStorage, openStorage, type SessionRecord, type Storage } from "../../src/storage";

const workingIndexedDB = globalThis.indexedDB;
const opened: Storage[] = [];

/** The browser refuses IndexedDB the way a site with storage disabled does: open() throws. */
function breakIndexedDB(): IDBFactory {
  const broken = {
    open() {
      throw new DOMException("The user denied permission to access the database.", "SecurityError");
    },
  } as unknown as IDBFactory;
  Object.defineProperty(globalThis, "indexedDB", { value: broken, configurable: true, writable: true });
  return broken;
}

async function memory(): Promise<Storage> {
  const { storage } = await openMemoryStorage();
  opened.push(storage);
  return storage;
}

afterEach(() => {
  for (const storage of opened.splice(0)) storage.close();
  Object.defineProperty(globalThis, "indexedDB", { value: workingIndexedDB, configurable: true, writable: true });
});

function session(workspaceId: string): SessionRecord {
  return {
    v: RECORD_VERSION,
    id: newId("ses"),
    workspaceId,
    title: "A chat",
    createdAt: 1,
    updatedAt: 1,
    agent: "build",
    permission: [],
    tokens: { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 },
    cost: 0,
    todos: [],
  };
}

describe("in-memory storage", () => {
  it("opens where the browser's IndexedDB refuses to, and says it is in memory", async () => {
    const broken = breakIndexedDB();
    await expect(openStorage({ name: `memory-test-${Date.now()}` })).rejects.toThrow(/denied permission/);
    const { storage, browserIndexedDB } = await openMemoryStorage();
    opened.push(storage);
    expect(storage.inMemory).toBe(true);
    expect(browserIndexedDB).toBe(broken);
    const workspace = await createWorkspace(storage, "Scratch");
    expect((await storage.workspaces.list()).map((w) => w.name)).toEqual(["Scratch"]);
    // The starter README does not promise that anything is kept.
    const readme = (await storage.files.get(workspace.id, "README.md"))?.data;
    expect(readme).toMatch(/lost when the tab is closed or reloaded/);
    expect(readme).not.toMatch(/kept in its storage across reloads/);
  });

  it("carries the workspace file service and the browser runtime's shell", async () => {
    const storage = await memory();
    const workspace = await createWorkspace(storage, "Project", { seedReadme: false });
    const files = await WorkspaceFiles.open(storage, workspace.id);
    const runtime = createBrowserRuntime(files);
    try {
      await files.writeFile("src/a.txt", "hello");
      const result = await runtime.exec("cat src/a.txt && echo world > src/b.txt && ls src");
      expect(result.exitCode).toBe(0);
      expect(result.output).toContain("hello");
      expect(result.output).toContain("b.txt");
      await files.flush();
      const stored = (await storage.files.get(workspace.id, "src/b.txt"))?.data;
      expect(typeof stored === "string" ? stored : new TextDecoder().decode(stored)).toBe("world\n");
      // A second file service over the same storage (a workspace switch and back) sees what was stored.
      const again = await WorkspaceFiles.open(storage, workspace.id, { readOnly: true });
      expect(await again.readText("src/a.txt")).toBe("hello");
      again.dispose();
    } finally {
      await runtime.dispose();
      files.dispose();
    }
  });

  it("stores the agent's record batches, measures usage and deletes a workspace with everything in it", async () => {
    const storage = await memory();
    const keep = await createWorkspace(storage, "Keep", { seedReadme: false });
    const drop = await createWorkspace(storage, "Drop", { seedReadme: false });
    await storage.files.apply(drop.id, [{ v: RECORD_VERSION, workspaceId: drop.id, path: "big.txt", kind: "file", data: "y".repeat(5000), mtime: 1 }], []);
    const chat = session(drop.id);
    const messageId = newId("msg");
    await storage.writeBatch({
      sessions: [chat],
      messages: [{ v: RECORD_VERSION, id: messageId, sessionId: chat.id, role: "user", createdAt: 1, agent: "build" }],
      parts: [{ v: RECORD_VERSION, id: newId("prt"), sessionId: chat.id, messageId, type: "text", text: "z".repeat(2000) }],
    });
    expect((await storage.sessions.list(drop.id)).map((s) => s.id)).toEqual([chat.id]);
    const usage = await storage.maintenance.usage();
    expect(usage.workspaces[0]?.workspaceId).toBe(drop.id);
    await deleteWorkspace(storage, drop.id);
    expect((await storage.workspaces.list()).map((w) => w.id)).toEqual([keep.id]);
    expect(await storage.files.list(drop.id)).toEqual([]);
    expect(await storage.sessions.list(drop.id)).toEqual([]);
    expect(await storage.messages.list(chat.id)).toEqual([]);
    expect(await storage.parts.listBySession(chat.id)).toEqual([]);
  });

  it("keeps each tab's memory storage apart and backs it up like the real one", async () => {
    const first = await memory();
    const second = await memory();
    const workspace = await createWorkspace(first, "Only here", { seedReadme: false });
    await first.files.apply(workspace.id, [{ v: RECORD_VERSION, workspaceId: workspace.id, path: "a.ts", kind: "file", data: "export {};", mtime: 1 }], []);
    expect(await second.workspaces.list()).toEqual([]);
    const backup = decodeBackup(await first.backup());
    expect(backup.workspaces.map((w) => w.name)).toEqual(["Only here"]);
    expect(backup.files.map((f) => f.path)).toEqual(["a.ts"]);
  });

  it("tells whether the browser's own IndexedDB opens now", async () => {
    const broken = breakIndexedDB();
    expect(await checkBrowserIndexedDB(broken)).toMatch(/denied permission/);
    expect(await checkBrowserIndexedDB(undefined)).toMatch(/no IndexedDB/);
    expect(await checkBrowserIndexedDB(workingIndexedDB, `memory-check-${Date.now()}`)).toBeUndefined();
  });
});
