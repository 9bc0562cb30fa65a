// Tab completion for the interactive shell: command names in command position, paths elsewhere.
// One match completes (a folder gets "/", a file a space); several extend to their common prefix,
// or are listed when there is nothing to add.
import type { IFileSystem } from "just-bash";
import { WORKSPACE_MOUNT } from "./bash-host";
import { normalizeAbsolute } from "./workspace-bash-fs";

export interface CompletionResult {
  /** Text to insert at the cursor (already escaped for the shell). */
  insert: string;
  /** Candidates to show when the completion is ambiguous. */
  list: string[];
}

const WORD_BREAKS = new Set([" ", ";", "|", "&", "<", ">", "(", ")", "="]);
const NEEDS_ESCAPE = /[\s'"\\$`!&;|<>()*?[\]{}#~]/g;

function escapeWord(text: string): string {
  return text.replace(NEEDS_ESCAPE, (c) => `\\${c}`);
}

/** Start index (in UTF-16 units) of the word that ends at the end of `before`. */
function wordStart(before: string): number {
  let i = before.length;
  while (i > 0) {
    const c = before[i - 1]!;
    if (WORD_BREAKS.has(c) && before[i - 2] !== "\\") break;
    i--;
  }
  return i;
}

function commonPrefix(values: string[]): string {
  if (values.length === 0) return "";
  let prefix = values[0]!;
  for (const value of values) {
    while (!value.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

export async function complete(
  before: string,
  options: { fs: IFileSystem; cwd: string; commands: readonly string[] },
): Promise<CompletionResult> {
  const start = wordStart(before);
  const word = before.slice(start).replace(/\\(.)/g, "$1");
  const head = before.slice(0, start).trimEnd();
  const commandPosition = head === "" || /(^|[;|&(])$/.test(head);

  if (commandPosition && !word.includes("/") && word !== "") {
    const names = [...new Set(options.commands.filter((name) => name.startsWith(word)))].sort();
    if (names.length > 0) return resolveMatches(word, names.map((name) => ({ name, dir: false })));
  }
  return completePath(word, options.fs, options.cwd);
}

async function completePath(word: string, fs: IFileSystem, cwd: string): Promise<CompletionResult> {
  const slash = word.lastIndexOf("/");
  const dirPart = slash >= 0 ? word.slice(0, slash + 1) : "";
  const prefix = word.slice(slash + 1);
  let dir: string;
  if (dirPart.startsWith("~")) dir = WORKSPACE_MOUNT + dirPart.slice(1);
  else if (dirPart.startsWith("/")) dir = dirPart;
  else dir = `${cwd}/${dirPart}`;
  dir = normalizeAbsolute(dir);
  if (word === "~") return { insert: "/", list: [] };
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return { insert: "", list: [] };
  }
  const matches = names.filter((name) => name.startsWith(prefix) && (prefix.startsWith(".") || !name.startsWith(".")));
  const entries = await Promise.all(
    matches.sort().map(async (name) => {
      const stat = await fs.stat(`${dir === "/" ? "" : dir}/${name}`).catch(() => undefined);
      return { name, dir: stat?.isDirectory ?? false };
    }),
  );
  return resolveMatches(prefix, entries);
}

function resolveMatches(prefix: string, matches: Array<{ name: string; dir: boolean }>): CompletionResult {
  if (matches.length === 0) return { insert: "", list: [] };
  if (matches.length === 1) {
    const only = matches[0]!;
    return { insert: escapeWord(only.name.slice(prefix.length)) + (only.dir ? "/" : " "), list: [] };
  }
  const common = commonPrefix(matches.map((m) => m.name));
  if (common.length > prefix.length) return { insert: escapeWord(common.slice(prefix.length)), list: [] };
  return { insert: "", list: matches.map((m) => m.name + (m.dir ? "/" : "")) };
}
