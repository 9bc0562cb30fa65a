// The write tool: creates or overwrites a file. Overwriting needs a fresh read by this session.
import { z } from "zod";
import description from "../../../prompts/tools/write.md?raw";
import { unifiedDiff } from "./diff";
import { commitFileChanges } from "./file-changes";
import { assertReadBefore } from "./file-times";
import { resolveToolPath } from "./workspace-path";
import type { ToolDefinition } from "./tool";

const parameters = z.object({
  filePath: z.string(),
  content: z.string().describe("The whole new content"),
});

export const writeTool: ToolDefinition<typeof parameters> = {
  id: "write",
  description,
  parameters,
  async execute(args, context) {
    const path = await resolveToolPath(args.filePath, context);
    if (path === "") throw new Error("filePath must name a file, not the workspace root.");
    const fs = context.runtime.fs;
    const stat = await fs.stat(path);
    if (stat?.kind === "dir") throw new Error(`${path} is a folder; give the path of a file inside it.`);
    const before = stat ? await fs.readText(path) : "";
    if (stat) assertReadBefore(context.fileTimes, path, stat, "overwrite");
    const { diff, additions, deletions } = unifiedDiff(path, before, args.content);
    const diagnostics = await commitFileChanges(
      context,
      [{ path, before: stat ? before : undefined, after: args.content, mtime: stat?.mtime }],
      { permission: "edit", patterns: [path], always: ["*"], metadata: { filePath: path, diff } },
      () => new Error(`${path} changed while waiting for permission. Read it again and redo the write.`),
    );
    return {
      title: path,
      output: (stat ? `Wrote ${path} (overwrote the previous content).` : `Created ${path}.`) + diagnostics,
      metadata: { filePath: path, diff, additions, deletions, created: !stat },
    };
  },
};
