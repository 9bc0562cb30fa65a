// Indentation correction for fuzzy edits: when a matcher forgave a difference in the indentation of
// oldString (shifted block, tabs written as spaces, 2 vs 4 spaces), newString gets the same mapping.
import { isBlank, leadingWhitespace } from "./edit-text";

export interface IndentStyle {
  /** Indents with tabs (one tab per level) rather than spaces. */
  tab: boolean;
  /** Spaces per level (1 for tabs). */
  unit: number;
}

/** Assumed when a side shows no indentation steps at all. */
export const DEFAULT_INDENT: IndentStyle = { tab: false, unit: 4 };
const SPACE_UNITS = [2, 3, 4, 8];

/** The indentation style of some lines: tabs or spaces, and the most common step between lines. */
export function detectIndentStyle(lines: readonly string[]): IndentStyle | undefined {
  let tabLines = 0;
  let spaceLines = 0;
  const steps = new Map<number, number>();
  let previous: number | undefined;
  for (const line of lines) {
    if (isBlank(line)) continue;
    const indent = leadingWhitespace(line);
    if (indent.startsWith("\t")) tabLines++;
    else if (indent.startsWith(" ")) spaceLines++;
    const width = indent.includes("\t") ? undefined : indent.length;
    if (width !== undefined && previous !== undefined && width > previous && SPACE_UNITS.includes(width - previous)) {
      steps.set(width - previous, (steps.get(width - previous) ?? 0) + 1);
    }
    previous = width;
  }
  if (tabLines > spaceLines) return { tab: true, unit: 1 };
  let best: number | undefined;
  for (const [step, count] of steps) {
    if (best === undefined || count > steps.get(best)! || (count === steps.get(best)! && step < best)) best = step;
  }
  return best === undefined ? undefined : { tab: false, unit: best };
}

interface Level {
  level: number;
  /** Alignment spaces beyond whole levels (JSDoc " *", continuation lines). */
  rest: number;
}

function parseIndent(indent: string, style: IndentStyle): Level {
  if (style.tab) {
    let tabs = 0;
    let spaces = 0;
    for (const ch of indent) {
      if (ch === "\t") tabs++;
      else spaces++;
    }
    return { level: tabs, rest: spaces };
  }
  let width = 0;
  for (const ch of indent) width += ch === "\t" ? style.unit : 1;
  return { level: Math.floor(width / style.unit), rest: width % style.unit };
}

function renderIndent(level: Level, style: IndentStyle): string {
  return style.tab ? "\t".repeat(level.level) + " ".repeat(level.rest) : " ".repeat(level.level * style.unit + level.rest);
}

/** Maps an indentation string of the model's text to the file's; undefined when it would go below column 0. */
export type IndentMap = (indent: string) => string | undefined;

export interface IndentPair {
  /** A line of oldString. */
  old: string;
  /** The file line it matched. */
  file: string;
}

/**
 * Derives the indentation mapping that turns each oldString line's indentation into its file line's:
 * identity, or a level shift with the file's own style. Returns undefined when no single mapping
 * explains every pair (the block is indented differently in a way that cannot be carried over).
 */
export function buildIndentMap(
  pairs: readonly IndentPair[],
  styles: { old: IndentStyle | undefined; file: IndentStyle | undefined },
): IndentMap | undefined {
  const relevant = pairs.filter((p) => !isBlank(p.old) && !isBlank(p.file));
  if (relevant.every((p) => leadingWhitespace(p.old) === leadingWhitespace(p.file))) return (indent) => indent;
  const prefixMap = constantPrefixMap(relevant);
  if (prefixMap) return prefixMap;
  const fileStyle = styles.file ?? styles.old ?? DEFAULT_INDENT;
  // Try the model's own style first, then assume it used the file's unit (detection can be fooled).
  const oldStyles = [styles.old ?? fileStyle, fileStyle, ...SPACE_UNITS.map((unit) => ({ tab: false, unit }))];
  for (const oldStyle of oldStyles) {
    const first = relevant[0]!;
    const shift = parseIndent(leadingWhitespace(first.file), fileStyle).level - parseIndent(leadingWhitespace(first.old), oldStyle).level;
    const map: IndentMap = (indent) => {
      const parsed = parseIndent(indent, oldStyle);
      const level = parsed.level + shift;
      if (level < 0) return undefined;
      return renderIndent({ level, rest: parsed.rest }, fileStyle);
    };
    if (relevant.every((p) => map(leadingWhitespace(p.old)) === leadingWhitespace(p.file))) return map;
  }
  return undefined;
}

/**
 * The whole block shifted by one literal prefix ("  " added to, or removed from, every line). Tried
 * before levels because it needs no indent unit: a file that shows no indent step still maps.
 */
function constantPrefixMap(relevant: readonly IndentPair[]): IndentMap | undefined {
  if (relevant.length === 0) return undefined;
  const first = relevant[0]!;
  const oldIndent = leadingWhitespace(first.old);
  const fileIndent = leadingWhitespace(first.file);
  if (fileIndent.endsWith(oldIndent)) {
    const prefix = fileIndent.slice(0, fileIndent.length - oldIndent.length);
    if (relevant.every((p) => leadingWhitespace(p.file) === prefix + leadingWhitespace(p.old))) return (indent) => prefix + indent;
  }
  if (oldIndent.endsWith(fileIndent)) {
    const prefix = oldIndent.slice(0, oldIndent.length - fileIndent.length);
    if (relevant.every((p) => leadingWhitespace(p.old) === prefix + leadingWhitespace(p.file))) {
      return (indent) => (indent.startsWith(prefix) ? indent.slice(prefix.length) : undefined);
    }
  }
  return undefined;
}

/** Re-indents every non-blank line of `text` with `map`; undefined when a line cannot be mapped. */
export function reindent(text: string, map: IndentMap): string | undefined {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (isBlank(line)) {
      out.push(line);
      continue;
    }
    const indent = leadingWhitespace(line);
    const mapped = map(indent);
    if (mapped === undefined) return undefined;
    out.push(mapped + line.slice(indent.length));
  }
  return out.join("\n");
}
