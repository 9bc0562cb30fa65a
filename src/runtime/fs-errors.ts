// Errors of workspace file operations. Each carries a POSIX-style code so adapters (just-bash,
// WebContainer) can map it, and a message written for the user.

export type FsErrorCode =
  | "ENOENT"
  | "EEXIST"
  | "ENOTDIR"
  | "EISDIR"
  | "ENOTEMPTY"
  | "EINVAL"
  | "ECLOSED"
  | "EROFS"
  /** The file changed since the content a write was made from, on the same lines: nothing was written. */
  | "ECONFLICT"
  /** Browser storage is full: the change was not saved (and was undone in memory). */
  | "ENOSPC"
  /** Browser storage failed otherwise: the change was not saved (and was undone in memory). */
  | "EIO";

export class WorkspaceFsError extends Error {
  constructor(
    readonly code: FsErrorCode,
    message: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "WorkspaceFsError";
  }
}

export function isFsError(error: unknown, code?: FsErrorCode): error is WorkspaceFsError {
  return error instanceof WorkspaceFsError && (code === undefined || error.code === code);
}

export function notFound(path: string): WorkspaceFsError {
  return new WorkspaceFsError("ENOENT", `"${path}" does not exist in the workspace.`, path);
}

export function alreadyExists(path: string): WorkspaceFsError {
  return new WorkspaceFsError(
    "EEXIST",
    `"${path}" already exists. Choose another name, or delete or rename the existing one first.`,
    path,
  );
}

export function notAFolder(path: string): WorkspaceFsError {
  return new WorkspaceFsError("ENOTDIR", `"${path}" is a file, not a folder.`, path);
}

export function isAFolder(path: string): WorkspaceFsError {
  return new WorkspaceFsError("EISDIR", `"${path}" is a folder, not a file.`, path);
}

export function workspaceReadOnly(path: string): WorkspaceFsError {
  return new WorkspaceFsError(
    "EROFS",
    "This workspace is a read-only shared session. Press \"Continue\" to make an editable copy, then change files there.",
    path,
  );
}

export function workspaceClosed(path: string): WorkspaceFsError {
  return new WorkspaceFsError("ECLOSED", "This workspace has been closed. Reopen it to make changes.", path);
}

/** Did this fail because browser storage refused it (full or broken)? The change was not saved. */
export function isStorageFailure(error: unknown): error is WorkspaceFsError {
  return isFsError(error, "ENOSPC") || isFsError(error, "EIO");
}

export function conflictOnWrite(path: string): WorkspaceFsError {
  return new WorkspaceFsError(
    "ECONFLICT",
    `"${path}" changed since it was read, on the same lines as this change: nothing was written.`,
    path,
  );
}
