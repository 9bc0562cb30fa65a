// JSON and CSS errors through the validators inside Monaco's JSON and CSS workers (vscode-json-
// and vscode-css-languageservice), handed one document at a time instead of Monaco's mirror models.
import type { CodeDiagnostic } from "./types";

/** The part of Monaco's worker context the JSON and CSS workers read. */
export interface MirrorContext {
  getMirrorModels(): Array<{ uri: { toString(): string }; version: number; getValue(): string }>;
}

/** An LSP diagnostic as the language services return it (severity 1 = error). */
export interface LspDiagnostic {
  range: { start: { line: number; character: number } };
  message: string;
  severity?: number;
  code?: string | number;
}

export interface Validating {
  doValidation(uri: string): Promise<LspDiagnostic[]>;
}

/** One document at a time: the worker's mirror models are just the document being validated. */
export class SingleDocument implements MirrorContext {
  private current: { uri: string; text: string; version: number } | undefined;

  getMirrorModels() {
    const current = this.current;
    return current ? [{ uri: { toString: () => current.uri }, version: current.version, getValue: () => current.text }] : [];
  }

  async validate(worker: Validating, path: string, text: string): Promise<CodeDiagnostic[]> {
    const uri = "file:///" + path;
    this.current = { uri, text, version: (this.current?.version ?? 0) + 1 };
    try {
      const found = await worker.doValidation(uri);
      return found
        .filter((d) => (d.severity ?? 1) === 1)
        .map((d) => ({
          path,
          line: d.range.start.line + 1,
          column: d.range.start.character + 1,
          message: d.message.replace(/\s+/g, " ").trim(),
          ...(d.code !== undefined && { code: String(d.code) }),
        }));
    } finally {
      this.current = undefined;
    }
  }
}

/** tsconfig-style files where comments and trailing commas are fine. */
export function allowsComments(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  return name.endsWith(".jsonc") || /^(tsconfig|jsconfig)(\..*)?\.json$/.test(name) || name === ".eslintrc.json" || name === "settings.json" || name === "opencode.json";
}
