// Small text helpers shared by the edit matchers, apply_patch and the read tool: line offsets,
// line endings, similarity measures and typographic quotes. All pure.

/** Start offset of every line of `text` (split on "\n"). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** 0-based line index of `offset`, given lineStarts(text). */
export function lineAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Text with every "\r\n" turned into "\n", plus a map from each LF-text offset to the original offset. */
export interface LfText {
  text: string;
  /**
   * Original offset of LF-text offset i (length text.length + 1; absent when nothing changed). A "\n" that stood for "\r\n" maps
   * to the "\r", so an LF range [s, e) maps to [toOriginal[s], toOriginal[e]) with pairs kept whole.
   */
  toOriginal?: number[];
  /** The line ending most lines of the original use. */
  eol: "\n" | "\r\n";
}

export function toLf(original: string): LfText {
  if (!original.includes("\r\n")) {
    return { text: original, eol: "\n" };
  }
  let text = "";
  const toOriginal: number[] = [];
  let crlf = 0;
  let lf = 0;
  for (let i = 0; i < original.length; i++) {
    const ch = original[i]!;
    if (ch === "\r" && original[i + 1] === "\n") {
      crlf++;
      continue;
    }
    if (ch === "\n") {
      if (original[i - 1] !== "\r") lf++;
      toOriginal.push(original[i - 1] === "\r" ? i - 1 : i);
    } else toOriginal.push(i);
    text += ch;
  }
  toOriginal.push(original.length);
  return { text, toOriginal, eol: crlf >= lf ? "\r\n" : "\n" };
}

export function originalOffset(lf: LfText, offset: number): number {
  return lf.toOriginal ? lf.toOriginal[offset]! : offset;
}

export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n/g, "\n");
}

export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

export function isBlank(line: string): boolean {
  return line.trim() === "";
}

/** Levenshtein distance with a cap: returns cap + 1 as soon as it is certain to exceed it. */
export function levenshtein(a: string, b: string, cap = Infinity): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let curr = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(prev[j]! + 1, curr[j - 1]! + 1, prev[j - 1]! + cost);
      curr[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > cap) return cap + 1;
    [prev, curr] = [curr, prev];
  }
  return prev[b.length]!;
}

/** Longest common subsequence length of two line arrays (small inputs only). */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  let curr = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      curr[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, curr[j - 1]!);
    }
    [prev, curr] = [curr, prev];
  }
  return prev[b.length]!;
}

/** Keeps the quadratic Levenshtein affordable; larger texts are compared line by line. */
const MAX_LEVENSHTEIN_CELLS = 4_000_000;

/** Similarity in [0, 1]: 1 - distance / longer length; line-based (LCS) for very large texts. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  if (a.length * b.length > MAX_LEVENSHTEIN_CELLS) {
    const la = a.split("\n");
    const lb = b.split("\n");
    return (2 * lcsLength(la, lb)) / (la.length + lb.length);
  }
  return 1 - levenshtein(a, b) / longer;
}

/** Dice coefficient of character bigrams: a cheap similarity of short strings (file names). */
export function bigramSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const counts = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const gram = a.slice(i, i + 2);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const gram = b.slice(i, i + 2);
    const count = counts.get(gram) ?? 0;
    if (count > 0) {
      shared++;
      counts.set(gram, count - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

const CURLY_TO_ASCII: Record<string, string> = { "\u2018": "'", "\u2019": "'", "\u201C": '"', "\u201D": '"' };

export function hasCurlyQuotes(text: string): boolean {
  return /[\u2018\u2019\u201C\u201D]/.test(text);
}

/** Curly quotes to ASCII, one char for one char (offsets stay valid). */
export function straightenQuotes(text: string): string {
  return text.replace(/[\u2018\u2019\u201C\u201D]/g, (q) => CURLY_TO_ASCII[q]!);
}

/** ASCII quotes of one kind to typographic ones: opening after whitespace or an opening bracket. */
export function curlQuotes(text: string, kinds: { single: boolean; double: boolean }): string {
  return text.replace(/['"]/g, (q, offset: number) => {
    if ((q === "'" && !kinds.single) || (q === '"' && !kinds.double)) return q;
    const before = offset === 0 ? " " : text[offset - 1]!;
    const opening = /[\s([{\u2014\u2013-]/.test(before);
    if (q === "'") return opening ? "\u2018" : "\u2019";
    return opening ? "\u201C" : "\u201D";
  });
}

/**
 * Typographic punctuation spelled in ASCII: quotes, dashes, the ellipsis and the wide and
 * non-breaking spaces (Codex's seek_sequence normalises the same characters). For comparing lines
 * only: the ellipsis grows to three characters, so offsets into the result do not hold.
 */
export function asciiPunctuation(text: string): string {
  if (!/[^\x00-\x7F]/.test(text)) return text;
  return text
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\u2026/g, "...")
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}
