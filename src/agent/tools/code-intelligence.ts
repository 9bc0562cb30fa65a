// What the agent core needs from a code service (diagnostics after edits, the code tool's queries),
// injected at the composition root (src/main.tsx gives a Web Worker running TypeScript's language
// service); a runtime without one gets no diagnostics block and no code tool. Also the one helper
// that edit, write and apply_patch use to append the errors their change left to their result.
import type { ToolContext } from "./tool";

// The data it speaks is defined once, with the runtime's code service (src/runtime/code-intel/types.ts).
import type { CodeDiagnostic, CodeLocation, CodeQuery, CodeQueryResult, EditedFile, FileDiagnostics } from "../../runtime";
export type { CodeDiagnostic, CodeLocation, CodeQuery, CodeQueryResult, EditedFile, FileDiagnostics };

export interface CodeIntelligence {
  /**
   * Errors (no warnings) in the edited files that the service can check (TS/JS, JSON, CSS) and, for
   * TS/JS, in files importing them; files it cannot check are left out of the answer.
   */
  diagnose(edits: EditedFile[]): Promise<FileDiagnostics[]>;
  query(query: CodeQuery): Promise<CodeQueryResult>;
  /**
   * Whether the workspace has a file the code tool can answer about (TS/JS): the tool is offered only
   * then, since its schema is sent with every request. Unset: always.
   */
  hasScripts?(): Promise<boolean>;
  /** Starts the service ahead of its first use (optional). */
  warm?(): void;
  dispose?(): void;
}

/** The diagnostics block has at most this many lines between its tags (headings and errors). */
export const DIAGNOSTICS_MAX_LINES = 20;
/** An error message is cut to this many characters. */
export const DIAGNOSTICS_MAX_MESSAGE = 300;
/** How long a tool waits for diagnostics before saying they are not available. */
export const DIAGNOSTICS_TIMEOUT_MS = 20_000;

/** The key that says whether an error existed before: the message and code, not the line (edits move lines). */
function key(d: CodeDiagnostic): string {
  return `${d.code ?? ""}\u0000${d.message}`;
}

/** Errors in `after` that were not in `before` (counted, so a second copy of an old error is new). */
export function newErrors(after: readonly CodeDiagnostic[], before: readonly CodeDiagnostic[]): CodeDiagnostic[] {
  const old = new Map<string, number>();
  for (const d of before) old.set(key(d), (old.get(key(d)) ?? 0) + 1);
  return after.filter((d) => {
    const left = old.get(key(d)) ?? 0;
    if (left === 0) return true;
    old.set(key(d), left - 1);
    return false;
  });
}

function line(d: CodeDiagnostic): string {
  const message = d.message.length > DIAGNOSTICS_MAX_MESSAGE ? d.message.slice(0, DIAGNOSTICS_MAX_MESSAGE) + "…" : d.message;
  return `${d.path}:${d.line}:${d.column} ${message}${d.code ? ` [${d.code}]` : ""}`;
}

/**
 * The block for the model: new errors per checked file (edited files first, then their importers),
 * capped at DIAGNOSTICS_MAX_LINES lines; errors that were there before the edit are counted, not
 * listed; "No errors" when a checked file has none. Empty when nothing was checked.
 */
export function formatDiagnostics(results: readonly FileDiagnostics[]): string {
  if (results.length === 0) return "";
  const lines: string[] = [];
  let hidden = 0;
  for (const file of results) {
    const added = newErrors(file.errors, file.before);
    const kept = file.errors.length - added.length;
    const old = kept > 0 ? `${kept} error${kept === 1 ? "" : "s"} already there before this change, not listed` : "";
    if (added.length === 0) {
      if (!file.importer) lines.push(old ? `${file.path}: no new errors (${old}).` : `${file.path}: no errors.`);
      continue;
    }
    // One line kept for the heading and one for the "more" note.
    const shown = added.slice(0, Math.max(0, DIAGNOSTICS_MAX_LINES - lines.length - 2));
    hidden += added.length - shown.length;
    if (shown.length === 0) continue;
    const where = file.importer ? `${file.path}, which imports ${file.importer}` : file.path;
    lines.push(`New errors in ${where}${old ? ` (plus ${old})` : ""}:`);
    for (const d of shown) lines.push("  " + line(d));
  }
  if (hidden > 0) lines.push(`… and ${hidden} more new error${hidden === 1 ? "" : "s"} not listed.`);
  return `\n\n<diagnostics>\n${lines.join("\n")}\n</diagnostics>`;
}

/**
 * The shared step of edit, write and apply_patch: asks the injected code service about the files
 * just written and returns the text to append to the tool's output ("" without a service, or when
 * no changed file is one it checks). A failing or slow service is reported, never fatal.
 */
export async function diagnosticsAfterEdit(context: Pick<ToolContext, "code" | "abort">, edits: EditedFile[]): Promise<string> {
  const service = context.code;
  if (!service || edits.length === 0) return "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const results = await Promise.race([
      service.diagnose(edits),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${DIAGNOSTICS_TIMEOUT_MS / 1000} s`)), DIAGNOSTICS_TIMEOUT_MS);
      }),
      new Promise<never>((_, reject) => {
        if (context.abort.aborted) reject(context.abort.reason);
        context.abort.addEventListener("abort", () => reject(context.abort.reason), { once: true });
      }),
    ]);
    return formatDiagnostics(results);
  } catch (error) {
    if (context.abort.aborted) return "";
    return `\n\n<diagnostics>\nDiagnostics are not available for this change: ${error instanceof Error ? error.message : String(error)}\n</diagnostics>`;
  } finally {
    clearTimeout(timer);
  }
}
