// Bundled short options, as git's parse-options reads them: `-qm msg` is `-q -m msg`, `-mmsg` is
// `-m msg`, `-n3` is `-n 3`, `-sb` is `-s -b`. Each subcommand's handler reads options one by one;
// this splits bundles first, from the table of the short options each subcommand knows, so every
// handler gets them apart. A letter a subcommand does not know ends the command with git's error;
// the table lists only letters the handlers act on or that change nothing here (-q, -v), never one
// whose meaning would be dropped (a dry run, push -d), so a bundle never does more than asked.
// (git's own table lives in each builtin; isomorphic-git has no command line, hence this.)
import { GitUsageError } from "./git-context";

interface ShortOptions {
  /** Letters that take no value. */
  flags: string;
  /** Letters that take a value: the rest of the bundle, or the next argument. */
  values?: string;
  /** Letters whose optional value stays attached (`-uno`, `-U3`): the argument is passed on whole. */
  attached?: string;
}

const SHORT_OPTIONS: Record<string, ShortOptions> = {
  status: { flags: "sbv", attached: "u" },
  add: { flags: "Auvf" },
  rm: { flags: "rfq" },
  mv: { flags: "fv" },
  commit: { flags: "aqnv", values: "m" },
  restore: { flags: "SWq", values: "s" },
  reset: { flags: "q" },
  diff: { flags: "pu", attached: "U" },
  log: { flags: "pusq", values: "n" },
  show: { flags: "pusq" },
  branch: { flags: "dDmMarvlq" },
  checkout: { flags: "fq", values: "bB" },
  switch: { flags: "fdq", values: "cC" },
  tag: { flags: "adfl", values: "m" },
  stash: { flags: "q", values: "m" },
  init: { flags: "q", values: "b" },
  clone: { flags: "qv", values: "b" },
  fetch: { flags: "qv" },
  pull: { flags: "qv" },
  push: { flags: "qvuf" },
  remote: { flags: "v" },
  config: { flags: "l" },
};

/**
 * The arguments of `sub` with every bundle of short options split into single ones. Arguments after
 * `--`, values of options and operands are left as they are.
 */
export function splitShortOptions(sub: string, args: string[]): string[] {
  const known = SHORT_OPTIONS[sub];
  if (!known) return args;
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    // Not a short option (an operand, a long option, "-"), or a lone one the handler reads itself;
    // `git log -3` is a count.
    if (!/^-[^-]/.test(arg) || (sub === "log" && /^-\d+$/.test(arg))) {
      out.push(arg);
      continue;
    }
    if (arg.length === 2) {
      out.push(arg);
      if (known.values?.includes(arg[1]!) && i + 1 < args.length) out.push(args[++i]!);
      continue;
    }
    if (known.attached?.includes(arg[1]!)) {
      out.push(arg);
      continue;
    }
    for (let at = 1; at < arg.length; at++) {
      const letter = arg[at]!;
      if (known.values?.includes(letter)) {
        out.push(`-${letter}`);
        const rest = arg.slice(at + 1);
        if (rest !== "") out.push(rest);
        else if (i + 1 < args.length) out.push(args[++i]!);
        else throw new GitUsageError(`error: switch \`${letter}' requires a value`);
        break;
      }
      if (known.attached?.includes(letter)) {
        out.push(`-${arg.slice(at)}`);
        break;
      }
      if (!known.flags.includes(letter)) throw new GitUsageError(`error: unknown switch \`${letter}'\nusage: git ${sub} [<options>]`);
      out.push(`-${letter}`);
    }
  }
  return out;
}

/**
 * The long options each subcommand acts on ("=" after a name: it takes a value, given with = or as
 * the next argument). Any other option is refused before the subcommand runs, with git's own
 * words, so an option is never silently ignored: a model or a user reading a success can trust
 * that everything typed was done.
 */
const LONG_OPTIONS: Record<string, string[]> = {
  status: ["--short", "--porcelain", "--branch", "--verbose", "--untracked-files", "--untracked-files="],
  add: ["--all", "--update", "--verbose"],
  rm: ["--cached", "--quiet"],
  mv: [],
  commit: ["--all", "--allow-empty", "--amend", "--message=", "--no-edit", "--no-verify", "--quiet", "--verbose"],
  restore: ["--source=", "--staged", "--worktree"],
  reset: ["--hard", "--mixed", "--soft", "--quiet"],
  diff: ["--cached", "--staged", "--stat", "--name-only", "--name-status", "--no-patch", "--patch", "--quiet", "--exit-code"],
  log: ["--oneline", "--max-count=", "--decorate", "--decorate=", "--no-decorate", "--format=", "--pretty=", "--all", "--graph", "--reverse", "--topo-order", "--date-order", "--patch", "--stat", "--name-only", "--name-status", "--no-patch"],
  show: ["--stat", "--name-only", "--name-status", "--no-patch", "--patch"],
  branch: ["--all", "--delete", "--force", "--list", "--move", "--remotes", "--verbose", "--quiet", "--show-current"],
  checkout: ["--detach", "--force", "--quiet"],
  switch: ["--create=", "--detach", "--discard-changes", "--force", "--quiet"],
  tag: ["--annotate", "--delete", "--force", "--list", "--message="],
  stash: ["--message=", "--quiet"],
  init: ["--initial-branch=", "--quiet"],
  clone: ["--branch=", "--depth=", "--quiet", "--verbose"],
  fetch: ["--quiet", "--verbose"],
  pull: ["--quiet", "--verbose"],
  push: ["--force", "--set-upstream", "--quiet", "--verbose"],
  remote: ["--verbose"],
  config: ["--list", "--get", "--unset", "--global", "--system", "--local"],
};

/** How a subcommand's parser words an option it does not know (git's words; log and show parse revisions). */
function unknownOption(sub: string, arg: string): GitUsageError {
  if (sub === "log" || sub === "show") return new GitUsageError(`fatal: unrecognized argument: ${arg}`, 128);
  if (sub === "diff") return new GitUsageError(`error: invalid option: ${arg}`, 129);
  const what = arg.startsWith("--") ? `option \`${arg.slice(2).split("=")[0]}'` : `switch \`${arg[1]}'`;
  return new GitUsageError(`error: unknown ${what}\nusage: git ${sub} [<options>]`, 129);
}

/**
 * Refuses every option of `args` (already split by splitShortOptions) that `sub` does not act on.
 * Operands, values of options and everything after `--` pass.
 */
export function refuseUnknownOptions(sub: string, args: string[]): void {
  const long = LONG_OPTIONS[sub];
  const short = SHORT_OPTIONS[sub];
  if (!long) return;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return;
    if (!arg.startsWith("-") || arg === "-") continue;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg : arg.slice(0, eq);
      if (eq >= 0 ? long.includes(`${name}=`) : long.includes(name)) continue;
      // A valued option given as two arguments: its value is the next one.
      if (eq < 0 && long.includes(`${name}=`)) {
        i++;
        continue;
      }
      throw unknownOption(sub, arg);
    }
    if (sub === "log" && /^-n?\d+$/.test(arg)) continue;
    const letter = arg[1]!;
    if (short?.values?.includes(letter)) {
      if (arg.length === 2) i++;
      continue;
    }
    if (short?.attached?.includes(letter)) continue;
    if (arg.length === 2 && short?.flags.includes(letter)) continue;
    throw unknownOption(sub, arg);
  }
}
