// The in-memory tree behind the workspace file service (workspace-files.ts): files and folders by
// path, with each folder's children. A plain data structure: it neither stores nor reports anything.
import { basename, dirname } from "../base";
import { utf8Length } from "./file-content";
import type { FileStat } from "./types";

export interface FileNode {
  kind: "file";
  /** Text as a string; bytes that are not valid UTF-8 (or hold a NUL byte) as Uint8Array. */
  data: string | Uint8Array;
  mtime: number;
  /** Byte size, computed on first use (a large text's UTF-8 length is not free). */
  size?: number;
}

export interface DirNode {
  kind: "dir";
  mtime: number;
}

export type TreeNode = FileNode | DirNode;

export class WorkspaceTree {
  /** Every file and folder except the root (""), keyed by workspace path. */
  private readonly nodes = new Map<string, TreeNode>();
  /** Folder path -> names of its direct children ("" is the root). */
  private readonly children = new Map<string, Set<string>>([["", new Set()]]);

  get(path: string): TreeNode | undefined {
    return this.nodes.get(path);
  }

  has(path: string): boolean {
    return this.nodes.has(path);
  }

  /** Every path (files and folders), unsorted. */
  paths(): IterableIterator<string> {
    return this.nodes.keys();
  }

  nodeEntries(): IterableIterator<[string, TreeNode]> {
    return this.nodes.entries();
  }

  hasChildren(path: string): boolean {
    return (this.children.get(path)?.size ?? 0) > 0;
  }

  /** Puts a new node for a path already in the tree (same parent, so the children stay). */
  replace(path: string, node: TreeNode): void {
    this.nodes.set(path, node);
  }

  /** Adds a path under its parent folder, which must be in the tree. */
  attach(path: string, node: TreeNode): void {
    this.nodes.set(path, node);
    this.children.get(dirname(path))!.add(basename(path));
    if (node.kind === "dir" && !this.children.has(path)) this.children.set(path, new Set());
  }

  detach(path: string): void {
    this.nodes.delete(path);
    this.children.get(dirname(path))?.delete(basename(path));
    this.children.delete(path);
  }

  /** Every path under a folder, parents before children. */
  descendants(dir: string): string[] {
    const out: string[] = [];
    const walk = (folder: string): void => {
      for (const name of this.children.get(folder) ?? []) {
        const path = `${folder}/${name}`;
        out.push(path);
        if (this.nodes.get(path)?.kind === "dir") walk(path);
      }
    };
    walk(dir);
    return out;
  }

  /** Stats of a folder's direct children ("" = root), folders first then by name. */
  list(dir: string): FileStat[] {
    const out: FileStat[] = [];
    for (const name of this.children.get(dir) ?? []) {
      const child = dir === "" ? name : `${dir}/${name}`;
      out.push(toStat(child, this.nodes.get(child)!));
    }
    return out.sort(compareStats);
  }
}

export function toStat(path: string, node: TreeNode): FileStat {
  if (node.kind === "dir") return { path, kind: "dir", size: 0, mtime: node.mtime };
  node.size ??= typeof node.data === "string" ? utf8Length(node.data) : node.data.byteLength;
  return { path, kind: "file", size: node.size, mtime: node.mtime };
}

function compareStats(a: FileStat, b: FileStat): number {
  if (a.kind !== b.kind) return a.kind === "dir" ? -1 : 1;
  const an = basename(a.path);
  const bn = basename(b.path);
  return an < bn ? -1 : an > bn ? 1 : 0;
}
