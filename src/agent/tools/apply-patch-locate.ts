// Where an apply_patch hunk goes (docs/agent.md, "Editing files"). A hunk applies only where its old
// lines match exactly one place, at the first comparison step that finds any (Codex's seek_sequence
// steps, but every place is collected instead of taking the first). "@@" anchors bound the search
// to the block their line opens, and "*** End of File" to the file's last lines. Pure: a refusal is
// returned as a message telling the model what to do next, never thrown.
import type { PatchChunk, PatchLine } from "./apply-patch-format";
import { asciiPunctuation, isBlank, leadingWhitespace } from "./edit-text";

/** Strictest first; each forgives more than the one before it. */
const STEPS = [
  { name: "exact", key: (line: string) => line },
  { name: "trailing", key: (line: string) => line.trimEnd() },
  { name: "whitespace", key: (line: string) => line.trim() },
  { name: "punctuation", key: (line: string) => asciiPunctuation(line.trim()) },
] as const;
export type StepName = (typeof STEPS)[number]["name"];

/** Line numbers listed when a hunk or an anchor matches several places. */
const MAX_LISTED_PLACES = 10;

/** Half-open range of 0-based line indexes. */
interface Range {
  start: number;
  end: number;
}

/** The file's lines with the comparison keys of each step (computed once, on first use). */
export interface FileLines {
  readonly lines: readonly string[];
  keys(step: number): readonly string[];
  /** Section level of each line in files with section headers (Markdown headings, TOML tables), else undefined. */
  readonly sections?: readonly (number | undefined)[];
}

export function fileLines(path: string, lines: readonly string[]): FileLines {
  const cache: (readonly string[] | undefined)[] = [];
  const sectionLevel = sectionRule(path);
  return {
    lines,
    keys: (step) => (cache[step] ??= lines.map(STEPS[step]!.key)),
    ...(sectionLevel && { sections: sectionLevels(lines, sectionLevel) }),
  };
}

export interface Located {
  /** First matched line. */
  at: number;
  /** The hunk's lines as matched (a trailing blank context line the file lacks is dropped). */
  lines: PatchLine[];
  step: StepName;
}

// ---------------------------------------------------------------------------------------------
// Seeking

/** Every place in `range` where `wanted` matches, at the first step that finds any. */
function seek(file: FileLines, wanted: readonly string[], range: Range): { places: number[]; step: number } | undefined {
  for (let step = 0; step < STEPS.length; step++) {
    const keys = file.keys(step);
    const want = wanted.map(STEPS[step]!.key);
    const places: number[] = [];
    for (let at = range.start; at + want.length <= range.end; at++) {
      let k = 0;
      while (k < want.length && keys[at + k] === want[k]) k++;
      if (k === want.length) places.push(at);
    }
    if (places.length > 0) return { places, step };
  }
  return undefined;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function lineList(places: readonly number[]): string {
  const shown = places.slice(0, MAX_LISTED_PLACES).map((at) => at + 1);
  return shown.join(", ") + (places.length > MAX_LISTED_PLACES ? ", ..." : "");
}

function span(range: Range): string {
  return range.end - range.start <= 1 ? `line ${range.start + 1}` : `lines ${range.start + 1}-${range.end}`;
}

// ---------------------------------------------------------------------------------------------
// Blocks

const MARKDOWN = /\.(md|markdown|mdx)$/i;
const SECTIONED_CONFIG = /\.(toml|ini|cfg)$/i;
const FENCE = /^\s{0,3}(```|~~~)/;

/** How to read a section header's level in this kind of file, if it has section headers. */
function sectionRule(path: string): ((line: string) => number | undefined) | undefined {
  if (MARKDOWN.test(path)) return (line) => /^(#{1,6})(\s|$)/.exec(line)?.[1]!.length;
  // TOML tables and INI sections: a flat list of sections, whatever their dotted names say.
  // Unindented, and only name characters inside: a nested array value like `  ["a", "b"]` is no header.
  if (SECTIONED_CONFIG.test(path)) return (line) => (/^\[\[?[\w.\-"' ]+\]\]?\s*([#;].*)?$/.test(line) ? 1 : undefined);
  return undefined;
}

/** Section level of each line; lines of fenced code blocks are never headers. */
function sectionLevels(lines: readonly string[], level: (line: string) => number | undefined): (number | undefined)[] {
  let fenced = false;
  return lines.map((line) => {
    if (FENCE.test(line)) fenced = !fenced;
    return fenced ? undefined : level(line);
  });
}

function indentWidth(line: string): number {
  let width = 0;
  for (const ch of leadingWhitespace(line)) width += ch === "\t" ? 4 : 1;
  return width;
}

/** A line that closes a block at its opener's indentation: it still belongs to the block (not a variable named `end`). */
const CLOSER = /^(?:[}\])]|end\b(?!\s*[=(:])|<\/)/;
/** A closer that opens the next part at once (`} else {`, `): number {`, `) -> int:`) continues the block. */
const REOPENS = /[{([:]\s*$/;

/**
 * End (exclusive) of the block that line `at` opens: the lines indented deeper than it, plus a closer
 * at its own indentation. A line that opens nothing bounds the search to the rest of the block it is
 * in instead, so an anchor on a plain statement still narrows without missing what follows it.
 */
function indentBlockEnd(lines: readonly string[], at: number): number {
  const base = indentWidth(lines[at]!);
  const next = lines.findIndex((line, j) => j > at && !isBlank(line));
  if (next === -1) return lines.length;
  const opens = indentWidth(lines[next]!) > base || CLOSER.test(lines[next]!.trimStart());
  for (let j = next; j < lines.length; j++) {
    const line = lines[j]!;
    if (isBlank(line)) continue;
    const width = indentWidth(line);
    if (!opens) {
      if (width < base) return j;
      continue;
    }
    if (width > base) continue;
    if (width < base) return j;
    if (!CLOSER.test(line.trimStart())) return j;
    if (!REOPENS.test(line.trimEnd())) return j + 1;
  }
  return lines.length;
}

/** The block an anchor on line `at` names. */
function blockOf(file: FileLines, at: number): Range {
  const sections = file.sections;
  if (!sections) return { start: at, end: indentBlockEnd(file.lines, at) };
  const level = sections[at];
  // A header's section runs to the next header of the same or a higher level; any other line's
  // block stops at the next header of any level.
  let end = at + 1;
  while (end < sections.length && (sections[end] === undefined || (level !== undefined && sections[end]! > level))) end++;
  return { start: at, end: level === undefined ? Math.min(end, indentBlockEnd(file.lines, at)) : end };
}

// ---------------------------------------------------------------------------------------------
// Locating a hunk

/** A value, or a refusal: the message telling the model what to do instead. */
export type Result<T> = { ok: T } | { refusal: string };

/** The range the hunk's "@@" lines name, each inside the one before; the whole file without any. */
function anchorRange(file: FileLines, anchors: readonly string[], label: string): Result<{ range: Range; anchorAt?: number }> {
  let range: Range = { start: 0, end: file.lines.length };
  let anchorAt: number | undefined;
  for (const [index, anchor] of anchors.entries()) {
    const inside = index === 0 ? "" : ` inside the block of "@@ ${anchors[index - 1]!.trim()}" (${span(range)})`;
    const found = seek(file, [anchor], range);
    if (!found) {
      const elsewhere = index > 0 ? seek(file, [anchor], { start: 0, end: file.lines.length }) : undefined;
      const outside = elsewhere ? ` (it is at line ${lineList(elsewhere.places)}, outside that block: fix or drop the outer @@ line)` : "";
      return { refusal: `Could not find the line "@@ ${anchor.trim()}" of ${label}${inside}${outside}. Read the file again and copy the line exactly, or drop the @@ line.` };
    }
    if (found.places.length > 1) {
      return {
        refusal:
          `The line "@@ ${anchor.trim()}" of ${label} matches ${found.places.length} lines${inside} (lines ${lineList(found.places)}). ` +
          `Put an @@ line naming the enclosing block (such as the class or section) before it, so it names exactly one.`,
      };
    }
    anchorAt = found.places[0]!;
    const block = blockOf(file, anchorAt);
    range = { start: block.start, end: Math.min(block.end, range.end) };
  }
  return { ok: { range, ...(anchorAt !== undefined && { anchorAt }) } };
}

const oldText = (lines: readonly PatchLine[]) => lines.filter((l) => l.kind !== "+").map((l) => l.text);

/** The hunk's lines, then (when it ends with blank context lines, often an artefact of how the model ended it) without them. */
function variants(lines: readonly PatchLine[]): PatchLine[][] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.kind === " " && lines[end - 1]!.text === "") end--;
  const out = [[...lines]];
  if (end < lines.length && oldText(lines.slice(0, end)).length > 0) out.push(lines.slice(0, end));
  return out;
}

/**
 * Where `chunk` applies in the original file, or why it does not: its old lines must match one
 * place inside its anchors' block (and at the end with End of File), at the first step finding any.
 */
export function locateHunk(file: FileLines, chunk: PatchChunk, label: string): Result<Located> {
  const bounds = anchorRange(file, chunk.anchors, label);
  if ("refusal" in bounds) return bounds;
  const { range, anchorAt } = bounds.ok;
  const total = file.lines.length;
  if (oldText(chunk.lines).length === 0) {
    // Only added lines: after the innermost anchor line, else at the end of the file.
    const at = anchorAt !== undefined && !chunk.endOfFile ? anchorAt + 1 : total;
    if (chunk.endOfFile && range.end !== total) return { refusal: endOfFileOutside(label, chunk.anchors, range) };
    return { ok: { at, lines: chunk.lines, step: "exact" } };
  }
  for (const lines of variants(chunk.lines)) {
    const old = oldText(lines);
    // End of File: only the last lines of the file (the final newline adds no line here), and inside the anchors' block.
    const search = chunk.endOfFile ? lastLines(range, total, old.length) : range;
    const found = seek(file, old, search);
    if (!found) continue;
    if (found.places.length > 1) return { refusal: severalPlaces(label, found.places, chunk.anchors) };
    return { ok: { at: found.places[0]!, lines, step: STEPS[found.step]!.name } };
  }
  return { refusal: notFound(file, chunk, label, range) };
}

/** The range where `count` lines are the file's last ones, if `range` reaches the end; else an empty one. */
function lastLines(range: Range, total: number, count: number): Range {
  return range.end === total ? { start: Math.max(range.start, total - count), end: total } : { start: total, end: total };
}

function severalPlaces(label: string, places: readonly number[], anchors: readonly string[]): string {
  const where = anchors.length > 0 ? ` inside the block of "@@ ${anchors[anchors.length - 1]!.trim()}"` : "";
  return (
    `The lines of ${label} match ${places.length} places${where} (lines ${lineList(places)}); a patch applies only where its lines match one. ` +
    `Add an @@ line naming the function, class or section that holds the change (several @@ lines narrow step by step), or more context lines.`
  );
}

function endOfFileOutside(label: string, anchors: readonly string[], range: Range): string {
  return `${capitalized(label)} is marked "*** End of File", but the block of "@@ ${anchors[anchors.length - 1]!.trim()}" (${span(range)}) does not reach the end of the file. Fix the @@ line or drop the marker.`;
}

/** Why a hunk was not found: its lines are elsewhere (outside its block, or not at the end), or nowhere. */
function notFound(file: FileLines, chunk: PatchChunk, label: string, range: Range): string {
  const whole = { start: 0, end: file.lines.length };
  const elsewhere = variants(chunk.lines)
    .map((lines) => seek(file, oldText(lines), whole))
    .find((found) => found !== undefined);
  if (!elsewhere) {
    const shown = oldText(chunk.lines).slice(0, 12).join("\n");
    return (
      `Could not find the lines of ${label}:\n${shown}\n` +
      `Read the file again and rewrite the hunk with its exact current lines; if the hunk spans changes far apart, split it into one hunk per change.`
    );
  }
  if (chunk.endOfFile && range.end !== whole.end) return endOfFileOutside(label, chunk.anchors, range);
  const at = `line${elsewhere.places.length > 1 ? "s" : ""} ${lineList(elsewhere.places)}`;
  const inRange = elsewhere.places.some((place) => place >= range.start && place < range.end);
  if (chunk.endOfFile && (inRange || chunk.anchors.length === 0)) {
    return `${capitalized(label)} is marked "*** End of File", but its lines are at ${at}, not the file's last lines. Read the end of the file again, or drop the marker if the change is not at the end.`;
  }
  const anchor = chunk.anchors[chunk.anchors.length - 1]!.trim();
  return `The lines of ${label} are not inside the block of "@@ ${anchor}" (${span(range)}); they are at ${at}. Make the @@ line name the block that holds them, or drop it.`;
}
