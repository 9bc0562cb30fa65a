// Three-way merge of text, line by line, as an editor merges a file that changed on disk while it
// had its own changes: both sides are compared with the version they started from (`base`), changes
// to different lines are both taken, and changes to the same lines are a conflict, written between
// git-style markers so neither side is lost. The line diffs come from the `diff` package; the
// combining step (diff3) is written here because `diff` has no three-way merge.
import { diffArrays } from "diff";

export interface MergeResult {
  text: string;
  /** Number of conflicting regions written between markers (0: a clean merge). */
  conflicts: number;
}

export interface MergeLabels {
  ours: string;
  theirs: string;
}

const DEFAULT_LABELS: MergeLabels = { ours: "ours", theirs: "theirs" };

/** A change of one side: base lines [start, end) became `lines`. */
interface Hunk {
  start: number;
  end: number;
  lines: string[];
  side: "ours" | "theirs";
}

/** Lines with their line break kept, so joining them gives back the text byte for byte. */
export function splitLines(text: string): string[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g);
  return lines ?? [];
}

function hunks(base: string[], changed: string[], side: Hunk["side"]): Hunk[] {
  const out: Hunk[] = [];
  let at = 0;
  let open: Hunk | undefined;
  for (const part of diffArrays(base, changed)) {
    if (!part.added && !part.removed) {
      open = undefined;
      at += part.value.length;
      continue;
    }
    open ??= out[out.push({ start: at, end: at, lines: [], side }) - 1]!;
    if (part.removed) {
      at += part.value.length;
      open.end = at;
    } else open.lines.push(...part.value);
  }
  return out;
}

/**
 * Two changes collide when they touch the same base lines, or both start at the same place (two
 * insertions there have no order that is right for both). Changes that merely touch (one ends where
 * the other starts) are both taken, in base order.
 */
function collide(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start === b.start || (a.start < b.end && b.start < a.end);
}

/** The base lines [start, end) with one side's hunks (all inside that range) applied. */
function applySide(base: string[], start: number, end: number, side: Hunk[]): string[] {
  const out: string[] = [];
  let at = start;
  for (const hunk of side) {
    out.push(...base.slice(at, hunk.start), ...hunk.lines);
    at = hunk.end;
  }
  out.push(...base.slice(at, end));
  return out;
}

function withBreak(lines: string[]): string[] {
  const last = lines[lines.length - 1];
  return last === undefined || last.endsWith("\n") ? lines : [...lines.slice(0, -1), `${last}\n`];
}

/**
 * Merges `ours` and `theirs`, both changed from `base`. When both only appended to `base` (two
 * `>>` appends, or a line typed at the end against an append), the result is theirs followed by
 * our addition, as appending to a file another writer already appended to does (a line-based merge
 * would call two insertions at one place a conflict).
 */
export function mergeText(base: string, ours: string, theirs: string, labels: MergeLabels = DEFAULT_LABELS): MergeResult {
  if (ours === theirs || theirs === base) return { text: ours, conflicts: 0 };
  if (ours === base) return { text: theirs, conflicts: 0 };
  // Not for an empty base: two tabs creating one file with different contents is a conflict.
  if (base.endsWith("\n") && ours.startsWith(base) && theirs.startsWith(base)) {
    const added = ours.slice(base.length);
    // Their addition ends mid-line: ours starts a line of its own rather than running into theirs.
    const gap = theirs.length > base.length && !theirs.endsWith("\n") && !added.startsWith("\n") ? "\n" : "";
    return { text: theirs + gap + added, conflicts: 0 };
  }
  const baseLines = splitLines(base);
  const all = [...hunks(baseLines, splitLines(ours), "ours"), ...hunks(baseLines, splitLines(theirs), "theirs")];
  all.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: string[] = [];
  let conflicts = 0;
  let at = 0;
  for (let i = 0; i < all.length; ) {
    // A group: hunks that collide with the group so far (through any of its members).
    const group = [all[i]!];
    let start = all[i]!.start;
    let end = all[i]!.end;
    for (i++; i < all.length && group.some((h) => collide(h, all[i]!)); i++) {
      group.push(all[i]!);
      start = Math.min(start, all[i]!.start);
      end = Math.max(end, all[i]!.end);
    }
    out.push(...baseLines.slice(at, start));
    at = end;
    const mine = group.filter((h) => h.side === "ours");
    const their = group.filter((h) => h.side === "theirs");
    const oursText = applySide(baseLines, start, end, mine);
    const theirsText = applySide(baseLines, start, end, their);
    if (their.length === 0 || oursText.join("") === theirsText.join("")) out.push(...oursText);
    else if (mine.length === 0) out.push(...theirsText);
    else {
      conflicts++;
      out.push(`<<<<<<< ${labels.ours}\n`, ...withBreak(oursText), "=======\n", ...withBreak(theirsText), `>>>>>>> ${labels.theirs}\n`);
    }
  }
  out.push(...baseLines.slice(at));
  return { text: out.join(""), conflicts };
}
