// Search and replace across the workspace's files (the Search side view): a pure function over the
// file service's contents, so it runs the same in the page, in unit tests and in the Node benchmark.
import { matchGlob } from "../../base";

export interface SearchQuery {
  text: string;
  regex?: boolean;
  matchCase?: boolean;
  wholeWord?: boolean;
  /** Comma-separated globs; a file must match one (empty: every file). */
  include?: string;
  /** Comma-separated globs; a file matching one is skipped. */
  exclude?: string;
}

export interface SearchMatch {
  /** 1-based line and column of the match's start (columns count UTF-16 units, as Monaco does). */
  line: number;
  column: number;
  /** Where the match ends (1-based, exclusive column), for selecting it in the editor. */
  endLine: number;
  endColumn: number;
  /** Offset and length in the file's text. */
  offset: number;
  length: number;
  /** The line the match starts on (clipped around the match when long) and the match within it. */
  preview: { before: string; match: string; after: string };
}

export interface FileMatches {
  path: string;
  matches: SearchMatch[];
}

export interface SearchResult {
  files: FileMatches[];
  matchCount: number;
  /** The search stopped at MAX_SEARCH_MATCHES. */
  truncated: boolean;
}

/** Results stop here: more would not be read, and would slow the panel down. */
export const MAX_SEARCH_MATCHES = 10_000;
/** Characters of a line shown before and after a match. */
const PREVIEW_CONTEXT = 60;
/** Folders skipped unless the include globs name them (as the agent's own searches do). */
const SKIPPED_FOLDERS = [".git", "node_modules"];

export class SearchQueryError extends Error {}

/** The regular expression a query searches with (global, multi-line). Throws SearchQueryError for a bad regex. */
export function queryRegExp(query: SearchQuery): RegExp {
  let source = query.regex ? query.text : query.text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  if (query.wholeWord) source = `(?<![\\p{L}\\p{N}_])(?:${source})(?![\\p{L}\\p{N}_])`;
  const flags = `gmu${query.matchCase ? "" : "i"}`;
  try {
    return new RegExp(source, flags);
  } catch (error) {
    try {
      // Patterns written for non-Unicode mode (`\-`, `\_`) are still accepted without whole word.
      if (!query.wholeWord) return new RegExp(source, flags.replace("u", ""));
    } catch {
      // report the first error below
    }
    throw new SearchQueryError(`Invalid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, "")}`);
  }
}

function splitGlobs(list: string | undefined): string[] {
  return (list ?? "")
    .split(",")
    .map((g) => g.trim())
    .filter((g) => g !== "");
}

/** A glob matches a file when it matches the file's path or one of its folders ("src", "dist/**", "*.ts"). */
function globMatches(glob: string, path: string): boolean {
  if (matchGlob(glob, path)) return true;
  for (let slash = path.lastIndexOf("/"); slash > 0; slash = path.lastIndexOf("/", slash - 1)) {
    if (matchGlob(glob, path.slice(0, slash))) return true;
  }
  return false;
}

/** Which files a query looks in, by path. */
export function pathFilter(query: Pick<SearchQuery, "include" | "exclude">): (path: string) => boolean {
  const include = splitGlobs(query.include);
  const exclude = splitGlobs(query.exclude);
  const named = include.join(",");
  return (path) => {
    if (SKIPPED_FOLDERS.some((folder) => (path === folder || path.startsWith(`${folder}/`) || path.includes(`/${folder}/`)) && !named.includes(folder))) {
      return false;
    }
    if (include.length > 0 && !include.some((g) => globMatches(g, path))) return false;
    return !exclude.some((g) => globMatches(g, path));
  };
}

function preview(text: string, lineStart: number, offset: number, length: number): SearchMatch["preview"] {
  let lineEnd = text.indexOf("\n", offset);
  if (lineEnd === -1) lineEnd = text.length;
  const matchEnd = Math.min(offset + length, lineEnd);
  const from = Math.max(lineStart, offset - PREVIEW_CONTEXT);
  const to = Math.min(lineEnd, matchEnd + PREVIEW_CONTEXT);
  return {
    before: (from > lineStart ? "…" : "") + text.slice(from, offset).replace(/^\s+/, from === lineStart ? "" : " "),
    match: text.slice(offset, matchEnd),
    after: text.slice(matchEnd, to).replace(/\r$/, "") + (to < lineEnd ? "…" : ""),
  };
}

/** Matches of `regex` in one text, with line and column positions (zero-length matches are skipped). */
export function findInText(text: string, regex: RegExp, limit = MAX_SEARCH_MATCHES): SearchMatch[] {
  const out: SearchMatch[] = [];
  regex.lastIndex = 0;
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  const advance = (to: number) => {
    for (let i = text.indexOf("\n", scanned); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) {
      line++;
      lineStart = i + 1;
    }
    scanned = to;
  };
  for (let m = regex.exec(text); m !== null && out.length < limit; m = regex.exec(text)) {
    if (m[0].length === 0) {
      regex.lastIndex++;
      continue;
    }
    advance(m.index);
    const startLine = line;
    const startCol = m.index - lineStart + 1;
    const startOfLine = lineStart;
    const end = m.index + m[0].length;
    const newlines = m[0].split("\n").length - 1;
    const endLine = startLine + newlines;
    const endColumn = newlines === 0 ? startCol + m[0].length : end - (text.lastIndexOf("\n", end - 1) + 1) + 1;
    out.push({
      line: startLine,
      column: startCol,
      endLine,
      endColumn,
      offset: m.index,
      length: m[0].length,
      preview: preview(text, startOfLine, m.index, m[0].length),
    });
  }
  return out;
}

/**
 * Searches text files (binary ones, stored as bytes, are skipped) in path order. Throws
 * SearchQueryError for an invalid regular expression.
 */
export function searchFiles(entries: Iterable<[path: string, data: string | Uint8Array]>, query: SearchQuery): SearchResult {
  const files: FileMatches[] = [];
  if (query.text === "") return { files, matchCount: 0, truncated: false };
  const regex = queryRegExp(query);
  const wanted = pathFilter(query);
  const candidates: Array<[string, string]> = [];
  for (const [path, data] of entries) if (typeof data === "string" && wanted(path)) candidates.push([path, data]);
  candidates.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let matchCount = 0;
  let truncated = false;
  for (const [path, text] of candidates) {
    // Cheap test first: most files do not match, and need no line bookkeeping.
    regex.lastIndex = 0;
    if (!regex.test(text)) continue;
    const matches = findInText(text, regex, MAX_SEARCH_MATCHES - matchCount + 1);
    if (matches.length === 0) continue;
    if (matchCount + matches.length > MAX_SEARCH_MATCHES) {
      matches.length = MAX_SEARCH_MATCHES - matchCount;
      truncated = true;
    }
    matchCount += matches.length;
    if (matches.length > 0) files.push({ path, matches });
    if (truncated) break;
  }
  return { files, matchCount, truncated };
}

/** The text a replacement inserts for one match (`$1`, `$&`, `$<name>` expand in regex mode). */
function expand(regex: RegExp, query: SearchQuery, matched: RegExpExecArray, replacement: string): string {
  if (!query.regex) return replacement;
  // Expanding against the match alone loses lookaround context, so use the exec result's groups.
  return replacement.replace(/\$(\$|&|\d{1,2}|<([^>]*)>)/g, (whole, token: string, name: string | undefined) => {
    if (token === "$") return "$";
    if (token === "&") return matched[0];
    if (name !== undefined) return matched.groups?.[name] ?? "";
    const index = Number(token);
    return index > 0 && index < matched.length ? (matched[index] ?? "") : whole;
  });
}

/**
 * Replaces matches of `query` in `text`: all of them, or only the one at `onlyOffset` (which must still
 * be a match there). Returns the new text and how many were replaced.
 */
export function replaceInText(text: string, query: SearchQuery, replacement: string, onlyOffset?: number): { text: string; count: number } {
  const regex = queryRegExp(query);
  let out = "";
  let last = 0;
  let count = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    if (m[0].length === 0) {
      regex.lastIndex++;
      continue;
    }
    if (onlyOffset !== undefined && m.index !== onlyOffset) {
      if (m.index > onlyOffset) break;
      continue;
    }
    out += text.slice(last, m.index) + expand(regex, query, m, replacement);
    last = m.index + m[0].length;
    count++;
    if (onlyOffset !== undefined) break;
  }
  return { text: count === 0 ? text : out + text.slice(last), count };
}
