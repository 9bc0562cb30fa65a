import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/storage/database";
import { RECORD_VERSION } from "../../src/storage/records";
import { migrateRecord, RECORD_MIGRATIONS, restoreFile, restorePart, restoreSession, RestoreError, type RecordMigrations } from "../../src/storage/restore";
import { openStorage } from "../../src/storage";
import { decodeShareLink, openShare } from "../../src/transfer";

let counter = 0;
/** A share link made by webcode before record version 2 (share format v1). */
const VECTOR = readFileSync(new URL("../fixtures/share-v1-vector.txt", import.meta.url), "utf8").trim();

describe("records as schemas: parse, then migrate", () => {
  it("the real registry has one step per older version for every record kind", () => {
    for (const [kind, steps] of Object.entries(RECORD_MIGRATIONS)) {
      expect(steps.length, kind).toBe(RECORD_VERSION - 1);
    }
  });

  it("runs the real v1 -> v2 step on files stored in IndexedDB; new records are written as v2", async () => {
    expect(RECORD_VERSION).toBe(2);
    const name = `schemas-test-${counter++}`;
    // Stored as version 1 wrote them: a file from before `mtime` existed, one with it, a session.
    const db = await openDatabase(name);
    await db.put("files", { v: 1, workspaceId: "w1", path: "old.txt", kind: "file", data: "old" } as never);
    await db.put("files", { v: 1, workspaceId: "w1", path: "new.txt", kind: "file", data: "new", mtime: 5 } as never);
    await db.put("sessions", { v: 1, id: "s1", workspaceId: "w1", title: "t", createdAt: 1, updatedAt: 2, agent: "build" } as never);
    db.close();

    const storage = await openStorage({ name });
    const files = await storage.files.list("w1");
    expect(files.map((f) => [f.path, f.v, f.mtime]).sort()).toEqual([
      ["new.txt", 2, 5],
      ["old.txt", 2, 0],
    ]);
    expect((await storage.sessions.get("s1"))?.v).toBe(2);

    // The write path writes v2: a share (a v1 envelope, the committed vector) opened as a workspace.
    const opened = await openShare(storage, decodeShareLink(VECTOR), { now: 1_700_000_200_000 });
    const raw = await openDatabase(name);
    const written = await raw.getAllFromIndex("files", "workspaceId", opened.workspace.id);
    const session = await raw.get("sessions", opened.session.id);
    const parts = await raw.getAllFromIndex("parts", "sessionId", opened.session.id);
    raw.close();
    expect(written.length).toBeGreaterThan(0);
    expect(written.every((f) => f.v === 2 && typeof f.mtime === "number")).toBe(true);
    expect(session?.v).toBe(2);
    expect(parts.length).toBeGreaterThan(0);
    expect(parts.every((p) => p.v === 2)).toBe(true);
  });

  it("the v2 schema requires mtime: only the migration supplies it", () => {
    const v2 = { v: 2, workspaceId: "w1", path: "a", kind: "file", data: "" };
    expect(() => restoreFile(v2)).toThrow(/mtime/);
    expect(restoreFile({ ...v2, v: 1 }).mtime).toBe(0);
    expect(() => migrateRecord("file", { ...v2, v: 3 })).toThrow(/newer webcode/);
  });

  it("migrateRecord stops at a version without a step", () => {
    const migrations: RecordMigrations = { ...RECORD_MIGRATIONS, session: [] };
    expect(() => migrateRecord("session", { v: 1, id: "s1" }, migrations, 2)).toThrow(/no migration from version 1/);
  });

  it("refuses a record whose nested shape is wrong and names the field", () => {
    const base = { v: 1, id: "p1", sessionId: "s1", messageId: "m1" };
    expect(() => restorePart({ ...base, type: "step-finish", reason: "stop", tokens: { input: "many" }, cost: 0 })).toThrow(RestoreError);
    expect(() => restorePart({ ...base, type: "step-finish", reason: "stop", tokens: { input: "many" }, cost: 0 })).toThrow(/tokens/);
    expect(() => restorePart({ ...base, type: "video" })).toThrow(RestoreError);
    expect(() => restoreSession({ v: 1, id: "s1", workspaceId: "w1", title: 3, createdAt: 1, updatedAt: 1, agent: "build" })).toThrow(/title/);
  });
});
