// The apply_patch format (Begin/End Patch envelope with Add / Delete / Update [+ Move to] sections and
// "@@" hunks): a parser and a pure function that applies one file's hunks to its text. Where each
// hunk goes is apply-patch-locate.ts's business; here the located hunks are checked against each
// other and written, keeping the file's characters, line endings and final newline.
import { fileLines, locateHunk, type Located, type Result } from "./apply-patch-locate";
import { buildIndentMap, detectIndentStyle, type IndentMap } from "./edit-indent";
import { isBlank, leadingWhitespace } from "./edit-text";

export type PatchLine = { kind: " " | "-" | "+"; text: string };

export interface PatchChunk {
  /**
   * Text after each "@@" (a function signature, a heading): a line that opens the block holding the
   * hunk. Consecutive "@@" lines name blocks inside each other, outermost first.
   */
  anchors: string[];
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
          // "@@ text": the one space after "@@" is the separator; further indentation is the line's own.
          // A unified diff's range header ("@@ -12,5 +12,6 @@ fn x") names no line of the file, only
          // numbers a model may have got wrong: it counts as a bare "@@" (with its trailing text, if
          // any, as the anchor), and the lines are located as for any other hunk.
          const anchor = current
            .slice(current.startsWith("@@ ") ? 3 : 2)
            .replace(/^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?/, "")
            .trimEnd();
          // An "@@" right after another (no lines between) names a block inside the previous one.
          if (!chunk || chunk.lines.length > 0 || chunk.endOfFile) {
            chunk = { anchors: [], lines: [], endOfFile: false };
            chunks.push(chunk);
          }
          if (anchor.trim() !== "") chunk.anchors.push(anchor);
        } else if (current.trimEnd() === END_OF_FILE) {
          if (!chunk) throw new PatchError(`"${END_OF_FILE}" must follow a hunk (${where()}).`);
          chunk.endOfFile = true;
        } else if (current.startsWith("*** ")) break;
        else if (current === "" || current[0] === " " || current[0] === "-" || current[0] === "+") {
          if (!chunk) {
            // The first hunk may leave out its "@@" line.
            chunk = { anchors: [], lines: [], endOfFile: false };
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

/** A line and the line ending that follows it in the file. */
interface FileLine {
  text: string;
  eol: string;
}

/** Lines with their own endings; `finalNewline` says whether the last one really ends with one. */
function splitLines(text: string): { lines: FileLine[]; finalNewline: boolean; eol: string } {
  const parts = text.split(/(\r?\n)/);
  const lines: FileLine[] = [];
  let crlf = 0;
  for (let i = 0; i < parts.length; i += 2) lines.push({ text: parts[i]!, eol: parts[i + 1] ?? "" });
  for (const line of lines) if (line.eol === "\r\n") crlf++;
  // New lines take the ending most lines use.
  const eol = crlf > 0 && crlf * 2 >= lines.length - 1 ? "\r\n" : "\n";
  // "a\n".split gives a last empty part: the final newline, not a line. An empty file counts as
  // ending with one, so lines added to it end with a newline.
  const finalNewline = lines[lines.length - 1]!.text === "";
  if (finalNewline) lines.pop();
  const last = lines[lines.length - 1];
  if (last && !finalNewline) last.eol = eol;
  return { lines, finalNewline, eol };
}

/** One hunk's change: `remove` file lines from `at` replaced by `insert`. */
interface Replacement {
  hunk: number;
  at: number;
  remove: number;
  insert: FileLine[];
}

/**
 * The located hunk as a replacement of only the lines it changes: context lines are the file's own
 * (whatever step matched them), added lines are as given, re-indented when the hunk matched only
 * with the file's lines consistently shifted. Leading and trailing context is left out, so hunks
 * that share context lines do not count as overlapping.
 */
function replacement(file: readonly FileLine[], found: Located, hunk: number, eol: string, label: string): Result<Replacement> {
  const matched = file.slice(found.at, found.at + found.lines.filter((l) => l.kind !== "+").length);
  const map = indentMap(found, matched.map((l) => l.text));
  if (map === undefined) {
    return { refusal: `The lines of ${label} match only with an indentation that differs from the file's inconsistently, so the added lines cannot be indented safely. Rewrite the hunk with the file's exact indentation.` };
  }
  const insert: FileLine[] = [];
  let k = 0;
  for (const line of found.lines) {
    if (line.kind === " ") insert.push(matched[k++]!);
    else if (line.kind === "-") k++;
    else {
      const text = reindentLine(line.text, map);
      if (text === undefined) return { refusal: `An added line of ${label} would be indented left of column 0. Rewrite the hunk with the file's exact indentation.` };
      insert.push({ text, eol });
    }
  }
  let lead = 0;
  while (lead < found.lines.length && found.lines[lead]!.kind === " ") lead++;
  let trail = 0;
  while (trail < found.lines.length - lead && found.lines[found.lines.length - 1 - trail]!.kind === " ") trail++;
  return { ok: { hunk, at: found.at + lead, remove: matched.length - lead - trail, insert: insert.slice(lead, insert.length - trail) } };
}

/** Identity unless the hunk matched ignoring indentation; undefined when added lines need a mapping none explains. */
function indentMap(found: Located, matched: readonly string[]): IndentMap | undefined {
  const identity: IndentMap = (indent) => indent;
  if (found.step !== "whitespace" && found.step !== "punctuation") return identity;
  const olds = found.lines.filter((l) => l.kind !== "+");
  const map = buildIndentMap(
    olds.map((l, k) => ({ old: l.text, file: matched[k]! })),
    { old: detectIndentStyle(found.lines.map((l) => l.text)), file: detectIndentStyle(matched) },
  );
  // With nothing to indent (only removals), an inconsistent indentation is no reason to refuse.
  const adds = found.lines.some((l) => l.kind === "+" && !isBlank(l.text));
  return map ?? (adds ? undefined : identity);
}

function reindentLine(text: string, map: IndentMap): string | undefined {
  if (isBlank(text)) return text;
  const indent = leadingWhitespace(text);
  const mapped = map(indent);
  return mapped === undefined ? undefined : mapped + text.slice(indent.length);
}

/** Two hunks changing the same lines would each assume the other's lines untouched: refuse. */
function overlapping(replacements: readonly Replacement[], path: string): string | undefined {
  const sorted = [...replacements].sort((a, b) => a.at - b.at || a.hunk - b.hunk);
  // The earlier replacement reaching furthest down: only it can overlap the next one.
  let reach: Replacement | undefined;
  for (const b of sorted) {
    const end = reach ? reach.at + reach.remove : 0;
    // An insertion overlaps only lines it falls strictly inside of (one just before them is fine).
    if (reach && (b.remove > 0 ? b.at < end : b.at > reach.at && b.at < end)) {
      const [first, second] = reach.hunk < b.hunk ? [reach, b] : [b, reach];
      const lines = (r: Replacement) => (r.remove === 0 ? `before line ${r.at + 1}` : r.remove === 1 ? `line ${r.at + 1}` : `lines ${r.at + 1}-${r.at + r.remove}`);
      return `Hunks ${first.hunk + 1} and ${second.hunk + 1} of ${path} change overlapping lines (${lines(first)} and ${lines(second)}). Merge them into one hunk.`;
    }
    if (!reach || b.at + b.remove > end) reach = b;
  }
  return undefined;
}

/**
 * Applies an update's hunks to `original`, or throws PatchError saying what to do. Every hunk is
 * located in the original text, whatever its order in the patch; then all are applied from the
 * bottom up. Keeps the file's line endings, final-newline state and byte-order mark.
 */
export function applyChunks(path: string, original: string, chunks: readonly PatchChunk[]): string {
  const bom = original.startsWith("\uFEFF");
  const { lines, finalNewline, eol } = splitLines(bom ? original.slice(1) : original);
  const file = fileLines(path, lines.map((l) => l.text));
  const replacements: Replacement[] = [];
  chunks.forEach((chunk, index) => {
    const label = `hunk ${index + 1} of ${path}`;
    const found = locateHunk(file, chunk, label);
    if ("refusal" in found) throw new PatchError(found.refusal);
    const change = replacement(lines, found.ok, index, eol, label);
    if ("refusal" in change) throw new PatchError(change.refusal);
    replacements.push(change.ok);
  });
  const overlap = overlapping(replacements, path);
  if (overlap) throw new PatchError(overlap);
  // Bottom up, so earlier positions stay valid. At one position the replacement goes first, then the
  // insertions from the last hunk to the first: the lines end up in patch order, insertions first.
  for (const r of [...replacements].sort((a, b) => b.at - a.at || b.remove - a.remove || b.hunk - a.hunk)) lines.splice(r.at, r.remove, ...r.insert);
  let text = lines.map((l) => l.text + l.eol).join("");
  if (!finalNewline && lines.length > 0) text = text.slice(0, text.length - lines[lines.length - 1]!.eol.length);
  return (bom ? "\uFEFF" : "") + text;
}
