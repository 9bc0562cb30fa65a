// What one simple command runs, as the permission rules see it (docs/agent.md, "Permissions"): the
// same command can be written many ways (`git -C . push`, `command git push`, `\curl`, `env curl`,
// `rm -r -f`), and a rule written for one spelling must catch all of them. canonicalCommand takes
// the words of one simple command (quotes removed: an argv after the shell's expansion, or the
// shell words of the command text) and returns the words the rules are matched against:
//
// - wrappers that only run the rest of their words are dropped, repeatedly, with their options
//   (`command`, `builtin`, `env`, `time`, `nice`, `nohup`, `exec`, `timeout`, `stdbuf`, `xargs`,
//   `sudo`), as are leading variable assignments, shell reserved words (`if`, `then`, `!`, `{`…),
//   a leading backslash and the directory of an absolute command path;
// - git's global options before the subcommand are dropped (`git -C . push` is `git push`);
// - rm's options are rewritten `-rf` when they mean recursive and forced, however spelled;
// - find without a start path gets its default "." so "find * -delete *" matches it, and the
//   command of its -exec/-execdir/-ok/-okdir is checked too.
//
// It also says when what runs cannot be known from the words at all (see `unknown`).

/** The shells whose `-c` script is analysed as a command line. */
const SHELLS: ReadonlySet<string> = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash"]);

/** Words the shell parses before a command, not commands themselves (`if curl …; then`). */
const RESERVED: ReadonlySet<string> = new Set(["!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "esac"]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** How a wrapper's own options are read, so the command it runs can be found. */
interface WrapperSpec {
  /** Short options that take a value: the rest of the word (`-oL`) or the next word (`-n 10`). */
  valued?: string;
  /** Short options whose value can only be attached (`xargs -i{}`, `xargs -l1`). */
  attached?: string;
  /** Long options that take the next word as value when not written `--name=value`. */
  valuedLong?: readonly string[];
  /** Words after the options that are not the command: timeout's DURATION. */
  operands?: number;
  /** env: NAME=value words before the command; `env -` is `env -i`. */
  assignments?: boolean;
  /** Options after which nothing is run (`command -v curl` only prints where curl is). */
  noRun?: string;
  /** xargs: the command's further arguments come from its input, unknown from the text. */
  argumentsFromInput?: boolean;
  /** env -S / --split-string: the option's value is split into the command's first words. */
  splitString?: { short: string; long: string };
}

const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  command: { noRun: "vV" },
  builtin: {},
  nohup: {},
  env: { valued: "uCS", valuedLong: ["unset", "chdir", "split-string"], assignments: true, splitString: { short: "S", long: "split-string" } },
  time: { valued: "fo", valuedLong: ["format", "output"] },
  nice: { valued: "n", valuedLong: ["adjustment"] },
  exec: { valued: "a" },
  timeout: { valued: "sk", valuedLong: ["signal", "kill-after"], operands: 1 },
  stdbuf: { valued: "ioe", valuedLong: ["input", "output", "error"] },
  sudo: { valued: "ugpCchrtTUD", valuedLong: ["user", "group", "prompt", "close-from", "host", "role", "type", "command-timeout", "other-user", "chdir"] },
  xargs: {
    valued: "adEILnPs",
    attached: "eil",
    valuedLong: ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "max-lines", "process-slot-var"],
    argumentsFromInput: true,
  },
};

/** git's options before the subcommand that take the next word as their value. */
const GIT_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--list-cmds"]);

/** git config keys whose value is a command git runs (`-c alias.x='!curl …'`, `-c core.pager=…`). */
const GIT_COMMAND_CONFIG = /^(core\.(pager|editor|sshcommand|fsmonitor|hookspath|gitproxy|askpass)|.*\.(helper|command|cmd|textconv|driver|tool|program|path|receivepack|uploadpack))$/i;

/** Tools that run a script whose text lives elsewhere (package.json): what it runs is unknown. */
function runsPackageScript(words: readonly string[]): boolean {
  const [name, sub] = words;
  if (name === "npx" || name === "bunx" || name === "yarn" || name === "pnpx") return true;
  if (name === "npm") return ["run", "run-script", "rum", "urn", "exec", "x", "test", "t", "tst", "start", "stop", "restart"].includes(sub ?? "");
  if (name === "pnpm") return ["run", "exec", "dlx", "test", "t", "start", "stop", "restart"].includes(sub ?? "") || (sub !== undefined && !sub.startsWith("-") && !PNPM_BUILTINS.has(sub));
  if (name === "bun") return ["run", "x", "test"].includes(sub ?? "") || sub?.endsWith(".ts") === true || sub?.endsWith(".js") === true;
  return false;
}

/** pnpm subcommands that are not script names (`pnpm build` runs the "build" script). */
const PNPM_BUILTINS: ReadonlySet<string> = new Set(["add", "install", "i", "update", "up", "remove", "rm", "uninstall", "list", "ls", "outdated", "why", "audit", "init", "store", "prune", "link", "unlink", "publish", "pack", "config", "help", "env", "import", "fetch", "rebuild", "root", "bin", "licenses"]);

export interface CanonicalCommand {
  /** The command the rules are matched against; empty when the words run nothing (`exec >log`). */
  words: string[];
  /** Further commands visible in the words: the command of find -exec. */
  runs: string[][];
  /** Shell text run as a command line: the literal script of `sh -c '…'`. */
  scripts: string[];
  /**
   * Why what runs cannot be known from these words (undefined: it can). Set for text evaluated or
   * read at run time (eval, source, a shell running a file or its input, `sh -c` with a non-literal
   * script), a command or subcommand word that is a variable, substitution, glob or brace pattern,
   * an alias definition, xargs (its command's arguments come from its input), package-manager
   * scripts (their text lives in package.json), and git given config that runs a command (other
   * than an alias given with -c, which is resolved).
   */
  unknown?: string;
}

/** Reads a wrapper's options and operands; returns the words of the command it runs, or undefined if it runs none. */
function unwrap(spec: WrapperSpec, args: string[]): string[] | undefined {
  let i = 0;
  const split: string[] = [];
  const operandsNeeded = spec.operands ?? 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word === "--") {
      i++;
      break;
    }
    if (word === "-" && spec.assignments) continue;
    if (!word.startsWith("-") || word === "-") break;
    if (word.startsWith("--")) {
      const [name, value] = splitLong(word.slice(2));
      if (value === undefined && spec.valuedLong?.includes(name)) i++;
      if (name === spec.splitString?.long) split.push(value ?? args[i] ?? "");
      continue;
    }
    for (let j = 1; j < word.length; j++) {
      const letter = word[j]!;
      if (spec.noRun?.includes(letter)) return undefined;
      if (spec.attached?.includes(letter)) break;
      if (spec.valued?.includes(letter)) {
        const value = j + 1 < word.length ? word.slice(j + 1) : args[++i];
        if (letter === spec.splitString?.short) split.push(value ?? "");
        break;
      }
    }
  }
  if (spec.assignments) while (i < args.length && ASSIGNMENT.test(args[i]!)) i++;
  i += operandsNeeded;
  // env -S "curl x" runs the split string.
  return [...split.flatMap((text) => text.split(/\s+/).filter(Boolean)), ...args.slice(i)];
}

function splitLong(option: string): [name: string, value: string | undefined] {
  const eq = option.indexOf("=");
  return eq < 0 ? [option, undefined] : [option.slice(0, eq), option.slice(eq + 1)];
}

/** A redirection written before the command (`2>/dev/null curl …`); its target is the next word when not attached. */
const REDIRECTION = /^(\d+|&)?(>>?|<<?|>&|<&|>\||&>>?)/;

/** Drops what the shell reads before the command word: assignments, reserved words, `function NAME`, redirections. */
function withoutLeadingSyntax(words: string[]): string[] {
  let i = 0;
  for (let word = words[0]; word !== undefined; word = words[i]) {
    if (ASSIGNMENT.test(word) || RESERVED.has(word)) i++;
    else if (word === "function") i += 2;
    else if (REDIRECTION.test(word)) i += /[<>&|]$/.test(word) ? 2 : 1;
    else break;
  }
  return words.slice(i);
}

/** An absolute path names its last part (`/usr/bin/curl` is curl); `\curl` is curl. */
function commandName(word: string): string {
  const bare = word.startsWith("\\") ? word.slice(1) : word;
  return bare.startsWith("/") ? bare.slice(bare.lastIndexOf("/") + 1) : bare;
}

/** A word the shell would still expand into something else: a variable, substitution, glob or braces. */
function expands(word: string): boolean {
  return /[$`*?[]/.test(word) || /\{[^}]*,[^}]*\}/.test(word);
}

/**
 * git with its global options before the subcommand dropped. An alias given with `-c alias.p=push`
 * is resolved (`git -c alias.p=push p` is `git push`; a `!` alias is a shell script); other config
 * that makes git run a command sets `unknown`. (Aliases stored in a config file cannot be seen
 * here; the browser runtime's git has none.)
 */
function canonicalGit(args: string[]): { words: string[]; scripts: string[]; unknown?: string } {
  let i = 0;
  let unknown: string | undefined;
  const aliases = new Map<string, string>();
  while (i < args.length && args[i]!.startsWith("-")) {
    const word = args[i]!;
    const [name, value] = word.startsWith("--") ? splitLong(word) : [word, undefined];
    const taken = GIT_VALUED.has(name) && value === undefined ? args[i + 1] : value;
    if ((name === "-c" || name === "--config-env") && taken !== undefined) {
      const [key = "", ...rest] = taken.split("=");
      if (name === "-c" && /^alias\./i.test(key)) aliases.set(key.slice("alias.".length), rest.join("="));
      else if (GIT_COMMAND_CONFIG.test(key)) unknown = `git config ${key} runs a command`;
    }
    i += GIT_VALUED.has(name) && value === undefined ? 2 : 1;
  }
  const [subcommand, ...rest] = args.slice(i);
  const alias = subcommand === undefined ? undefined : aliases.get(subcommand);
  if (alias === undefined) return { words: ["git", ...args.slice(i)], scripts: [], unknown };
  if (alias.startsWith("!")) return { words: ["git", subcommand!, ...rest], scripts: [[alias.slice(1), ...rest].join(" ")], unknown };
  return { words: ["git", ...alias.split(/\s+/).filter(Boolean), ...rest], scripts: [], unknown };
}

/** rm with recursive and forced options, however spelled (`-r -f`, `-Rf`, `--recursive --force`), written `-rf`. */
function canonicalRm(args: string[]): string[] {
  let recursive = false;
  let force = false;
  const options: string[] = [];
  const operands: string[] = [];
  let optionsEnded = false;
  // GNU rm reads options after operands too (`rm dir -rf`).
  for (const word of args) {
    if (optionsEnded || !word.startsWith("-") || word === "-") operands.push(word);
    else if (word === "--") optionsEnded = true;
    else {
      options.push(word);
      if (word === "--recursive") recursive = true;
      else if (word === "--force") force = true;
      else if (!word.startsWith("--")) {
        if (/[rR]/.test(word)) recursive = true;
        if (word.includes("f")) force = true;
      }
    }
  }
  if (recursive && force) return ["rm", "-rf", ...operands];
  return ["rm", ...args];
}

/** find's actions that run a command, ending at ";" or "+". */
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** find with its default start path written out, and the commands its -exec actions run. */
function canonicalFind(args: string[]): { words: string[]; runs: string[][] } {
  const first = args[0];
  const noPath = first === undefined || first.startsWith("-") || first === "(" || first === "!";
  const runs: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!FIND_EXEC.has(args[i]!)) continue;
    const start = i + 1;
    while (i + 1 < args.length && args[i + 1] !== ";" && args[i + 1] !== "+") i++;
    runs.push(args.slice(start, i + 1));
  }
  return { words: noPath ? ["find", ".", ...args] : ["find", ...args], runs };
}

/** A shell's `-c` script when it is given literally; undefined when the shell runs a file, its input or a built script. */
function shellScript(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === "--" || !word.startsWith("-")) return undefined;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(word)) {
      const script = args[i + 1];
      return script !== undefined && !/[$`]/.test(script) ? script : undefined;
    }
  }
  return undefined;
}

/** The canonical form of one simple command's words (see the file comment). */
export function canonicalCommand(input: readonly string[]): CanonicalCommand {
  let words = [...input];
  let unknown: string | undefined;
  for (;;) {
    words = withoutLeadingSyntax(words);
    if (words.length === 0) return { words, runs: [], scripts: [], unknown };
    const name = commandName(words[0]!);
    words = [name, ...words.slice(1)];
    const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (!wrapper) break;
    const inner = unwrap(wrapper, words.slice(1));
    // `command -v curl`, or `env` / `time` alone: nothing else runs; the words stand as they are.
    if (inner === undefined || inner.length === 0) return { words, runs: [], scripts: [], unknown };
    if (wrapper.argumentsFromInput) unknown ??= `${name} gives the command arguments from its input`;
    words = inner;
  }
  const [name, ...args] = words as [string, ...string[]];
  if (name !== "[" && name !== "[[" && expands(name)) unknown ??= "the command name is expanded when it runs";
  if (name === "eval" || name === "source" || name === ".") unknown ??= `${name} runs text known only when it runs`;
  if (name === "alias" && args.some((word) => word.includes("="))) unknown ??= "an alias renames commands";
  if (runsPackageScript(words)) unknown ??= "it runs a script from package.json";
  if (SHELLS.has(name)) {
    const script = shellScript(args);
    if (script === undefined) unknown ??= `${name} runs a file, its input or a script built when it runs`;
    return { words, runs: [], scripts: script === undefined ? [] : [script], unknown };
  }
  if (name === "git") {
    const git = canonicalGit(args);
    return { words: git.words, runs: [], scripts: git.scripts, unknown: unknown ?? git.unknown };
  }
  if (name === "rm") {
    if (args.some((word) => /^[$`]/.test(word))) unknown ??= "an rm option may be expanded when it runs";
    return { words: canonicalRm(args), runs: [], scripts: [], unknown };
  }
  if (name === "find") {
    if (args.some((word) => /^[$`]/.test(word))) unknown ??= "a find action may be expanded when it runs";
    return { ...canonicalFind(args), scripts: [], unknown };
  }
  return { words, runs: [], scripts: [], unknown };
}
