// applyEdit: replace oldString with newString in a file's text (docs/agent.md, "Editing files"). Tries the matchers of
// edit-matchers.ts in order, refuses whenever the match is ambiguous or unsafe, and writes newString
// corrected by the same mapping the match forgave. A wrong edit is worse than a refusal.
import { oneLineDifferenceMatcher } from "./edit-content-match";
import { EditRefusal, FORMATTING_MATCHERS, matchInput, unescapeModelText, type Candidate, type Matcher } from "./edit-matchers";
import {
  curlQuotes,
  hasCurlyQuotes,
  lineAt,
  normalizeNewlines,
  originalOffset,
  straightenQuotes,
  toLf,
} from "./edit-text";

export { EditRefusal } from "./edit-matchers";

/** A fuzzy match may hold at most this many times the non-whitespace characters of oldString (+ slack). */
export const MAX_MATCH_GROWTH = 1.3;
const MATCH_GROWTH_SLACK = 10;
/** Lines of the closest region shown when oldString is not found. */
export const CLOSEST_REGION_MAX_LINES = 30;
const CLOSEST_LINE_CHARS = 200;
/** Lines listed in a "several matches" error. */
const MAX_LISTED_MATCHES = 10;

const BOM = "\uFEFF";

/** The one-line-difference matcher for an oldString given unescaped: newString is unescaped too. */
const UNESCAPED_ONE_LINE: Matcher = {
  ...oneLineDifferenceMatcher,
  find(input, oldString) {
    const result = oneLineDifferenceMatcher.find(input, oldString);
    return { ...result, candidates: result.candidates.map((c) => ({ ...c, replacement: (text: string) => c.replacement(unescapeModelText(text)) })) };
  },
};

interface Found {
  matcher: Matcher;
  candidates: Candidate[];
}

/**
 * Returns `content` with oldString replaced by newString, or throws an Error (EditRefusal) whose
 * message says why not and what to do next. Line endings follow the file; a byte-order mark is kept.
 */
export function applyEdit(content: string, oldString: string, newString: string, replaceAll = false): string {
  if (oldString === newString) {
    throw new EditRefusal("oldString and newString are identical, so there is nothing to change. Put the new text in newString.");
  }
  if (oldString === "") {
    throw new EditRefusal("oldString is empty. An empty oldString only creates a new file; to change this file, put the exact text to replace in oldString.");
  }
  const bom = content.startsWith(BOM);
  const lf = toLf(bom ? content.slice(1) : content);
  const find = normalizeNewlines(oldString.startsWith(BOM) ? oldString.slice(1) : oldString);
  const replacement = normalizeNewlines(newString.startsWith(BOM) ? newString.slice(1) : newString);
  if (find === replacement) {
    throw new EditRefusal("oldString and newString differ only in line endings; line endings follow the file, so there is nothing to change.");
  }

  // Formatting noise first (as written, then with typographic quotes straightened); a difference in
  // content only after every formatting matcher has failed.
  let found = runMatchers(lf.text, find, replaceAll, FORMATTING_MATCHERS);
  let fixQuotes: ((text: string, region: string) => string) | undefined;
  if (!found) {
    const quotes = hasCurlyQuotes(find) || hasCurlyQuotes(lf.text);
    // Curly quotes are one UTF-16 unit like ASCII ones, so offsets in the straightened text hold.
    const content = quotes ? straightenQuotes(lf.text) : lf.text;
    const straightFind = quotes ? straightenQuotes(find) : find;
    if (quotes) found = runMatchers(content, straightFind, replaceAll, FORMATTING_MATCHERS);
    found ??= runMatchers(content, straightFind, replaceAll, [oneLineDifferenceMatcher]);
    // The same one-line difference in a double-escaped oldString (and newString alike).
    const unescaped = unescapeModelText(straightFind);
    if (!found && unescaped !== straightFind) found = runMatchers(content, unescaped, replaceAll, [UNESCAPED_ONE_LINE]);
    // A match found in the straightened text needs the same quote correction in newString.
    if (quotes) fixQuotes = (text, region) => correctQuotes(text, find, region);
  }
  if (!found) throw new EditRefusal(notFoundMessage(lf.text, find));

  const ordered = [...found.candidates].sort((a, b) => b.start - a.start);
  let body = bom ? content.slice(1) : content;
  for (const candidate of ordered) {
    let text = candidate.replacement(replacement);
    if (fixQuotes) text = fixQuotes(text, lf.text.slice(candidate.start, candidate.end));
    if (lf.eol === "\r\n") text = text.replace(/\n/g, "\r\n");
    // Slicing, not String.replace: "$&" and "$$" in newString stay literal.
    body = body.slice(0, originalOffset(lf, candidate.start)) + text + body.slice(originalOffset(lf, candidate.end));
  }
  const result = (bom ? BOM : "") + body;
  if (result === content) {
    throw new EditRefusal("The edit would leave the file unchanged (newString equals the text it replaces once indentation and line endings follow the file).");
  }
  return result;
}

function runMatchers(content: string, find: string, replaceAll: boolean, matchers: readonly Matcher[]): Found | undefined {
  const input = matchInput(content);
  const starts = input.starts;
  for (const matcher of matchers) {
    const result = matcher.find(input, find);
    if (result.refusal) throw new EditRefusal(result.refusal);
    const candidates = dedupe(result.candidates.filter((c) => matcher === FORMATTING_MATCHERS[0] || !tooLarge(content.slice(c.start, c.end), find)));
    if (candidates.length === 0) continue;
    if (replaceAll) {
      if (matcher.loose) {
        throw new EditRefusal(
          `With replaceAll, oldString must match exactly (or differ only in whitespace); it only resembles the file's text. Copy the exact text from the file.`,
        );
      }
      return { matcher, candidates };
    }
    if (candidates.length > 1) {
      const lines = candidates.slice(0, MAX_LISTED_MATCHES).map((c) => lineAt(starts, c.start) + 1);
      const more = candidates.length > MAX_LISTED_MATCHES ? ", ..." : "";
      throw new EditRefusal(
        `oldString matches ${candidates.length} places in the file (lines ${lines.join(", ")}${more}). Include more surrounding lines in oldString so it matches exactly one place, or set replaceAll to change every occurrence.`,
      );
    }
    return { matcher, candidates };
  }
  return undefined;
}

/** Sorted, without overlaps (the earlier of two overlapping candidates wins). */
function dedupe(candidates: Candidate[]): Candidate[] {
  const sorted = [...candidates].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Candidate[] = [];
  for (const c of sorted) {
    const last = out[out.length - 1];
    if (last && c.start < last.end) continue;
    out.push(c);
  }
  return out;
}

function nonWhitespaceLength(text: string): number {
  return text.replace(/\s+/g, "").length;
}

function tooLarge(region: string, find: string): boolean {
  return nonWhitespaceLength(region) > nonWhitespaceLength(find) * MAX_MATCH_GROWTH + MATCH_GROWTH_SLACK;
}

/**
 * The same quote correction the match needed: oldString had curly quotes where the file has ASCII
 * (straighten newString), or ASCII where the file uses only typographic quotes of a kind (curl those).
 */
function correctQuotes(text: string, find: string, region: string): string {
  const oldCurly = hasCurlyQuotes(find);
  const fileCurly = hasCurlyQuotes(region);
  if (oldCurly && !fileCurly) return straightenQuotes(text);
  if (!oldCurly && fileCurly) {
    const single = /[\u2018\u2019]/.test(region) && !region.includes("'");
    const double = /[\u201C\u201D]/.test(region) && !region.includes('"');
    return curlQuotes(text, { single, double });
  }
  return text;
}

/** The "not found" error: says so and shows the file's closest region with line numbers. */
function notFoundMessage(content: string, find: string): string {
  const hint = looksLikeReadOutput(find)
    ? ' oldString seems to contain the "N: " line-number prefixes of the read tool output; remove them.'
    : "";
  if (content.length === 0) return `oldString was not found: the file is empty.${hint} Use the write tool to give it content.`;
  const regions = closestRegions(content, find);
  const advice = " Read the file again and copy the text to change exactly (without the line-number prefixes), including its indentation.";
  if (regions.length === 0) return `oldString was not found in the file.${hint}${advice}`;
  const lines = content.split("\n");
  const show = (region: { first: number; last: number }) =>
    lines
      .slice(region.first, region.last + 1)
      .map((line, k) => `${region.first + k + 1}: ${line.length > CLOSEST_LINE_CHARS ? line.slice(0, CLOSEST_LINE_CHARS) + "..." : line}`)
      .join("\n");
  const named = regions.map((r) => (r.first === r.last ? `line ${r.first + 1}` : `lines ${r.first + 1}-${r.last + 1}`));
  const intro =
    regions.length === 1
      ? `The closest region is ${named[0]}:`
      : `Two regions are about as close (${named.join(" and ")}), so check which one you mean:`;
  return `oldString was not found in the file.${hint} ${intro}\n${regions.map(show).join("\n...\n")}\n${advice.trim()}`;
}

function looksLikeReadOutput(find: string): boolean {
  const lines = find.split("\n").filter((l) => l.trim() !== "");
  return lines.length > 0 && lines.every((l) => /^\s*\d+: /.test(l));
}

/** The words and symbols of a line: the basis of a cheap similarity for the closest region. */
function tokens(line: string): Set<string> {
  return new Set(line.match(/\w+|[^\s\w]/g) ?? []);
}

/** Dice coefficient of two sets. */
function dice(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const gram of small) if (large.has(gram)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/** A second region scoring at least this share of the best one is shown too (a near-identical sibling). */
const SECOND_REGION_SHARE = 0.9;

/**
 * Slides a window of oldString's height over the file and keeps the best by token similarity, plus
 * the best window apart from it when that one is nearly as good: the model may mean either.
 */
function closestRegions(content: string, find: string): { first: number; last: number }[] {
  const fileLines = content.split("\n").map((l) => l.trim().slice(0, CLOSEST_LINE_CHARS));
  const findLines = find
    .split("\n")
    .map((l) => l.trim().slice(0, CLOSEST_LINE_CHARS))
    .slice(0, CLOSEST_REGION_MAX_LINES);
  while (findLines.length > 1 && findLines[findLines.length - 1] === "") findLines.pop();
  const height = findLines.length;
  const fileGrams = fileLines.map(tokens);
  const findGrams = findLines.map(tokens);
  // A window's score sums the similarity of each file line to the oldString line at the same height.
  const scores: number[] = [];
  for (let first = 0; first <= Math.max(0, fileLines.length - height); first++) {
    let score = 0;
    for (let k = 0; k < height && first + k < fileLines.length; k++) {
      const a = fileLines[first + k]!;
      const b = findLines[k]!;
      score += a === b ? (a === "" ? 0.2 : 1) : dice(fileGrams[first + k]!, findGrams[k]!);
    }
    scores.push(score);
  }
  const bestOf = (allowed: (first: number) => boolean) => {
    let best: number | undefined;
    scores.forEach((score, first) => {
      if (allowed(first) && (best === undefined || score > scores[best]!)) best = first;
    });
    return best;
  };
  const best = bestOf(() => true);
  if (best === undefined || scores[best]! / height < 0.2) return [];
  const region = (first: number) => ({ first, last: Math.min(fileLines.length - 1, first + height - 1) });
  const second = bestOf((first) => first + height <= best || first >= best + height);
  const regions = [region(best)];
  if (second !== undefined && scores[second]! >= scores[best]! * SECOND_REGION_SHARE) regions.push(region(second));
  return regions.sort((a, b) => a.first - b.first);
}
