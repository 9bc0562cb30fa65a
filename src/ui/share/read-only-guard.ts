// Nothing of a shared workspace runs before "Continue": a wrapper for the app's startRuntime that
// refuses to start a runtime (terminal, preview, agent tools) for a read-only workspace.
import { UserFacingError } from "../../base";
import type { Storage } from "../../storage";

export const READ_ONLY_RUNTIME_MESSAGE = "This workspace was opened from a share and is read-only: nothing runs here (no terminal, no preview, no agent) until you press Continue";

export class ReadOnlyWorkspaceError extends UserFacingError {
  constructor() {
    super(READ_ONLY_RUNTIME_MESSAGE, "workspace-read-only");
    this.name = "ReadOnlyWorkspaceError";
  }
}

/** Wraps `startRuntime(files)`: for a read-only workspace it throws ReadOnlyWorkspaceError instead. */
export function refuseRuntimeWhenReadOnly<F extends { workspaceId: string }, R>(storage: Storage, startRuntime: (files: F) => Promise<R>): (files: F) => Promise<R> {
  return async (files) => {
    const workspace = await storage.workspaces.get(files.workspaceId);
    if (workspace?.readOnly) throw new ReadOnlyWorkspaceError();
    return startRuntime(files);
  };
}
