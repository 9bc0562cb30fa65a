// Compare-and-set for file records (FileRepository.applyChecked). A tab writes a file from what it
// believes is stored (its base); another tab may have stored something else since (its announcement
// still on the way). Inside the write's transaction the stored record is compared with the base:
// unchanged, the write goes through; changed, both changes are kept (a three-way merge of text, or
// conflict markers where both changed the same lines) instead of the later write silently
// replacing the earlier one. The base is content, not a counter: content that went A → B → A
// merges exactly as a counter's mismatch would, and records need no new field.
import { bytesEqual, mergeText } from "../base";
import type { FileRecord } from "./records";

/** What a tab believed was stored for a path when it changed it (null: nothing was). */
export type StoredBase = { kind: "file"; data: string | Uint8Array } | { kind: "dir" } | null;

export interface CheckedWrite {
  path: string;
  /** The record to store, or null to delete the path. */
  record: FileRecord | null;
  /** What the change was made from; undefined: not known, the write is stored as it is. */
  base: StoredBase | undefined;
}

export type WriteOutcome =
  /** Stored as given: storage still held the base (or held the same content already). */
  | "written"
  /** Another tab changed the file since the base: both changes are stored. */
  | "merged"
  /** Both changed the same lines: both are stored between conflict markers for the user to resolve. */
  | "conflict"
  /** A deletion of a file another tab had changed since: their version stays. */
  | "kept"
  /** Not text (or a file against a folder): cannot be merged, so ours replaced theirs. */
  | "replaced";

export interface CheckedResult {
  path: string;
  outcome: WriteOutcome;
  /** What storage holds for the path after the write (undefined: nothing). */
  stored: FileRecord | undefined;
}

/** Labels of the conflict markers a merge in storage writes. */
export const STORAGE_MERGE_LABELS = { ours: "this tab", theirs: "another tab" } as const;

function sameData(a: string | Uint8Array | undefined, b: string | Uint8Array | undefined): boolean {
  if (typeof a === "string" || typeof b === "string" || a === undefined || b === undefined) return a === b;
  return bytesEqual(a, b);
}

/**
 * Whether a stored value (as read, before the restore step: only its kind and data are looked at,
 * and only compared) is what the writer started from.
 */
export function matchesBase(stored: unknown, base: StoredBase): boolean {
  if (stored === undefined || !base) return stored === undefined && !base;
  const { kind, data } = stored as { kind?: unknown; data?: unknown };
  if (kind !== base.kind) return false;
  if (base.kind === "dir") return true;
  return (typeof data === "string" || data instanceof Uint8Array || data === undefined) && sameData(data ?? "", base.data);
}

/**
 * Decides what one write stores, given the record stored now (`current`). Returns the record to
 * store (null: delete; undefined: leave storage as it is) and what happened.
 */
export function resolveWrite(
  write: CheckedWrite,
  current: FileRecord | undefined,
): { store: FileRecord | null | undefined; outcome: WriteOutcome } {
  const ours = write.record;
  if (write.base === undefined || matchesBase(current, write.base)) return { store: ours, outcome: "written" };
  // Storage changed since the base (another tab wrote the path).
  if (!ours) {
    if (!current) return { store: undefined, outcome: "written" };
    // Deleting what another tab just changed would lose their change without a trace.
    return { store: undefined, outcome: "kept" };
  }
  if (!current) return { store: ours, outcome: "written" }; // they deleted it, we changed it: ours stays
  if (ours.kind === "dir" && current.kind === "dir") return { store: undefined, outcome: "written" };
  if (ours.kind === "file" && current.kind === "file" && sameData(ours.data ?? "", current.data ?? "")) {
    return { store: undefined, outcome: "written" };
  }
  const base = write.base?.kind === "file" ? write.base.data : "";
  const mine = ours.data ?? "";
  const theirs = current.data ?? "";
  if (ours.kind !== "file" || current.kind !== "file" || typeof base !== "string" || typeof mine !== "string" || typeof theirs !== "string") {
    return { store: ours, outcome: "replaced" };
  }
  const merged = mergeText(base, mine, theirs, STORAGE_MERGE_LABELS);
  return {
    store: { ...ours, data: merged.text, mtime: Math.max(ours.mtime, current.mtime) },
    outcome: merged.conflicts > 0 ? "conflict" : "merged",
  };
}
