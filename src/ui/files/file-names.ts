// Checks a name typed in the tree before anything touches the file system: the name rules of
// base/paths plus "already exists" among the siblings. Messages say what to change.
import { basename, dirname, isInside, joinPath, validateName } from "../../base";
import { findNode, type TreeNode } from "./file-tree-model";

export function siblingNames(nodes: readonly TreeNode[], folder: string): string[] {
  const list = folder === "" ? nodes : (findNode(nodes, folder)?.children ?? []);
  return list.map((n) => n.name);
}

/**
 * An error for a new entry called `name` in `folder`, or undefined when it can be created. `name` may
 * be a relative path ("src/lib/a.ts"): missing folders on the way are created, existing ones reused.
 */
export function checkNewName(nodes: readonly TreeNode[], folder: string, input: string): string | undefined {
  const segments = input.split("/");
  if (segments.length > 1) {
    if (segments.some((s) => s === "")) return "A path cannot start or end with \"/\" or contain \"//\".";
    for (const segment of segments) {
      const problem = validateName(segment);
      if (problem) return problem;
    }
    let at = folder;
    for (const segment of segments.slice(0, -1)) {
      const next = joinPath(at, segment);
      const node = findNode(nodes, next);
      if (node && node.kind !== "dir") return `"${next}" is a file, so it cannot contain "${segments.slice(segments.indexOf(segment) + 1).join("/")}".`;
      at = next;
    }
    return checkNewName(nodes, at, segments[segments.length - 1]!);
  }
  const name = input;
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
