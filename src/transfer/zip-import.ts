// Unzips an archive from outside into validated import entries. Everything that can be checked
// from the central directory (names, symlinks, sizes, ratios, count) is checked before inflating;
// inflating then keeps a running byte count and verifies each entry's size and CRC.
import { Inflate } from "fflate";
import { crc32 } from "../base";
import {
  checkEntryName,
  decodeFileData,
  finishEntries,
  isMacMetadata,
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
import {
  corruptZipError,
  locateEntryData,
  readZipDirectory,
  truncatedZipError,
  type ZipDirectoryEntry,
} from "./zip-central-directory";
import { ImportError, RATIO_CHECK_FLOOR_BYTES, tooLarge, zipBomb, type ImportLimits } from "./zip-limits";

/** Compressed bytes fed to the inflater at a time: bounds how far one step can overshoot a limit. */
const INFLATE_CHUNK = 64 * 1024;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

interface PlannedEntry {
  entry: ZipDirectoryEntry;
  path: string;
  kind: "file" | "dir";
}


interface ZipPlan {
  planned: PlannedEntry[];
  /** The files to inflate, each with where its data starts. */
  starts: Array<{ f: PlannedEntry; start: number }>;
  top: string | undefined;
  skipped: ImportResult["skipped"];
  totalBytes: number;
}

/**
 * Checks a zip without inflating anything: the central directory, every name, symlinks, encryption,
 * methods, declared sizes and ratios, overlapping entries. Throws the ImportError readZip would
 * throw for these; cheap enough to run before the import options are shown.
 */
export function checkZip(bytes: Uint8Array, options: ImportOptions = {}): { files: number; bytes: number } {
  const plan = planZip(bytes, options);
  return { files: plan.starts.length, bytes: plan.totalBytes };
}

function planZip(bytes: Uint8Array, options: ImportOptions): ZipPlan {
  const limits = resolveLimits(options);
  const directory = readZipDirectory(bytes, limits);

  // 1. Names: every entry, skipped or not, must be safe; the whole archive is refused otherwise.
  const named = directory.entries.map((entry) => {
    const dir = entry.name.endsWith("/") || (entry.dosAttributes & 0x10) !== 0 || (entry.unixMode & S_IFMT) === S_IFDIR;
    return { entry, path: checkEntryName(entry.name), kind: dir ? ("dir" as const) : ("file" as const) };
  });
  // macOS metadata goes first, so a Finder zip's __MACOSX folder does not stop the top-folder strip.
  const kept = named.filter((item) => !isMacMetadata(item.path, options));
  const top = options.stripTopFolder === false ? undefined : singleTopFolder(kept);

  // 2. Skip rules, then what only matters for entries we will unpack.
  const skipped = { nodeModules: 0, git: 0, macMetadata: named.length - kept.length };
  const planned: PlannedEntry[] = [];
  for (const item of kept) {
    const path = stripFolder(item.path, top);
    if (path === "") continue;
    // Checked on the full name, so a top folder that is itself node_modules is skipped too.
    const reason = skipReason(item.path, options);
    if (reason) {
      skipped[reason]++;
      continue;
    }
    const { entry } = item;
    if ((entry.unixMode & S_IFMT) === S_IFLNK) {
      throw new ImportError("symlink", `The entry "${path}" is a symbolic link. Links in archives can point outside the workspace, so the import was refused. Replace the link with the file it points to and try again.`);
    }
    if (entry.flags & 1) {
      throw new ImportError("encrypted", `The entry "${path}" is password-protected. webcode cannot open encrypted zips; unpack it on your computer and import the folder instead.`);
    }
    if (item.kind === "file" && entry.method !== 0 && entry.method !== 8) {
      throw new ImportError("unsupported-method", `The entry "${path}" uses a compression method webcode does not support (method ${entry.method}). Re-create the zip with standard (deflate) compression.`);
    }
    if (item.kind === "dir" && entry.uncompressedSize !== 0) throw corruptZipError(`the folder "${path}" has contents of its own`);
    planned.push({ entry, path, kind: item.kind });
  }
  const files = planned.filter((p) => p.kind === "file");
  // Everything skipped (only node_modules, say) is not an error: the result says what was skipped.
  if (planned.length === 0 && skipped.nodeModules + skipped.git === 0) {
    throw new ImportError("empty", "This zip contains no files. Choose another archive.");
  }

  // 3. Declared sizes: refuse bombs before inflating anything.
  let totalBytes = 0;
  let totalCompressed = 0;
  for (const { entry, path } of files) {
    totalBytes += entry.uncompressedSize;
    totalCompressed += entry.compressedSize;
    if (entry.method === 0 && entry.compressedSize !== entry.uncompressedSize) throw corruptZipError(`the sizes of "${path}" do not add up`);
    if (entry.uncompressedSize > RATIO_CHECK_FLOOR_BYTES && entry.uncompressedSize > limits.maxRatio * Math.max(1, entry.compressedSize)) {
      throw zipBomb(`The entry "${path}"`, limits);
    }
  }
  if (totalBytes > limits.maxBytes) throw tooLarge(totalBytes, limits);
  if (totalBytes > RATIO_CHECK_FLOOR_BYTES && totalBytes > limits.maxRatio * Math.max(1, totalCompressed)) throw zipBomb("This archive", limits);

  // 4. Entries must not share bytes (overlapping entries are the "better zip bomb").
  const starts = files.map((f) => ({ f, start: locateEntryData(bytes, f.entry, directory.centralOffset) }));
  const byOffset = [...starts].sort((a, b) => a.f.entry.localHeaderOffset - b.f.entry.localHeaderOffset);
  for (let i = 1; i < byOffset.length; i++) {
    const previous = byOffset[i - 1]!;
    if (previous.start + previous.f.entry.compressedSize > byOffset[i]!.f.entry.localHeaderOffset) {
      throw new ImportError(
        "zip-bomb",
        `The entries "${previous.f.path}" and "${byOffset[i]!.f.path}" share the same bytes, a trick used by zip bombs, so the import was refused. Re-create the zip and try again.`,
      );
    }
  }
  // Duplicates and file/folder clashes are known from the names alone, so they are refused here too.
  finishEntries(planned.map((p): ImportEntry => (p.kind === "dir" ? { kind: "dir", path: p.path } : { kind: "file", path: p.path, data: "" })));
  return { planned, starts, top, skipped, totalBytes };
}

/**
 * Reads a zip into import entries. Throws ImportError (refused or broken archive) or an AbortError
 * (cancelled). Pure apart from the callbacks: shared by the worker and the in-thread fallback.
 */
export function readZip(bytes: Uint8Array, options: ImportOptions = {}, onProgress?: ProgressListener, signal?: AbortSignal): ImportResult {
  throwIfAborted(signal);
  const limits = resolveLimits(options);
  const { planned, starts, top, skipped, totalBytes } = planZip(bytes, options);
  const files = starts.map((s) => s.f);

  // 5. Inflate entry by entry with a running byte count.
  const entries: ImportEntry[] = [];
  const running = { bytes: 0 };
  let done = 0;
  onProgress?.({ files: 0, totalFiles: files.length, bytes: 0, totalBytes });
  for (const item of planned) {
    if (item.kind === "dir") entries.push({ kind: "dir", path: item.path });
  }
  for (const { f, start } of starts) {
    throwIfAborted(signal);
    const data = inflateEntry(bytes, f, start, running, limits, signal);
    entries.push({ kind: "file", path: f.path, data: decodeFileData(data), ...(f.entry.mtime !== undefined ? { mtime: f.entry.mtime } : {}) });
    done++;
    onProgress?.({ files: done, totalFiles: files.length, bytes: running.bytes, totalBytes });
  }
  return { entries: finishEntries(entries), ...(top !== undefined ? { strippedFolder: top } : {}), skipped, bytes: running.bytes };
}

function inflateEntry(
  bytes: Uint8Array,
  { entry, path }: PlannedEntry,
  start: number,
  running: { bytes: number },
  limits: ImportLimits,
  signal: AbortSignal | undefined,
): Uint8Array {
  const compressed = bytes.subarray(start, start + entry.compressedSize);
  const out = new Uint8Array(entry.uncompressedSize);
  if (entry.method === 0) {
    out.set(compressed);
  } else {
    let written = 0;
    const inflater = new Inflate((chunk) => {
      // Checked per chunk so a lying entry is stopped as soon as it passes its declared size.
      if (written + chunk.length > out.length) throw corruptZipError(`"${path}" unpacks to more than its declared size`);
      out.set(chunk, written);
      written += chunk.length;
      running.bytes += chunk.length;
      if (running.bytes > limits.maxBytes) throw tooLarge(running.bytes, limits);
    });
    try {
      for (let offset = 0; offset < compressed.length; offset += INFLATE_CHUNK) {
        if (offset > 0) throwIfAborted(signal);
        const end = Math.min(compressed.length, offset + INFLATE_CHUNK);
        inflater.push(compressed.subarray(offset, end), end === compressed.length);
      }
      if (compressed.length === 0) inflater.push(new Uint8Array(0), true);
    } catch (error) {
      if (error instanceof ImportError || (error instanceof Error && error.name === "AbortError")) throw error;
      throw corruptZipError(`"${path}" cannot be unpacked: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (written !== out.length) {
      throw written < out.length ? truncatedZipError(`"${path}" ends early`) : corruptZipError(`the size of "${path}" does not match`);
    }
    running.bytes -= written; // counted once below, like stored entries
  }
  running.bytes += out.length;
  if (running.bytes > limits.maxBytes) throw tooLarge(running.bytes, limits);
  if (crc32(out) !== entry.crc) throw corruptZipError(`the checksum of "${path}" does not match`);
  return out;
}
