// Back up everything and restore: restore(backup(state)) into an empty database reproduces the state
// exactly (settings without keys), a merge never overwrites and renames clashing workspaces, and a
// damaged or foreign file is refused with a clear message and nothing written.
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../src/runtime";
import { BackupError, RECORD_VERSION, decodeBackup, openStorage, type Storage } from "../../src/storage";
import { assistantMessage, part, session, userMessage } from "./ui-chat-fixtures";

let counter = 0;
const fresh = () => openStorage({ name: `backup-${counter++}-${Date.now()}` });
/** A review that keeps every setting of the backup (what the user chooses when nothing loosens, or confirms). */
const applyAll = async () => [];

async function seed(storage: Storage) {
  const ws = await createWorkspace(storage, "My app", { seedReadme: true });
  const other = await createWorkspace(storage, "Scratch");
  await storage.files.apply(ws.id, [
    { v: RECORD_VERSION, workspaceId: ws.id, path: "src", kind: "dir", mtime: 1 },
    { v: RECORD_VERSION, workspaceId: ws.id, path: "src/a.ts", kind: "file", data: "export const a = 1;\n", mtime: 2 },
    { v: RECORD_VERSION, workspaceId: ws.id, path: "logo.png", kind: "file", data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]), mtime: 3 },
  ], []);
  const s = session({ id: "ses_1", workspaceId: ws.id, title: "Fix the build" });
  const user = userMessage(s.id, { id: "msg_1" });
  const reply = assistantMessage(s.id, user.id, { id: "msg_2" });
  await storage.writeBatch({
    sessions: [s],
    messages: [user, reply],
    parts: [part(user, { type: "text", text: "Please fix it" }, "prt_1"), part(reply, { type: "text", text: "Done." }, "prt_2")],
  });
  await storage.blobs.putMany([{ hash: "h1", data: "old text" }, { hash: "h2", data: new Uint8Array([0, 9, 8]) }]);
  await storage.snapshots.put({ v: RECORD_VERSION, id: "snp_1", workspaceId: ws.id, createdAt: 5, files: { "src/a.ts": "h1", "logo.png": "h2" } });
  await storage.settings.put("providers", [{ id: "openai", preset: "openai", apiKey: "sk-secret-123", baseURL: "https://api.example" }]);
  await storage.settings.put("runtime", { enabled: true, bootTimeoutMs: 15000, webContainerApiKey: "wc-secret", githubAccessToken: "github_pat_secret", githubApiUrl: "https://ghe.example.com/api/v3" });
  await storage.settings.put("budget", { maxCost: 5 });
  return { ws, other };
}

describe("backup and restore", () => {
  it("restore(backup(state)) into an empty database reproduces every record, without keys", async () => {
    const source = await fresh();
    await seed(source);
    const bytes = await source.backup();
    const decoded = JSON.stringify(decodeBackup(bytes), (_k, v: unknown) => (v instanceof Uint8Array ? Array.from(v) : v));
    expect(decoded).not.toContain("sk-secret-123");
    expect(decoded).not.toContain("wc-secret");
    expect(decoded).toContain("Please fix it");
    const target = await fresh();
    const summary = await target.restoreBackup(bytes, applyAll);
    expect(summary.workspacesAdded.sort()).toEqual(["My app", "Scratch"]);
    const before = await source.readEverything();
    const fileCount = before.files.filter((f) => f.kind === "file").length;
    expect(fileCount).toBeGreaterThanOrEqual(3);
    expect(summary).toMatchObject({ workspacesRenamed: [], workspacesKept: 0, filesAdded: fileCount, sessionsAdded: 1, messagesAdded: 2 });
    const after = await target.readEverything();
    expect(after).toEqual(before);
    expect(after.files.find((f) => f.path === "logo.png")?.data).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]));
    expect(after.blobs.find((b) => b.hash === "h2")?.data).toBeInstanceOf(Uint8Array);
    // Keys are nowhere: not in the backup, not in the restored settings.
    expect(await target.settings.get("providers")).toEqual([{ id: "openai", preset: "openai", baseURL: "https://api.example" }]);
    expect(await target.settings.get("runtime")).toEqual({ enabled: true, bootTimeoutMs: 15000, githubApiUrl: "https://ghe.example.com/api/v3" });
    source.close();
    target.close();
  });

  it("merges without overwriting: existing records stay, a taken workspace name gets a suffix", async () => {
    const source = await fresh();
    const { ws } = await seed(source);
    const bytes = await source.backup();
    // Restoring into the same database adds nothing and changes nothing.
    const before = await source.readEverything();
    const again = await source.restoreBackup(bytes, applyAll);
    expect(again).toMatchObject({ workspacesAdded: [], workspacesKept: 2, filesAdded: 0, sessionsAdded: 0, sessionsKept: 1, messagesAdded: 0, settingsAdded: [] });
    expect(await source.readEverything()).toEqual(before);

    const target = await fresh();
    const mine = await createWorkspace(target, "My app");
    await target.settings.put("budget", { maxCost: 1 });
    const summary = await target.restoreBackup(bytes, applyAll);
    expect(summary.workspacesRenamed).toEqual([["My app", "My app (restored)"]]);
    expect(summary.settingsAdded.sort()).toEqual(["providers", "runtime"]);
    const list = await target.workspaces.list();
    expect(list.find((w) => w.id === mine.id)?.name).toBe("My app");
    expect(list.find((w) => w.id === ws.id)?.name).toBe("My app (restored)");
    expect(await target.settings.get("budget")).toEqual({ maxCost: 1 });
    expect((await target.files.list(ws.id)).map((f) => f.path).sort()).toEqual(["README.md", "logo.png", "src", "src/a.ts"]);
    source.close();
    target.close();
  });

  it("refuses a foreign, damaged or newer file with a clear message and writes nothing", async () => {
    const source = await fresh();
    await seed(source);
    const good = await source.backup();
    const target = await fresh();
    const empty = await target.readEverything();
    const manifest = (value: unknown) => zipSync({ "backup.json": strToU8(JSON.stringify(value)) });
    const cases: Array<[Uint8Array, RegExp]> = [
      [strToU8("hello, not a zip"), /not a webcode backup/],
      [good.slice(0, Math.floor(good.length / 2)), /not a webcode backup|damaged/],
      [zipSync({ "other.txt": strToU8("x") }), /no backup\.json/],
      [manifest({ format: "something-else" }), /not a webcode backup/],
      [manifest({ format: "webcode-backup", version: 99 }), /version 99/],
      [manifest({ format: "webcode-backup", version: 1, workspaces: [{ id: 3 }], files: [], sessions: [], messages: [], parts: [], blobs: [], snapshots: [], settings: [] }), /workspaces record 1 is invalid/],
      [manifest({ format: "webcode-backup", version: 1, workspaces: [], files: [{ $bytes: 0 }] }), /binary entry 0 is missing/],
    ];
    for (const [bytes, message] of cases) {
      const error = await target.restoreBackup(bytes, applyAll).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BackupError);
      expect((error as Error).message).toMatch(message);
    }
    expect(await target.readEverything()).toEqual(empty);
    source.close();
    target.close();
  });
});

describe("schema migrations keep the previous data until they succeed", () => {
  it("a migration that fails leaves the database at its version with its records; a good one upgrades it", async () => {
    const { openDatabase, SCHEMA_MIGRATIONS } = await import("../../src/storage/database");
    const name = `migration-${Date.now()}`;
    const v1 = await openDatabase(name);
    await v1.put("settings", { key: "budget", value: { maxCost: 3 } });
    await v1.put("workspaces", { v: 1, id: "ws_1", name: "Kept", createdAt: 1, updatedAt: 1 });
    v1.close();

    const failing = [
      ...SCHEMA_MIGRATIONS,
      (db: Parameters<(typeof SCHEMA_MIGRATIONS)[number]>[0], tx: Parameters<(typeof SCHEMA_MIGRATIONS)[number]>[1]) => {
        // Half-way through: a store is dropped, records rewritten, then the migration fails.
        db.deleteObjectStore("settings");
        tx.objectStore("workspaces").put({ v: 2, id: "ws_1", name: "Rewritten", createdAt: 1, updatedAt: 2 }).catch(() => undefined);
        throw new Error("migration bug");
      },
    ];
    await expect(openDatabase(name, failing)).rejects.toThrow();
    const after = await openDatabase(name);
    expect(after.version).toBe(SCHEMA_MIGRATIONS.length);
    expect(await after.get("settings", "budget")).toEqual({ key: "budget", value: { maxCost: 3 } });
    expect((await after.get("workspaces", "ws_1"))?.name).toBe("Kept");
    after.close();

    const good = [...SCHEMA_MIGRATIONS, (_db: unknown, tx: Parameters<(typeof SCHEMA_MIGRATIONS)[number]>[1]) => void tx.objectStore("settings").put({ key: "migrated", value: true }).catch(() => undefined)];
    const upgraded = await openDatabase(name, good);
    expect(upgraded.version).toBe(SCHEMA_MIGRATIONS.length + 1);
    expect(await upgraded.get("settings", "migrated")).toEqual({ key: "migrated", value: true });
    expect(await upgraded.get("settings", "budget")).toEqual({ key: "budget", value: { maxCost: 3 } });
    upgraded.close();
  });
});
