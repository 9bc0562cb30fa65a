// The restore step: everything read from IndexedDB passes through here. Parse, then migrate: the
// record's version is read first, an older record is migrated step by step (RECORD_MIGRATIONS in
// migrations.ts), and the result is parsed against the current schema (schemas.ts). A record that
// fails is dropped (and reported), never allowed to crash the app. Fields the schema does not know
// are dropped.
import type { z } from "zod";
import { yieldToPage } from "../base";
import { RECORD_VERSION, type FileRecord, type MessageRecord, type PartRecord, type SessionRecord, type SnapshotRecord, type WorkspaceRecord } from "./records";
import { RECORD_MIGRATIONS, type RecordKind, type RecordMigrations } from "./migrations";
import { recordSchemas } from "./schemas";

export { RECORD_MIGRATIONS, type RecordKind, type RecordMigrations } from "./migrations";

export class RestoreError extends Error {
  constructor(kind: string, reason: string) {
    super(`Invalid ${kind} record: ${reason}`);
    this.name = "RestoreError";
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Brings a stored record to `target` (the current version) through the kind's migrations. The
 * registry and target are parameters so a test can run a real step on stored data.
 */
export function migrateRecord(
  kind: RecordKind,
  value: unknown,
  migrations: RecordMigrations = RECORD_MIGRATIONS,
  target: number = RECORD_VERSION,
): Record<string, unknown> {
  if (!isObject(value)) throw new RestoreError(kind, "not an object");
  let record = value;
  let version = typeof record.v === "number" ? record.v : 1;
  if (version > target) throw new RestoreError(kind, `written by a newer webcode (version ${version})`);
  const steps = migrations[kind];
  while (version < target) {
    const step = steps[version - 1];
    if (!step) throw new RestoreError(kind, `no migration from version ${version}`);
    record = step(record);
    version++;
  }
  return { ...record, v: target };
}

function parse<S extends z.ZodType>(kind: RecordKind, schema: S, record: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(record);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `"${issue.path.join(".")}": ` : "";
  throw new RestoreError(kind, `${where}${issue?.message ?? "does not match its schema"}`);
}

export const restoreWorkspace = (value: unknown): WorkspaceRecord => parse("workspace", recordSchemas().workspace, migrateRecord("workspace", value));
export const restoreFile = (value: unknown): FileRecord => parse("file", recordSchemas().file, migrateRecord("file", value));
export const restoreSession = (value: unknown): SessionRecord => parse("session", recordSchemas().session, migrateRecord("session", value));
export const restoreMessage = (value: unknown): MessageRecord => parse("message", recordSchemas().message, migrateRecord("message", value));
export const restorePart = (value: unknown): PartRecord => parse("part", recordSchemas().part, migrateRecord("part", value));
export const restoreSnapshot = (value: unknown): SnapshotRecord => parse("snapshot", recordSchemas().snapshot, migrateRecord("snapshot", value));

/** Restores a list, dropping (and reporting once) records that fail validation. */
export function restoreAll<T>(values: unknown[], restore: (value: unknown) => T, onInvalid?: (error: unknown) => void): T[] {
  const out: T[] = [];
  for (const value of values) {
    try {
      out.push(restore(value));
    } catch (error) {
      onInvalid?.(error);
    }
  }
  return out;
}

/** How long a list restore works before it lets the page run (see restoreList). */
const RESTORE_SLICE_MS = 8;

/**
 * restoreAll for the lists the repositories read: parsing is the same, but a long list (a session
 * of 20,000 parts) is parsed in slices of about RESTORE_SLICE_MS with the page let run between
 * them, instead of one task that holds the page for a quarter of a second.
 */
export async function restoreList<T>(values: unknown[], restore: (value: unknown) => T, onInvalid?: (error: unknown) => void): Promise<T[]> {
  const out: T[] = [];
  let sliceStart = performance.now();
  for (let i = 0; i < values.length; i++) {
    if (i % 64 === 63 && performance.now() - sliceStart > RESTORE_SLICE_MS) {
      await yieldToPage();
      sliceStart = performance.now();
    }
    try {
      out.push(restore(values[i]));
    } catch (error) {
      onInvalid?.(error);
    }
  }
  return out;
}

