// Shared by glob, grep and list: the files under a folder of the workspace, newest first.
import { isInside } from "../../base";
import type { FileStat, WorkspaceFs } from "../../runtime";
import { inSkippedFolder } from "../../base";

/** Files (and, with `folders`, folders) under `base`, skipping .git and node_modules unless `pattern` names them. */
export async function filesUnder(fs: WorkspaceFs, base: string, pattern: string, options: { folders?: boolean } = {}): Promise<FileStat[]> {
  const all = await fs.listAll();
  return all
    .filter((s) => (options.folders || s.kind === "file") && s.path !== base && isInside(s.path, base))
    .filter((s) => !inSkippedFolder(base === "" ? s.path : s.path.slice(base.length + 1), pattern));
}

/** Path relative to the search folder. */
export function relativeTo(base: string, path: string): string {
  return base === "" ? path : path.slice(base.length + 1);
}

export function newestFirst(a: FileStat, b: FileStat): number {
  return b.mtime - a.mtime || a.path.localeCompare(b.path);
}

/** Checks the search folder exists and is a folder; returns a message for the model otherwise. */
export async function checkFolder(fs: WorkspaceFs, base: string): Promise<void> {
  if (base === "") return;
  const stat = await fs.stat(base);
  if (!stat) throw new Error(`Folder not found: ${base}. Use the list tool to see what exists.`);
  if (stat.kind !== "dir") throw new Error(`${base} is a file, not a folder. Give a folder as path (or use the read tool).`);
}
