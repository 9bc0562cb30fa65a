// Back up everything and restore it: one file holding every workspace (files, binary ones included),
// every session with its messages, parts and snapshots (and their blobs), and the settings without
// keys. Restoring merges: nothing that exists is overwritten, a workspace whose name is taken gets a
// suffix, and the summary says what was added. A file that is not a valid backup is refused before
// anything is written; everything is written in one transaction.
//
// The file is a zip (fflate): backup.json with the records, and each byte array (binary files, blobs)
// as its own entry referenced from the JSON as {"$bytes": n}, so binary data is stored as is.
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from "fflate";
import type { WebcodeDatabase } from "./database";
import type { BlobRecord, FileRecord, MessageRecord, PartRecord, SessionRecord, SettingRecord, SnapshotRecord, WorkspaceRecord } from "./records";
import { restoreFile, restoreMessage, restorePart, restoreSession, restoreSnapshot, restoreWorkspace } from "./restore";
import { StorageQuotaError } from "./repositories";

export const BACKUP_FORMAT = "webcode-backup";
export const BACKUP_VERSION = 1;
const MANIFEST = "backup.json";

export interface BackupContents {
  workspaces: WorkspaceRecord[];
  files: FileRecord[];
  sessions: SessionRecord[];
  messages: MessageRecord[];
  parts: PartRecord[];
  blobs: BlobRecord[];
  snapshots: SnapshotRecord[];
  settings: SettingRecord[];
}

const STORES = ["workspaces", "files", "sessions", "messages", "parts", "blobs", "snapshots", "settings"] as const;

export interface RestoreSummary {
  /** Workspaces added, by the name they have now. */
  workspacesAdded: string[];
  /** Added under another name because theirs was taken: [name in the backup, name now]. */
  workspacesRenamed: Array<[from: string, to: string]>;
  /** Workspaces already here (same identity): left as they are. */
  workspacesKept: number;
  filesAdded: number;
  sessionsAdded: number;
  sessionsKept: number;
  messagesAdded: number;
  settingsAdded: string[];
  /** Settings of the backup that were new here but left out by the review (see SettingsReview). */
  settingsWithheld: string[];
}

/**
 * Asked before anything is written, with the backup's settings that a restore would add (settings
 * whose key is stored here are never overwritten, so they are not asked about): returns the keys of
 * those to leave out. The caller knows which settings let the agent do more (permission rules, MCP
 * servers, network settings) and asks the user; storage only applies the answer.
 */
export type SettingsReview = (added: readonly SettingRecord[]) => Promise<Iterable<string>>;

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/** Settings fields that hold secrets: never written to a backup. */
const SECRET_FIELD = /(api[-_]?key|secret|password|access[-_]?token)$/i;

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === "object" && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!SECRET_FIELD.test(k)) out[k] = withoutSecrets(v);
    return out;
  }
  return value;
}

/** Reads everything (one read transaction, so the backup is consistent). */
export async function readEverything(db: WebcodeDatabase): Promise<BackupContents> {
  const tx = db.transaction([...STORES], "readonly");
  const [workspaces, files, sessions, messages, parts, blobs, snapshots, settings] = await Promise.all(STORES.map((s) => tx.objectStore(s).getAll()));
  await tx.done;
  return {
    workspaces: workspaces as WorkspaceRecord[],
    files: files as FileRecord[],
    sessions: sessions as SessionRecord[],
    messages: messages as MessageRecord[],
    parts: parts as PartRecord[],
    blobs: blobs as BlobRecord[],
    snapshots: snapshots as SnapshotRecord[],
    settings: (settings as SettingRecord[]).map((s) => ({ key: s.key, value: withoutSecrets(s.value) })),
  };
}

/** The backup file of everything in the database. */
export async function createBackup(db: WebcodeDatabase, now = Date.now()): Promise<Uint8Array> {
  return encodeBackup(await readEverything(db), now);
}

export function encodeBackup(contents: BackupContents, now = Date.now()): Uint8Array {
  const entries: Zippable = {};
  let count = 0;
  const json = JSON.stringify({ format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: now, ...contents }, (_key, value: unknown) => {
    if (value instanceof Uint8Array) {
      const n = count++;
      entries[`bytes/${n}`] = value;
      return { $bytes: n };
    }
    return value;
  });
  entries[MANIFEST] = strToU8(json);
  return zipSync(entries, { level: 6 });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses and validates a backup file; throws BackupError saying what is wrong. Writes nothing. */
export function decodeBackup(bytes: Uint8Array): BackupContents {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch {
    throw new BackupError("This file is not a webcode backup (it is not a zip archive, or it is damaged).");
  }
  const manifest = entries[MANIFEST];
  if (!manifest) throw new BackupError("This file is not a webcode backup (it has no backup.json).");
  let parsed: unknown;
  try {
    parsed = JSON.parse(strFromU8(manifest), (_key, value: unknown) => {
      if (isObject(value) && typeof value.$bytes === "number" && Object.keys(value).length === 1) {
        const data = entries[`bytes/${value.$bytes}`];
        if (!data) throw new BackupError(`The backup is damaged: binary entry ${value.$bytes} is missing.`);
        return data;
      }
      return value;
    });
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError("The backup is damaged: backup.json is not valid JSON.");
  }
  if (!isObject(parsed) || parsed.format !== BACKUP_FORMAT) throw new BackupError("This file is not a webcode backup.");
  if (parsed.version !== BACKUP_VERSION) {
    throw new BackupError(`This backup has format version ${String(parsed.version)}; this webcode reads version ${BACKUP_VERSION}. Update webcode and try again.`);
  }
  const list = (name: (typeof STORES)[number]): unknown[] => {
    const value = parsed[name];
    if (!Array.isArray(value)) throw new BackupError(`The backup is damaged: "${name}" is missing.`);
    return value;
  };
  const check = <T>(name: (typeof STORES)[number], restore: (value: unknown) => T): T[] =>
    list(name).map((value, i) => {
      try {
        return restore(value);
      } catch (error) {
        throw new BackupError(`The backup is damaged: ${name} record ${i + 1} is invalid (${(error as Error).message}).`);
      }
    });
  return {
    workspaces: check("workspaces", restoreWorkspace),
    files: check("files", restoreFile),
    sessions: check("sessions", restoreSession),
    messages: check("messages", restoreMessage),
    parts: check("parts", restorePart),
    snapshots: check("snapshots", restoreSnapshot),
    blobs: check("blobs", (value) => {
      if (!isObject(value) || typeof value.hash !== "string" || !(typeof value.data === "string" || value.data instanceof Uint8Array)) throw new Error("not a blob");
      return value as unknown as BlobRecord;
    }),
    settings: check("settings", (value) => {
      if (!isObject(value) || typeof value.key !== "string") throw new Error("not a setting");
      return { key: value.key, value: value.value };
    }),
  };
}

function freeName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 1; ; n++) {
    const candidate = `${name} (restored${n === 1 ? "" : ` ${n}`})`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The backup's settings whose key is not stored here (the first of each key, as the restore adds them). */
async function settingsToAdd(db: WebcodeDatabase, settings: readonly SettingRecord[]): Promise<SettingRecord[]> {
  const stored = new Set(await db.getAllKeys("settings"));
  const added: SettingRecord[] = [];
  for (const setting of settings) {
    if (stored.has(setting.key)) continue;
    stored.add(setting.key);
    added.push(setting);
  }
  return added;
}

/**
 * Merges a backup into the database without overwriting anything: records whose identity exists are
 * kept as they are (a workspace already here keeps its files), new ones are added, a new workspace
 * whose name is taken gets " (restored)". `review` is asked first which new settings to leave out.
 * One transaction: on any failure nothing is written.
 */
export async function restoreBackup(db: WebcodeDatabase, bytes: Uint8Array, review: SettingsReview): Promise<RestoreSummary> {
  const backup = decodeBackup(bytes);
  // Asked before the write transaction: a transaction would not stay open while the user answers.
  const withheld = new Set(await review(await settingsToAdd(db, backup.settings)));
  const summary: RestoreSummary = {
    workspacesAdded: [],
    workspacesRenamed: [],
    workspacesKept: 0,
    filesAdded: 0,
    sessionsAdded: 0,
    sessionsKept: 0,
    messagesAdded: 0,
    settingsAdded: [],
    settingsWithheld: [],
  };
  try {
    const tx = db.transaction([...STORES], "readwrite");
    const store = <N extends (typeof STORES)[number]>(name: N) => tx.objectStore(name);
    const existing = await store("workspaces").getAll();
    const names = new Set(existing.map((w) => w.name));
    const ids = new Set(existing.map((w) => w.id));
    const added = new Set<string>();
    for (const workspace of backup.workspaces) {
      if (ids.has(workspace.id)) {
        summary.workspacesKept++;
        continue;
      }
      const name = freeName(workspace.name, names);
      names.add(name);
      if (name !== workspace.name) summary.workspacesRenamed.push([workspace.name, name]);
      summary.workspacesAdded.push(name);
      added.add(workspace.id);
      await store("workspaces").add({ ...workspace, name });
    }
    for (const file of backup.files) {
      if (!added.has(file.workspaceId)) continue;
      await store("files").add(file);
      if (file.kind === "file") summary.filesAdded++;
    }
    const addIfAbsent = async <N extends "sessions" | "messages" | "parts" | "blobs" | "snapshots" | "settings">(name: N, key: IDBValidKey, value: unknown): Promise<boolean> => {
      const s = store(name);
      if ((await s.count(key as never)) > 0) return false;
      await s.add(value as never);
      return true;
    };
    for (const session of backup.sessions) {
      if (await addIfAbsent("sessions", session.id, session)) summary.sessionsAdded++;
      else summary.sessionsKept++;
    }
    for (const message of backup.messages) if (await addIfAbsent("messages", message.id, message)) summary.messagesAdded++;
    for (const part of backup.parts) await addIfAbsent("parts", part.id, part);
    for (const blob of backup.blobs) await addIfAbsent("blobs", blob.hash, blob);
    for (const snapshot of backup.snapshots) await addIfAbsent("snapshots", snapshot.id, snapshot);
    for (const setting of backup.settings) {
      if (withheld.has(setting.key)) {
        if (!summary.settingsWithheld.includes(setting.key)) summary.settingsWithheld.push(setting.key);
      } else if (await addIfAbsent("settings", setting.key, setting)) summary.settingsAdded.push(setting.key);
    }
    await tx.done;
  } catch (error) {
    if (error instanceof DOMException && error.name === "QuotaExceededError") throw new StorageQuotaError(error);
    throw error;
  }
  return summary;
}
