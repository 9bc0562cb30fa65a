// Whether a workspace has TypeScript or JavaScript files of its own: the agent offers the code tool
// only then (docs/agent.md, "Tools"). A module of its own, small enough for the first chunk (lazy.ts).
import type { WorkspaceFs } from "../types";

/** The files TypeScript's language service reads: TS and JS in every module flavour. */
export const SCRIPT_SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i;
/** Folders the code service never loads. */
export const SKIPPED_FOLDERS = ["node_modules", ".git"];

export function isSkipped(path: string): boolean {
  return SKIPPED_FOLDERS.some((folder) => path === folder || path.startsWith(folder + "/") || path.includes("/" + folder + "/"));
}

/** One pass over the in-memory file list (no file is read). */
export async function hasScriptFiles(fs: Pick<WorkspaceFs, "listAll">): Promise<boolean> {
  return (await fs.listAll()).some((stat) => stat.kind === "file" && SCRIPT_SOURCE.test(stat.path) && !isSkipped(stat.path));
}
