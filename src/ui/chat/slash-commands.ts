// Slash commands in the prompt box: the built-ins (/new, /compact, /init) and the workspace's
// custom commands, markdown files in .webcode/command/ whose body is a prompt template.
import { isInside } from "../../base";
import type { WorkspaceFs } from "../../runtime";

export interface SlashCommand {
  /** Typed after the slash: "new", "compact", "review". */
  name: string;
  description: string;
  kind: "builtin" | "custom";
  /** Custom commands: the prompt, with $ARGUMENTS and $1..$9 filled from what follows the name. */
  template?: string;
  /** Custom commands may pick the agent that runs them. */
  agent?: string;
  /** Where a custom command came from (shown as its source). */
  path?: string;
}

export const BUILTIN_COMMANDS: readonly SlashCommand[] = [
  { name: "new", description: "Start a new session", kind: "builtin" },
  { name: "compact", description: "Summarise the conversation to free context", kind: "builtin" },
  { name: "init", description: "Have the agent write AGENTS.md for this workspace", kind: "builtin" },
];

/** Folders searched for custom commands, in order (later ones win on a name clash). */
export const COMMAND_DIRECTORIES = [".opencode/command", ".opencode/commands", ".webcode/command", ".webcode/commands"];

/** Whether a workspace change may change the commands: a file in a command folder, or a folder above one. */
export function affectsCommands(path: string): boolean {
  return COMMAND_DIRECTORIES.some((dir) => isInside(path, dir) || isInside(dir, path));
}

/**
 * What /init asks the agent to do. It is a user message, not a system prompt: the agent reads the
 * workspace with its own tools and writes the file with its write tool (asking permission as usual).
 */
export const INIT_PROMPT = [
  "Look through this workspace and write an AGENTS.md file at its root for future coding agents.",
  "Cover: how to build, lint and test (including how to run a single test), the layout of the code,",
  "and the code style and conventions you can see (imports, naming, types, error handling).",
  "Keep it short (about 20-40 lines). If AGENTS.md already exists, improve it instead of replacing",
  "what is still right. Include rules from CLAUDE.md, .cursorrules or similar files if there are any.",
].join(" ");

/** "/review src/a.ts quickly" -> { name: "review", args: "src/a.ts quickly" }; plain text -> undefined. */
export function parseSlash(text: string): { name: string; args: string } | undefined {
  const match = /^\/([\w.-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  return { name: match[1]!, args: (match[2] ?? "").trim() };
}

/** Fills $ARGUMENTS with all arguments and $1..$9 with the words (the last takes the rest). */
export function expandTemplate(template: string, args: string): string {
  const words = args.split(/\s+/).filter(Boolean);
  const numbered = template.match(/\$([1-9])/g)?.map((m) => Number(m.slice(1))) ?? [];
  const highest = numbered.length ? Math.max(...numbered) : 0;
  return template.replace(/\$ARGUMENTS|\$([1-9])/g, (match, digit: string | undefined) => {
    if (match === "$ARGUMENTS") return args;
    const index = Number(digit) - 1;
    if (index === highest - 1) return words.slice(index).join(" ");
    return words[index] ?? "";
  });
}

/** Parses a command file: optional `---` frontmatter (description, agent) and the template body. */
export function parseCommandFile(name: string, text: string, path?: string): SlashCommand {
  let body = text.replace(/^\uFEFF/, "");
  const fields: Record<string, string> = {};
  const front = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(body);
  if (front) {
    body = body.slice(front[0].length);
    for (const line of front[1]!.split(/\r?\n/)) {
      const field = /^([\w-]+):\s*(.*)$/.exec(line);
      if (field) fields[field[1]!.toLowerCase()] = field[2]!.trim().replace(/^(["'])(.*)\1$/, "$2");
    }
  }
  const template = body.trim();
  const firstLine = template.split("\n")[0] ?? "";
  return {
    name,
    description: fields.description || firstLine.slice(0, 80) || `Run ${name}`,
    kind: "custom",
    template,
    ...(fields.agent && { agent: fields.agent }),
    ...(path && { path }),
  };
}

/** The workspace's custom commands; unreadable files are skipped (the list is a convenience). */
export async function loadCustomCommands(fs: Pick<WorkspaceFs, "list" | "readText">): Promise<SlashCommand[]> {
  const byName = new Map<string, SlashCommand>();
  for (const dir of COMMAND_DIRECTORIES) {
    let entries;
    try {
      entries = await fs.list(dir);
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.kind !== "file" || !entry.path.endsWith(".md")) continue;
      const path = entry.path.includes("/") ? entry.path : `${dir}/${entry.path}`;
      const name = path.slice(path.lastIndexOf("/") + 1, -3);
      if (!/^[\w.-]+$/.test(name)) continue;
      try {
        byName.set(name, parseCommandFile(name, await fs.readText(path), path));
      } catch {
        // A file that vanished or is not text is not a command.
      }
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Commands whose name starts with `prefix` (built-ins first; a custom one may shadow none of them). */
export function matchCommands(commands: readonly SlashCommand[], prefix: string): SlashCommand[] {
  const lower = prefix.toLowerCase();
  return commands.filter((c) => c.name.toLowerCase().startsWith(lower));
}
