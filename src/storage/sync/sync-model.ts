// The shared document's data model (issue 33, docs/architecture.md "Sync"), version 2:
//
//   doc.getMap("meta")   version: 2; migrated: true once main's version-1 map was read
//   doc.getMap("tree")   workspace path -> Y.Map entry:
//                          kind     "text" | "binary" | "dir"
//                          text     Y.Text (kind text: concurrent edits merge per character)
//                          blob     BlobRef (kind binary: last writer wins, the loser kept as a copy)
//                          edit     id of the entry's last content change
//                          deleted  Tombstone: {edit} = the edit the deleting device had seen
//                          conflictOf  {path, device} on a conflict copy (said on every device)
//   doc.getMap("blobs")  sha256 hex -> Uint8Array (content-addressed; unreferenced ones are removed)
//   doc.getMap("files")  version 1 (main before this): path -> Y.Text; read once, then left alone
//
// A delete never removes an entry: it is a tombstone that keeps the text, so an edit made
// concurrently on another device (a new `edit` the deleting device had not seen) keeps the file.
import { digest } from "lib0/hash/sha256";
import * as Y from "yjs";
import { bytesEqual, toHex } from "../../base";

export const SYNC_DOC_VERSION = 2;
/**
 * The largest binary file synced. The server (ws under Hocuspocus) refuses messages over 100 MiB,
 * and a device's first sync receives the whole document (every blob) in one message; SQLite on the
 * server rewrites its file after each store. So blobs stay small and the document well under that.
 */
export const MAX_BLOB_BYTES = 5 * 1024 * 1024;

export type EntryKind = "text" | "binary" | "dir";
export type Entry = Y.Map<unknown>;

/** One write of a binary file. `base` is the write it replaced (what the writer had seen). */
export interface BlobRef {
  hash: string;
  size: number;
  /** The writing device's label (conflict copies are named after it). */
  writer: string;
  /** When it was written (ms since the epoch): the later write wins a conflict. */
  time: number;
  id: string;
  base: string | null;
}

export interface Tombstone {
  edit: string | null;
}

export interface ConflictOf {
  path: string;
  device: string;
}

export function sha256Hex(bytes: Uint8Array): string {
  return toHex(digest(bytes));
}

export function entryKind(entry: Entry): EntryKind | undefined {
  const kind = entry.get("kind");
  return kind === "text" || kind === "binary" || kind === "dir" ? kind : undefined;
}

/** Alive unless its tombstone saw its latest edit (an edit after or beside the delete keeps it). */
export function isAlive(entry: Entry): boolean {
  const deleted = entry.get("deleted") as Tombstone | undefined;
  if (!deleted) return true;
  return (entry.get("edit") ?? null) !== deleted.edit;
}

export function blobRef(entry: Entry): BlobRef | undefined {
  const ref = entry.get("blob") as BlobRef | undefined;
  return ref && typeof ref.hash === "string" ? ref : undefined;
}

/** The entry's content: text, bytes (undefined while its blob has not arrived), or undefined for a folder. */
export function entryContent(entry: Entry, blobs: Y.Map<Uint8Array>): string | Uint8Array | undefined {
  const kind = entryKind(entry);
  if (kind === "text") {
    const text = entry.get("text");
    return text instanceof Y.Text ? text.toString() : "";
  }
  if (kind === "binary") {
    const ref = blobRef(entry);
    return ref ? blobs.get(ref.hash) : undefined;
  }
  return undefined;
}

export function sameData(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  return bytesEqual(a, b);
}

/** `src/a.ts` + `local-conflict` -> `src/a.local-conflict.ts`; `Makefile` -> `Makefile.local-conflict`. */
export function taggedPath(path: string, tag: string): string {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  if (dot <= slash + 1) return `${path}.${tag}`;
  return `${path.slice(0, dot)}.${tag}${path.slice(dot)}`;
}

/** Where the first connect keeps a local text that differed: `src/a.local-conflict.ts`. */
export function conflictCopyPath(path: string): string {
  return taggedPath(path, "local-conflict");
}

/** Where a concurrent write's losing version is kept: `logo.conflict-<device>.png`. */
export function deviceConflictPath(path: string, device: string): string {
  return taggedPath(path, `conflict-${device.replace(/[^A-Za-z0-9_-]+/g, "-")}`);
}

/** The first of `path`, `path.2`, `path.3`… that `taken` says is free. */
export function freePath(path: string, taken: (candidate: string) => boolean): string {
  let candidate = path;
  for (let n = 2; taken(candidate); n++) candidate = `${path}.${n}`;
  return candidate;
}

/** Which of two concurrent binary writes wins: the later one, then the higher device label. */
export function laterWrite(a: BlobRef, b: BlobRef): BlobRef {
  if (a.time !== b.time) return a.time > b.time ? a : b;
  return a.writer >= b.writer ? a : b;
}
