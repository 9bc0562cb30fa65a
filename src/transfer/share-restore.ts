// The restore step for shares: a decoded envelope is untrusted input. It is parsed strictly,
// checked beyond the schema (paths, references, sizes), and only then turned into records for a
// NEW read-only session and workspace with fresh ids — never overwriting anything that exists.
import { UserFacingError, errorMessage, newId, revealInvisibleChars, validatePath } from "../base";
import {
  newAssistantMessage,
  newPart,
  newSession,
  newUserMessage,
  type MessageRecord,
  type PartBody,
  type PartRecord,
  type SessionRecord,
  type Storage,
  type ToolState,
  type WorkspaceRecord,
} from "../storage";
import { base64Decode } from "./base64";
import { finishEntries, pathProblem, quoteName, type ImportEntry } from "./import-entries";
import { importAsNewWorkspace } from "./import-write";
import {
  SHARE_FORMAT,
  SHARE_MAX_MESSAGES,
  SHARE_MAX_PARTS,
  SHARE_MAX_PARTS_PER_MESSAGE,
  SHARE_PART_TYPES,
  SHARE_TOOL_OUTPUT_CHARS,
  SHARE_VERSION,
  shareableAttachmentUrl,
  shareSchemas,
  type DecodedSharePart,
  type ShareEnvelope,
  type SharePart,
} from "./share-envelope";

export type ShareErrorCode = "invalid" | "damaged" | "too-large" | "newer-version" | "not-a-share";

/** A link or file that cannot be opened. The message is for the user; nothing was written. */
export class ShareError extends UserFacingError {
  constructor(
    readonly reason: ShareErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, `share-${reason}`, options);
    this.name = "ShareError";
  }
}

export function newerVersionError(version: number): ShareError {
  return new ShareError(
    "newer-version",
    `This share was made by a newer version of webcode (format v${version}; this one reads v${SHARE_VERSION}). Reload the page to get the latest webcode, then open it again.`,
  );
}

export const damagedShare = (detail: string, cause?: unknown) =>
  new ShareError("damaged", `This share link is damaged or was changed (${detail}). Ask for the link again; it may have been cut off when it was copied.`, { cause });

const MAX_JSON_CHARS = 100_000;
const MAX_METADATA_CHARS = 20_000;
const MAX_JSON_DEPTH = 32;

/** A plain-data copy of untrusted JSON: bounded depth, no prototype-related keys. */
export function sanitizeJson(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (depth >= MAX_JSON_DEPTH) return null;
  if (Array.isArray(value)) return value.map((v) => sanitizeJson(v, depth + 1));
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
      out[key] = sanitizeJson(v, depth + 1);
    }
    return out;
  }
  return null;
}

/** Sanitised JSON, or a short truncated stand-in when its text is longer than `max`. */
export function boundedJson(value: unknown, max: number): { value: unknown; cut: boolean } {
  const clean = sanitizeJson(value);
  const text = JSON.stringify(clean) ?? "null";
  return text.length <= max ? { value: clean, cut: false } : { value: { truncated: text.slice(0, 2000) + "…" }, cut: true };
}

export function truncateOutput(output: string, max: number = SHARE_TOOL_OUTPUT_CHARS): string {
  if (output.length <= max) return output;
  return `${output.slice(0, max)}\n… (${(output.length - max).toLocaleString("en")} more characters not included in the share)`;
}

/** Forces a tool part into a finished, non-runnable state with bounded input, output and metadata. */
function restoreToolState(state: Extract<DecodedSharePart, { type: "tool" }>["state"]): ToolState {
  const input = boundedJson(state.input, MAX_JSON_CHARS).value;
  if (state.status === "pending" || state.status === "running") {
    const at = state.status === "running" ? state.start : 0;
    return { status: "error", input, error: "The tool had not finished when this session was shared.", start: at, end: at };
  }
  if (state.status === "error") return { status: "error", input, error: truncateOutput(state.error), start: state.start, end: state.end };
  return {
    status: "completed",
    input,
    output: truncateOutput(state.output),
    title: state.title,
    metadata: boundedJson(state.metadata, MAX_METADATA_CHARS).value as Record<string, unknown>,
    start: state.start,
    end: state.end,
  };
}

/**
 * A share may not carry text the user cannot see but the model would receive: the chat hides
 * `synthetic` parts and shows synthetic user messages as a bare divider, so the flag is dropped and
 * everything a share holds is shown as what it is (issue 9, point 2).
 */
function withoutSynthetic<T extends { synthetic?: boolean }>(value: T): T {
  if (!("synthetic" in value)) return value;
  const { synthetic: _synthetic, ...rest } = value;
  return rest as T;
}

function restorePart(part: DecodedSharePart): SharePart {
  switch (part.type) {
    case "text":
      return withoutSynthetic(part);
    case "tool":
      return { ...part, state: restoreToolState(part.state) as Extract<SharePart, { type: "tool" }>["state"] };
    case "file":
      return { ...part, url: shareableAttachmentUrl(part.mime, part.url) };
    default:
      return part;
  }
}

export interface RestoredShare {
  envelope: ShareEnvelope;
  /** The workspace files, validated (paths, duplicates) and decoded. */
  entries: ImportEntry[];
  /** Parts of unknown types that were dropped. */
  droppedParts: number;
}

const count = (n: number) => n.toLocaleString("en");

/** Refuses a share past the message and part caps (SHARE_MAX_*), before its contents are parsed. */
function checkShareCaps(raw: { messages?: unknown; parts?: unknown }): void {
  const messages = Array.isArray(raw.messages) ? raw.messages.length : 0;
  const parts = Array.isArray(raw.parts) ? raw.parts : [];
  const tooMany = (what: string) =>
    new ShareError("too-large", `This share holds ${what}, more than webcode opens. Ask the sender to share a shorter session (a new one, or this one after compacting it).`);
  if (messages > SHARE_MAX_MESSAGES) throw tooMany(`${count(messages)} messages (the limit is ${count(SHARE_MAX_MESSAGES)})`);
  if (parts.length > SHARE_MAX_PARTS) throw tooMany(`${count(parts.length)} message parts (the limit is ${count(SHARE_MAX_PARTS)})`);
  const perMessage = new Map<unknown, number>();
  for (const part of parts) {
    const messageId = (part as { messageId?: unknown } | null)?.messageId;
    const n = (perMessage.get(messageId) ?? 0) + 1;
    if (n > SHARE_MAX_PARTS_PER_MESSAGE) throw tooMany(`a message of more than ${count(SHARE_MAX_PARTS_PER_MESSAGE)} parts (the limit per message)`);
    perMessage.set(messageId, n);
  }
}

/**
 * Validates a parsed envelope (any JSON value). Throws ShareError; never returns half-valid data.
 */
export function restoreShareEnvelope(raw: unknown): RestoredShare {
  if (typeof raw !== "object" || raw === null || (raw as { format?: unknown }).format !== SHARE_FORMAT) {
    throw new ShareError("not-a-share", "This is not a webcode share. Check that you opened the whole link or the right file.");
  }
  const version = (raw as { version?: unknown }).version;
  if (typeof version === "number" && Number.isInteger(version) && version > SHARE_VERSION) throw newerVersionError(version);
  checkShareCaps(raw as { messages?: unknown; parts?: unknown });
  const parsed = shareSchemas().envelope.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw damagedShare(`${issue?.path.join(".") || "envelope"}: ${issue?.message ?? "invalid"}`);
  }
  const base = { ...parsed.data, messages: parsed.data.messages.map((m) => (m.role === "user" ? withoutSynthetic(m) : m)) };

  const messageIds = new Set<string>();
  const userIds = new Set<string>();
  for (const message of base.messages) {
    if (messageIds.has(message.id)) throw damagedShare(`message ${message.id} appears twice`);
    if (message.role === "assistant" && !userIds.has(message.parentId)) throw damagedShare(`message ${message.id} answers an unknown message`);
    messageIds.add(message.id);
    if (message.role === "user") userIds.add(message.id);
  }

  const allowed = new Set<string>(SHARE_PART_TYPES);
  const parts: SharePart[] = [];
  const partIds = new Set<string>();
  let droppedParts = 0;
  for (const value of base.parts) {
    const type = (value as { type?: unknown } | null)?.type;
    if (typeof type !== "string" || !allowed.has(type)) {
      droppedParts++;
      continue;
    }
    const part = shareSchemas().part.safeParse(value);
    if (!part.success) throw damagedShare(`a ${type} part: ${part.error.issues[0]?.message ?? "invalid"}`);
    if (!messageIds.has(part.data.messageId)) throw damagedShare(`part ${part.data.id} belongs to an unknown message`);
    if (partIds.has(part.data.id)) throw damagedShare(`part ${part.data.id} appears twice`);
    partIds.add(part.data.id);
    parts.push(restorePart(part.data));
  }

  const entries: ImportEntry[] = [];
  for (const file of base.files) {
    let path: string;
    try {
      path = validatePath(file.path);
    } catch (error) {
      throw damagedShare(`the file path ${quoteName(file.path.slice(0, 100))} ${pathProblem(file.path) ?? `is not allowed: ${revealInvisibleChars(errorMessage(error)).replace(/\.$/, "")}`}`);
    }
    if ("dir" in file) entries.push({ kind: "dir", path });
    else if ("data" in file) entries.push({ kind: "file", path, data: file.data });
    else {
      const bytes = base64Decode(file.base64);
      if (!bytes) throw damagedShare(`the file "${path}" is not valid base64`);
      entries.push({ kind: "file", path, data: bytes });
    }
  }
  let checked: ImportEntry[];
  try {
    checked = finishEntries(entries);
  } catch (error) {
    throw damagedShare(errorMessage(error));
  }
  return { envelope: { ...base, parts } as ShareEnvelope, entries: checked, droppedParts };
}

export interface ShareRecords {
  session: SessionRecord;
  messages: MessageRecord[];
  parts: PartRecord[];
}

/** Builds records with fresh ids for a new read-only session in workspace `workspaceId`. */
export function shareToRecords(envelope: ShareEnvelope, workspaceId: string, openedFrom: string, now: number = Date.now()): ShareRecords {
  const { title, agent, model } = envelope.session;
  const session = newSession({ workspaceId, title: title || "Shared session", agent, ...(model ? { model } : {}), share: { openedFrom, readOnly: true } }, now);
  const sessionId = session.id;
  const messageIds = new Map<string, string>();
  const messages: MessageRecord[] = envelope.messages.map((m) => {
    const kept = { createdAt: m.createdAt };
    const message =
      m.role === "user"
        ? // Never synthetic (see withoutSynthetic): a shared message is shown as the user's words.
          newUserMessage({ sessionId, agent: m.agent, ...(m.model ? { model: m.model } : {}) }, now, kept)
        : newAssistantMessage({ ...withoutIdentity(m), sessionId, parentId: messageIds.get(m.parentId)! }, now, kept);
    messageIds.set(m.id, message.id);
    return message;
  });
  const parts: PartRecord[] = envelope.parts.map((p) => newPart({ sessionId, messageId: messageIds.get(p.messageId)! }, withoutIdentity(p) as PartBody, now));
  return { session, messages, parts };
}

/** A shared record without what identifies it in the sender's storage (new records get new ids). */
function withoutIdentity<T extends { id: string }>(record: T): Omit<T, "id" | "role" | "messageId" | "createdAt"> {
  const { id: _id, role: _role, messageId: _messageId, createdAt: _createdAt, ...rest } = record as T & { role?: unknown; messageId?: unknown; createdAt?: unknown };
  return rest;
}

/**
 * Records written per transaction (issue 9, point 7). Each put clones its record in the page's
 * thread: 1,000 parts took about 60 ms of one task, twice that on a busy machine.
 */
const RECORDS_PER_WRITE = 500;

/**
 * Writes a session's records in several transactions of at most RECORDS_PER_WRITE messages or
 * parts: one transaction of 20,000 puts clones every record in a single task and holds the page
 * for a second. The caller deletes the workspace (and so all of it) when a write fails.
 */
async function writeInSlices(storage: Storage, records: ShareRecords): Promise<void> {
  await storage.writeBatch({ sessions: [records.session], messages: records.messages.slice(0, RECORDS_PER_WRITE) });
  for (let i = RECORDS_PER_WRITE; i < records.messages.length; i += RECORDS_PER_WRITE) {
    await storage.writeBatch({ messages: records.messages.slice(i, i + RECORDS_PER_WRITE) });
  }
  for (let i = 0; i < records.parts.length; i += RECORDS_PER_WRITE) {
    await storage.writeBatch({ parts: records.parts.slice(i, i + RECORDS_PER_WRITE) });
  }
}

export interface OpenedShare {
  workspace: WorkspaceRecord;
  session: SessionRecord;
  droppedParts: number;
}

/**
 * Opens a validated share as a new read-only session with its own new workspace. Nothing runs:
 * tool parts are finished records only. `openedFrom` says where it came from ("link" or a file name).
 */
export async function openShare(storage: Storage, restored: RestoredShare, options: { openedFrom?: string; now?: number } = {}): Promise<OpenedShare> {
  const now = options.now ?? Date.now();
  const title = restored.envelope.session.title.trim() || "Shared session";
  // The name is shown in the workspace list: text-direction characters there could disguise it.
  const workspace = await importAsNewWorkspace(storage, `Shared: ${revealInvisibleChars(title)}`.slice(0, 60), restored.entries, { readOnly: true, now });
  const records = shareToRecords(restored.envelope, workspace.id, options.openedFrom ?? "link", now);
  try {
    await writeInSlices(storage, records);
  } catch (error) {
    // Deleting the workspace deletes whatever part of the session was written.
    await storage.workspaces.delete(workspace.id).catch(() => undefined);
    throw error;
  }
  return { workspace, session: records.session, droppedParts: restored.droppedParts };
}

/**
 * "Continue": forks a shared read-only session into an editable one — a copy of its workspace and
 * transcript with new ids. The shared original stays as it was.
 */
export async function continueSharedSession(storage: Storage, sessionId: string, now: number = Date.now()): Promise<{ workspace: WorkspaceRecord; session: SessionRecord }> {
  const shared = await storage.sessions.get(sessionId);
  if (!shared) throw new UserFacingError("That shared session no longer exists. Open the link again.", "share-missing");
  const sourceWorkspace = await storage.workspaces.get(shared.workspaceId);
  const files = await storage.files.list(shared.workspaceId);
  const entries: ImportEntry[] = files.map((f) => (f.kind === "dir" ? { kind: "dir", path: f.path } : { kind: "file", path: f.path, data: f.data ?? "", mtime: f.mtime }));
  const workspace = await importAsNewWorkspace(storage, (sourceWorkspace?.name ?? shared.title).replace(/^Shared: /, ""), finishEntries(entries), { now });
  const sessionIdNew = newId("ses", now);
  const ids = new Map<string, string>();
  const messages = (await storage.messages.list(sessionId)).map((m) => {
    const id = newId("msg", now);
    ids.set(m.id, id);
    // Shares opened before synthetic flags were dropped on restore may still carry them.
    const copy = { ...m, id, sessionId: sessionIdNew, ...(m.role === "assistant" ? { parentId: ids.get(m.parentId) ?? m.parentId } : {}) } as MessageRecord;
    return copy.role === "user" ? withoutSynthetic(copy) : copy;
  });
  const parts = (await storage.parts.listBySession(sessionId)).map((p) => {
    const copy = { ...p, id: newId("prt", now), sessionId: sessionIdNew, messageId: ids.get(p.messageId) ?? p.messageId } as PartRecord;
    return copy.type === "text" ? withoutSynthetic(copy) : copy;
  });
  const { share: _share, ...rest } = shared;
  const session: SessionRecord = { ...rest, id: sessionIdNew, workspaceId: workspace.id, createdAt: now, updatedAt: now };
  try {
    await writeInSlices(storage, { session, messages, parts });
  } catch (error) {
    await storage.workspaces.delete(workspace.id).catch(() => undefined);
    throw error;
  }
  return { workspace, session };
}
