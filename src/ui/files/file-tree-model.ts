// The file tree as data: nodes built from the workspace's file list, and the visible rows for a
// set of expanded folders (what the tree renders and what keyboard navigation walks).
import { basename, dirname, isInside } from "../../base";
import type { FileStat } from "../../runtime";

export interface TreeNode {
  path: string;
  name: string;
  kind: "file" | "dir";
  children: TreeNode[];
}

export interface TreeRow {
  node: TreeNode;
  /** 1 for root entries (aria-level). */
  level: number;
  /** 1-based position among siblings and the number of siblings (aria-posinset / aria-setsize). */
  position: number;
  siblings: number;
  expanded: boolean;
  parent?: string;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/** Folders first, then by name the way people count ("file2" before "file10"). */
export function compareNodes(a: TreeNode, b: TreeNode): number {
  if (a.kind !== b.kind) return a.kind === "dir" ? -1 : 1;
  return collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** Builds the tree; folders implied by a file's path exist even without their own entry. */
export function buildTree(stats: readonly FileStat[]): TreeNode[] {
  const root: TreeNode = { path: "", name: "", kind: "dir", children: [] };
  const byPath = new Map<string, TreeNode>([["", root]]);
  const ensureDir = (path: string): TreeNode => {
    const existing = byPath.get(path);
    if (existing) return existing;
    const node: TreeNode = { path, name: basename(path), kind: "dir", children: [] };
    byPath.set(path, node);
    ensureDir(dirname(path)).children.push(node);
    return node;
  };
  for (const stat of stats) {
    if (stat.path === "") continue;
    if (stat.kind === "dir") {
      ensureDir(stat.path);
      continue;
    }
    if (byPath.has(stat.path)) continue;
    const node: TreeNode = { path: stat.path, name: basename(stat.path), kind: "file", children: [] };
    byPath.set(stat.path, node);
    ensureDir(dirname(stat.path)).children.push(node);
  }
  const sort = (node: TreeNode) => {
    node.children.sort(compareNodes);
    for (const child of node.children) if (child.kind === "dir") sort(child);
  };
  sort(root);
  return root.children;
}

export function visibleRows(nodes: readonly TreeNode[], expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (list: readonly TreeNode[], level: number, parent: string | undefined) => {
    list.forEach((node, i) => {
      const open = node.kind === "dir" && expanded.has(node.path);
      rows.push({ node, level, position: i + 1, siblings: list.length, expanded: open, parent });
      if (open) walk(node.children, level + 1, node.path);
    });
  };
  walk(nodes, 1, undefined);
  return rows;
}

export function findNode(nodes: readonly TreeNode[], path: string): TreeNode | undefined {
  for (const node of nodes) {
    if (node.path === path) return node;
    if (node.kind === "dir" && isInside(path, node.path)) return findNode(node.children, path);
  }
  return undefined;
}

/** Every folder above a path ("a/b/c.ts" -> ["a", "a/b"]), to reveal it. */
export function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); dir !== ""; dir = dirname(dir)) out.unshift(dir);
  return out;
}

export type TreeKey = "ArrowUp" | "ArrowDown" | "ArrowLeft" | "ArrowRight" | "Home" | "End";

/** What a navigation key does: move the focus, or expand/collapse a folder (WAI-ARIA tree pattern). */
export function navigate(
  rows: readonly TreeRow[],
  focused: string | undefined,
  key: TreeKey,
): { focus?: string; expand?: string; collapse?: string } {
  if (rows.length === 0) return {};
  const index = rows.findIndex((r) => r.node.path === focused);
  const row = rows[index];
  switch (key) {
    case "ArrowDown":
      return { focus: rows[index < 0 ? 0 : Math.min(rows.length - 1, index + 1)]!.node.path };
    case "ArrowUp":
      return { focus: rows[index < 0 ? 0 : Math.max(0, index - 1)]!.node.path };
    case "Home":
      return { focus: rows[0]!.node.path };
    case "End":
      return { focus: rows[rows.length - 1]!.node.path };
    case "ArrowRight":
      if (!row) return { focus: rows[0]!.node.path };
      if (row.node.kind !== "dir") return {};
      if (!row.expanded) return { expand: row.node.path };
      return row.node.children.length > 0 ? { focus: row.node.children[0]!.path } : {};
    case "ArrowLeft":
      if (!row) return { focus: rows[0]!.node.path };
      if (row.node.kind === "dir" && row.expanded) return { collapse: row.node.path };
      return row.parent !== undefined ? { focus: row.parent } : {};
  }
}
