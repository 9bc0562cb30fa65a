// Exports a workspace (or one folder of it) as zip bytes. Everything sits under one top folder, so
// importing the zip again (which strips a single top folder) reproduces the workspace exactly.
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { abortError, basename, concatBytes, encodeText, extname, isInside, normalizePath, validateName } from "../base";
import type { WorkspaceFs } from "../runtime";
import type { ImportEntry, ProgressListener } from "./import-entries";

export interface ZipExportOptions {
  /** Export only this folder ("" or absent: the whole workspace). */
  folder?: string;
  /** Name of the zip's top folder (default: the folder's name, else "workspace"). */
  rootName?: string;
  onProgress?: ProgressListener;
  signal?: AbortSignal;
  /** Workspace paths (files or folders) to leave out, e.g. files the secret scan flagged. */
  excludePaths?: readonly string[];
}

/** Formats that are already compressed: deflating them again costs time and saves nothing. */
const STORED_EXTENSIONS = new Set([
  ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".ico", ".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z",
  ".zst", ".br", ".woff", ".woff2", ".mp3", ".mp4", ".webm", ".ogg", ".pdf", ".wasm", ".jar",
]);

const MIN_DOS_TIME = Date.UTC(1980, 0, 2);
const MAX_DOS_TIME = Date.UTC(2099, 11, 30);

function safeRootName(name: string | undefined): string {
  const cleaned = (name ?? "").trim();
  return cleaned && validateName(cleaned) === undefined ? cleaned : "workspace";
}

/** Zips entries under `rootName/`. Folders are written as "name/" entries, empty or not. */
export async function zipEntries(entries: ImportEntry[], rootName: string, options: Pick<ZipExportOptions, "onProgress" | "signal"> = {}): Promise<Uint8Array> {
  const root = safeRootName(rootName);
  const chunks: Uint8Array[] = [];
  let failure: Error | undefined;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else chunks.push(chunk);
  });
  const now = Date.now();
  const files = entries.filter((e) => e.kind === "file");
  const totalBytes = files.reduce((n, e) => n + (typeof e.data === "string" ? e.data.length : e.data.length), 0);
  let doneFiles = 0;
  let doneBytes = 0;
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const dirEntry = new ZipPassThrough(`${root}/`);
  zip.add(dirEntry);
  dirEntry.push(new Uint8Array(0), true);
  for (const entry of sorted) {
    if (options.signal?.aborted) {
      zip.terminate();
      throw abortError("The export was cancelled.");
    }
    if (entry.kind === "dir") {
      const dir = new ZipPassThrough(`${root}/${entry.path}/`);
      zip.add(dir);
      dir.push(new Uint8Array(0), true);
      continue;
    }
    const bytes = typeof entry.data === "string" ? encodeText(entry.data) : entry.data;
    const stored = STORED_EXTENSIONS.has(extname(entry.path).toLowerCase()) || bytes.length === 0;
    const file = stored ? new ZipPassThrough(`${root}/${entry.path}`) : new ZipDeflate(`${root}/${entry.path}`, { level: 6 });
    const mtime = entry.mtime !== undefined && entry.mtime > MIN_DOS_TIME && entry.mtime < MAX_DOS_TIME ? entry.mtime : now;
    file.mtime = mtime;
    zip.add(file);
    file.push(bytes, true);
    doneFiles++;
    doneBytes += typeof entry.data === "string" ? entry.data.length : entry.data.length;
    options.onProgress?.({ files: doneFiles, totalFiles: files.length, bytes: doneBytes, totalBytes });
    // Give the page a chance to paint progress and react to Cancel on large exports.
    if (doneFiles % 200 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  zip.end();
  if (failure) throw failure;
  return concatBytes(chunks);
}

/** Reads a workspace (or a folder of it) through its WorkspaceFs and zips it. */
export async function exportWorkspaceZip(fs: WorkspaceFs, options: ZipExportOptions = {}): Promise<Uint8Array> {
  const folder = normalizePath(options.folder ?? "");
  const excluded = (options.excludePaths ?? []).map((p) => normalizePath(p)).filter((p) => p !== "");
  const entries: ImportEntry[] = [];
  for (const stat of await fs.listAll()) {
    if (stat.path === folder || !isInside(stat.path, folder)) continue;
    if (excluded.some((path) => isInside(stat.path, path))) continue;
    const path = folder === "" ? stat.path : stat.path.slice(folder.length + 1);
    if (stat.kind === "dir") entries.push({ kind: "dir", path });
    else entries.push({ kind: "file", path, data: await fs.readFile(stat.path), mtime: stat.mtime });
  }
  return zipEntries(entries, options.rootName ?? (folder === "" ? "workspace" : basename(folder)), options);
}
