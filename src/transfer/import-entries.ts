// What every import (zip or folder) produces, and the rules they share: name validation, the
// single top-level folder strip, skipping node_modules and .git, and text-or-bytes decoding.
import { abortError, hasInvisibleChars, looksBinary, normalizePath, revealInvisibleChars, validateName } from "../base";
import type { GitHubUpstream } from "./github/github-open";
import { DEFAULT_IMPORT_LIMITS, ImportError, MAX_ENTRY_NAME_LENGTH, type ImportLimits } from "./zip-limits";

/** A file (text as string when valid UTF-8, otherwise bytes) or an empty folder to create. */
export type ImportEntry =
  | { kind: "file"; path: string; data: string | Uint8Array; mtime?: number }
  | { kind: "dir"; path: string };

export interface ImportOptions {
  /** Keep `node_modules` folders (skipped by default: they are rebuilt by npm install). */
  keepNodeModules?: boolean;
  /** Keep `.git` folders (skipped by default: the workspace has no git, and they are large). */
  keepGit?: boolean;
  /** Keep macOS metadata (`__MACOSX` folders, `.DS_Store` files; skipped by default: Finder's junk, not project files). */
  keepMacMetadata?: boolean;
  /** Strip a single top-level folder, as in GitHub archives (default true). */
  stripTopFolder?: boolean;
  limits?: Partial<ImportLimits>;
}

export interface ImportProgress {
  files: number;
  totalFiles: number;
  bytes: number;
  totalBytes: number;
}

export type ProgressListener = (progress: ImportProgress) => void;

export interface ImportResult {
  entries: ImportEntry[];
  /** The top-level folder that was stripped ("zustand-main"), if any. */
  strippedFolder?: string;
  /** Entries left out by the skip rules, counted per rule. */
  skipped: {
    nodeModules: number;
    git: number;
    /** `__MACOSX` and `.DS_Store` entries. */
    macMetadata?: number;
    /**
     * Folder imports only: files whose names the workspace cannot hold (legal on the user's disk,
     * such as "we:ird.txt"), skipped instead of refusing the folder. `names` are the skipped files
     * and folders (a folder once, however many files it holds), relative to the imported root.
     */
    unstorable?: { files: number; names: string[] };
    /** GitHub only: symbolic links and submodules, which a workspace cannot hold. */
    symlinks?: number;
    submodules?: number;
  };
  /** Git LFS pointer files, kept as they are (the real content stays on GitHub's LFS store). */
  lfsPointers?: string[];
  /** The repository the entries came from, remembered with a new workspace. */
  upstream?: GitHubUpstream;
  /** Uncompressed bytes of the imported files. */
  bytes: number;
}

/** Stops an import the user cancelled (zip or folder alike), between steps that take time. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError("The import was cancelled.");
}

export function resolveLimits(options: ImportOptions | undefined): ImportLimits {
  return { ...DEFAULT_IMPORT_LIMITS, ...options?.limits };
}

/** A name from outside, quoted for a message: invisible and text-direction characters shown as ⟨U+202E⟩. */
export function quoteName(raw: string): string {
  return JSON.stringify(revealInvisibleChars(raw.length > 200 ? raw.slice(0, 200) + "…" : raw));
}

/**
 * Why the workspace cannot hold a path segment, as a clause that completes "Its name …" (no final
 * stop, so callers can compose whole sentences), or undefined when validateName accepts it.
 */
export function segmentProblem(segment: string): string | undefined {
  if (validateName(segment) === undefined) return undefined;
  if (hasInvisibleChars(segment)) return "contains an invisible or text-direction character, which can disguise a name";
  if (/[\u0000-\u001f]/.test(segment)) return "contains a control character";
  const bad = /[<>:"|?*\\]/.exec(segment);
  if (bad) return `contains "${bad[0]}", which webcode does not allow in names (< > : " | ? * \\)`;
  if (segment.trim() === "") return "is blank";
  if (segment !== segment.trim()) return "starts or ends with spaces";
  if (segment.length > 255) return "is longer than 255 characters";
  return "is not a valid name";
}

/**
 * Validates one raw entry name from outside and returns its workspace path. Refuses, rather than
 * repairs, anything suspicious: a hostile archive is refused as a whole.
 */
export function checkEntryName(raw: string): string {
  const shown = quoteName(raw);
  const refused = (why: string) => new ImportError("invalid-name", `The entry ${shown} ${why}, so the import was refused. Rename it and try again.`);
  if (raw === "" || raw === "/") throw refused("has an empty name");
  if (raw.length > MAX_ENTRY_NAME_LENGTH) throw refused("has a name that is too long");
  if (raw.includes("\u0000")) throw refused("contains a NUL character");
  if (raw.startsWith("/") || raw.startsWith("\\") || /^[A-Za-z]:/.test(raw)) {
    throw new ImportError("absolute-path", `The entry ${shown} has an absolute path, which could write outside the workspace, so the import was refused.`);
  }
  if (raw.split(/[\\/]/).includes("..")) {
    throw new ImportError("zip-slip", `The entry ${shown} points outside its folder ("..") — a known attack (zip-slip) — so the import was refused.`);
  }
  if (raw.includes("\\")) throw refused("uses backslashes (\\) in its path");
  const problem = pathProblem(raw);
  if (problem) throw refused(problem);
  return normalizePath(raw);
}

/**
 * Why the workspace cannot hold a path, as a clause that completes "The entry "…" …" (no final
 * stop), or undefined when validatePath accepts it.
 */
export function pathProblem(raw: string): string | undefined {
  let path: string;
  try {
    path = normalizePath(raw);
  } catch {
    return "points outside the workspace";
  }
  if (path === "") return "has an empty name";
  const segments = path.split("/");
  for (let i = 0; i < segments.length; i++) {
    const problem = segmentProblem(segments[i]!);
    if (problem) return i === segments.length - 1 ? `has a name that ${problem}` : `is inside the folder ${quoteName(segments[i]!)}, whose name ${problem}`;
  }
  return undefined;
}

/** The folder every path shares as its first segment, when there is exactly one and it has contents. */
export function singleTopFolder(paths: Iterable<{ path: string; kind: "file" | "dir" }>): string | undefined {
  let top: string | undefined;
  let inside = false;
  for (const { path, kind } of paths) {
    const slash = path.indexOf("/");
    const first = slash < 0 ? path : path.slice(0, slash);
    if (slash < 0 && kind === "file") return undefined;
    if (top === undefined) top = first;
    else if (top !== first) return undefined;
    if (slash >= 0) inside = true;
  }
  return inside ? top : undefined;
}

export function stripFolder(path: string, folder: string | undefined): string {
  if (folder === undefined) return path;
  return path === folder ? "" : path.slice(folder.length + 1);
}

export type SkipReason = "nodeModules" | "git" | "macMetadata";

/** Is the path macOS metadata (anything in `__MACOSX`, or a `.DS_Store`), left out unless kept? */
export function isMacMetadata(path: string, options: ImportOptions | undefined): boolean {
  return !options?.keepMacMetadata && path.split("/").some((segment) => segment === "__MACOSX" || segment === ".DS_Store");
}

export function skipReason(path: string, options: ImportOptions | undefined): SkipReason | undefined {
  if (isMacMetadata(path, options)) return "macMetadata";
  for (const segment of path.split("/")) {
    if (segment === "node_modules" && !options?.keepNodeModules) return "nodeModules";
    if (segment === ".git" && !options?.keepGit) return "git";
  }
  return undefined;
}

// ignoreBOM keeps a leading byte-order mark in the string, so text round-trips byte for byte.
const textDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Text stays a string when it is valid UTF-8 and does not look binary; everything else stays bytes. */
export function decodeFileData(bytes: Uint8Array): string | Uint8Array {
  if (looksBinary(bytes)) return bytes;
  try {
    return textDecoder.decode(bytes);
  } catch {
    return bytes;
  }
}

/**
 * The form two names share when they differ only by case or Unicode normalisation ("Readme.md" and
 * "README.md", "café" precomposed and decomposed, "ﬁle" and "file"): the same file on macOS and
 * Windows, and the same to the eye everywhere.
 */
export function nameFoldKey(path: string): string {
  return path.normalize("NFKC").toLowerCase().normalize("NFKC");
}

/**
 * Refuses entries of which two paths (or folders on the way to them) differ only by case or Unicode
 * normalisation: one could pass for the other in the file tree, and a checkout on a case-insensitive
 * disk would silently keep only one of them.
 */
export function checkConfusableNames(entries: readonly ImportEntry[]): void {
  const seen = new Map<string, string>();
  const visit = (path: string) => {
    const key = nameFoldKey(path);
    const other = seen.get(key);
    if (other === undefined) seen.set(key, path);
    else if (other !== path) {
      throw new ImportError(
        "duplicate",
        `The paths ${quoteName(other)} and ${quoteName(path)} differ only by upper/lower case or Unicode normalisation, so one could pass for the other; the import was refused. Rename one of them and try again.`,
      );
    }
  };
  for (const entry of entries) {
    for (let i = entry.path.indexOf("/"); i > 0; i = entry.path.indexOf("/", i + 1)) visit(entry.path.slice(0, i));
    visit(entry.path);
  }
}

/**
 * Final checks shared by every import: no path twice, no path both a file and a folder, no two paths
 * that differ only by case or normalisation (unless `allowConfusable`: copies of the user's own
 * workspace), and only empty folders kept as folder entries (the others are implied by their contents).
 */
export function finishEntries(entries: ImportEntry[], options: { allowConfusable?: boolean } = {}): ImportEntry[] {
  const kinds = new Map<string, "file" | "dir">();
  const duplicate = (path: string, why: string) =>
    new ImportError("duplicate", `The path "${path}" ${why}, so the import was refused (the archive may be crafted to hide a file). Fix the archive and try again.`);
  for (const entry of entries) {
    const seen = kinds.get(entry.path);
    if (seen === "file" || (seen === "dir" && entry.kind === "file")) throw duplicate(entry.path, seen === entry.kind ? "appears twice" : "is both a file and a folder");
    kinds.set(entry.path, entry.kind);
  }
  const parents = new Set<string>();
  for (const entry of entries) {
    let i = entry.path.lastIndexOf("/");
    while (i > 0) {
      const parent = entry.path.slice(0, i);
      if (kinds.get(parent) === "file") throw duplicate(parent, "is both a file and a folder");
      if (parents.has(parent)) break;
      parents.add(parent);
      i = parent.lastIndexOf("/");
    }
  }
  if (!options.allowConfusable) checkConfusableNames(entries);
  const out: ImportEntry[] = [];
  const dirsSeen = new Set<string>();
  for (const entry of entries) {
    if (entry.kind === "dir") {
      if (parents.has(entry.path) || dirsSeen.has(entry.path)) continue;
      dirsSeen.add(entry.path);
    }
    out.push(entry);
  }
  return out;
}
