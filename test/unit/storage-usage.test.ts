// Storage used per workspace (files, sessions, snapshots; largest first) and the ways to free
// space: deleting a workspace's sessions or snapshots (with the contents only those snapshots
// kept), deleting a workspace, and the probe that tells whether the browser accepts new data.
import { describe, expect, it } from "vitest";
import { newId } from "../../src/base";
import { createWorkspace, deleteWorkspace } from "../../src/runtime";
import { RECORD_VERSION, StorageQuotaError, openStorage, openStorageForRecovery, type SessionRecord, type Storage, type StorageChange } from "../../src/storage";

const zero = { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 };

async function seed(storage: Storage) {
  const small = await createWorkspace(storage, "Small", { seedReadme: false });
  const big = await createWorkspace(storage, "Big", { seedReadme: false });
  await storage.files.apply(small.id, [{ v: RECORD_VERSION, workspaceId: small.id, path: "a.txt", kind: "file", data: "x".repeat(100), mtime: 1 }], []);
  await storage.files.apply(big.id, [{ v: RECORD_VERSION, workspaceId: big.id, path: "b.txt", kind: "file", data: "y".repeat(5000), mtime: 1 }], []);
  const session: SessionRecord = {
    v: RECORD_VERSION,
    id: newId("ses"),
    workspaceId: small.id,
    title: "A chat",
    createdAt: 1,
    updatedAt: 1,
    agent: "build",
    permission: [],
    tokens: zero,
    cost: 0,
    todos: [],
  };
  const messageId = newId("msg");
  await storage.writeBatch({
    sessions: [session],
    messages: [{ v: RECORD_VERSION, id: messageId, sessionId: session.id, role: "user", createdAt: 1, agent: "build", model: { providerId: "p", modelId: "m" } }],
    parts: [{ v: RECORD_VERSION, id: newId("prt"), sessionId: session.id, messageId, type: "text", text: "z".repeat(2000) }],
  });
  // One content only the small workspace's snapshot keeps, one both workspaces' snapshots keep.
  await storage.blobs.putMany([
    { hash: "only-small", data: "s".repeat(300) },
    { hash: "shared", data: "t".repeat(400) },
  ]);
  await storage.snapshots.put({ v: RECORD_VERSION, id: newId("snp"), workspaceId: small.id, createdAt: 1, files: { "a.txt": "only-small", "c.txt": "shared" } });
  await storage.snapshots.put({ v: RECORD_VERSION, id: newId("snp"), workspaceId: big.id, createdAt: 1, files: { "c.txt": "shared" } });
  return { small, big, session };
}

describe("storage usage", () => {
  it("measures files, sessions and snapshots per workspace, largest first", async () => {
    const storage = await openStorage({ name: newId("usage") });
    const { small, big } = await seed(storage);
    const usage = await storage.maintenance.usage();
    expect(usage.workspaces.map((w) => w.name)).toEqual(["Big", "Small"]);
    const [b, s] = usage.workspaces;
    expect(b).toMatchObject({ workspaceId: big.id, fileCount: 1, sessionCount: 0, snapshotCount: 1 });
    expect(b!.files).toBeGreaterThanOrEqual(5000);
    expect(b!.snapshots).toBeGreaterThanOrEqual(400);
    expect(b!.snapshots).toBeLessThan(700);
    expect(s).toMatchObject({ workspaceId: small.id, fileCount: 1, sessionCount: 1, snapshotCount: 1 });
    expect(s!.sessions).toBeGreaterThanOrEqual(2000);
    expect(s!.snapshots).toBeGreaterThanOrEqual(700);
    expect(usage.sessions).toBe(s!.sessions + b!.sessions);
    expect(usage.snapshots).toBe(s!.snapshots + b!.snapshots);
    expect(usage.total).toBe(s!.total + b!.total);
  });

  it("tells another tab which sessions were deleted, by Settings → Storage or one by one", async () => {
    const name = newId("usage");
    const here = await openStorage({ name });
    const other = await openStorage({ name });
    const { small, session } = await seed(here);
    const told: StorageChange[] = [];
    other.changes.onDidChange((change) => told.push(change));
    await here.maintenance.deleteSessions(small.id);
    await expect.poll(() => told).toContainEqual({ kind: "sessions", deleted: [session.id] });
    const again = { ...session, id: newId("ses") };
    await here.sessions.put(again);
    await here.sessions.delete(again.id);
    await expect.poll(() => told).toContainEqual({ kind: "sessions", sessionIds: [again.id], deleted: [again.id] });
    here.close();
    other.close();
  });

  it("deletes a workspace's sessions or snapshots; contents other snapshots use stay", async () => {
    const storage = await openStorage({ name: newId("usage") });
    const { small, big, session } = await seed(storage);
    const told: StorageChange[] = [];
    storage.changes.onDidChange((change) => told.push(change));
    await storage.maintenance.deleteSessions(small.id);
    expect(await storage.sessions.get(session.id)).toBeUndefined();
    // This tab's chat is told which, so a turn in one stops and its copies are dropped rather than written back.
    expect(told).toEqual([{ kind: "sessions", deleted: [session.id] }]);
    expect(await storage.parts.listBySession(session.id)).toEqual([]);
    await storage.maintenance.deleteSnapshots(small.id);
    expect(await storage.snapshots.list(small.id)).toEqual([]);
    expect(await storage.blobs.has("only-small")).toBe(false);
    expect(await storage.blobs.has("shared")).toBe(true);
    const usage = await storage.maintenance.usage();
    expect(usage.workspaces.find((w) => w.workspaceId === small.id)).toMatchObject({ sessions: 0, snapshots: 0, sessionCount: 0 });
    // Deleting the big workspace takes the last snapshot that kept "shared", and the content with it.
    await deleteWorkspace(storage, big.id);
    expect(await storage.blobs.has("shared")).toBe(false);
  });

  it("a database this version cannot open (newer, or a failed migration) still opens as it is for recovery", async () => {
    const name = newId("usage");
    const storage = await openStorage({ name });
    await seed(storage);
    storage.close();
    // Another tab upgraded it to a version this code does not know.
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name, 7);
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
    await expect(openStorage({ name })).rejects.toThrow();
    const recovery = await openStorageForRecovery({ name });
    expect(recovery).toBeDefined();
    const usage = await recovery!.maintenance.usage();
    expect(usage.workspaces.map((w) => w.name)).toEqual(["Big", "Small"]);
    await recovery!.maintenance.deleteSessions(usage.workspaces[1]!.workspaceId);
    expect((await recovery!.maintenance.usage()).sessions).toBe(0);
    recovery!.close();
    // Nothing stored under that name: nothing to recover.
    const empty = newId("empty");
    expect(await openStorageForRecovery({ name: empty })).toBeUndefined();
    // ...and looking did not leave an empty database behind that the normal open would not migrate.
    const fresh = await openStorage({ name: empty });
    await expect(createWorkspace(fresh, "Fresh", { seedReadme: false })).resolves.toMatchObject({ name: "Fresh" });
  });

  it("the probe fails while the browser refuses new data", async () => {
    const storage = await openStorage({ name: newId("usage") });
    await expect(storage.maintenance.probe()).resolves.toBeUndefined();
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function () {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };
    try {
      await expect(storage.maintenance.probe()).rejects.toBeInstanceOf(StorageQuotaError);
    } finally {
      IDBObjectStore.prototype.put = put;
    }
  });
});
