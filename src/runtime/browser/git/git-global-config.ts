// `git config --global`: kept by the page (the composition root stores it with the settings), not
// as a workspace file, which `git add .` would pick up. The simple `[section]` / `[section "sub"]`
// + `key = value` form is read and written here: isomorphic-git handles a repository's config only.
import { KeyedSerial } from "../../../base";
import { GitUsageError, type GitContext, type GlobalConfigStore } from "./git-context";

/** One change at a time per store, each applied to what is stored then (parallel commands keep both keys). */
const changesByStore = new KeyedSerial<GlobalConfigStore>();

async function change(store: GlobalConfigStore, apply: (values: Map<string, string>) => void): Promise<void> {
  await changesByStore.for(store).run(async () => {
    const values = parse(await store.read());
    apply(values);
    await store.write(serialize(values));
  });
}

export interface GlobalConfig {
  get(key: string): string | undefined;
  command(ctx: GitContext, args: string[]): Promise<number>;
}

function parse(text: string): Map<string, string> {
  const values = new Map<string, string>();
  let section = "";
  for (const line of text.split("\n")) {
    const header = /^\s*\[([^\]\s"]+)(?:\s+"([^"]*)")?\]\s*$/.exec(line);
    if (header) {
      section = (header[2] !== undefined ? `${header[1]}.${header[2]}` : header[1]!).toLowerCase();
      continue;
    }
    const entry = /^\s*([A-Za-z][\w-]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (entry && section) values.set(`${section}.${entry[1]!.toLowerCase()}`, entry[2]!.replace(/^"(.*)"$/, "$1"));
  }
  return values;
}

function serialize(values: Map<string, string>): string {
  const sections = new Map<string, string[]>();
  for (const [key, value] of values) {
    const dot = key.lastIndexOf(".");
    const section = key.slice(0, dot);
    sections.set(section, [...(sections.get(section) ?? []), `\t${key.slice(dot + 1)} = ${value}`]);
  }
  let text = "";
  for (const [section, lines] of sections) {
    const dot = section.indexOf(".");
    text += dot === -1 ? `[${section}]\n` : `[${section.slice(0, dot)} "${section.slice(dot + 1)}"]\n`;
    text += `${lines.join("\n")}\n`;
  }
  return text;
}

export async function globalConfig(store: GlobalConfigStore): Promise<GlobalConfig> {
  const values = parse(await store.read());
  return {
    get: (key) => values.get(key.toLowerCase()),
    async command(ctx, args) {
      const operands = args.filter((a) => !a.startsWith("-"));
      if (args.includes("--list") || args.includes("-l")) {
        for (const [key, value] of values) ctx.out(`${key}=${value}\n`);
        return 0;
      }
      const [key, value] = operands;
      if (!key) throw new GitUsageError("usage: git config --global <name> [<value>]");
      const name = key.toLowerCase();
      const unset = args.includes("--unset");
      if (value === undefined && !unset) {
        const current = values.get(name);
        if (current === undefined) return 1;
        ctx.out(`${current}\n`);
        return 0;
      }
      const set = (into: Map<string, string>) => (unset || value === undefined ? into.delete(name) : into.set(name, value));
      set(values);
      await change(store, set);
      return 0;
    },
  };
}
