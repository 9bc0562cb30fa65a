// Wildcard patterns for permission rules (docs/agent.md, "Permissions"): `*` matches any run of characters, `?` one
// character, and a trailing " *" also matches the bare command ("git status *" matches "git status").

const cache = new Map<string, RegExp>();
const CACHE_LIMIT = 500;

function compile(pattern: string): RegExp {
  let source = "";
  // A trailing " *" means "this command with any arguments, or none".
  const bareCommand = pattern.endsWith(" *");
  const body = bareCommand ? pattern.slice(0, -2) : pattern;
  for (const char of body) {
    if (char === "*") source += "[\\s\\S]*";
    else if (char === "?") source += "[\\s\\S]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  if (bareCommand) source += "(?: [\\s\\S]*)?";
  return new RegExp(`^${source}$`);
}

/** Does `text` match the wildcard `pattern` as a whole? Case-sensitive; `*` also crosses "/". */
export function wildcardMatch(text: string, pattern: string): boolean {
  if (pattern === "*") return true;
  let regex = cache.get(pattern);
  if (!regex) {
    regex = compile(pattern);
    // Patterns come from a handful of rules; the bound only guards against unbounded growth.
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(pattern, regex);
  }
  return regex.test(text);
}
