// Unified diffs in git's format (`diff --git`, index line, hunks with git's default function
// context), with jsdiff (the `diff` package) computing the line changes.
import { structuredPatch } from "diff";

export interface DiffSide {
  /** Repository path. */
  path: string;
  /** Blob id; undefined when the file does not exist on this side. */
  oid?: string;
  content?: Uint8Array;
}

export const ZERO_OID = "0000000000000000000000000000000000000000";

export function isBinary(bytes: Uint8Array): boolean {
  // git's heuristic: a NUL byte in the first 8,000 bytes.
  const end = Math.min(bytes.length, 8000);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

const decoder = new TextDecoder();

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

/** git's default hunk header context: the nearest line above the hunk that starts with a letter, `_` or `$`. */
function functionContext(oldLines: string[], hunkStart: number): string {
  for (let i = hunkStart - 2; i >= 0; i--) {
    const line = oldLines[i]!;
    if (/^[A-Za-z_$]/.test(line)) {
      const trimmed = line.replace(/\s+$/, "");
      return ` ${trimmed.length > 80 ? trimmed.slice(0, 80) : trimmed}`;
    }
  }
  return "";
}

/** `diff --git` text for one file; "" when both sides are the same. */
export function fileDiff(a: DiffSide, b: DiffSide, mode = "100644"): string {
  if (a.oid !== undefined && a.oid === b.oid) return "";
  const path = a.oid !== undefined ? a.path : b.path;
  const out: string[] = [`diff --git a/${path} b/${b.oid !== undefined ? b.path : path}`];
  const short = (oid?: string) => (oid ?? ZERO_OID).slice(0, 7);
  if (a.oid === undefined) out.push(`new file mode ${mode}`, `index ${short()}..${short(b.oid)}`);
  else if (b.oid === undefined) out.push(`deleted file mode ${mode}`, `index ${short(a.oid)}..${short()}`);
  else out.push(`index ${short(a.oid)}..${short(b.oid)} ${mode}`);
  const oldBytes = a.content ?? new Uint8Array();
  const newBytes = b.content ?? new Uint8Array();
  const oldName = a.oid === undefined ? "/dev/null" : `a/${path}`;
  const newName = b.oid === undefined ? "/dev/null" : `b/${path}`;
  if (isBinary(oldBytes) || isBinary(newBytes)) {
    out.push(`Binary files ${oldName} and ${newName} differ`);
    return out.join("\n") + "\n";
  }
  if (oldBytes.length === 0 && newBytes.length === 0) return out.join("\n") + "\n";
  const oldText = decoder.decode(oldBytes);
  const newText = decoder.decode(newBytes);
  out.push(`--- ${oldName}`, `+++ ${newName}`);
  const patch = structuredPatch(oldName, newName, oldText, newText, undefined, undefined, { context: 3 });
  const oldLines = oldText.split("\n");
  for (const hunk of patch.hunks) {
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - (hunk.oldStart > 0 ? 1 : 0) : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - (hunk.newStart > 0 ? 1 : 0) : hunk.newStart;
    out.push(`@@ -${range(oldStart, hunk.oldLines)} +${range(newStart, hunk.newLines)} @@${functionContext(oldLines, hunk.oldStart)}`);
    out.push(...hunk.lines);
  }
  return out.join("\n") + "\n";
}

/** Lines added and removed, for `--stat` and the commit summary. */
export function lineCounts(a: Uint8Array | undefined, b: Uint8Array | undefined): { added: number; removed: number; binary: boolean } {
  const oldBytes = a ?? new Uint8Array();
  const newBytes = b ?? new Uint8Array();
  if (isBinary(oldBytes) || isBinary(newBytes)) return { added: 0, removed: 0, binary: true };
  const patch = structuredPatch("a", "b", decoder.decode(oldBytes), decoder.decode(newBytes), undefined, undefined, { context: 0 });
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
    }
  }
  return { added, removed, binary: false };
}
