// Imports a folder picked or dropped by the user: from a directory handle (showDirectoryPicker),
// a list of Files with webkitRelativePath (<input webkitdirectory>), or drag-and-drop entries
// (DataTransferItem.webkitGetAsEntry). Same limits, skip rules and progress as zip import; every
// name and size is checked before any content is read.
import { abortError } from "../base";
import {
  checkEntryName,
  decodeFileData,
  finishEntries,
  resolveLimits,
  singleTopFolder,
  skipReason,
  stripFolder,
  type ImportEntry,
  type ImportOptions,
  type ImportResult,
  type ProgressListener,
} from "./import-entries";
import { ImportError, tooLarge, tooManyEntries, type ImportLimits } from "./zip-limits";

/** The part of File used here (a real File in the browser). */
export interface FileLike {
  name: string;
  size: number;
  lastModified?: number;
  webkitRelativePath?: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** The part of FileSystemFileHandle / FileSystemDirectoryHandle used here. */
export interface FileHandleLike {
  kind: "file";
  name: string;
  getFile(): Promise<FileLike>;
}
export interface DirectoryHandleLike {
  kind: "directory";
  name: string;
  values(): AsyncIterable<FileHandleLike | DirectoryHandleLike>;
}

/** The part of FileSystemEntry (from webkitGetAsEntry) used here. */
export interface DroppedEntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?(success: (file: FileLike) => void, failure?: (error: unknown) => void): void;
  createReader?(): { readEntries(success: (entries: DroppedEntryLike[]) => void, failure?: (error: unknown) => void): void };
}

interface Listed {
  path: string;
  kind: "file" | "dir";
  file?: FileLike;
}

class Lister {
  readonly items: Listed[] = [];
  readonly skipped = { nodeModules: 0, git: 0 };
  private bytes = 0;
  private count = 0;
  constructor(
    private readonly options: ImportOptions,
    private readonly limits: ImportLimits,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** False when the folder is skipped (node_modules, .git): it is not walked at all. */
  enterFolder(path: string): boolean {
    this.tick();
    const reason = skipReason(path, this.options);
    if (reason) {
      this.skipped[reason]++;
      return false;
    }
    this.items.push({ path, kind: "dir" });
    return true;
  }

  addFile(path: string, file: FileLike): void {
    this.tick();
    const reason = skipReason(path, this.options);
    if (reason) {
      this.skipped[reason]++;
      return;
    }
    this.bytes += file.size;
    if (this.bytes > this.limits.maxBytes) throw tooLarge(this.bytes, this.limits);
    this.items.push({ path, kind: "file", file });
  }

  private tick(): void {
    if (this.signal?.aborted) throw abortError("The import was cancelled.");
    if (++this.count > this.limits.maxEntries) throw tooManyEntries(this.count, this.limits);
  }
}

/** Reads the listed files with a running byte count (a file may have grown since it was listed). */
async function readListed(lister: Lister, limits: ImportLimits, strip: boolean, onProgress?: ProgressListener, signal?: AbortSignal): Promise<ImportResult> {
  // Names first: a bad name anywhere refuses the import before anything is read.
  const named = lister.items.map((item) => ({ ...item, path: checkEntryName(item.path) }));
  const top = strip ? singleTopFolder(named) : undefined;
  const files = named.filter((n) => n.kind === "file");
  const totalBytes = files.reduce((n, f) => n + f.file!.size, 0);
  const entries: ImportEntry[] = [];
  for (const item of named) {
    const path = stripFolder(item.path, top);
    if (path !== "" && item.kind === "dir") entries.push({ kind: "dir", path });
  }
  let bytes = 0;
  let done = 0;
  onProgress?.({ files: 0, totalFiles: files.length, bytes: 0, totalBytes });
  for (const item of files) {
    if (signal?.aborted) throw abortError("The import was cancelled.");
    const data = new Uint8Array(await item.file!.arrayBuffer());
    bytes += data.length;
    if (bytes > limits.maxBytes) throw tooLarge(bytes, limits);
    const mtime = item.file!.lastModified;
    entries.push({ kind: "file", path: stripFolder(item.path, top), data: decodeFileData(data), ...(mtime ? { mtime } : {}) });
    done++;
    onProgress?.({ files: done, totalFiles: files.length, bytes, totalBytes });
  }
  if (entries.length === 0 && lister.skipped.nodeModules + lister.skipped.git === 0) {
    throw new ImportError("empty", "This folder is empty: there is nothing to import.");
  }
  return { entries: finishEntries(entries), ...(top !== undefined ? { strippedFolder: top } : {}), skipped: lister.skipped, bytes };
}

/** Imports the contents of a picked directory (the directory itself becomes the workspace root). */
export async function readDirectoryHandle(root: DirectoryHandleLike, options: ImportOptions = {}, onProgress?: ProgressListener, signal?: AbortSignal): Promise<ImportResult> {
  const limits = resolveLimits(options);
  const lister = new Lister(options, limits, signal);
  const walk = async (dir: DirectoryHandleLike, prefix: string): Promise<void> => {
    for await (const child of dir.values()) {
      const path = prefix + child.name;
      if (child.kind === "directory") {
        if (lister.enterFolder(path)) await walk(child, path + "/");
      } else {
        lister.addFile(path, await child.getFile());
      }
    }
  };
  await walk(root, "");
  return readListed(lister, limits, false, onProgress, signal);
}

/** Imports Files from <input webkitdirectory> (paths from webkitRelativePath) or plain file drops. */
export async function readFileList(files: Iterable<FileLike>, options: ImportOptions = {}, onProgress?: ProgressListener, signal?: AbortSignal): Promise<ImportResult> {
  const limits = resolveLimits(options);
  const lister = new Lister(options, limits, signal);
  for (const file of files) {
    const path = file.webkitRelativePath || file.name;
    // Only files are listed: skip those below node_modules/.git without counting folders.
    lister.addFile(path, file);
  }
  return readListed(lister, limits, options.stripTopFolder ?? true, onProgress, signal);
}

function entryFile(entry: DroppedEntryLike): Promise<FileLike> {
  return new Promise((resolve, reject) => entry.file!(resolve, reject));
}

async function readAllEntries(entry: DroppedEntryLike): Promise<DroppedEntryLike[]> {
  const reader = entry.createReader!();
  const out: DroppedEntryLike[] = [];
  // readEntries returns batches (about 100 at a time in Chromium) until it returns none.
  for (;;) {
    const batch = await new Promise<DroppedEntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return out;
    out.push(...batch);
  }
}

/**
 * Imports drag-and-drop entries. Call webkitGetAsEntry() on every DataTransferItem inside the drop
 * handler (the items expire after it) and pass the entries here. A single dropped folder's contents
 * become the root; several dropped items keep their names.
 */
export async function readDroppedEntries(items: DroppedEntryLike[], options: ImportOptions = {}, onProgress?: ProgressListener, signal?: AbortSignal): Promise<ImportResult> {
  const limits = resolveLimits(options);
  const lister = new Lister(options, limits, signal);
  const walk = async (entry: DroppedEntryLike, path: string): Promise<void> => {
    if (entry.isDirectory) {
      if (!lister.enterFolder(path)) return;
      for (const child of await readAllEntries(entry)) await walk(child, `${path}/${child.name}`);
    } else if (entry.isFile) {
      lister.addFile(path, await entryFile(entry));
    }
  };
  for (const item of items) await walk(item, item.name);
  return readListed(lister, limits, options.stripTopFolder ?? true, onProgress, signal);
}
