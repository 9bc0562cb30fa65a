// The edit matchers (docs/agent.md, "Editing files") that forgive formatting noise, as pure functions over LF text. Each returns the places
// where oldString may be, and for each place how to correct newString by the same mapping the
// matcher forgave (indentation, escaping, blank-line padding). edit-match.ts picks between them.
import { buildIndentMap, detectIndentStyle, reindent, type IndentPair, type IndentStyle } from "./edit-indent";
import { isBlank, lineAt, lineStarts } from "./edit-text";

/** Thrown when a match is found but cannot be applied safely; the message tells the model what to do. */
export class EditRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EditRefusal";
  }
}

export interface Candidate {
  /** LF-text range that will be replaced. */
  start: number;
  end: number;
  /** newString corrected by the matcher's mapping; throws EditRefusal when that is impossible. */
  replacement(newString: string): string;
}

export interface MatcherResult {
  candidates: Candidate[];
  /** Set when the matcher found competing blocks and refuses to choose. */
  refusal?: string;
}

/** What every matcher needs about the file, computed once. */
export interface MatchInput {
  content: string;
  lines: string[];
  starts: number[];
  readonly fileStyle: IndentStyle | undefined;
}

export function matchInput(content: string): MatchInput {
  const lines = content.split("\n");
  let style: { value: IndentStyle | undefined } | undefined;
  return {
    content,
    lines,
    starts: lineStarts(content),
    // Only a re-indented newString needs the file's style: not worth a pass over every exact match.
    get fileStyle() {
      style ??= { value: detectIndentStyle(lines) };
      return style.value;
    },
  };
}

export interface Matcher {
  name: string;
  /** Loose matchers forgive a difference in content: never used with replaceAll. */
  loose: boolean;
  find(input: MatchInput, oldString: string): MatcherResult;
}

// ---------------------------------------------------------------------------------------------
// Shared pieces

/** oldString split into its core lines (first to last non-blank) and the blank padding around them. */
export interface FindLines {
  core: string[];
  leading: string;
  trailing: string;
}

export function splitFind(find: string): FindLines | undefined {
  const lines = find.split("\n");
  let first = 0;
  while (first < lines.length && isBlank(lines[first]!)) first++;
  if (first === lines.length) return undefined;
  let last = lines.length - 1;
  while (isBlank(lines[last]!)) last--;
  const core = lines.slice(first, last + 1);
  const leading = lines.slice(0, first).map((l) => l + "\n").join("");
  const coreText = core.join("\n");
  const trailingStart = leading.length + coreText.trimEnd().length;
  core[core.length - 1] = core[core.length - 1]!.trimEnd();
  return { core, leading, trailing: find.slice(trailingStart) };
}

/** Removes from newString the whitespace padding that was dropped from oldString (where it has it too). */
function stripPadding(text: string, leading: string, trailing: string): string {
  let start = 0;
  while (start < leading.length && start < text.length && text[start] === leading[start]) start++;
  if (start < leading.length) start = 0;
  let end = text.length;
  let k = 0;
  while (k < trailing.length && end - 1 >= start && text[end - 1] === trailing[trailing.length - 1 - k]) {
    end--;
    k++;
  }
  return text.slice(start, end);
}

/** The number of line breaks in some text. */
function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * Moves a span edge outward over at most `want` line breaks of blank padding that the file really
 * has there (oldString's blank lines that exist in the file belong to the match, exactly as an exact
 * match would take them). Never crosses a line that holds anything but whitespace.
 */
function extendBack(content: string, from: number, want: number): { at: number; taken: number } {
  let at = from;
  let taken = 0;
  while (taken < want && at > 0 && content[at - 1] === "\n") {
    const lineBreak = at - 1;
    taken++;
    let lineStart = lineBreak;
    while (lineStart > 0 && content[lineStart - 1] !== "\n") lineStart--;
    // Go on past this break only over a blank line.
    if (taken === want || content.slice(lineStart, lineBreak).trim() !== "") return { at: lineBreak, taken };
    at = lineStart;
  }
  return { at, taken };
}

function extendForward(content: string, from: number, want: number): { at: number; taken: number } {
  let at = from;
  let taken = 0;
  while (taken < want && content[at] === "\n") {
    at++;
    taken++;
    if (taken === want) break;
    // Go on only over a blank line.
    let next = at;
    while (next < content.length && (content[next] === " " || content[next] === "\t")) next++;
    if (content[next] !== "\n") break;
    at = next;
  }
  return { at, taken };
}

/** Splits replacement text into its leading line breaks, its content, and its trailing whitespace. */
function splitPadding(text: string): { leadBreaks: number; body: string; trailBreaks: number; trailTail: string } {
  const firstContent = text.search(/\S/);
  if (firstContent === -1) return { leadBreaks: countNewlines(text), body: "", trailBreaks: 0, trailTail: "" };
  const lead = text.slice(0, firstContent);
  const bodyStart = lead.lastIndexOf("\n") + 1;
  const trimmed = text.trimEnd();
  const trail = text.slice(trimmed.length);
  const lastBreak = trail.lastIndexOf("\n");
  return {
    leadBreaks: countNewlines(lead),
    body: text.slice(bodyStart, trimmed.length),
    trailBreaks: countNewlines(trail),
    trailTail: lastBreak === -1 ? "" : trail.slice(lastBreak + 1),
  };
}

/**
 * A whole-line candidate: lines first..last of the file replace oldString's core lines, newString is
 * re-indented by the mapping that explains `pairs`. Blank padding around oldString's core is part of
 * the span where the file has it (as an exact match would take it) and dropped from newString where
 * the file does not, so the edge of the span never crosses a line break oldString did not have and
 * the file neither gains nor loses a blank line beside the edit.
 */
export function lineBlock(
  input: MatchInput,
  first: number,
  last: number,
  find: FindLines,
  pairs: IndentPair[],
  transform?: (s: string) => string,
): Candidate {
  const wantLead = countNewlines(find.leading);
  const wantTrail = countNewlines(find.trailing);
  const coreStart = input.starts[first]!;
  const coreEnd = input.starts[last]! + input.lines[last]!.length;
  const back = extendBack(input.content, coreStart, wantLead);
  const forward = extendForward(input.content, coreEnd, wantTrail);
  // Indentation after oldString's last line break is the next line's: not part of the span.
  const oldTrailTail = /\n[ \t]+$/.test(find.trailing);
  return {
    start: back.at,
    end: forward.at,
    replacement(newString) {
      const parts = splitPadding(transform ? transform(newString) : newString);
      const newLines = parts.body.split("\n");
      // Lines newString keeps as oldString had them stay the file's own bytes (alignment, trailing
      // spaces, tabs); only the lines it adds or changes are re-indented.
      const kept = keptLines(pairs, newLines);
      let body: string | undefined;
      if (kept.every((line, i) => line !== undefined || isBlank(newLines[i]!))) {
        body = newLines.map((line, i) => kept[i] ?? line).join("\n");
      } else {
        const oldStyle = detectIndentStyle([...find.core, ...newLines]);
        const map = buildIndentMap(pairs, { old: oldStyle, file: input.fileStyle });
        if (!map) {
          throw new EditRefusal(
            `oldString matches lines ${first + 1}-${last + 1} only when indentation is ignored, and its indentation differs from the file's in a way that cannot be carried over to newString safely. Copy those lines exactly as the read tool shows them (without the line-number prefix).`,
          );
        }
        const mapped = reindent(parts.body, map);
        if (mapped === undefined) {
          throw new EditRefusal(
            `newString would have to be indented left of column 0 to fit lines ${first + 1}-${last + 1}. Copy oldString exactly from the file, with its indentation.`,
          );
        }
        body = mapped
          .split("\n")
          .map((line, i) => kept[i] ?? line)
          .join("\n");
      }
      const leadBreaks = Math.max(0, parts.leadBreaks - (wantLead - back.taken));
      const trailBreaks = Math.max(0, parts.trailBreaks - (wantTrail - forward.taken));
      let lead = "\n".repeat(leadBreaks);
      let trail = "\n".repeat(trailBreaks) + (trailBreaks > 0 && !oldTrailTail ? parts.trailTail : "");
      // Never join two lines: padding oldString had but newString dropped is noise, not an order to
      // glue newString to the line before or after it, so the file keeps its own line breaks there.
      if (body !== "") {
        if (back.taken > 0 && leadBreaks === 0) lead = input.content.slice(back.at, coreStart);
        if (forward.taken > 0 && trailBreaks === 0) trail = input.content.slice(coreEnd, forward.at);
      } else if (back.taken > 0 && forward.taken > 0 && leadBreaks + trailBreaks === 0) {
        // Deleting lines with a break taken on each side: one break keeps two neighbours apart.
        const content = input.content;
        const before = content[back.at - 1];
        const after = content[forward.at];
        if (before !== undefined && before !== "\n" && after !== undefined && after !== "\n") lead = "\n";
      }
      return lead + body + trail;
    },
  };
}

/**
 * For each line of newString: the file line it stands for when the model kept that oldString line
 * as it was (same text, in order), else undefined.
 */
function keptLines(pairs: readonly IndentPair[], newLines: readonly string[]): (string | undefined)[] {
  const byText = new Map<string, string[]>();
  for (const { old, file } of pairs) {
    if (isBlank(old)) continue;
    const list = byText.get(old.trimEnd());
    if (list) list.push(file);
    else byText.set(old.trimEnd(), [file]);
  }
  return newLines.map((line) => byText.get(line.trimEnd())?.shift());
}

function pairLines(find: FindLines, input: MatchInput, first: number): IndentPair[] {
  return find.core.map((old, k) => ({ old, file: input.lines[first + k]! }));
}

/**
 * Turns a character match [start, end) of `core` (oldString without padding) into a candidate: a
 * match covering whole lines becomes a re-indented line block; a match inside a line is accepted only
 * when oldString is itself a single line (the partial-line rule of docs/agent.md, "Editing files").
 */
function charMatch(input: MatchInput, start: number, end: number, find: FindLines, transform?: (s: string) => string): Candidate | undefined {
  const { content, starts, lines } = input;
  const first = lineAt(starts, start);
  const last = lineAt(starts, Math.max(start, end - 1));
  const lineStart = starts[first]!;
  const lineEnd = starts[last]! + lines[last]!.length;
  const alignedStart = content.slice(lineStart, start).trim() === "";
  const alignedEnd = content.slice(end, lineEnd).trim() === "";
  if (alignedStart && alignedEnd) {
    if (last - first + 1 !== find.core.length) return undefined;
    return lineBlock(input, first, last, find, pairLines(find, input, first), transform);
  }
  // Inside a line: only for a one-line oldString, and never across a line break it did not have.
  if (find.core.length > 1 || first !== last) return undefined;
  if (!partialLineFits(content, start, end, find, alignedStart, alignedEnd)) return undefined;
  return {
    start,
    end,
    replacement: (newString) => {
      const text = transform ? transform(newString) : newString;
      const indent = /^[ \t]*/.exec(find.core[0]!)![0];
      return stripPadding(text, find.leading + indent, find.trailing);
    },
  };
}

const WORD_CHAR = /[\p{L}\p{N}_$]/u;

/**
 * docs/agent.md, "Editing files": a partial-line match counts only when oldString itself ends mid-line. oldString written as
 * a whole line (a trailing newline, blank lines or indentation before it) must match whole-line edges,
 * and a fuzzy match never starts or ends inside a word ("value = 1" is not the start of "value = 10").
 */
function partialLineFits(content: string, start: number, end: number, find: FindLines, alignedStart: boolean, alignedEnd: boolean): boolean {
  if (find.trailing.includes("\n") && !alignedEnd) return false;
  const indented = find.leading !== "" || /^[ \t]/.test(find.core[0]!);
  if (indented && !alignedStart) return false;
  // Whitespace the model put around the fragment must face whitespace (or a line edge) in the file.
  if (find.trailing !== "" && end < content.length && !/\s/.test(content[end]!)) return false;
  const splitsWord = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && WORD_CHAR.test(a) && WORD_CHAR.test(b);
  if (splitsWord(content[start - 1], content[start])) return false;
  if (splitsWord(content[end - 1], content[end])) return false;
  return true;
}

function allIndexes(haystack: string, needle: string): number[] {
  const out: number[] = [];
  if (needle === "") return out;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

function compact<T>(items: (T | undefined)[]): T[] {
  return items.filter((x): x is T => x !== undefined);
}

// ---------------------------------------------------------------------------------------------
// 1. exact substring

export const exactMatcher: Matcher = {
  name: "exact",
  loose: false,
  find(input, oldString) {
    // A multi-line oldString that starts with indentation describes whole lines: found inside a
    // deeper line's indentation, its first line is off by the rest, and so would be newString's lines.
    const wholeLines = oldString.includes("\n") && /^[ \t]/.test(oldString);
    const starts = allIndexes(input.content, oldString).filter((start) => {
      if (!wholeLines) return true;
      const lineStart = input.starts[lineAt(input.starts, start)]!;
      return lineStart === start || input.content.slice(lineStart, start).trim() !== "";
    });
    return { candidates: starts.map((start) => exactCandidate(input, start, oldString)) };
  },
};

/**
 * An exact match is written as the model wrote it, except where it starts right after a line's
 * indentation: then the model left the indentation out, and newString gets the same frame (its
 * further lines indented like the line), and deleting whole lines takes their indentation too.
 */
function exactCandidate(input: MatchInput, start: number, oldString: string): Candidate {
  const end = start + oldString.length;
  const plain: Candidate = { start, end, replacement: (newString) => newString };
  const lineStart = input.starts[lineAt(input.starts, start)]!;
  const indent = input.content.slice(lineStart, start);
  if (indent === "" || indent.trim() !== "") return plain;
  if (oldString.endsWith("\n")) {
    return { start: lineStart, end, replacement: (newString) => (newString === "" ? "" : indent + newString) };
  }
  const lineEnd = input.content.indexOf("\n", end);
  const rest = input.content.slice(end, lineEnd === -1 ? undefined : lineEnd);
  if (oldString.includes("\n") || rest.trim() !== "") return plain;
  return {
    start,
    end,
    replacement: (newString) =>
      newString
        .split("\n")
        .map((line, i) => (i === 0 || isBlank(line) ? line : indent + line))
        .join("\n"),
  };
}

// ---------------------------------------------------------------------------------------------
// 2. line-trimmed: every line equal after trimming

export const lineTrimmedMatcher: Matcher = {
  name: "line-trimmed",
  loose: false,
  find(input, oldString) {
    const find = splitFind(oldString);
    if (!find) return { candidates: [] };
    const wanted = find.core.map((l) => l.trim());
    const candidates: Candidate[] = [];
    for (let i = 0; i + wanted.length <= input.lines.length; i++) {
      let ok = true;
      for (let k = 0; k < wanted.length && ok; k++) ok = input.lines[i + k]!.trim() === wanted[k];
      if (ok) {
        candidates.push(lineBlock(input, i, i + wanted.length - 1, find, pairLines(find, input, i)));
        i += wanted.length - 1;
      }
    }
    return { candidates };
  },
};

// ---------------------------------------------------------------------------------------------
// 4. whitespace-normalised: runs of whitespace collapsed

/** Runs of whitespace collapsed to one space (the native regex is fast on large files). */
function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ");
}

function isWhitespace(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code > 127 && /\s/.test(text[i]!);
}

/**
 * Original offsets of some offsets of collapseWhitespace(text), in one pass: a collapsed run maps to
 * its first whitespace char. Matches are few, so this is cheaper than a map of every char.
 */
function collapsedOffsets(text: string, wanted: readonly number[]): Map<number, number> {
  const targets = [...new Set(wanted)].sort((a, b) => a - b);
  const out = new Map<number, number>();
  let next = 0;
  let collapsed = 0;
  for (let i = 0; i < text.length && next < targets.length; collapsed++) {
    if (collapsed === targets[next]) out.set(targets[next++]!, i);
    if (isWhitespace(text, i)) {
      while (i < text.length && isWhitespace(text, i)) i++;
    } else i++;
  }
  return out;
}

/** Most places a fuzzy matcher looks at before giving up on a pathological input. */
const MAX_FUZZY_PLACES = 1000;

export const whitespaceNormalizedMatcher: Matcher = {
  name: "whitespace-normalized",
  loose: false,
  find(input, oldString) {
    const find = splitFind(oldString);
    if (!find) return { candidates: [] };
    const needle = collapseWhitespace(find.core.join("\n").trim());
    const hay = collapseWhitespace(input.content);
    const places = allIndexes(hay, needle).slice(0, MAX_FUZZY_PLACES);
    if (places.length === 0) return { candidates: [] };
    const offsets = collapsedOffsets(input.content, places.flatMap((at) => [at, at + needle.length - 1]));
    const candidates = compact(places.map((at) => charMatch(input, offsets.get(at)!, offsets.get(at + needle.length - 1)! + 1, find)));
    return { candidates };
  },
};

// ---------------------------------------------------------------------------------------------
// 5. indentation-flexible: common leading indentation removed from both sides

function dedent(lines: readonly string[]): string[] {
  let common: number | undefined;
  for (const line of lines) {
    if (isBlank(line)) continue;
    const width = /^[ \t]*/.exec(line)![0].length;
    common = common === undefined ? width : Math.min(common, width);
  }
  return lines.map((l) => (isBlank(l) ? "" : l.slice(common ?? 0)));
}

export const indentationFlexibleMatcher: Matcher = {
  name: "indentation-flexible",
  loose: false,
  find(input, oldString) {
    const find = splitFind(oldString);
    if (!find) return { candidates: [] };
    const wanted = dedent(find.core).join("\n");
    const n = find.core.length;
    const candidates: Candidate[] = [];
    const firstTrimmed = find.core[0]!.trim();
    for (let i = 0; i + n <= input.lines.length; i++) {
      // Equal after dedent implies equal after trimming: a cheap filter before the real test.
      if (input.lines[i]!.trim() !== firstTrimmed) continue;
      if (dedent(input.lines.slice(i, i + n)).join("\n") === wanted) {
        candidates.push(lineBlock(input, i, i + n - 1, find, pairLines(find, input, i)));
        i += n - 1;
      }
    }
    return { candidates };
  },
};

// ---------------------------------------------------------------------------------------------
// 6. escape-normalised: \n, \t, \", \', \\ in oldString unescaped (and in newString alike)

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", '"': '"', "'": "'", "\\": "\\" };

/** Undoes one level of escaping, left to right, so "\\n" stays a backslash followed by "n". */
export function unescapeModelText(text: string): string {
  return text.replace(/\\([nt"'\\])/g, (_, ch: string) => ESCAPES[ch]!);
}

export const escapeNormalizedMatcher: Matcher = {
  name: "escape-normalized",
  loose: false,
  find(input, oldString) {
    const unescaped = unescapeModelText(oldString);
    if (unescaped === oldString) return { candidates: [] };
    const find = splitFind(unescaped);
    if (!find) return { candidates: [] };
    const core = find.core.join("\n");
    const candidates = compact(allIndexes(input.content, core).map((at) => charMatch(input, at, at + core.length, find, unescapeModelText)));
    return { candidates };
  },
};

// ---------------------------------------------------------------------------------------------
// 7. trimmed-boundary: the whole oldString trimmed

export const trimmedBoundaryMatcher: Matcher = {
  name: "trimmed-boundary",
  loose: false,
  find(input, oldString) {
    const trimmed = oldString.trim();
    if (trimmed === oldString || trimmed === "") return { candidates: [] };
    const find = splitFind(oldString)!;
    const candidates = compact(allIndexes(input.content, trimmed).map((at) => charMatch(input, at, at + trimmed.length, find)));
    return { candidates };
  },
};

/**
 * The matchers that forgive formatting noise only (line endings, trailing whitespace, indentation,
 * whitespace runs, padding, double escaping), in the order of docs/agent.md, "Editing files": the first that yields a match decides.
 * A difference in content is judged by edit-content-match.ts, after all of these.
 */
export const FORMATTING_MATCHERS: readonly Matcher[] = [
  exactMatcher,
  lineTrimmedMatcher,
  whitespaceNormalizedMatcher,
  indentationFlexibleMatcher,
  escapeNormalizedMatcher,
  trimmedBoundaryMatcher,
];
