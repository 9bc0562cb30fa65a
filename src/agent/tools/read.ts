// The read tool: numbered lines of a text file (or a folder's entries), within line, width and size
// limits, with AGENTS.md reminders for folders on the way to the file and images for vision models.
import { z } from "zod";
import { basename, dirname, looksBinary, toBase64, tryDecodeText } from "../../base";
import type { FileStat, WorkspaceFs } from "../../runtime";
import description from "../../../prompts/tools/read.md?raw";
import { bigramSimilarity } from "./edit-text";
import { resolveToolPath, showPath } from "./workspace-path";
import type { ToolContext, ToolDefinition, ToolResult } from "./tool";

/** Lines returned when the model gives no limit. */
export const READ_DEFAULT_LIMIT = 2000;
/** Longer lines are cut to this many characters. */
export const READ_MAX_LINE_LENGTH = 2000;
/** Output stops once the numbered lines reach this many bytes. */
export const READ_MAX_BYTES = 50 * 1024;
/** Similar paths suggested when the file does not exist. */
export const READ_SIMILAR_PATHS = 3;
/** Images larger than this are not attached. */
export const READ_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The instruction file picked up from folders between the file and the workspace root. */
export const INSTRUCTION_FILE = "AGENTS.md";

const encoder = new TextEncoder();

const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
};

const parameters = z.object({
  filePath: z.string(),
  offset: z.number().min(1).optional().describe("Line to start at (1-based)"),
  limit: z.number().min(1).optional().describe(`Lines to read (default ${READ_DEFAULT_LIMIT})`),
});

export const readTool: ToolDefinition<typeof parameters> = {
  id: "read",
  description,
  parameters,
  async execute(args, context) {
    const path = await resolveToolPath(args.filePath, context);
    await context.ask({ permission: "read", patterns: [showPath(path)], always: [showPath(path)], metadata: { filePath: path } });
    const fs = context.runtime.fs;
    const stat = await fs.stat(path);
    if (!stat) throw new Error(await notFoundMessage(fs, path));
    const offset = Math.floor(args.offset ?? 1);
    const limit = Math.floor(args.limit ?? READ_DEFAULT_LIMIT);
    if (stat.kind === "dir") return readFolder(fs, path, offset, limit);
    const bytes = await fs.readFile(path);
    const imageType = IMAGE_TYPES[extension(path)];
    if (imageType) return readImage(path, bytes, imageType, context);
    const text = looksBinary(bytes) ? undefined : tryDecodeText(bytes);
    if (text === undefined) {
      throw new Error(`Cannot read ${path}: it is a binary file (${bytes.length} bytes). Only text files and images can be read.`);
    }
    const result = numberLines(path, text, offset, limit);
    context.fileTimes.markRead(path, stat.mtime);
    const reminders = await instructionReminders(fs, path, context.instructionsLoaded);
    if (reminders) result.output += `\n\n${reminders}`;
    return result;
  },
};

function extension(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot).toLowerCase();
}

/** `N: text` lines from `offset`, cut by limit and READ_MAX_BYTES, with a footer saying what was shown. */
export function numberLines(path: string, text: string, offset: number, limit: number): ToolResult {
  const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const total = text === "" ? 0 : lines.length;
  if (total === 0) {
    return { title: path, output: "(The file is empty.)", metadata: { filePath: path, totalLines: 0, truncated: false } };
  }
  if (offset > total) throw new Error(`offset ${offset} is past the end of ${path}, which has ${total} lines.`);
  const out: string[] = [];
  let bytes = 0;
  let capped = false;
  let last = offset - 1;
  for (let i = offset - 1; i < Math.min(total, offset - 1 + limit); i++) {
    let line = lines[i]!;
    if (line.length > READ_MAX_LINE_LENGTH) line = `${line.slice(0, READ_MAX_LINE_LENGTH)}... (line cut at ${READ_MAX_LINE_LENGTH} characters)`;
    const entry = `${i + 1}: ${line}`;
    const size = encoder.encode(entry).length + 1;
    if (bytes + size > READ_MAX_BYTES && out.length > 0) {
      capped = true;
      break;
    }
    out.push(entry);
    bytes += size;
    last = i + 1;
  }
  let footer: string;
  if (capped) footer = `(Output capped at ${READ_MAX_BYTES / 1024} KB: showing lines ${offset}-${last} of ${total}. Use offset=${last + 1} to continue.)`;
  else if (last < total) footer = `(Showing lines ${offset}-${last} of ${total}. Use offset=${last + 1} to continue.)`;
  else footer = `(End of file: ${total} lines.)`;
  return {
    title: path,
    output: `${out.join("\n")}\n\n${footer}`,
    metadata: { filePath: path, totalLines: total, shown: [offset, last], truncated: capped || last < total, preview: out.slice(0, 20).join("\n") },
  };
}

/** A folder's entries from `offset`, cut by limit and READ_MAX_BYTES like a file's lines. */
async function readFolder(fs: WorkspaceFs, path: string, offset: number, limit: number): Promise<ToolResult> {
  const entries = (await fs.list(path)).map((e) => basename(e.path) + (e.kind === "dir" ? "/" : ""));
  const shown: string[] = [];
  let bytes = 0;
  for (const entry of entries.slice(offset - 1, offset - 1 + limit)) {
    const size = encoder.encode(entry).length + 1;
    if (bytes + size > READ_MAX_BYTES && shown.length > 0) break;
    shown.push(entry);
    bytes += size;
  }
  const last = offset - 1 + shown.length;
  const footer =
    last < entries.length
      ? `(Showing entries ${offset}-${last} of ${entries.length}${shown.length < limit && last < entries.length ? `, output capped at ${READ_MAX_BYTES / 1024} KB` : ""}. Use offset=${last + 1} to continue.)`
      : `(${entries.length} entries.)`;
  return {
    title: showPath(path),
    output: `${showPath(path)}/ is a folder:\n${shown.join("\n")}\n\n${footer}`,
    metadata: { filePath: path, entries: entries.length, truncated: last < entries.length },
  };
}

function readImage(path: string, bytes: Uint8Array, mime: string, context: ToolContext): ToolResult {
  if (!context.model.supportsImages) {
    throw new Error(`${path} is an image, and the current model cannot view images. Ask the user to describe it, or switch to a model with image input.`);
  }
  if (bytes.length > READ_MAX_IMAGE_BYTES) {
    throw new Error(`${path} is an image of ${bytes.length} bytes, larger than the ${READ_MAX_IMAGE_BYTES / 1024 / 1024} MB that can be attached.`);
  }
  return {
    title: path,
    output: "Image read successfully.",
    metadata: { filePath: path, mime, truncated: false },
    attachments: [{ mime, filename: basename(path), url: `data:${mime};base64,${toBase64(bytes)}` }],
  };
}

async function notFoundMessage(fs: WorkspaceFs, path: string): Promise<string> {
  const files = (await fs.listAll()).filter((s: FileStat) => s.kind === "file" && !s.path.split("/").includes("node_modules"));
  const name = basename(path).toLowerCase();
  const scored = files
    .map((f) => {
      const other = basename(f.path).toLowerCase();
      const nameScore = other === name ? 1 : other.includes(name) || name.includes(other) ? 0.8 : bigramSimilarity(name, other);
      return { path: f.path, score: nameScore * 0.7 + bigramSimilarity(path.toLowerCase(), f.path.toLowerCase()) * 0.3 };
    })
    .filter((s) => s.score >= 0.4)
    .sort((a, b) => b.score - a.score)
    .slice(0, READ_SIMILAR_PATHS);
  const base = `File not found: ${path}.`;
  if (scored.length === 0) return `${base} Use the glob or list tool to find the right path.`;
  return `${base} Did you mean one of these?\n${scored.map((s) => s.path).join("\n")}`;
}

/**
 * AGENTS.md files of the folders between the file and the workspace root (the root's own is in the
 * system prompt) that this session has not seen yet, as one reminder block; marks them seen.
 */
export async function instructionReminders(fs: WorkspaceFs, filePath: string, loaded: Set<string>): Promise<string | undefined> {
  if (basename(filePath) === INSTRUCTION_FILE) loaded.add(filePath);
  const folders: string[] = [];
  for (let dir = dirname(filePath); dir !== ""; dir = dirname(dir)) folders.unshift(dir);
  const blocks: string[] = [];
  for (const dir of folders) {
    const candidate = `${dir}/${INSTRUCTION_FILE}`;
    if (loaded.has(candidate)) continue;
    const stat = await fs.stat(candidate);
    if (stat?.kind !== "file") continue;
    loaded.add(candidate);
    const text = await fs.readText(candidate);
    blocks.push(`Instructions from: ${candidate}\n${text.trim()}`);
  }
  return blocks.length > 0 ? `<system-reminder>\n${blocks.join("\n\n")}\n</system-reminder>` : undefined;
}
