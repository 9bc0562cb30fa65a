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
