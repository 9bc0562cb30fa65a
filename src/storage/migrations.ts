// The record migrations (docs/architecture.md "Persistence", "Adding a migration"). RECORD_VERSION
// (records.ts) is the version of the whole record format; each kind has one step per older version:
// entry i upgrades a stored record from version i+1 to i+2, and a kind that did not change at a
// version has `unchanged` there. A step works on stored data as it was written then: it reads
// plain fields, never the current schemas (which restore.ts applies after the last step).
//
// Version history:
//   2  File records always carry `mtime`. Version 1 files written before it existed had none and
//      were given 0 when read; the step writes that 0 once, and the schema requires the field.

export type Migration = (record: Record<string, unknown>) => Record<string, unknown>;
export type RecordKind = "workspace" | "file" | "session" | "message" | "part" | "snapshot";
export type RecordMigrations = Record<RecordKind, readonly Migration[]>;

const unchanged: Migration = (record) => record;

/** v1 -> v2: a file without a (numeric) modification time gets 0, as v1 reads always gave it. */
const fileMtime: Migration = (record) => ({ ...record, mtime: typeof record.mtime === "number" && Number.isFinite(record.mtime) ? record.mtime : 0 });

/** Record migrations by kind: entry i upgrades a record from version i+1 to i+2. */
export const RECORD_MIGRATIONS: RecordMigrations = {
  workspace: [unchanged],
  file: [fileMtime],
  session: [unchanged],
  message: [unchanged],
  part: [unchanged],
  snapshot: [unchanged],
};
