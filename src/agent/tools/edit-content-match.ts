// The one difference in content an edit may forgive (docs/agent.md, "Editing files"; issue 21): in a block of 5+ lines
// whose first and last lines identify it uniquely, exactly one middle line differs, the model's version
// of that line occurs nowhere in the file, and newString rewrites it. Everything else that differs in
// content is refused with the places involved: a wrong edit is worse than a refusal.
import { EditRefusal, lineBlock, splitFind, type Candidate, type FindLines, type MatchInput, type Matcher } from "./edit-matchers";
import type { IndentPair } from "./edit-indent";
import { straightenQuotes } from "./edit-text";

/** The smallest block in which one misremembered middle line is forgiven. */
export const MIN_CONTENT_BLOCK_LINES = 5;
/** Blocks this many lines longer or shorter than oldString, between the same anchors, are reported as stale. */
const STALE_LENGTH_SLACK = 3;
/** Lines quoted in a refusal are cut to this many characters. */
const QUOTE_CHARS = 120;
/** Places listed in a refusal. */
const MAX_LISTED = 6;

/** A line with its formatting noise removed: indentation, whitespace runs, typographic quotes. */
export function lineKey(line: string): string {
  return straightenQuotes(line).trim().replace(/\s+/g, " ");
}

function quote(line: string): string {
  const text = line.trim();
  return JSON.stringify(text.length > QUOTE_CHARS ? text.slice(0, QUOTE_CHARS) + "..." : text);
}

/**
 * 0-based lines of the file whose key is `key`. A line with that key contains the key's longest
 * whitespace-free run verbatim (quotes are already straightened), so only those lines are keyed: a
 * full index of a 10,000-line file costs more than the whole match.
 */
function linesWithKey(input: MatchInput, key: string): number[] {
  const token = key.split(" ").reduce((a, b) => (b.length > a.length ? b : a), "");
  const out: number[] = [];
  input.lines.forEach((line, i) => {
    if (line.includes(token) && lineKey(line) === key) out.push(i);
  });
  return out;
}

/** "line 7" or "lines 7, 12": 0-based line indexes named 1-based. */
function lineList(lines: readonly number[]): string {
  const shown = lines.slice(0, MAX_LISTED).map((l) => l + 1);
  return (lines.length === 1 ? "line " : "lines ") + shown.join(", ") + (lines.length > MAX_LISTED ? ", ..." : "");
}

interface Block {
  first: number;
  last: number;
}

/** Blocks from a line of `firsts` to a line of `lasts`, minLength to maxLength lines tall. */
function anchoredBlocks(firsts: readonly number[], lasts: ReadonlySet<number>, minLength: number, maxLength: number): Block[] {
  const blocks: Block[] = [];
  for (const first of firsts) {
    for (let length = minLength; length <= maxLength; length++) {
      if (lasts.has(first + length - 1)) blocks.push({ first, last: first + length - 1 });
    }
  }
  return blocks;
}

function range(b: Block): string {
  return `lines ${b.first + 1}-${b.last + 1}`;
}

const REREAD = "Read the file again and copy the exact current text of the block you mean (without the line-number prefixes).";

export const oneLineDifferenceMatcher: Matcher = {
  name: "one-line-difference",
  loose: true,
  find(input, oldString) {
    const find = splitFind(oldString);
    if (!find || find.core.length < 3) return { candidates: [] };
    const n = find.core.length;
    const firsts = linesWithKey(input, lineKey(find.core[0]!));
    const lasts = new Set(linesWithKey(input, lineKey(find.core[n - 1]!)));
    const same = anchoredBlocks(firsts, lasts, n, n);
    if (same.length === 0) {
      // Between the same anchors but with lines added or removed: the model read an older version.
      const near = anchoredBlocks(firsts, lasts, Math.max(2, n - STALE_LENGTH_SLACK), n + STALE_LENGTH_SLACK);
      if (near.length === 0 || n < MIN_CONTENT_BLOCK_LINES) return { candidates: [] };
      return {
        candidates: [],
        refusal: `oldString was not found. Its first and last lines fit ${near.slice(0, MAX_LISTED).map(range).join(", ")}, but with a different number of lines between them: the file has changed since you read it, or this is another block. ${REREAD}`,
      };
    }
    if (same.length > 1) {
      return {
        candidates: [],
        refusal: `oldString was not found exactly, and its first and last lines fit ${same.length} blocks (${same.slice(0, MAX_LISTED).map(range).join(", ")}${same.length > MAX_LISTED ? ", ..." : ""}), so they do not say which one you mean; the edit was refused rather than guessing. ${REREAD}`,
      };
    }
    const block = same[0]!;
    const differing: number[] = [];
    for (let k = 1; k < n - 1; k++) {
      if (lineKey(find.core[k]!) !== lineKey(input.lines[block.first + k]!)) differing.push(k);
    }
    if (differing.length !== 1 || n < MIN_CONTENT_BLOCK_LINES) {
      if (differing.length === 0) return { candidates: [] };
      return { candidates: [], refusal: staleMessage(input, find, block, differing) };
    }
    const k = differing[0]!;
    const modelLine = find.core[k]!;
    const fileLineNumber = block.first + k;
    const elsewhere = linesWithKey(input, lineKey(modelLine));
    if (elsewhere.length > 0) {
      return {
        candidates: [],
        refusal: `oldString was not found exactly. Its first and last lines fit ${range(block)}, where line ${fileLineNumber + 1} reads ${quote(input.lines[fileLineNumber]!)}; but its line ${quote(modelLine)} is in the file at ${lineList(elsewhere)}, so it may describe that other place. The edit was refused rather than guessing which one you mean. ${REREAD}`,
      };
    }
    return { candidates: [oneLineCandidate(input, block, find, k)] };
  },
};

/** The accepted form: re-indented by the lines that agree; newString must rewrite the differing line. */
function oneLineCandidate(input: MatchInput, block: Block, find: FindLines, k: number): Candidate {
  const pairs: IndentPair[] = find.core.map((old, j) => ({ old, file: input.lines[block.first + j]! })).filter((_, j) => j !== k);
  const candidate = lineBlock(input, block.first, block.last, find, pairs);
  const modelKey = lineKey(find.core[k]!);
  const fileLineNumber = block.first + k + 1;
  return {
    ...candidate,
    replacement(newString) {
      if (newString.split("\n").some((line) => lineKey(line) === modelKey)) {
        throw new EditRefusal(
          `oldString was not found exactly: line ${fileLineNumber} of the file reads ${quote(input.lines[block.first + k]!)} where oldString has ${quote(find.core[k]!)}, and newString keeps that line, so the edit would silently change line ${fileLineNumber} to your version. ${REREAD}`,
        );
      }
      return candidate.replacement(newString);
    },
  };
}

function staleMessage(input: MatchInput, find: FindLines, block: Block, differing: number[]): string {
  const details = differing.slice(0, MAX_LISTED).map((k) => {
    const fileLine = block.first + k;
    const elsewhere = linesWithKey(input, lineKey(find.core[k]!)).filter((l) => l !== fileLine);
    const where = elsewhere.length > 0 ? ` (your line is at ${lineList(elsewhere)})` : "";
    return `line ${fileLine + 1} reads ${quote(input.lines[fileLine]!)} where oldString has ${quote(find.core[k]!)}${where}`;
  });
  const count = differing.length === 1 ? "one line differs" : `${differing.length} lines differ`;
  return `oldString was not found. Its first and last lines fit ${range(block)}, but ${count} there: ${details.join("; ")}${differing.length > MAX_LISTED ? "; ..." : ""}. The file has changed since you read it, or this is another block: read it again and copy the exact current text of the block you mean (without the line-number prefixes).`;
}
