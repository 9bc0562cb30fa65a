// Checks a name typed in the tree before anything touches the file system: the name rules of
// base/paths plus "already exists" among the siblings. Messages say what to change.
import { basename, dirname, isInside, joinPath, validateName } from "../../base";
import { findNode, type TreeNode } from "./file-tree-model";

export function siblingNames(nodes: readonly TreeNode[], folder: string): string[] {
  const list = folder === "" ? nodes : (findNode(nodes, folder)?.children ?? []);
  return list.map((n) => n.name);
}

/** An error for a new entry called `name` in `folder`, or undefined when it can be created. */
export function checkNewName(nodes: readonly TreeNode[], folder: string, name: string): string | undefined {
  const problem = validateName(name);
  if (problem) return problem;
  const clash = siblingNames(nodes, folder).find((n) => n === name);
  if (clash !== undefined) {
    return `A file or folder named "${name}" already exists ${folder ? `in ${folder}` : "at the top of the workspace"}. Choose another name.`;
  }
  return undefined;
}

/** An error for renaming `path` to `name`, or undefined. Renaming to the same name is fine (no-op). */
export function checkRename(nodes: readonly TreeNode[], path: string, name: string): string | undefined {
  if (name === basename(path)) return undefined;
  const problem = validateName(name);
  if (problem) return problem;
  // Only a different entry blocks the name (changing the case of the same file is allowed).
  const clash = siblingNames(nodes, dirname(path)).find((n) => n === name);
  if (clash !== undefined) return `"${name}" already exists in ${dirname(path) || "the workspace root"}. Choose another name.`;
  return undefined;
}

/** An error for moving `from` into `folder`, or undefined. */
export function checkMove(nodes: readonly TreeNode[], from: string, folder: string): string | undefined {
  if (dirname(from) === folder) return undefined;
  if (isInside(folder, from)) return `"${basename(from)}" cannot be moved into itself.`;
  const target = joinPath(folder, basename(from));
  if (siblingNames(nodes, folder).includes(basename(from))) {
    return `"${target}" already exists. Rename one of them first, then move it.`;
  }
  return undefined;
}
