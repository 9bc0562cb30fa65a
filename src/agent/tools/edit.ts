// The edit tool: replaces text in a file through applyEdit (docs/agent.md, "Editing files"); an empty oldString
// creates a new file. Needs a fresh read of an existing file; returns a unified diff in metadata.
import { z } from "zod";
import { looksBinary } from "../../base";
import description from "../../../prompts/tools/edit.md?raw";
import { unifiedDiff } from "./diff";
import { applyEdit } from "./edit-match";
import { commitFileChanges } from "./file-changes";
import { assertReadBefore } from "./file-times";
import { resolveToolPath } from "./workspace-path";
import type { ToolDefinition } from "./tool";

const parameters = z.object({
  filePath: z.string(),
  oldString: z.string(),
  newString: z.string(),
  replaceAll: z.boolean().optional(),
});

export const editTool: ToolDefinition<typeof parameters> = {
  id: "edit",
  description,
  parameters,
  async execute(args, context) {
    const path = await resolveToolPath(args.filePath, context);
    if (path === "") throw new Error("filePath must name a file, not the workspace root.");
    if (args.oldString === args.newString) {
      throw new Error("oldString and newString are identical, so there is nothing to change. Put the new text in newString.");
    }
    const fs = context.runtime.fs;
    const stat = await fs.stat(path);
    if (stat?.kind === "dir") throw new Error(`${path} is a folder; give the path of a file inside it.`);

    let before = "";
    let after: string;
    if (args.oldString === "") {
      if (stat) {
        throw new Error(`${path} already exists. To change it, put the exact text to replace in oldString; to replace all of it, read it and use the write tool.`);
      }
      after = args.newString;
    } else {
      if (!stat) throw new Error(`File not found: ${path}. To create it, call edit with an empty oldString (or use write).`);
      const bytes = await fs.readFile(path);
      if (looksBinary(bytes)) throw new Error(`${path} is a binary file and cannot be edited as text.`);
      assertReadBefore(context.fileTimes, path, stat, "edit");
      before = await fs.readText(path);
      after = applyEdit(before, args.oldString, args.newString, args.replaceAll ?? false);
    }

    const { diff, additions, deletions } = unifiedDiff(path, before, after);
    const diagnostics = await commitFileChanges(
      context,
      [{ path, before: stat ? before : undefined, after, mtime: stat?.mtime }],
      { permission: "edit", patterns: [path], always: ["*"], metadata: { filePath: path, diff } },
      () => new Error(`${path} changed while waiting for permission. Read it again and redo the edit.`),
    );
    return {
      title: path,
      output: (stat ? `Edited ${path}.` : `Created ${path}.`) + diagnostics,
      metadata: { filePath: path, diff, additions, deletions, created: !stat },
    };
  },
};
