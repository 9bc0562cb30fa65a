// The grep tool: lines matching a regular expression, grouped by file (newest first), capped by
// matches and bytes. Files whose own read rule asks or denies (.env) are skipped and named.
import { z } from "zod";
import { looksBinary, tryDecodeText } from "../../base";
import description from "../../../prompts/tools/grep.md?raw";
import { matchGlob } from "../../base";
import type { FileStat } from "../../runtime";
import { checkFolder, filesUnder, newestFirst, relativeTo } from "./search-files";
import { resolveToolPath, showPath } from "./workspace-path";
import type { ToolContext, ToolDefinition } from "./tool";
import { MAX_OUTPUT_BYTES } from "./wrapper";

/** At most this many matching lines are returned. */
export const GREP_MAX_MATCHES = 100;
/** Matching lines are cut to this many characters. */
export const GREP_MAX_LINE_LENGTH = 2000;
/** Files larger than this are not searched (generated bundles, data). */
export const GREP_MAX_FILE_BYTES = 5 * 1024 * 1024;

const parameters = z.object({
  pattern: z.string().min(1).describe("Regular expression"),
  path: z.string().optional().describe("Folder to search (default: root)"),
  include: z.string().optional(),
});

/** Compiles the model's pattern; accepts a leading (?i) as ripgrep does. */
export function compilePattern(pattern: string): RegExp {
  let source = pattern;
  let flags = "";
  if (source.startsWith("(?i)")) {
    source = source.slice(4);
    flags = "i";
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new Error(`Invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}. Escape special characters such as ( [ { . * + ? with a backslash to search for them literally.`);
  }
}

/** Room kept under MAX_OUTPUT_BYTES for the header and the notes about skipped files. */
const NOTE_RESERVE_BYTES = 4 * 1024;
/** Skipped files named in the output; the rest are counted. */
const MAX_NAMED_SKIPPED = 20;
const GLOB_CHARS = /[*?[\]{}]/;
const encoder = new TextEncoder();

/**
 * Splits the files to search by the `read` permission of each one. grep prints file contents, so a
 * folder-wide allow must not leak a file whose own rule asks (`.env`) or denies: such files are
 * skipped and named, unless `include` names them literally, in which case the user is asked.
 */
async function readableFiles(files: FileStat[], include: string | undefined, context: ToolContext, ask: (paths: string[]) => Promise<void>) {
  const readable: FileStat[] = [];
  const named: FileStat[] = [];
  const needAsk: string[] = [];
  const denied: string[] = [];
  const literal = include !== undefined && !GLOB_CHARS.test(include);
  for (const file of files) {
    const action = context.permissionFor("read", showPath(file.path));
    if (action === "allow") readable.push(file);
    else if (action === "deny") denied.push(file.path);
    else if (literal) named.push(file);
    else needAsk.push(file.path);
  }
  if (named.length > 0) {
    await ask(named.map((f) => showPath(f.path)));
    readable.push(...named);
    readable.sort(newestFirst);
  }
  return { readable, needAsk, denied };
}

function listPaths(paths: string[]): string {
  const shown = paths.slice(0, MAX_NAMED_SKIPPED).join(", ");
  return paths.length > MAX_NAMED_SKIPPED ? `${shown} and ${paths.length - MAX_NAMED_SKIPPED} more` : shown;
}

function skippedNotes(needAsk: string[], denied: string[]): string[] {
  const notes: string[] = [];
  if (needAsk.length > 0) {
    notes.push(
      `(${needAsk.length} file${needAsk.length === 1 ? " was" : "s were"} not searched because reading ${needAsk.length === 1 ? "it" : "them"} needs the user's permission: ${listPaths(needAsk)}. ` +
        "To search one, set include to its file name (the user will be asked), or read it with the read tool.)",
    );
  }
  if (denied.length > 0) {
    notes.push(`(${denied.length} file${denied.length === 1 ? " was" : "s were"} not searched because a permission rule denies reading ${denied.length === 1 ? "it" : "them"}: ${listPaths(denied)}.)`);
  }
  return notes;
}

export const grepTool: ToolDefinition<typeof parameters> = {
  id: "grep",
  description,
  parameters,
  async execute(args, context) {
    const regex = compilePattern(args.pattern);
    const base = await resolveToolPath(args.path ?? "", context);
    const metadata = { pattern: args.pattern, path: base };
    await context.ask({ permission: "read", patterns: [showPath(base)], always: [showPath(base)], metadata });
    const fs = context.runtime.fs;
    await checkFolder(fs, base);
    // .git and node_modules are searched only when the include glob names them.
    const files = (await filesUnder(fs, base, args.include ?? ""))
      .filter((f) => !args.include || matchGlob(args.include, relativeTo(base, f.path)))
      .filter((f) => f.size <= GREP_MAX_FILE_BYTES)
      .sort(newestFirst);
    const { readable, needAsk, denied } = await readableFiles(files, args.include, context, (paths) =>
      context.ask({ permission: "read", patterns: paths, always: paths, metadata }),
    );
    const notes = skippedNotes(needAsk, denied);
    const budget = MAX_OUTPUT_BYTES - NOTE_RESERVE_BYTES;
    const groups: string[] = [];
    let bytes = 0;
    let total = 0;
    let shown = 0;
    let full = false;
    for (const file of readable) {
      if (context.abort.aborted) throw new Error("grep was aborted.");
      const bytesOfFile = await fs.readFile(file.path);
      if (looksBinary(bytesOfFile)) continue;
      const text = tryDecodeText(bytesOfFile);
      if (text === undefined) continue;
      const lines: string[] = [];
      let groupBytes = encoder.encode(`${file.path}:`).length + 2;
      text.split("\n").forEach((raw, index) => {
        const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
        if (!regex.test(line)) return;
        total++;
        if (shown >= GREP_MAX_MATCHES || full) return;
        const cut = line.length > GREP_MAX_LINE_LENGTH ? `${line.slice(0, GREP_MAX_LINE_LENGTH)}...` : line;
        const entry = `  Line ${index + 1}: ${cut}`;
        const size = encoder.encode(entry).length + 1;
        // Stop at the byte cap too: 100 long lines would be ~200 KB, far past what the model is sent.
        if (bytes + groupBytes + size > budget) {
          full = true;
          return;
        }
        groupBytes += size;
        shown++;
        lines.push(entry);
      });
      if (lines.length > 0) {
        groups.push(`${file.path}:\n${lines.join("\n")}`);
        bytes += groupBytes;
      }
    }
    const truncated = total > shown;
    if (total === 0) {
      const output = ["No matches found.", ...notes].join("\n\n");
      return { title: args.pattern, output, metadata: { matches: 0, truncated: false, skipped: [...needAsk, ...denied] } };
    }
    let output = `Found ${total} match${total === 1 ? "" : "es"}${truncated ? ` (showing the first ${shown})` : ""}:\n\n${groups.join("\n\n")}`;
    if (full) {
      output += `\n\n(Results are truncated at ${MAX_OUTPUT_BYTES / 1024} KB of output. Use a more specific pattern, path or include.)`;
    } else if (truncated) {
      output += `\n\n(Results are truncated at ${GREP_MAX_MATCHES} matches. Use a more specific pattern, path or include.)`;
    }
    if (notes.length > 0) output += `\n\n${notes.join("\n")}`;
    return { title: args.pattern, output, metadata: { matches: total, truncated, skipped: [...needAsk, ...denied] } };
  },
};
