// Taking what another tab stored into this tab's workspace tree (workspace-files.ts): read the
// records it announced, then apply them, deletions deepest first and creations parents first,
// leaving alone every path changed here and not stored yet (this tab's write follows, and storage
// merges it with theirs: src/storage/file-writes.ts).
import { dirname, validatePath } from "../base";
import type { FileRecord, Storage } from "../storage";
import { sameContent } from "./file-content";
import type { FileChange } from "./types";
import type { TreeNode } from "./workspace-tree";

/**
 * The stored records of `paths` (each path that is not a valid workspace path is skipped), or, with
 * no paths, of every stored path and every path in `known` (those without a record come back
 * undefined: deleted there).
 */
export async function readStoredRecords(
  storage: Pick<Storage, "files">,
  workspaceId: string,
  paths: readonly string[] | undefined,
  known: () => Iterable<string>,
): Promise<Array<[string, FileRecord | undefined]>> {
  if (paths === undefined) {
    const stored = new Map((await storage.files.list(workspaceId)).map((r) => [r.path, r] as const));
    const all = new Set([...stored.keys(), ...known()]);
    return [...all].map((path) => [path, stored.get(path)]);
  }
  const valid = paths.filter((path) => {
    try {
      return validatePath(path) === path;
    } catch {
      return false;
    }
  });
  return Promise.all(valid.map(async (path) => [path, await storage.files.get(workspaceId, path)] as [string, FileRecord | undefined]));
}

/** What adopting needs of the tree; none of these store anything (the other tab has stored it). */
export interface AdoptionTarget {
  node(path: string): TreeNode | undefined;
  hasChildren(path: string): boolean;
  isLocal(path: string): boolean;
  /** Creates missing parent folders (reported); false if one of them is a file. */
  ensureParents(dir: string): boolean;
  detach(path: string): void;
  attach(path: string, node: TreeNode): void;
  replace(path: string, node: TreeNode): void;
  report(type: FileChange["type"], path: string, kind: "file" | "dir"): void;
}

export function adoptStoredRecords(records: ReadonlyArray<[string, FileRecord | undefined]>, tree: AdoptionTarget): void {
  const deletions = records.filter(([path, record]) => !record && tree.node(path) && !tree.isLocal(path)).map(([path]) => path);
  deletions.sort((a, b) => b.length - a.length);
  for (const path of deletions) {
    const node = tree.node(path);
    if (!node) continue;
    if (node.kind === "dir" && tree.hasChildren(path)) continue; // something of ours is still in it
    tree.detach(path);
    tree.report("deleted", path, node.kind);
  }
  const writes = records.filter((entry): entry is [string, FileRecord] => entry[1] !== undefined && !tree.isLocal(entry[0]));
  writes.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [path, record] of writes) {
    const existing = tree.node(path);
    if (!tree.ensureParents(dirname(path))) continue;
    if (record.kind === "dir") {
      if (existing?.kind === "dir") continue;
      if (existing) tree.detach(path);
      tree.attach(path, { kind: "dir", mtime: record.mtime });
      tree.report("created", path, "dir");
      continue;
    }
    const data = record.data ?? "";
    if (existing?.kind === "dir") continue;
    if (existing?.kind === "file" && sameContent(existing.data, data)) continue;
    const node: TreeNode = { kind: "file", data, mtime: record.mtime };
    if (existing) tree.replace(path, node);
    else tree.attach(path, node);
    tree.report(existing ? "changed" : "created", path, "file");
  }
}
