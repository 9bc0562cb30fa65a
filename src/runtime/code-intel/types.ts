// The code service's data (shared by the worker, its client and the in-process service), and what
// the agent core's CodeIntelligence interface (src/agent/tools/code-intelligence.ts) speaks: the
// agent imports these types from the runtime layer.

/** One error: path relative to the workspace root, 1-based line and column. */
export interface CodeDiagnostic {
  path: string;
  line: number;
  column: number;
  message: string;
  code?: string;
}

/** A file an edit changed: its text before (undefined = it did not exist) and after (undefined = deleted). */
export interface EditedFile {
  path: string;
  before: string | undefined;
  after: string | undefined;
}

/** Errors of one checked file now and before the edit; `importer` names the edited file it imports. */
export interface FileDiagnostics {
  path: string;
  errors: CodeDiagnostic[];
  before: CodeDiagnostic[];
  importer?: string;
}

export type CodeQuery =
  | { operation: "definition" | "references" | "hover"; path: string; line: number; column: number }
  | { operation: "symbols"; path: string }
  | { operation: "workspace_symbols"; query: string };

export interface CodeLocation {
  path: string;
  line: number;
  column: number;
  /** The source line, trimmed. */
  preview: string;
  /** For symbols: the name and its kind ("function", "class", ...). */
  name?: string;
  kind?: string;
}

export interface CodeQueryResult {
  locations: CodeLocation[];
  /** For hover: the type and documentation, as text. */
  hover?: string;
}
