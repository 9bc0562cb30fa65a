import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/storage/database";
import { RECORD_VERSION } from "../../src/storage/records";
import { migrateRecord, RECORD_MIGRATIONS, restorePart, restoreSession, RestoreError, type RecordMigrations } from "../../src/storage/restore";
import { recordSchemas } from "../../src/storage/schemas";

let counter = 0;

describe("records as schemas: parse, then migrate", () => {
  it("the real registry has one step per older version for every record kind", () => {
    for (const [kind, steps] of Object.entries(RECORD_MIGRATIONS)) {
      expect(steps.length, kind).toBe(RECORD_VERSION - 1);
    }
  });

  it("runs a v1 -> v2 step on a session stored in IndexedDB, then parses the result", async () => {
    // No record kind has a v2 yet (RECORD_VERSION is 1): the step is this test's own, run through
    // the same migrateRecord and schema the repositories use, on a record read back from IndexedDB.
    const db = await openDatabase(`schemas-test-${counter++}`);
    const v1 = { v: 1, id: "s1", workspaceId: "w1", title: "t", createdAt: 1, updatedAt: 2, agent: "build", share: { openedFrom: "link" } };
    await db.put("sessions", v1 as never);
    const stored = await db.get("sessions", "s1");
    db.close();
    const migrations: RecordMigrations = {
      ...RECORD_MIGRATIONS,
      session: [(r) => ({ ...r, share: r.share ? { ...(r.share as object), readOnly: true } : undefined })],
    };
    const migrated = migrateRecord("session", stored, migrations, 2);
    expect(migrated.v).toBe(2);
    const session = recordSchemas().session.parse(migrated);
    expect(session.share).toEqual({ openedFrom: "link", readOnly: true });
    // Fields the restore step always defaulted are still defaulted by the schema.
    expect(session.todos).toEqual([]);
    expect(session.permission).toEqual([]);
    expect(session.cost).toBe(0);
    expect(session.tokens).toEqual({ input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 });
    // Without the step the same stored record does not reach v2.
    expect(() => migrateRecord("session", stored, RECORD_MIGRATIONS, 2)).toThrow(/no migration from version 1/);
  });

  it("refuses a record whose nested shape is wrong and names the field", () => {
    const base = { v: 1, id: "p1", sessionId: "s1", messageId: "m1" };
    expect(() => restorePart({ ...base, type: "step-finish", reason: "stop", tokens: { input: "many" }, cost: 0 })).toThrow(RestoreError);
    expect(() => restorePart({ ...base, type: "step-finish", reason: "stop", tokens: { input: "many" }, cost: 0 })).toThrow(/tokens/);
    expect(() => restorePart({ ...base, type: "video" })).toThrow(RestoreError);
    expect(() => restoreSession({ v: 1, id: "s1", workspaceId: "w1", title: 3, createdAt: 1, updatedAt: 1, agent: "build" })).toThrow(/title/);
  });
});
