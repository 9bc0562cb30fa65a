// The apply_patch format (Begin/End Patch envelope with Add / Delete / Update [+ Move to] sections and
// "@@" hunks): a parser and a pure function that applies one file's hunks to its text. Context lines
// match exactly, then with trailing whitespace trimmed, then fully trimmed.
import { buildIndentMap, detectIndentStyle, type IndentMap } from "./edit-indent";
import { toLf } from "./edit-text";

export type PatchLine = { kind: " " | "-" | "+"; text: string };

export interface PatchChunk {
  /** Text after "@@": a line to find before the hunk (such as a function signature). */
  header?: string;
  lines: PatchLine[];
  /** "*** End of File": the hunk must sit at the end of the file. */
  endOfFile: boolean;
}

export type PatchOperation =
  | { kind: "add"; path: string; content: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo?: string; chunks: PatchChunk[] };

export class PatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PatchError";
  }
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const END_OF_FILE = "*** End of File";

/** Parses patch text; throws PatchError saying which line is wrong and what was expected. */
export function parsePatch(patchText: string): PatchOperation[] {
  let lines = patchText.replace(/\r\n/g, "\n").split("\n");
  // Accept the shell form the models are trained on: apply_patch <<'EOF' ... EOF.
  const heredoc = /^\s*(?:apply_patch|applypatch)\b.*<<\s*['"]?(\w+)['"]?\s*$/.exec(lines[0] ?? "");
  if (heredoc) {
    lines = lines.slice(1);
    const end = lines.map((l) => l.trim()).lastIndexOf(heredoc[1]!);
    if (end !== -1) lines = lines.slice(0, end);
  }
  while (lines.length > 0 && lines[0]!.trim() === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  if (lines[0]?.trim() !== BEGIN) throw new PatchError(`The patch must start with "${BEGIN}".`);
  if (lines[lines.length - 1]?.trim() !== END) throw new PatchError(`The patch must end with "${END}".`);
  const body = lines.slice(1, -1);
  const ops: PatchOperation[] = [];
  let i = 0;
  const where = () => `line ${i + 2} of the patch`;
  while (i < body.length) {
    const line = body[i]!;
    if (line.startsWith(ADD)) {
      const path = line.slice(ADD.length).trim();
      const content: string[] = [];
      i++;
      while (i < body.length && !body[i]!.startsWith("*** ")) {
        if (!body[i]!.startsWith("+")) throw new PatchError(`Every line of an added file must start with "+" (${where()}: "${body[i]}").`);
        content.push(body[i]!.slice(1));
        i++;
      }
      ops.push({ kind: "add", path, content: content.length > 0 ? content.join("\n") + "\n" : "" });
    } else if (line.startsWith(DELETE)) {
      ops.push({ kind: "delete", path: line.slice(DELETE.length).trim() });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const path = line.slice(UPDATE.length).trim();
      i++;
      let moveTo: string | undefined;
      if (body[i]?.startsWith(MOVE)) {
        moveTo = body[i]!.slice(MOVE.length).trim();
        i++;
      }
      const chunks: PatchChunk[] = [];
      let chunk: PatchChunk | undefined;
      while (i < body.length) {
        const current = body[i]!;
        if (current.startsWith("@@")) {
          const header = current.slice(2).trim();
          chunk = { lines: [], endOfFile: false, ...(header && { header }) };
          chunks.push(chunk);
        } else if (current === END_OF_FILE) {
          if (!chunk) throw new PatchError(`"${END_OF_FILE}" must follow a hunk (${where()}).`);
          chunk.endOfFile = true;
        } else if (current.startsWith("*** ")) break;
        else if (current === "" || current[0] === " " || current[0] === "-" || current[0] === "+") {
          if (!chunk) {
            // The first hunk may leave out its "@@" line.
            chunk = { lines: [], endOfFile: false };
            chunks.push(chunk);
          }
          chunk.lines.push(current === "" ? { kind: " ", text: "" } : { kind: current[0] as PatchLine["kind"], text: current.slice(1) });
        } else {
          throw new PatchError(`Unexpected ${where()}: "${current}". Hunk lines start with " " (context), "-" (remove) or "+" (add).`);
        }
        i++;
      }
      if (chunks.length === 0 && !moveTo) throw new PatchError(`"${UPDATE}${path}" has no hunks.`);
      ops.push({ kind: "update", path, chunks, ...(moveTo && { moveTo }) });
    } else if (line.trim() === "") {
      i++;
    } else {
      throw new PatchError(`Unexpected ${where()}: "${line}". Expected "${ADD}", "${DELETE}" or "${UPDATE}".`);
    }
  }
  if (ops.length === 0) throw new PatchError("The patch contains no file operations.");
  return ops;
}

type Compare = (a: string, b: string) => boolean;
const PASSES: { name: string; equal: Compare }[] = [
  { name: "exact", equal: (a, b) => a === b },
  { name: "trailing", equal: (a, b) => a.trimEnd() === b.trimEnd() },
  { name: "trimmed", equal: (a, b) => a.trim() === b.trim() },
];

function seek(lines: readonly string[], wanted: readonly string[], from: number, endOfFile: boolean): { at: number; pass: string } | undefined {
  for (const pass of PASSES) {
    const fits = (at: number) => wanted.every((w, k) => pass.equal(lines[at + k]!, w));
    if (endOfFile) {
      const at = lines.length - wanted.length;
      if (at >= from && fits(at)) return { at, pass: pass.name };
    }
    for (let at = from; at + wanted.length <= lines.length; at++) if (fits(at)) return { at, pass: pass.name };
  }
  return undefined;
}

/** Applies an update's hunks to `original`; keeps its line endings and byte-order mark. */
export function applyChunks(path: string, original: string, chunks: readonly PatchChunk[]): string {
  const bom = original.startsWith("\uFEFF");
  const lf = toLf(bom ? original.slice(1) : original);
  // An empty file has no lines; otherwise keep whether the last line ended with a newline.
  const lines = lf.text === "" ? [] : lf.text.split("\n");
  const trailingNewline = lf.text === "" || lf.text.endsWith("\n");
  if (lf.text.endsWith("\n")) lines.pop();
  const style = detectIndentStyle(lines);
  const replacements: { at: number; remove: number; insert: string[] }[] = [];
  let cursor = 0;
  chunks.forEach((chunk, index) => {
    const label = `hunk ${index + 1} of ${path}`;
    if (chunk.header !== undefined) {
      const found = seek(lines, [chunk.header], cursor, false);
      if (!found) throw new PatchError(`Could not find the line "${chunk.header}" (the @@ context of ${label}). Read the file and rewrite the patch with its current text.`);
      cursor = found.at + 1;
    }
    const old = chunk.lines.filter((l) => l.kind !== "+").map((l) => l.text);
    const added = chunk.lines.filter((l) => l.kind === "+").map((l) => l.text);
    if (old.length === 0) {
      const at = chunk.header !== undefined && !chunk.endOfFile ? cursor : lines.length;
      replacements.push({ at, remove: 0, insert: added });
      cursor = at;
      return;
    }
    let found = seek(lines, old, cursor, chunk.endOfFile);
    // A trailing blank context line is often an artefact of how the model ended the hunk.
    let lineSet = chunk.lines;
    if (!found && old[old.length - 1] === "") {
      const trimmedLines = [...chunk.lines];
      while (trimmedLines.length > 0 && trimmedLines[trimmedLines.length - 1]!.kind === " " && trimmedLines[trimmedLines.length - 1]!.text === "") trimmedLines.pop();
      const shorter = trimmedLines.filter((l) => l.kind !== "+").map((l) => l.text);
      found = shorter.length > 0 ? seek(lines, shorter, cursor, chunk.endOfFile) : undefined;
      if (found) lineSet = trimmedLines;
    }
    if (!found) {
      const shown = old.slice(0, 12).join("\n");
      throw new PatchError(`Could not find the lines of ${label}:\n${shown}\nRead the file and rewrite the patch with its exact current lines.`);
    }
    const matched = lines.slice(found.at, found.at + lineSet.filter((l) => l.kind !== "+").length);
    let map: IndentMap = (indent) => indent;
    if (found.pass === "trimmed") {
      const olds = lineSet.filter((l) => l.kind !== "+");
      const derived = buildIndentMap(
        olds.map((l, k) => ({ old: l.text, file: matched[k]! })),
        { old: detectIndentStyle(lineSet.map((l) => l.text)), file: style },
      );
      if (!derived) throw new PatchError(`The lines of ${label} match only with different indentation that cannot be carried over safely. Rewrite the patch with the file's exact indentation.`);
      map = derived;
    }
    const insert: string[] = [];
    let k = 0;
    for (const line of lineSet) {
      if (line.kind === " ") insert.push(matched[k++]!);
      else if (line.kind === "-") k++;
      else {
        const indent = /^[ \t]*/.exec(line.text)![0];
        const mapped = line.text.trim() === "" ? "" : map(indent);
        if (mapped === undefined) throw new PatchError(`An added line of ${label} would be indented left of column 0.`);
        insert.push(line.text.trim() === "" ? line.text : mapped + line.text.slice(indent.length));
      }
    }
    replacements.push({ at: found.at, remove: matched.length, insert });
    cursor = found.at + matched.length;
  });
  for (const r of [...replacements].sort((a, b) => b.at - a.at)) lines.splice(r.at, r.remove, ...r.insert);
  let text = lines.join("\n") + (trailingNewline && lines.length > 0 ? "\n" : "");
  if (lf.eol === "\r\n") text = text.replace(/\n/g, "\r\n");
  return (bom ? "\uFEFF" : "") + text;
}
