// The list tool: an indented tree of a folder, shallow entries first, skipping build output and caches.
import { z } from "zod";
import { basename, dirname } from "../../base";
import type { FileStat } from "../../runtime";
import description from "../../../prompts/tools/list.md?raw";
import { matchGlob } from "../../base";
import { checkFolder, filesUnder, relativeTo } from "./search-files";
import { resolveToolPath, showPath } from "./workspace-path";
import type { ToolDefinition } from "./tool";

/** At most this many entries are listed. */
export const LIST_MAX_ENTRIES = 100;
/** Folders left out unless asked for by path. */
export const LIST_DEFAULT_IGNORES = [
  "node_modules",
  ".git",
  "dist",
  "build",
  "out",
  "coverage",
  ".cache",
  ".next",
  ".nuxt",
  ".turbo",
  ".vite",
  ".parcel-cache",
  "__pycache__",
  ".venv",
  "venv",
  "target",
];

const parameters = z.object({
  path: z.string().optional().describe("Folder (default: root)"),
  ignore: z.array(z.string()).optional(),
});

export const listTool: ToolDefinition<typeof parameters> = {
  id: "list",
  description,
  parameters,
  async execute(args, context) {
    const base = await resolveToolPath(args.path ?? "", context);
    await context.ask({ permission: "read", patterns: [showPath(base)], always: [showPath(base)], metadata: { path: base } });
    const fs = context.runtime.fs;
    await checkFolder(fs, base);
    const ignores = [...LIST_DEFAULT_IGNORES, ...(args.ignore ?? [])];
    const ignored = (rel: string) =>
      rel.split("/").some((segment, i, all) => ignores.some((g) => matchGlob(g, segment) || matchGlob(g, all.slice(0, i + 1).join("/"))));
    // The base path itself may lie in an ignored folder (the model asked for it by name).
    const entries = (await filesUnder(fs, base, base, { folders: true })).filter((e) => !ignored(relativeTo(base, e.path)));
    const depth = (e: FileStat) => relativeTo(base, e.path).split("/").length;
    const chosen = [...entries].sort((a, b) => depth(a) - depth(b) || a.path.localeCompare(b.path)).slice(0, LIST_MAX_ENTRIES);
    const output = renderTree(base, chosen);
    const truncated = entries.length > chosen.length;
    return {
      title: showPath(base),
      output: truncated ? `${output}\n\n(Showing ${chosen.length} of ${entries.length} entries, shallowest first. List a subfolder to see more.)` : output,
      metadata: { count: entries.length, truncated },
    };
  },
};

/** Renders entries as an indented tree under `base`: folders first, then files, by name. */
function renderTree(base: string, entries: FileStat[]): string {
  const children = new Map<string, FileStat[]>();
  const known = new Set(entries.map((e) => e.path));
  for (const entry of entries) {
    // Keep the tree connected: a file listed without its folder still shows under that folder.
    let parent = dirname(entry.path);
    let child: FileStat = entry;
    for (;;) {
      const list = children.get(parent) ?? [];
      if (!list.some((e) => e.path === child.path)) list.push(child);
      children.set(parent, list);
      if (parent === base || known.has(parent)) break;
      child = { path: parent, kind: "dir", size: 0, mtime: 0 };
      known.add(parent);
      parent = dirname(parent);
    }
  }
  const lines = [`${showPath(base)}/`];
  const walk = (dir: string, indent: string) => {
    const list = (children.get(dir) ?? []).sort((a, b) => (a.kind === b.kind ? basename(a.path).localeCompare(basename(b.path)) : a.kind === "dir" ? -1 : 1));
    for (const entry of list) {
      lines.push(`${indent}${basename(entry.path)}${entry.kind === "dir" ? "/" : ""}`);
      if (entry.kind === "dir") walk(entry.path, indent + "  ");
    }
  };
  walk(base, "  ");
  if (lines.length === 1) lines.push("  (empty)");
  return lines.join("\n");
}
