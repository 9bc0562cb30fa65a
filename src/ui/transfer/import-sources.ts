// Where an import comes from: a zip file, a zip at a URL (#import=), a picked folder (directory
// handle or <input webkitdirectory>), or items dropped on the file tree. Each knows its name and
// how to read itself into validated entries; nothing is written until the import dialog says so.
import {
  checkImportUrl,
  checkZip,
  fetchZip,
  localAddressWarning,
  readDirectoryHandle,
  readDroppedEntries,
  readFileList,
  unzipInWorker,
  type DirectoryHandleLike,
  type DroppedEntryLike,
  type FileLike,
  type ImportOptions,
  type ImportProgress,
  type ImportResult,
} from "../../transfer";

/** download: fetching a link; check: validating a zip before the options; list: a repository's tree; read: unzipping, walking or downloading files. */
export type ReadPhase = "download" | "check" | "list" | "read";

export type ReadProgressListener = (phase: ReadPhase, progress: ImportProgress) => void;

export interface ImportSource {
  /** What the user picked, for the dialog ("zustand-main.zip", "my-project", a URL's host and file). */
  label: string;
  /** The default name of a new workspace made from it. */
  name: string;
  kind: "zip" | "folder" | "link" | "github";
  /** Only a new workspace can take it (a GitHub repository: the workspace remembers where it came from). */
  newWorkspaceOnly?: boolean;
  /**
   * A download the user must agree to before any request is made (links): the host, the whole
   * address, and a warning when it is this computer or the local network.
   */
  ask?: { host: string; url: string; warning?: string };
  /**
   * Validates what does not depend on the import options, before they are asked (a link's scheme,
   * then its download; a zip's directory: names, links, sizes). Throws ImportError on refusal.
   */
  prepare?(onProgress: ReadProgressListener, signal: AbortSignal): Promise<void>;
  /** Reads and validates everything (zip: in the unzip worker). Throws ImportError on refusal. */
  read(options: ImportOptions, onProgress: ReadProgressListener, signal: AbortSignal): Promise<ImportResult>;
}

const NO_PROGRESS: ImportProgress = { files: 0, totalFiles: 0, bytes: 0, totalBytes: 0 };

/** Checks a zip's directory with the default options (the options only leave entries out). */
function checkZipBytes(bytes: Uint8Array, onProgress: ReadProgressListener): void {
  onProgress("check", { ...NO_PROGRESS, totalBytes: bytes.length });
  checkZip(bytes);
}

/** Unzips without the worker (tests inject this; the page uses the module worker). */
export type Unzip = typeof unzipInWorker;

function stripExtension(name: string, extension: string): string {
  return name.toLowerCase().endsWith(extension) ? name.slice(0, -extension.length) : name;
}

export function zipFileSource(file: FileLike, unzip: Unzip = unzipInWorker): ImportSource {
  return {
    label: file.name,
    name: stripExtension(file.name, ".zip") || "Imported",
    kind: "zip",
    async prepare(onProgress) {
      checkZipBytes(new Uint8Array(await file.arrayBuffer()), onProgress);
    },
    async read(options, onProgress, signal) {
      // Read again rather than kept since prepare: the bytes go to the worker, and a File is cheap to re-read.
      const bytes = new Uint8Array(await file.arrayBuffer());
      return unzip(bytes, options, (p) => onProgress("read", p), signal);
    },
  };
}

/** The name a zip URL suggests: the repository for GitHub archive links, else the file's name. */
export function nameFromUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const segments = parsed.pathname.split("/").filter(Boolean).map((s) => decodeURIComponent(s));
    const archive = segments.indexOf("archive");
    if ((parsed.hostname === "github.com" || parsed.hostname === "codeload.github.com") && segments.length >= 2) {
      return archive === 2 || parsed.hostname === "codeload.github.com" ? segments[1]! : stripExtension(segments.at(-1)!, ".zip");
    }
    return stripExtension(segments.at(-1) ?? parsed.hostname, ".zip") || parsed.hostname;
  } catch {
    return "Imported";
  }
}

export function linkSource(url: string, options: { fetch?: typeof fetch; unzip?: Unzip } = {}): ImportSource {
  const unzip = options.unzip ?? unzipInWorker;
  // Downloaded once, in prepare (so a dead link or a hostile zip is reported before the options).
  let downloaded: Uint8Array | undefined;
  const download = (onProgress: ReadProgressListener, signal: AbortSignal) =>
    fetchZip(url, {
      signal,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      onProgress: (received, total) => onProgress("download", { files: 0, totalFiles: 0, bytes: received, totalBytes: total ?? 0 }),
    });
  let ask: ImportSource["ask"];
  try {
    const parsed = checkImportUrl(url);
    const warning = localAddressWarning(parsed);
    ask = { host: parsed.host, url: parsed.href, ...(warning && { warning }) };
  } catch {
    // Not a link that can be downloaded: prepare() reports why, without any request.
  }
  return {
    label: url,
    name: nameFromUrl(url),
    kind: "link",
    ...(ask && { ask }),
    async prepare(onProgress, signal) {
      checkImportUrl(url);
      const bytes = await download(onProgress, signal);
      checkZipBytes(bytes, onProgress);
      downloaded = bytes;
    },
    async read(importOptions, onProgress, signal) {
      const bytes = downloaded ?? (await download(onProgress, signal));
      // The worker takes the bytes over: a second read downloads again.
      downloaded = undefined;
      return unzip(bytes, importOptions, (p) => onProgress("read", p), signal);
    },
  };
}

export function directoryHandleSource(handle: DirectoryHandleLike): ImportSource {
  return {
    label: handle.name,
    name: handle.name,
    kind: "folder",
    read: (options, onProgress, signal) => readDirectoryHandle(handle, options, (p) => onProgress("read", p), signal),
  };
}

/** Files from <input webkitdirectory>: every path starts with the picked folder's name. */
export function fileListSource(files: FileLike[]): ImportSource {
  const first = files[0];
  const top = first?.webkitRelativePath?.split("/")[0] || first?.name || "Imported";
  return {
    label: top,
    name: top,
    kind: "folder",
    read: (options, onProgress, signal) => readFileList(files, options, (p) => onProgress("read", p), signal),
  };
}

export function droppedEntriesSource(entries: DroppedEntryLike[]): ImportSource {
  const single = entries.length === 1 ? entries[0]!.name : undefined;
  return {
    label: single ?? `${entries.length} dropped items`,
    name: single ?? "Dropped files",
    kind: "folder",
    read: (options, onProgress, signal) => readDroppedEntries(entries, options, (p) => onProgress("read", p), signal),
  };
}

/** Plain dropped files (no entry API, e.g. a synthetic drop): imported under their own names. */
export function droppedFilesSource(files: FileLike[]): ImportSource {
  const single = files.length === 1 ? files[0]!.name : undefined;
  return {
    label: single ?? `${files.length} dropped files`,
    name: single ?? "Dropped files",
    kind: "folder",
    read: (options, onProgress, signal) => readFileList(files, { ...options, stripTopFolder: false }, (p) => onProgress("read", p), signal),
  };
}
