// What a bash command asks permission for (docs/agent.md, "Permissions"): each simple command of a command line (split on
// &&, ||, ;, |, &, newlines, subshells and $(...) substitutions) is one pattern, and the "always"
// pattern is the command's leading words by a small arity table plus " *".

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

export interface BashPermission {
  /** The simple commands, each checked against the rules. */
  patterns: string[];
  /** What an "always" reply allows for the rest of the session. */
  always: string[];
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

const ASSIGNMENT = /^\s*[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"])*\s+/;

/** "FOO=1 BAR=2 npm test" -> "npm test": rules are written for the command, not its environment. */
function stripAssignments(command: string): string {
  let text = command;
  for (let match = ASSIGNMENT.exec(text); match && match[0].length < text.length; match = ASSIGNMENT.exec(text)) {
    text = text.slice(match[0].length);
  }
  return text.trim();
}

/** The leading words that name the command, by the arity table. */
export function commandPrefix(words: string[]): string[] {
  for (let length = Math.min(LONGEST_PREFIX, words.length); length >= 1; length--) {
    const arity = BASH_ARITY[words.slice(0, length).join(" ")];
    if (arity !== undefined) return words.slice(0, arity);
  }
  return words.slice(0, 1);
}

/** The patterns a bash command asks for and the "always" patterns a session grant would add. */
export function bashPermission(command: string): BashPermission {
  const patterns: string[] = [];
  const always: string[] = [];
  for (const simple of splitCommands(command)) {
    const pattern = stripAssignments(simple);
    if (!pattern) continue;
    if (!patterns.includes(pattern)) patterns.push(pattern);
    const prefix = commandPrefix(shellWords(pattern));
    if (prefix.length === 0) continue;
    const grant = `${prefix.join(" ")} *`;
    if (!always.includes(grant)) always.push(grant);
  }
  if (patterns.length === 0 && command.trim()) patterns.push(command.trim());
  return { patterns, always };
}

/** The patterns one simple command asks for, from its words as the shell will run them (quotes and expansions done). */
export function argvPermission(argv: readonly string[]): BashPermission {
  return bashPermission(argv.map(quoteArg).join(" "));
}

function quoteArg(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
