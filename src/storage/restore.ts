// The restore step: everything read from IndexedDB passes through here. A record from an older
// schema version is migrated; a record that fails validation is dropped (and reported), never
// allowed to crash the app.
import {
  RECORD_VERSION,
  emptyUsage,
  type FileRecord,
  type MessageRecord,
  type PartRecord,
  type SessionRecord,
  type SnapshotRecord,
  type WorkspaceRecord,
} from "./records";

type Migration = (record: Record<string, unknown>) => Record<string, unknown>;

/** Record migrations by kind: entry i upgrades a record from version i+1 to i+2. */
export const RECORD_MIGRATIONS: Record<string, Migration[]> = {
  workspace: [],
  file: [],
  session: [],
  message: [],
  part: [],
  snapshot: [],
};

export class RestoreError extends Error {
  constructor(kind: string, reason: string) {
    super(`Invalid ${kind} record: ${reason}`);
    this.name = "RestoreError";
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function migrate(kind: string, value: unknown): Record<string, unknown> {
  if (!isObject(value)) throw new RestoreError(kind, "not an object");
  let record = value;
  let version = typeof record.v === "number" ? record.v : 1;
  if (version > RECORD_VERSION) throw new RestoreError(kind, `written by a newer webcode (version ${version})`);
  const steps = RECORD_MIGRATIONS[kind] ?? [];
  while (version < RECORD_VERSION) {
    const step = steps[version - 1];
    if (!step) throw new RestoreError(kind, `no migration from version ${version}`);
    record = step(record);
    version++;
  }
  return { ...record, v: RECORD_VERSION };
}

function requireString(kind: string, record: Record<string, unknown>, ...fields: string[]): void {
  for (const field of fields) {
    if (typeof record[field] !== "string") throw new RestoreError(kind, `"${field}" must be a string`);
  }
}

function requireNumber(kind: string, record: Record<string, unknown>, ...fields: string[]): void {
  for (const field of fields) {
    if (typeof record[field] !== "number" || !Number.isFinite(record[field])) {
      throw new RestoreError(kind, `"${field}" must be a number`);
    }
  }
}

export function restoreWorkspace(value: unknown): WorkspaceRecord {
  const r = migrate("workspace", value);
  requireString("workspace", r, "id", "name");
  requireNumber("workspace", r, "createdAt", "updatedAt");
  return r as unknown as WorkspaceRecord;
}

export function restoreFile(value: unknown): FileRecord {
  const r = migrate("file", value);
  requireString("file", r, "workspaceId", "path");
  if (r.kind !== "file" && r.kind !== "dir") throw new RestoreError("file", `"kind" must be file or dir`);
  if (r.kind === "file" && typeof r.data !== "string" && !(r.data instanceof Uint8Array)) {
    throw new RestoreError("file", `"data" must be text or bytes`);
  }
  if (typeof r.mtime !== "number") r.mtime = 0;
  return r as unknown as FileRecord;
}

export function restoreSession(value: unknown): SessionRecord {
  const r = migrate("session", value);
  requireString("session", r, "id", "workspaceId", "title", "agent");
  requireNumber("session", r, "createdAt", "updatedAt");
  if (!Array.isArray(r.permission)) r.permission = [];
  if (!Array.isArray(r.todos)) r.todos = [];
  if (!isObject(r.tokens)) r.tokens = emptyUsage();
  if (typeof r.cost !== "number") r.cost = 0;
  return r as unknown as SessionRecord;
}

export function restoreMessage(value: unknown): MessageRecord {
  const r = migrate("message", value);
  requireString("message", r, "id", "sessionId", "agent");
  requireNumber("message", r, "createdAt");
  if (r.role === "assistant") {
    requireString("message", r, "parentId");
    if (!isObject(r.model)) throw new RestoreError("message", `"model" is missing`);
    if (!isObject(r.tokens)) r.tokens = emptyUsage();
    if (typeof r.cost !== "number") r.cost = 0;
  } else if (r.role !== "user") {
    throw new RestoreError("message", `unknown role ${String(r.role)}`);
  }
  return r as unknown as MessageRecord;
}

const PART_TYPES = new Set([
  "text",
  "reasoning",
  "file",
  "tool",
  "step-start",
  "step-finish",
  "patch",
  "compaction",
  "subtask",
  "retry",
  "provider-tool",
  "source",
]);

export function restorePart(value: unknown): PartRecord {
  const r = migrate("part", value);
  requireString("part", r, "id", "sessionId", "messageId", "type");
  if (!PART_TYPES.has(r.type as string)) throw new RestoreError("part", `unknown type ${String(r.type)}`);
  if ((r.type === "text" || r.type === "reasoning") && typeof r.text !== "string") {
    throw new RestoreError("part", `"text" must be a string`);
  }
  if (r.type === "tool") {
    requireString("part", r, "callId", "tool");
    if (!isObject(r.state) || typeof r.state.status !== "string") throw new RestoreError("part", "tool state missing");
  }
  if (r.type === "provider-tool") {
    requireString("part", r, "callId", "tool");
    if (!isObject(r.state) || typeof r.state.status !== "string") throw new RestoreError("part", "provider tool state missing");
  }
  if (r.type === "source" && r.sourceType !== "url" && r.sourceType !== "document") throw new RestoreError("part", "unknown source type");
  return r as unknown as PartRecord;
}

export function restoreSnapshot(value: unknown): SnapshotRecord {
  const r = migrate("snapshot", value);
  requireString("snapshot", r, "id", "workspaceId");
  if (!isObject(r.files)) throw new RestoreError("snapshot", `"files" must be an object`);
  return r as unknown as SnapshotRecord;
}

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
