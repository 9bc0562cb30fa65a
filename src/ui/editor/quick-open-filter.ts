// Ranking for quick open (Ctrl/Cmd+P): the query's characters must appear in order in the path;
// matches in the file name, at word starts and in runs rank first.

export interface QuickOpenMatch {
  path: string;
  score: number;
  /** Indexes into `path` of the matched characters (for highlighting). */
  positions: number[];
}

export const QUICK_OPEN_LIMIT = 50;

function isWordStart(path: string, i: number): boolean {
  if (i === 0) return true;
  const before = path[i - 1]!;
  const here = path[i]!;
  return before === "/" || before === "." || before === "-" || before === "_" || before === " " || (before === before.toLowerCase() && here !== here.toLowerCase());
}

/** Scores one path, or undefined when the query does not match it. */
export function scorePath(path: string, query: string): QuickOpenMatch | undefined {
  const q = query.replace(/\s+/g, "").toLowerCase();
  if (q === "") return { path, score: 0, positions: [] };
  const lower = path.toLowerCase();
  const nameStart = path.lastIndexOf("/") + 1;
  // Prefer a match that lies entirely in the file name; fall back to the whole path.
  const inName = bestMatch(path, lower, q, nameStart);
  const anywhere = inName ?? bestMatch(path, lower, q, 0);
  if (!anywhere) return undefined;
  let score = 0;
  let previous = -2;
  for (const i of anywhere) {
    score += 1;
    if (i === previous + 1) score += 5;
    if (isWordStart(path, i)) score += 3;
    if (i >= nameStart) score += 2;
    previous = i;
  }
  if (inName && lower.slice(nameStart).startsWith(q)) score += 10;
  // Shorter paths win ties: "a.ts" before "deep/nested/a.ts".
  score -= path.length * 0.01;
  return { path, score, positions: anywhere };
}

function bestMatch(path: string, lower: string, q: string, start: number): number[] | undefined {
  // Jumping to word starts can skip past characters a later query letter needs; then take plain greedy.
  return matchFrom(path, lower, q, start, true) ?? matchFrom(path, lower, q, start, false);
}

/** In-order match; with preferStarts, a character jumps to a later word start holding it. */
function matchFrom(path: string, lower: string, q: string, start: number, preferStarts: boolean): number[] | undefined {
  const positions: number[] = [];
  let from = start;
  for (const ch of q) {
    let found = lower.indexOf(ch, from);
    if (found < 0) return undefined;
    // Jump to a word start holding the same character when one comes later and the run is not contiguous.
    if (preferStarts && (positions.length === 0 || found !== positions[positions.length - 1]! + 1)) {
      for (let j = found; j >= 0 && j < lower.length; j = lower.indexOf(ch, j + 1)) {
        if (isWordStart(path, j)) {
          found = j;
          break;
        }
      }
    }
    positions.push(found);
    from = found + 1;
  }
  return positions;
}

export function filterPaths(paths: readonly string[], query: string, limit = QUICK_OPEN_LIMIT): QuickOpenMatch[] {
  const matches: QuickOpenMatch[] = [];
  for (const path of paths) {
    const match = scorePath(path, query);
    if (match) matches.push(match);
  }
  matches.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  return matches.slice(0, limit);
}
