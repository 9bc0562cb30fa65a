// The apply_patch tool (for models trained on it, the GPT-5 family): checks every section of the
// patch and computes every new file before writing anything, so a patch applies whole or not at all.
// Files it updates or deletes must have been read by the session first (like edit and write).
import { z } from "zod";
import { looksBinary, validatePath } from "../../base";
import description from "../../../prompts/tools/apply_patch.md?raw";
import { parsePatch, applyChunks, PatchError, type PatchOperation } from "./apply-patch-format";
import { unifiedDiff } from "./diff";
import { commitFileChanges } from "./file-changes";
import { assertReadBefore } from "./file-times";
import { resolveToolPath } from "./workspace-path";
import type { ToolContext, ToolDefinition } from "./tool";

const parameters = z.object({
  patchText: z.string().describe("The whole patch, Begin to End"),
});

interface PlannedChange {
  /** A = added, M = modified (possibly moved), D = deleted. */
  status: "A" | "M" | "D";
  path: string;
  moveTo?: string;
  before: string;
  after: string;
  /** mtime when checked, to notice changes made while the permission card was open. */
  mtime?: number;
}

async function workspacePath(input: string, context: ToolContext): Promise<string> {
  const path = await resolveToolPath(input, context);
  try {
    return validatePath(path);
  } catch (error) {
    throw new PatchError(`Invalid path "${input}" in the patch: ${(error as Error).message}`);
  }
}

async function plan(op: PatchOperation, context: ToolContext, claimed: Set<string>): Promise<PlannedChange> {
  const fs = context.runtime.fs;
  const path = await workspacePath(op.path, context);
  if (claimed.has(path)) throw new PatchError(`${path} appears twice in the patch; put all its changes in one section.`);
  claimed.add(path);
  const stat = await fs.stat(path);
  if (op.kind === "add") {
    if (stat) throw new PatchError(`Cannot add ${path}: it already exists. Use "*** Update File: ${op.path}" to change it.`);
    return { status: "A", path, before: "", after: op.content };
  }
  if (!stat) throw new PatchError(`Cannot ${op.kind} ${path}: the file does not exist.`);
  if (stat.kind === "dir") throw new PatchError(`Cannot ${op.kind} ${path}: it is a folder.`);
  // Same rule as edit and write: only files this session has read, unchanged since.
  try {
    assertReadBefore(context.fileTimes, path, stat, op.kind === "delete" ? "delete" : "patch");
  } catch (error) {
    throw new PatchError(`${(error as Error).message} Nothing was written.`);
  }
  const bytes = await fs.readFile(path);
  if (looksBinary(bytes)) throw new PatchError(`Cannot ${op.kind} ${path}: it is a binary file.`);
  const before = await fs.readText(path);
  if (op.kind === "delete") return { status: "D", path, before, after: "", mtime: stat.mtime };
  const after = applyChunks(path, before, op.chunks);
  const change: PlannedChange = { status: "M", path, before, after, mtime: stat.mtime };
  if (op.moveTo !== undefined) {
    const target = await workspacePath(op.moveTo, context);
    if (target !== path) {
      if (claimed.has(target) || (await fs.stat(target))) throw new PatchError(`Cannot move ${path} to ${target}: the target already exists.`);
      claimed.add(target);
      change.moveTo = target;
    }
  }
  return change;
}

export const applyPatchTool: ToolDefinition<typeof parameters> = {
  id: "apply_patch",
  description,
  parameters,
  async execute(args, context) {
    const ops = parsePatch(args.patchText);
    const claimed = new Set<string>();
    const changes: PlannedChange[] = [];
    for (const op of ops) changes.push(await plan(op, context, claimed));

    const diffs = changes.map((c) => unifiedDiff(c.moveTo ?? c.path, c.before, c.after));
    const diff = diffs.map((d) => d.diff).join("");
    const patterns = changes.flatMap((c) => (c.moveTo ? [c.path, c.moveTo] : [c.path]));
    const diagnostics = await commitFileChanges(
      context,
      changes.map((c) => ({
        path: c.path,
        before: c.status === "A" ? undefined : c.before,
        after: c.status === "D" ? undefined : c.after,
        moveTo: c.moveTo,
        mtime: c.mtime,
      })),
      { permission: "edit", patterns, always: ["*"], metadata: { diff, files: patterns } },
      (path) => new PatchError(`${path} changed while waiting for permission; nothing was written. Read it again and redo the patch.`),
    );
    const summary = changes.map((c) => `${c.status} ${c.moveTo ? `${c.path} -> ${c.moveTo}` : c.path}`);
    return {
      title: changes.length === 1 ? (changes[0]!.moveTo ?? changes[0]!.path) : `${changes.length} files`,
      output: `Success. Updated the following files:\n${summary.join("\n")}` + diagnostics,
      metadata: {
        diff,
        files: changes.map((c, i) => ({ path: c.path, moveTo: c.moveTo, status: c.status, additions: diffs[i]!.additions, deletions: diffs[i]!.deletions })),
      },
    };
  },
};
