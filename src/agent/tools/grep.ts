// The grep tool: lines matching a regular expression, grouped by file (newest first), capped.
import { z } from "zod";
import { looksBinary, tryDecodeText } from "../../base";
import description from "../../../prompts/tools/grep.md?raw";
import { matchGlob } from "./glob-match";
import { checkFolder, filesUnder, newestFirst, relativeTo } from "./search-files";
import { resolveToolPath, showPath } from "./workspace-path";
import type { ToolDefinition } from "./tool";

/** At most this many matching lines are returned. */
export const GREP_MAX_MATCHES = 100;
/** Matching lines are cut to this many characters. */
export const GREP_MAX_LINE_LENGTH = 2000;
/** Files larger than this are not searched (generated bundles, data). */
export const GREP_MAX_FILE_BYTES = 5 * 1024 * 1024;

const parameters = z.object({
  pattern: z.string().min(1).describe("Regular expression"),
  path: z.string().optional().describe("Folder to search (default: root)"),
  include: z.string().optional().describe("File glob filter"),
});

/** Compiles the model's pattern; accepts a leading (?i) as ripgrep does. */
export function compilePattern(pattern: string): RegExp {
  let source = pattern;
  let flags = "";
  if (source.startsWith("(?i)")) {
    source = source.slice(4);
    flags = "i";
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new Error(`Invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}. Escape special characters such as ( [ { . * + ? with a backslash to search for them literally.`);
  }
}

export const grepTool: ToolDefinition<typeof parameters> = {
  id: "grep",
  description,
  parameters,
  async execute(args, context) {
    const regex = compilePattern(args.pattern);
    const base = await resolveToolPath(args.path ?? "", context);
    await context.ask({ permission: "read", patterns: [showPath(base)], always: [showPath(base)], metadata: { pattern: args.pattern, path: base } });
    const fs = context.runtime.fs;
    await checkFolder(fs, base);
    // .git and node_modules are searched only when the include glob names them.
    const files = (await filesUnder(fs, base, args.include ?? ""))
      .filter((f) => !args.include || matchGlob(args.include, relativeTo(base, f.path)))
      .filter((f) => f.size <= GREP_MAX_FILE_BYTES)
      .sort(newestFirst);
    const groups: string[] = [];
    let total = 0;
    let shown = 0;
    for (const file of files) {
      if (context.abort.aborted) throw new Error("grep was aborted.");
      const bytes = await fs.readFile(file.path);
      if (looksBinary(bytes)) continue;
      const text = tryDecodeText(bytes);
      if (text === undefined) continue;
      const lines: string[] = [];
      text.split("\n").forEach((raw, index) => {
        const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
        if (!regex.test(line)) return;
        total++;
        if (shown >= GREP_MAX_MATCHES) return;
        shown++;
        const cut = line.length > GREP_MAX_LINE_LENGTH ? `${line.slice(0, GREP_MAX_LINE_LENGTH)}...` : line;
        lines.push(`  Line ${index + 1}: ${cut}`);
      });
      if (lines.length > 0) groups.push(`${file.path}:\n${lines.join("\n")}`);
    }
    if (total === 0) return { title: args.pattern, output: "No matches found.", metadata: { matches: 0, truncated: false } };
    let output = `Found ${total} match${total === 1 ? "" : "es"}${total > shown ? ` (showing the first ${shown})` : ""}:\n\n${groups.join("\n\n")}`;
    if (total > shown) output += `\n\n(Results are truncated at ${GREP_MAX_MATCHES} matches. Use a more specific pattern, path or include.)`;
    return { title: args.pattern, output, metadata: { matches: total, truncated: total > shown } };
  },
};
