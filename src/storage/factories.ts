// The factories of the records the agent writes: the only places that set `v` (the record version)
// and new ids. Callers give the fields that mean something; the rest is filled the same way always.
import { newId } from "../base";
import {
  RECORD_VERSION,
  emptyUsage,
  type AssistantMessageRecord,
  type FileRecord,
  type PartRecord,
  type SessionRecord,
  type SnapshotRecord,
  type UserMessageRecord,
  type WorkspaceRecord,
} from "./records";

type Distribute<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A part without what newPart fills in (version, id, session and message). */
export type PartBody = Distribute<PartRecord, "v" | "id" | "sessionId" | "messageId">;
export interface PartOwner {
  sessionId: string;
  messageId: string;
}
export interface PartHeader extends PartOwner {
  v: number;
  id: string;
}

/**
 * What a record brought from elsewhere keeps instead of a new value: its creation time (a message
 * of an opened share) or a fixed id (a stand-in that is never stored). Unset: new ones.
 */
export interface Kept {
  id?: string;
  createdAt?: number;
}

type SessionDefaults = "permission" | "tokens" | "cost" | "todos";
export type NewSession = Omit<SessionRecord, "v" | "id" | "createdAt" | "updatedAt" | SessionDefaults> & Partial<Pick<SessionRecord, SessionDefaults>>;

// The version and id are written after the caller's fields: a spread of an imported record cannot
// bring its own.
export function newSession(fields: NewSession, now: number = Date.now(), kept: Kept = {}): SessionRecord {
  const createdAt = kept.createdAt ?? now;
  return { permission: [], tokens: emptyUsage(), cost: 0, todos: [], ...fields, v: RECORD_VERSION, id: kept.id ?? newId("ses", now), createdAt, updatedAt: now };
}

export function newUserMessage(fields: Omit<UserMessageRecord, "v" | "id" | "role" | "createdAt">, now: number = Date.now(), kept: Kept = {}): UserMessageRecord {
  return { ...fields, v: RECORD_VERSION, id: kept.id ?? newId("msg", now), role: "user", createdAt: kept.createdAt ?? now };
}

export function newAssistantMessage(
  fields: Omit<AssistantMessageRecord, "v" | "id" | "role" | "createdAt" | "tokens" | "cost"> & Partial<Pick<AssistantMessageRecord, "tokens" | "cost">>,
  now: number = Date.now(),
  kept: Kept = {},
): AssistantMessageRecord {
  return { tokens: emptyUsage(), cost: 0, ...fields, v: RECORD_VERSION, id: kept.id ?? newId("msg", now), role: "assistant", createdAt: kept.createdAt ?? now };
}

/** The fields every new part starts with (for code that builds a part's body in steps). */
export function newPartHeader(owner: PartOwner, now: number = Date.now()): PartHeader {
  return { v: RECORD_VERSION, id: newId("prt", now), sessionId: owner.sessionId, messageId: owner.messageId };
}

export function newPart<B extends PartBody>(owner: PartOwner, body: B, now: number = Date.now()): B & PartHeader {
  return { ...body, ...newPartHeader(owner, now) };
}

export function newSnapshot(fields: Omit<SnapshotRecord, "v" | "id" | "createdAt">, now: number = Date.now()): SnapshotRecord {
  return { ...fields, v: RECORD_VERSION, id: newId("snp", now), createdAt: now };
}

export function newWorkspace(fields: Omit<WorkspaceRecord, "v" | "id" | "createdAt" | "updatedAt">, now: number = Date.now()): WorkspaceRecord {
  return { ...fields, v: RECORD_VERSION, id: newId("ws", now), createdAt: now, updatedAt: now };
}

/** A stored file or folder of a workspace (keyed by workspace and path: no id of its own). */
export function fileRecord(fields: Omit<FileRecord, "v">): FileRecord {
  return { ...fields, v: RECORD_VERSION };
}
