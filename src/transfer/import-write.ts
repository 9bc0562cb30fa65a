// Writes validated import entries: into an open workspace through its WorkspaceFs (asking before
// overwriting), or into a brand-new workspace straight through the file repository (fast path).
import { UserFacingError, dirname, errorMessage, newId, revealInvisibleChars, validatePath } from "../base";
import type { WorkspaceFs } from "../runtime";
import { fileRecord, newWorkspace, type FileRecord, type Storage, type WorkspaceRecord } from "../storage";
import { finishEntries, pathProblem, quoteName, type ImportEntry, type ProgressListener } from "./import-entries";
import { ImportError } from "./zip-limits";

export interface WorkspaceImportOptions {
  /** What to do with paths that already exist: ask (via confirm), replace them, or keep them. */
  overwrite: "ask" | "replace" | "skip";
  /** Asked once with every conflicting path; false cancels the import before anything is written. */
  confirm?: (conflicts: string[]) => Promise<boolean>;
  onProgress?: ProgressListener;
}

export interface WorkspaceImportResult {
  /** Paths written (files and empty folders). */
  written: string[];
  /** Paths left alone because they existed ("skip"). */
  skipped: string[];
  /** Existing paths the import collided with. */
  conflicts: string[];
  /** True when the user declined to overwrite: nothing was written. */
  cancelled: boolean;
}

/** Re-checks entries that may come from any caller: valid paths, no duplicates or clashes. */
function checkEntries(entries: ImportEntry[]): ImportEntry[] {
  const checked = entries.map((entry) => {
    let path: string;
    try {
      path = validatePath(entry.path);
    } catch (error) {
      const why = pathProblem(entry.path) ?? `is not valid: ${revealInvisibleChars(errorMessage(error)).replace(/\.$/, "")}`;
      throw new ImportError("invalid-name", `The path ${quoteName(entry.path)} ${why}, so the import was refused. Nothing was written.`);
    }
    return path === entry.path ? entry : { ...entry, path };
  });
  return finishEntries(checked);
}

function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); dir !== ""; dir = dirname(dir)) out.push(dir);
  return out;
}

/** Imports into an existing workspace through its file service (source "import"). */
export async function importIntoWorkspace(fs: WorkspaceFs, entries: ImportEntry[], options: WorkspaceImportOptions): Promise<WorkspaceImportResult> {
  const list = checkEntries(entries);
  const existing = new Map((await fs.listAll()).map((stat) => [stat.path, stat.kind]));

  // A conflict: the path exists (except a folder onto a folder), or one of its parents is a file.
  const conflictOf = new Map<string, string[]>();
  const conflicts = new Set<string>();
  for (const entry of list) {
    const found: string[] = [];
    const kind = existing.get(entry.path);
    if (kind !== undefined && !(kind === "dir" && entry.kind === "dir")) found.push(entry.path);
    for (const parent of ancestors(entry.path)) if (existing.get(parent) === "file") found.push(parent);
    if (found.length) {
      conflictOf.set(entry.path, found);
      for (const path of found) conflicts.add(path);
    }
  }
  const conflictList = [...conflicts].sort();
  let mode = options.overwrite;
  if (conflictList.length > 0 && mode === "ask") {
    if (!options.confirm) throw new Error("importIntoWorkspace: overwrite 'ask' needs a confirm callback");
    if (!(await options.confirm(conflictList))) return { written: [], skipped: [], conflicts: conflictList, cancelled: true };
    mode = "replace";
  }

  const written: string[] = [];
  const skipped: string[] = [];
  const totalFiles = list.filter((e) => e.kind === "file").length;
  // Progress counts text in characters (close enough for a progress bar, and free to compute).
  const size = (e: ImportEntry) => (e.kind === "dir" ? 0 : typeof e.data === "string" ? e.data.length : e.data.length);
  const totalBytes = list.reduce((n, e) => n + size(e), 0);
  let files = 0;
  let bytes = 0;
  const removed = new Set<string>();
  for (const entry of list) {
    const found = conflictOf.get(entry.path);
    if (found && mode === "skip") {
      skipped.push(entry.path);
      continue;
    }
    // Replacing across kinds (a file where a folder was, or below a file) removes the old one first.
    for (const path of found ?? []) {
      const kind = existing.get(path);
      const sameKindFile = path === entry.path && kind === "file" && entry.kind === "file";
      if (!sameKindFile && !removed.has(path)) {
        await fs.remove(path, { source: "import", batched: true });
        removed.add(path);
      }
    }
    if (entry.kind === "dir") await fs.mkdir(entry.path, { source: "import", batched: true });
    else {
      await fs.writeFile(entry.path, entry.data, { source: "import", batched: true });
      files++;
      bytes += size(entry);
      options.onProgress?.({ files, totalFiles, bytes, totalBytes });
    }
    written.push(entry.path);
  }
  await fs.flush();
  return { written, skipped, conflicts: conflictList, cancelled: false };
}

/** Records per IndexedDB transaction when writing a new workspace. */
const WRITE_CHUNK = 500;
const MAX_NAME_LENGTH = 80;

export interface NewWorkspaceOptions {
  onProgress?: ProgressListener;
  /** Opened from a share link: read-only until the user continues it. */
  readOnly?: boolean;
  /** Where the files came from (a GitHub repository at a commit), remembered with the workspace. */
  upstream?: WorkspaceRecord["upstream"];
  now?: number;
}

/** A free workspace name based on `base` ("name", "name 2", ...), as workspace names are unique. */
async function freeName(storage: Storage, base: string): Promise<string> {
  // Names reach the workspace list: invisible and text-direction characters are shown, not kept.
  const cleaned = revealInvisibleChars(base.replace(/[\u0000-\u001f\u007f]/g, " ")).trim().slice(0, MAX_NAME_LENGTH - 4) || "Imported";
  const taken = new Set((await storage.workspaces.list()).map((w) => w.name.toLowerCase()));
  if (!taken.has(cleaned.toLowerCase())) return cleaned;
  for (let n = 2; ; n++) if (!taken.has(`${cleaned} ${n}`.toLowerCase())) return `${cleaned} ${n}`;
}

/**
 * Creates a new workspace holding `entries`, writing records in chunks. The workspace record is
 * written last, so a failure part-way leaves no workspace behind (its files are removed again).
 */
export async function importAsNewWorkspace(storage: Storage, name: string, entries: ImportEntry[], options: NewWorkspaceOptions = {}): Promise<WorkspaceRecord> {
  const list = checkEntries(entries);
  const now = options.now ?? Date.now();
  const id = newId("ws", now);
  const records: FileRecord[] = [];
  const folders = new Set<string>();
  for (const entry of list) {
    for (const parent of ancestors(entry.path)) folders.add(parent);
    if (entry.kind === "dir") folders.add(entry.path);
  }
  // Every folder gets a record, as the workspace file service expects on open.
  for (const path of [...folders].sort()) records.push(fileRecord({ workspaceId: id, path, kind: "dir", mtime: now }));
  const totalFiles = list.filter((e) => e.kind === "file").length;
  let totalBytes = 0;
  for (const entry of list) {
    if (entry.kind !== "file") continue;
    totalBytes += typeof entry.data === "string" ? entry.data.length : entry.data.length;
    records.push(fileRecord({ workspaceId: id, path: entry.path, kind: "file", data: entry.data, mtime: entry.mtime ?? now }));
  }
  const workspace: WorkspaceRecord = { ...newWorkspace({ name: await freeName(storage, name), ...(options.readOnly ? { readOnly: true } : {}), ...(options.upstream && { upstream: options.upstream }) }, now), id };
  let files = 0;
  let bytes = 0;
  try {
    for (let i = 0; i < records.length; i += WRITE_CHUNK) {
      const chunk = records.slice(i, i + WRITE_CHUNK);
      await storage.files.apply(id, chunk, []);
      for (const record of chunk) {
        if (record.kind !== "file") continue;
        files++;
        bytes += record.data === undefined ? 0 : record.data.length;
      }
      options.onProgress?.({ files, totalFiles, bytes, totalBytes });
    }
    await storage.workspaces.put(workspace);
  } catch (error) {
    await storage.files.deleteAll(id).catch(() => undefined);
    if (error instanceof UserFacingError) throw error;
    throw new UserFacingError(`The import could not be saved: ${errorMessage(error)}. Nothing was imported; try again.`, "import-write-failed", { cause: error });
  }
  return workspace;
}
