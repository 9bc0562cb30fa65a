// Limits for everything imported from outside (zips, folders) and the typed error each refusal
// raises. A refused import writes nothing: validation happens before any workspace is touched.
import { UserFacingError, formatBytes } from "../base";

/** Total uncompressed bytes an import may produce. */
export const MAX_IMPORT_BYTES = 500 * 1024 * 1024;
/** Uncompressed : compressed ratio above which an archive (or one entry) counts as a zip bomb. */
export const MAX_COMPRESSION_RATIO = 100;
/** Below this many uncompressed bytes the ratio is not checked: small files cannot hurt. */
export const RATIO_CHECK_FLOOR_BYTES = 1024 * 1024;
/** Entries (files and folders, skipped ones included) an archive or folder may hold. */
export const MAX_IMPORT_ENTRIES = 50_000;
/** Longest entry name accepted, in characters (file systems stop near 4096). */
export const MAX_ENTRY_NAME_LENGTH = 4096;

export type ImportErrorCode =
  | "not-a-zip"
  | "corrupt"
  | "truncated"
  | "encrypted"
  | "unsupported-method"
  | "zip-slip"
  | "absolute-path"
  | "invalid-name"
  | "symlink"
  | "duplicate"
  | "too-many-entries"
  | "too-large"
  | "zip-bomb"
  | "empty"
  | "download-failed";

/** A refused or broken import. The message is written for the user; nothing was written. */
export class ImportError extends UserFacingError {
  constructor(
    readonly reason: ImportErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, `import-${reason}`, options);
    this.name = "ImportError";
  }
}

export interface ImportLimits {
  maxBytes: number;
  maxRatio: number;
  maxEntries: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxBytes: MAX_IMPORT_BYTES,
  maxRatio: MAX_COMPRESSION_RATIO,
  maxEntries: MAX_IMPORT_ENTRIES,
};

export function tooManyEntries(count: number, limits: ImportLimits): ImportError {
  return new ImportError(
    "too-many-entries",
    `This import holds ${count.toLocaleString("en")} entries; webcode imports at most ${limits.maxEntries.toLocaleString("en")}. Remove generated folders (build output, dependencies) and try again.`,
  );
}

export function tooLarge(bytes: number, limits: ImportLimits): ImportError {
  return new ImportError(
    "too-large",
    `This import would unpack to more than ${formatBytes(limits.maxBytes)} (at least ${formatBytes(bytes)}). Import a smaller part of the project.`,
  );
}

export function zipBomb(what: string, limits: ImportLimits): ImportError {
  return new ImportError(
    "zip-bomb",
    `${what} expands more than ${limits.maxRatio}:1, which is how zip bombs work, so it was refused. If the archive is genuine, unpack it on your computer and import the folder instead.`,
  );
}
