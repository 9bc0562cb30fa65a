// Turns a path from the model into a workspace path. Relative paths resolve against the workspace
// root; absolute paths under the runtime's root map in; anything else asks `external_directory`
// and is then refused, because the runtime can only reach the workspace.
import { PathError, dirname, normalizePath } from "../../base";
import type { ToolContext } from "./tool";

/** Where the runtimes mount the workspace: the browser runtime and WebContainer (workdirName "workspace"). */
export const WORKSPACE_ROOTS = ["/workspace", "/home/workspace"] as const;

/** The absolute path shown to the model for a workspace path. */
export function displayRoot(): string {
  return WORKSPACE_ROOTS[0];
}

/** The workspace path for `input`, or undefined when it lies outside the workspace. */
export function toWorkspacePath(input: string): string | undefined {
  let path = input.trim().replace(/\\/g, "/");
  if (path === "~") path = "";
  else if (path.startsWith("~/")) path = path.slice(2);
  else if (path.startsWith("/")) {
    const root = WORKSPACE_ROOTS.find((r) => path === r || path.startsWith(r + "/"));
    if (!root) return undefined;
    path = path.slice(root.length);
  }
  try {
    return normalizePath(path);
  } catch (error) {
    if (error instanceof PathError) return undefined;
    throw error;
  }
}

export class OutsideWorkspaceError extends Error {
  constructor(readonly requested: string) {
    super(
      `"${requested}" is outside the workspace. The runtime can only reach files inside the workspace (${displayRoot()}); ` +
        `use a path relative to the workspace root, such as "src/index.ts".`,
    );
    this.name = "OutsideWorkspaceError";
  }
}

/**
 * Resolves `input` for a tool. Outside paths ask `external_directory` first (a deny rule or a
 * rejection throws the permission error), then throw OutsideWorkspaceError.
 */
export async function resolveToolPath(input: string, context: ToolContext): Promise<string> {
  const path = toWorkspacePath(input);
  if (path !== undefined) return path;
  const folder = input.startsWith("/") ? dirname(input) || "/" : input;
  const pattern = folder.endsWith("/") ? `${folder}*` : `${folder}/*`;
  await context.ask({ permission: "external_directory", patterns: [pattern], always: [pattern], metadata: { filePath: input } });
  throw new OutsideWorkspaceError(input);
}

/** A workspace path as the model reads it in titles and output ("" is the root). */
export function showPath(path: string): string {
  return path === "" ? "." : path;
}
