// import.meta.glob as Vite compiles it: each call becomes an object literal of the workspace files
// its patterns match, keyed as the patterns are written ("./pages/a.tsx", "/src/a.ts"), whose
// values are `() => import(…)` (lazy) or the modules themselves (`eager: true`, through imports
// added at the top of the module, on its first line so lines stay). Options: `import: "default"`
// (or another name), `query: "?raw"` / `"?url"`. Matching is done at compile time against the files.
import { dirnameOf, joinPath } from "./preview-paths";

export interface GlobCall {
  start: number;
  end: number;
  patterns: string[];
  eager: boolean;
  importName?: string;
  query?: string;
}

/** A pattern's glob syntax (*, **, ?, {a,b}) as a regular expression over a whole path. */
export function globToRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "{") {
      const end = glob.indexOf("}", i);
      if (end < 0) out += "\\{";
      else {
        out += `(?:${glob.slice(i + 1, end).split(",").map((part) => part.replace(/[.+^$()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")).join("|")})`;
        i = end;
      }
    } else out += c.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** The import.meta.glob calls of compiled code, with their literal arguments. Throws on a non-literal argument. */
export function findGlobCalls(code: string): GlobCall[] {
  const calls: GlobCall[] = [];
  for (const match of code.matchAll(/\bimport\.meta\.glob\s*(?:<[^>()]*>)?\s*\(/g)) {
    const open = match.index! + match[0].length;
    let depth = 1;
    let i = open;
    for (; i < code.length && depth > 0; i++) {
      const c = code[i]!;
      if (c === '"' || c === "'" || c === "`") {
        for (i++; i < code.length && code[i] !== c; i++) if (code[i] === "\\") i++;
      } else if (c === "(" || c === "[" || c === "{") depth++;
      else if (c === ")" || c === "]" || c === "}") depth--;
    }
    const args = code.slice(open, i - 1);
    const optionsAt = args.indexOf("{");
    const first = optionsAt < 0 ? args : args.slice(0, optionsAt);
    const options = optionsAt < 0 ? "" : args.slice(optionsAt);
    const patterns = [...first.matchAll(/(["'`])((?:(?!\1).)*)\1/g)].map((m) => m[2]!);
    if (patterns.length === 0) throw new Error("import.meta.glob() takes string literals (a pattern or an array of patterns)");
    const importName = /\bimport\s*:\s*(["'])(\w+)\1/.exec(options)?.[2];
    const query = /\bquery\s*:\s*(["'])([^"']*)\1/.exec(options)?.[2];
    calls.push({
      start: match.index!,
      end: i,
      patterns,
      eager: /\beager\s*:\s*true\b/.test(options),
      importName,
      query: query === undefined ? undefined : query.startsWith("?") ? query : `?${query}`,
    });
  }
  return calls;
}

/** The path from folder `fromDir` to `to` (workspace paths), starting with "./" or "../". */
export function relativeSpecifier(fromDir: string, to: string): string {
  const from = fromDir === "" ? [] : fromDir.split("/");
  const target = to.split("/");
  let common = 0;
  while (common < from.length && common < target.length - 1 && from[common] === target[common]) common++;
  const up = from.length - common;
  const rest = target.slice(common).join("/");
  return up === 0 ? `./${rest}` : `${"../".repeat(up)}${rest}`;
}

/**
 * The code with each glob call replaced. `list(dir)` gives the workspace files under a folder
 * (recursively); `root` is the served folder ("/" patterns start there), `path` the module's file.
 */
export async function expandGlobs(code: string, path: string, root: string, list: (dir: string) => Promise<string[]>): Promise<string> {
  const calls = findGlobCalls(code);
  if (calls.length === 0) return code;
  const dir = dirnameOf(path);
  let header = "";
  let out = "";
  let last = 0;
  let n = 0;
  for (const [c, call] of calls.entries()) {
    const matched = new Map<string, string>(); // key → specifier
    const negative = call.patterns.filter((p) => p.startsWith("!")).map((p) => p.slice(1));
    for (const pattern of call.patterns.filter((p) => !p.startsWith("!"))) {
      const absolute = pattern.startsWith("/");
      const full = joinPath(absolute ? root : dir, absolute ? pattern.slice(1) : pattern);
      if (full === undefined) continue;
      const parts = full.split("/");
      const globAt = parts.findIndex((part) => /[*?{]/.test(part));
      const base = globAt < 0 ? dirnameOf(full) : parts.slice(0, globAt).join("/");
      const re = globToRegExp(full);
      const excluded = negative.map((p) => globToRegExp(joinPath(p.startsWith("/") ? root : dir, p.startsWith("/") ? p.slice(1) : p) ?? p));
      for (const file of (await list(base)).sort()) {
        if (!re.test(file) || excluded.some((x) => x.test(file)) || file === path) continue;
        if (/(^|\/)node_modules\//.test(file) && !full.includes("node_modules")) continue;
        const key = absolute ? `/${root === "" ? file : file.slice(root.length + 1)}` : relativeSpecifier(dir, file);
        matched.set(key, relativeSpecifier(dir, file) + (call.query ?? ""));
      }
    }
    const entries: string[] = [];
    for (const [key, specifier] of matched) {
      if (call.eager) {
        const local = `__glob_${c}_${n++}`;
        header += call.importName ? `import { ${call.importName} as ${local} } from ${JSON.stringify(specifier)};` : `import * as ${local} from ${JSON.stringify(specifier)};`;
        entries.push(`${JSON.stringify(key)}: ${local}`);
      } else {
        const pick = call.importName ? `.then((m) => m[${JSON.stringify(call.importName)}])` : "";
        entries.push(`${JSON.stringify(key)}: () => import(${JSON.stringify(specifier)})${pick}`);
      }
    }
    out += code.slice(last, call.start) + `({${entries.join(", ")}})`;
    last = call.end;
  }
  return header + out + code.slice(last);
}
