// A small glob matcher for the agent's glob, grep and list tools and the Search view's include and
// exclude fields: `*` (within a path segment), `**` (any depth), `?`, `[abc]`, `{a,b}`. A pattern
// without "/" matches file names. In base so the Search view does not pull in the agent core.

const cache = new Map<string, RegExp>();
const CACHE_LIMIT = 500;

/** The regular expression of a glob over "/"-separated paths. */
export function globToRegExp(glob: string): RegExp {
  const cached = cache.get(glob);
  if (cached) return cached;
  let source = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === "*") {
      if (glob[i + 1] === "*") {
        const atSegmentStart = i === 0 || glob[i - 1] === "/";
        const atSegmentEnd = i + 2 === glob.length || glob[i + 2] === "/";
        i++;
        if (atSegmentStart && glob[i + 1] === "/") {
          // "**/" matches zero or more whole folders.
          source += "(?:[^/]*/)*";
          i++;
        } else if (atSegmentStart && atSegmentEnd) source += ".*";
        else source += "[^/]*";
      } else source += "[^/]*";
    } else if (ch === "?") source += "[^/]";
    else if (ch === "[") {
      const close = glob.indexOf("]", i + 1);
      if (close === -1) source += "\\[";
      else {
        const body = glob.slice(i + 1, close).replace(/^!/, "^").replace(/\\/g, "\\\\");
        source += `[${body}]`;
        i = close;
      }
    } else if (ch === "{") {
      braces++;
      source += "(?:";
    } else if (ch === "}" && braces > 0) {
      braces--;
      source += ")";
    } else if (ch === "," && braces > 0) source += "|";
    else source += ch.replace(/[.+^$()|\\{}]/g, "\\$&");
  }
  let regex: RegExp;
  try {
    regex = new RegExp(`^${source}$`);
  } catch {
    regex = new RegExp(`^${glob.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(glob, regex);
  return regex;
}

/** Does `path` (relative to the search folder) match `glob`? Name-only globs test the last segment. */
export function matchGlob(glob: string, path: string): boolean {
  const pattern = glob.startsWith("./") ? glob.slice(2) : glob;
  const target = pattern.includes("/") ? path : path.slice(path.lastIndexOf("/") + 1);
  return globToRegExp(pattern).test(target);
}

/** Folders skipped by file searches unless the pattern names them. */
export const SKIPPED_FOLDERS = [".git", "node_modules"] as const;

/** True when `path` lies in a skipped folder that `pattern` does not mention. */
export function inSkippedFolder(path: string, pattern: string): boolean {
  const segments = path.split("/");
  return SKIPPED_FOLDERS.some((folder) => segments.includes(folder) && !pattern.includes(folder));
}
