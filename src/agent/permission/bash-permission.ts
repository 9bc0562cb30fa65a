// What a bash command asks permission for (docs/agent.md, "Permissions"): each simple command of a command line (split on
// &&, ||, ;, |, &, newlines, subshells and $(...) substitutions) is one pattern, and the "always"
// pattern is the command's leading words by a small arity table plus " *". Commands are matched in
// their canonical form (canonical-command.ts), so wrappers, option order and spelling do not matter.
import { canonicalCommand } from "./canonical-command";

/**
 * How many leading words name a command ("git push", "npm run build"). The longest prefix listed
 * wins; commands not listed count one word. Generic runners carry the script name so that
 * "always allow npm run test" does not also allow "npm run deploy".
 */
export const BASH_ARITY: Readonly<Record<string, number>> = {
  // file and text commands: the command word alone
  cat: 1, ls: 1, cd: 1, pwd: 1, echo: 1, printf: 1, head: 1, tail: 1, wc: 1, sort: 1, uniq: 1,
  grep: 1, rg: 1, find: 1, diff: 1, tree: 1, which: 1, mkdir: 1, touch: 1, cp: 1, mv: 1, rm: 1,
  chmod: 1, sed: 1, awk: 1, jq: 1, xargs: 1, tee: 1, curl: 1, wget: 1, tar: 1, unzip: 1,
  node: 1, python: 1, python3: 1, tsc: 1, eslint: 1, prettier: 1, vitest: 1, jest: 1,
  // tools with subcommands: the subcommand matters
  git: 2, npm: 2, pnpm: 2, yarn: 2, bun: 2, deno: 2, npx: 2, bunx: 2, docker: 2, cargo: 2, go: 2,
  pip: 2, pip3: 2, make: 2, gh: 2, kubectl: 2, rustup: 2, poetry: 2, uv: 2,
  // runners and nested subcommands: one more word
  "npm run": 3, "npm exec": 3, "pnpm run": 3, "pnpm exec": 3, "pnpm dlx": 3, "yarn run": 3,
  "yarn dlx": 3, "bun run": 3, "bun x": 3, "deno task": 3, "docker compose": 3, "git remote": 3,
  "git stash": 3, "git config": 3, "gh pr": 3, "gh issue": 3, "gh repo": 3, "python -m": 3,
  "python3 -m": 3,
  // python3 -m pip is pip: its subcommand matters ("python3 -m pip install *").
  "python -m pip": 4, "python3 -m pip": 4,
};

const LONGEST_PREFIX = 3;

/** A command whose executed commands cannot be known from its words, and why. */
export interface UnanalysableCommand {
  /** The command as its pattern reads ("eval $cmd", "npm run build"). */
  command: string;
  /** Why, in words for the user ("it runs a script from package.json"). */
  reason: string;
}

export interface BashPermission {
  /** The simple commands in canonical form (canonical-command.ts), each checked against the rules. */
  patterns: string[];
  /** What an "always" reply allows for the rest of the session: each command's prefix by arity plus " *". */
  always: string[];
  /**
   * Commands that run something the text does not show: eval, source, a shell running a file or
   * a non-literal script, a command word that is a variable or substitution, xargs, npm/yarn/pnpm
   * scripts, git with command-running config (see CanonicalCommand.unknown). Empty when every
   * command that runs is among `patterns`.
   */
  unanalysable: UnanalysableCommand[];
}

/** Index of the ")" closing the "(" before `start`, respecting quotes; input.length if none. */
function closingParen(input: string, start: number): number {
  let depth = 1;
  let quote: string | undefined;
  for (let i = start; i < input.length; i++) {
    const c = input[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "\\") i++;
    else if (c === "'" || c === '"') quote = c;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return input.length;
}

/** Splits a command line into its simple commands (substitutions contribute their own). */
export function splitCommands(input: string): string[] {
  const commands: string[] = [];
  let current = "";
  let quote: '"' | "'" | undefined;
  const finish = () => {
    const text = current.trim();
    if (text) commands.push(text);
    current = "";
  };
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    const next = input[i + 1];
    if (quote === "'") {
      current += c;
      if (c === "'") quote = undefined;
      continue;
    }
    if (c === "\\") {
      current += c + (next ?? "");
      i++;
      continue;
    }
    if (c === "$" && next === "(") {
      const end = closingParen(input, i + 2);
      commands.push(...splitCommands(input.slice(i + 2, end)));
      current += input.slice(i, end + 1);
      i = end;
      continue;
    }
    if (c === "`") {
      let end = input.indexOf("`", i + 1);
      if (end < 0) end = input.length;
      commands.push(...splitCommands(input.slice(i + 1, end)));
      current += input.slice(i, end + 1);
      i = end;
      continue;
    }
    if (quote === '"') {
      current += c;
      if (c === '"') quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      current += c;
      continue;
    }
    if (c === "#" && (current === "" || /\s$/.test(current))) {
      // A comment runs to the end of the line.
      while (i + 1 < input.length && input[i + 1] !== "\n") i++;
      continue;
    }
    // "2>&1", "&>" and ">&" are redirections, not the background operator.
    const redirection = c === "&" && (current.endsWith(">") || next === ">");
    if (!redirection && (c === ";" || c === "\n" || c === "|" || c === "&" || c === "(" || c === ")")) {
      finish();
      if ((c === "|" && next === "|") || (c === "&" && next === "&") || (c === "|" && next === "&")) i++;
      continue;
    }
    current += c;
  }
  finish();
  return commands;
}

/** Shell words of one simple command, quotes removed. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The leading words that name the command, by the arity table. */
export function commandPrefix(words: string[]): string[] {
  for (let length = Math.min(LONGEST_PREFIX, words.length); length >= 1; length--) {
    const arity = BASH_ARITY[words.slice(0, length).join(" ")];
    if (arity !== undefined) return words.slice(0, arity);
  }
  return words.slice(0, 1);
}

/** How deep `sh -c` scripts inside `sh -c` scripts are followed before the rest counts as unanalysable. */
const MAX_SCRIPT_DEPTH = 4;

function addOnce(list: string[], item: string): void {
  if (!list.includes(item)) list.push(item);
}

/** Adds what one simple command (its words, quotes removed) asks for, and the commands it visibly runs. */
function addCommand(words: readonly string[], out: BashPermission, depth: number): void {
  const command = canonicalCommand(words);
  const pattern = command.words.join(" ");
  let unknown = command.unknown;
  if (pattern) {
    addOnce(out.patterns, pattern);
    const prefix = commandPrefix(command.words);
    addOnce(out.always, `${prefix.join(" ")} *`);
    // `git $(echo push)`: the words that pick what the command does are known only when it runs.
    if (prefix.slice(1).some((word) => /^[$`]/.test(word))) unknown ??= "its subcommand is expanded when it runs";
  }
  if (unknown && !out.unanalysable.some((entry) => entry.command === (pattern || words.join(" ")))) {
    out.unanalysable.push({ command: pattern || words.join(" "), reason: unknown });
  }
  for (const run of command.runs) addCommand(run, out, depth + 1);
  for (const script of command.scripts) {
    if (depth >= MAX_SCRIPT_DEPTH) out.unanalysable.push({ command: pattern, reason: "its script is nested too deeply to follow" });
    else for (const simple of splitCommands(script)) addCommand(shellWords(simple), out, depth + 1);
  }
}

function emptyPermission(): BashPermission {
  return { patterns: [], always: [], unanalysable: [] };
}

/**
 * What ONE simple command asks for, given as its argv after the shell expanded it (variables,
 * substitutions, globs and aliases done, quotes and assignments removed; argv[0] is the command
 * name). For a runtime that reports every command it runs: the commands that xargs, eval, scripts
 * and `find -exec` start are reported (and checked) on their own, so `unanalysable` may be ignored
 * there; it is filled in the same way as for a command line.
 */
export function argvPermission(argv: readonly string[]): BashPermission {
  const out = emptyPermission();
  addCommand(argv, out, 0);
  if (out.patterns.length === 0 && argv.length > 0) out.patterns.push(argv.join(" "));
  return out;
}

/**
 * The patterns a bash command line asks for and the "always" patterns a session grant would add:
 * each simple command of the line in its canonical form (canonical-command.ts). For a runtime that
 * cannot report the commands it runs (WebContainer): `unanalysable` lists the commands whose
 * executed commands cannot be known from the text, and such a line should be asked about.
 */
export function bashPermission(commandLine: string): BashPermission {
  const out = emptyPermission();
  for (const simple of splitCommands(commandLine)) addCommand(shellWords(simple), out, 0);
  if (out.patterns.length === 0 && commandLine.trim()) out.patterns.push(commandLine.trim());
  return out;
}

