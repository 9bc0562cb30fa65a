// The glob tool: file paths matching a pattern, newest first, capped.
import { z } from "zod";
import description from "../../../prompts/tools/glob.md?raw";
import { matchGlob } from "../../base";
import { checkFolder, filesUnder, newestFirst, relativeTo } from "./search-files";
import { resolveToolPath, showPath } from "./workspace-path";
import type { ToolDefinition } from "./tool";

/** At most this many paths are returned. */
export const GLOB_MAX_RESULTS = 100;

const parameters = z.object({
  pattern: z.string().min(1),
  path: z.string().optional().describe("Folder to search (default: root)"),
});

export const globTool: ToolDefinition<typeof parameters> = {
  id: "glob",
  description,
  parameters,
  async execute(args, context) {
    const base = await resolveToolPath(args.path ?? "", context);
    await context.ask({ permission: "read", patterns: [showPath(base)], always: [showPath(base)], metadata: { pattern: args.pattern, path: base } });
    const fs = context.runtime.fs;
    await checkFolder(fs, base);
    const matches = (await filesUnder(fs, base, args.pattern)).filter((f) => matchGlob(args.pattern, relativeTo(base, f.path))).sort(newestFirst);
    const shown = matches.slice(0, GLOB_MAX_RESULTS);
    let output = shown.length === 0 ? "No files found." : shown.map((f) => f.path).join("\n");
    if (matches.length > shown.length) {
      output += `\n\n(Showing the ${GLOB_MAX_RESULTS} newest of ${matches.length} matches. Use a more specific pattern or path.)`;
    }
    return {
      title: `${args.pattern}${base ? ` in ${base}` : ""}`,
      output,
      metadata: { count: matches.length, truncated: matches.length > shown.length },
    };
  },
};
