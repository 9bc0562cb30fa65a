// The one way edit, write and apply_patch change files (docs/agent.md, "Editing files"): ask with
// the diff, refuse if a file changed while the permission card was open (the user may have saved
// it meanwhile: never overwrite that), write, remember the written files as read (so the next
// edit needs no new read), and report the errors the change introduced.
import { diagnosticsAfterEdit } from "./code-intelligence";
import type { PermissionRequest, ToolContext } from "./tool";

/** A change planned from what the tool read. */
export interface PlannedFileChange {
  path: string;
  /** The content read (undefined: the file is new). */
  before?: string;
  /** The new content (undefined: the file is deleted). */
  after?: string;
  /** Where the file moves to (apply_patch's "Move to"). */
  moveTo?: string;
  /** The file's mtime when it was read (undefined: it did not exist). */
  mtime?: number;
}

/**
 * Asks, checks, writes and marks read; resolves with the diagnostics text to append to the tool's
 * output ("" when there is no code service). `changedWhileWaiting` builds the tool's own error for
 * a file that changed during the ask; nothing is written then.
 */
export async function commitFileChanges(
  context: Pick<ToolContext, "ask" | "runtime" | "fileTimes" | "code" | "abort">,
  changes: readonly PlannedFileChange[],
  request: PermissionRequest,
  changedWhileWaiting: (path: string) => Error,
): Promise<string> {
  await context.ask(request);
  const fs = context.runtime.fs;
  for (const change of changes) {
    const current = await fs.stat(change.path);
    if (current?.mtime !== change.mtime) throw changedWhileWaiting(change.path);
  }
  for (const change of changes) {
    if (change.after === undefined) {
      await fs.remove(change.path, { source: "agent" });
      continue;
    }
    const target = change.moveTo ?? change.path;
    // Made from what the tool read: a change that lands between the check above and this write
    // (another tab's, announced late) is merged with it, not replaced.
    const base = change.moveTo === undefined ? change.before : undefined;
    await fs.writeFile(target, change.after, { source: "agent", base });
    if (change.moveTo) await fs.remove(change.path, { source: "agent" });
    const written = await fs.stat(target);
    if (written) context.fileTimes.markRead(target, written.mtime);
  }
  return diagnosticsAfterEdit(
    context,
    changes.flatMap((c) =>
      c.moveTo
        ? [
            { path: c.path, before: c.before, after: undefined },
            { path: c.moveTo, before: undefined, after: c.after },
          ]
        : [{ path: c.path, before: c.before, after: c.after }],
    ),
  );
}
