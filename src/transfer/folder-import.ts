// Imports a folder picked or dropped by the user: from a directory handle (showDirectoryPicker),
// a list of Files with webkitRelativePath (<input webkitdirectory>), or drag-and-drop entries
// (DataTransferItem.webkitGetAsEntry). Same limits, skip rules and progress as zip import; every
// name and size is checked before any content is read.
import {
  checkEntryName,
  decodeFileData,
  finishEntries,
  resolveLimits,
  singleTopFolder,
  skipReason,
  stripFolder,
  throwIfAborted,
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
  readonly skipped = { nodeModules: 0, git: 0, macMetadata: 0 };
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
    throwIfAborted(this.signal);
    if (++this.count > this.limits.maxEntries) throw tooManyEntries(this.count, this.limits);
  }
}

/** Is the name one the workspace can hold? (The same rules as for zips, without refusing.) */
function storable(path: string): boolean {
  try {
    checkEntryName(path);
    return true;
  } catch (error) {
    if (error instanceof ImportError) return false;
    throw error;
  }
}

/**
 * Names first, before anything is read. A real folder can hold names that are legal on the user's
 * disk but not in the workspace ("we:ird.txt"): those files are skipped and listed, not a reason
 * to refuse the whole folder (unlike a zip, where such a name is a sign of a crafted archive).
 */
function sortNames(items: Listed[], strip: boolean) {
  // The picked folder's own name is dropped with the strip, so it is not checked.
  const top = strip ? singleTopFolder(items) : undefined;
  const named: Listed[] = [];
  const unstorable = new Map<string, number>();
  for (const item of items) {
    const path = stripFolder(item.path, top);
    if (path === "") continue;
    if (storable(path)) {
      named.push({ ...item, path: checkEntryName(path) });
      continue;
    }
    // Listed once per shortest bad prefix: a folder with a bad name stands for all its files.
    const segments = path.split("/");
    let bad = item.kind === "dir" ? `${path}/` : path;
    for (let i = 1; i < segments.length; i++) {
      const prefix = segments.slice(0, i).join("/");
      if (!storable(prefix)) {
        bad = `${prefix}/`;
        break;
      }
    }
    unstorable.set(bad, (unstorable.get(bad) ?? 0) + (item.kind === "file" ? 1 : 0));
  }
  const files = [...unstorable.values()].reduce((n, c) => n + c, 0);
  return { top, named, unstorable: unstorable.size > 0 ? { files, names: [...unstorable.keys()] } : undefined };
}

/** Reads the listed files with a running byte count (a file may have grown since it was listed). */
async function readListed(lister: Lister, limits: ImportLimits, strip: boolean, onProgress?: ProgressListener, signal?: AbortSignal): Promise<ImportResult> {
  const { top, named, unstorable } = sortNames(lister.items, strip);
  const files = named.filter((n) => n.kind === "file");
  const totalBytes = files.reduce((n, f) => n + f.file!.size, 0);
  const entries: ImportEntry[] = [];
  for (const item of named) {
    if (item.kind === "dir") entries.push({ kind: "dir", path: item.path });
  }
  let bytes = 0;
  let done = 0;
  onProgress?.({ files: 0, totalFiles: files.length, bytes: 0, totalBytes });
  for (const item of files) {
    throwIfAborted(signal);
    const data = new Uint8Array(await item.file!.arrayBuffer());
    bytes += data.length;
    if (bytes > limits.maxBytes) throw tooLarge(bytes, limits);
    const mtime = item.file!.lastModified;
    entries.push({ kind: "file", path: item.path, data: decodeFileData(data), ...(mtime ? { mtime } : {}) });
    done++;
    onProgress?.({ files: done, totalFiles: files.length, bytes, totalBytes });
  }
  if (entries.length === 0 && lister.skipped.nodeModules + lister.skipped.git === 0 && !unstorable) {
    throw new ImportError("empty", "This folder is empty: there is nothing to import.");
  }
  const skipped = { ...lister.skipped, ...(unstorable ? { unstorable } : {}) };
  return { entries: finishEntries(entries), ...(top !== undefined ? { strippedFolder: top } : {}), skipped, bytes };
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
