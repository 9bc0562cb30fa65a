// The code service behind the agent's diagnostics and `code` tool: TypeScript's language service
// over an in-memory copy of the workspace's source files (no editor model needed), plus optional
// JSON and CSS validators. Pure: the worker (worker.ts) gives it TypeScript and the lib files that
// Monaco ships, unit tests and the benchmark run it in Node.
import type * as TS from "typescript";
import type { CodeDiagnostic, CodeLocation, CodeQuery, CodeQueryResult, EditedFile, FileDiagnostics } from "./types";
import { sharedCompilerOptions } from "./compiler-options";
import { SCRIPT_SOURCE } from "./scripts";

/** Validates one file's text; returns its errors (warnings left out). */
export type TextValidator = (path: string, text: string) => Promise<CodeDiagnostic[]>;

export interface CodeServiceOptions {
  ts: typeof TS;
  /** lib.*.d.ts by file name ("lib.es2020.d.ts" → text). */
  libFiles: Record<string, string>;
  json?: TextValidator;
  css?: TextValidator;
}

/** Files that import an edited file are checked too, up to this many per call. */
export const MAX_IMPORTERS_CHECKED = 8;

const TS_SOURCE = SCRIPT_SOURCE;
const JSON_SOURCE = /\.json$/i;
const CSS_SOURCE = /\.(css|scss|less)$/i;
const LIB_DIR = "/$lib/";

export function isCodeSource(path: string): boolean {
  return TS_SOURCE.test(path) || JSON_SOURCE.test(path) || CSS_SOURCE.test(path);
}

/** Whether the service reports errors for this file (TS/JS always, JSON/CSS when validators are given). */
export type Checkable = "ts" | "json" | "css" | undefined;

interface Entry {
  text: string;
  version: number;
}

export class CodeService {
  private readonly ts: typeof TS;
  private readonly files = new Map<string, Entry>();
  private readonly service: TS.LanguageService;
  private readonly options: TS.CompilerOptions;
  private readonly moduleCache: TS.ModuleResolutionCache;
  /** Resolved relative imports per file version: file → imported workspace paths. */
  private readonly importsOf = new Map<string, { version: number; paths: string[] }>();
  private projectVersion = 0;

  constructor(private readonly config: CodeServiceOptions) {
    const ts = (this.ts = config.ts);
    // The editor's settings (src/ui/editor/monaco-setup.ts), so the agent sees what the squiggles say.
    this.options = { ...sharedCompilerOptions(ts), moduleResolution: ts.ModuleResolutionKind.Node10, types: [] };
    this.moduleCache = ts.createModuleResolutionCache("/", (name) => name, this.options);
    const host: TS.LanguageServiceHost = {
      getProjectVersion: () => String(this.projectVersion),
      getCompilationSettings: () => this.options,
      getScriptFileNames: () => [...this.files.keys()].filter((path) => TS_SOURCE.test(path)).map((path) => "/" + path),
      getScriptVersion: (fileName) => String(this.entry(fileName)?.version ?? 0),
      getScriptSnapshot: (fileName) => {
        const text = this.readFile(fileName);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => "/",
      getDefaultLibFileName: (options) => LIB_DIR + ts.getDefaultLibFileName(options),
      fileExists: (fileName) => this.readFile(fileName) !== undefined,
      readFile: (fileName) => this.readFile(fileName),
      directoryExists: (dir) => dir === "/" || dir === LIB_DIR.slice(0, -1) || this.hasFolder(dir),
      getDirectories: () => [],
      useCaseSensitiveFileNames: () => true,
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry(true, "/"));
  }

  /** Adds or replaces a workspace file (path relative to the root). */
  setFile(path: string, text: string): void {
    const current = this.files.get(path);
    if (current?.text === text) return;
    this.files.set(path, { text, version: (current?.version ?? 0) + 1 });
    this.projectVersion++;
  }

  deleteFile(path: string): void {
    let changed = false;
    for (const key of [...this.files.keys()]) {
      if (key === path || key.startsWith(path + "/")) {
        this.files.delete(key);
        changed = true;
      }
    }
    if (changed) this.projectVersion++;
  }

  /** Builds the program and its type checker (lib files parsed and bound) ahead of the first check. */
  warm(): void {
    const program = this.service.getProgram();
    program?.getTypeChecker();
    const first = program?.getSourceFiles().find((file) => !file.fileName.startsWith(LIB_DIR));
    if (first) this.service.getSemanticDiagnostics(first.fileName);
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  get size(): number {
    return this.files.size;
  }

  checkable(path: string): Checkable {
    if (TS_SOURCE.test(path)) return "ts";
    if (JSON_SOURCE.test(path) && this.config.json) return "json";
    if (CSS_SOURCE.test(path) && this.config.css) return "css";
    return undefined;
  }

  /**
   * Errors in the edited files (and, for TS/JS, in the files that import them) after the edit and
   * before it: the service takes each file's `before` text, checks, takes `after`, checks again.
   * The service ends with the files as `after` says.
   */
  async diagnose(edits: readonly EditedFile[]): Promise<FileDiagnostics[]> {
    const checked = edits.filter((edit) => this.checkable(edit.path) && edit.after !== undefined);
    // A deleted TS/JS file is not checked itself, but the files importing it are.
    const deleted = edits.filter((edit) => this.checkable(edit.path) === "ts" && edit.after === undefined && edit.before !== undefined);
    if (checked.length === 0 && deleted.length === 0) {
      for (const edit of edits) this.apply(edit.path, edit.after);
      return [];
    }
    const edited = new Set(edits.map((edit) => edit.path));
    // Importers are found in the project as it was before the edit (an edit does not change who imports it).
    for (const edit of edits) this.apply(edit.path, edit.before);
    const importers: Array<{ path: string; of: string }> = [];
    for (const edit of [...checked, ...deleted]) {
      if (this.checkable(edit.path) !== "ts") continue;
      for (const path of this.importersOf(edit.path)) {
        if (importers.length >= MAX_IMPORTERS_CHECKED) break;
        if (!edited.has(path) && !importers.some((i) => i.path === path)) importers.push({ path, of: edit.path });
      }
    }
    const before = new Map<string, CodeDiagnostic[]>();
    for (const edit of checked) if (edit.before !== undefined) before.set(edit.path, await this.errors(edit.path));
    for (const importer of importers) before.set(importer.path, await this.errors(importer.path));
    for (const edit of edits) this.apply(edit.path, edit.after);
    const results: FileDiagnostics[] = [];
    for (const edit of checked) results.push({ path: edit.path, errors: await this.errors(edit.path), before: before.get(edit.path) ?? [] });
    for (const importer of importers) {
      results.push({ path: importer.path, errors: await this.errors(importer.path), before: before.get(importer.path) ?? [], importer: importer.of });
    }
    return results;
  }

  /** Errors in one file as it is now. */
  async errors(path: string): Promise<CodeDiagnostic[]> {
    const entry = this.files.get(path);
    if (!entry) return [];
    switch (this.checkable(path)) {
      case "ts":
        return this.tsErrors(path);
      case "json":
        return this.config.json!(path, entry.text);
      case "css":
        return this.config.css!(path, entry.text);
      default:
        return [];
    }
  }

  query(query: CodeQuery): CodeQueryResult {
    if (query.operation === "workspace_symbols") return this.workspaceSymbols(query.query);
    const path = query.path;
    if (this.checkable(path) !== "ts") throw new Error(`${path} is not a TypeScript or JavaScript file; the code tool works on .ts, .tsx, .js and .jsx files.`);
    if (!this.files.has(path)) throw new Error(`File not found: ${path}`);
    const fileName = "/" + path;
    if (query.operation === "symbols") return { locations: this.documentSymbols(path) };
    const position = this.offsetOf(path, query.line, query.column);
    switch (query.operation) {
      case "definition": {
        const defs = this.service.getDefinitionAtPosition(fileName, position) ?? [];
        return { locations: this.spans(defs) };
      }
      case "references": {
        const refs = this.service.getReferencesAtPosition(fileName, position) ?? [];
        return { locations: this.spans(refs) };
      }
      case "hover": {
        const info = this.service.getQuickInfoAtPosition(fileName, position);
        if (!info) return { locations: [] };
        const ts = this.ts;
        const text = [ts.displayPartsToString(info.displayParts), ts.displayPartsToString(info.documentation)].filter(Boolean).join("\n");
        return { locations: this.spans([{ fileName, textSpan: info.textSpan }]), hover: text };
      }
    }
  }

  private apply(path: string, text: string | undefined): void {
    if (text === undefined) this.deleteFile(path);
    else this.setFile(path, text);
  }

  private tsErrors(path: string): CodeDiagnostic[] {
    const fileName = "/" + path;
    const ts = this.ts;
    const all = [...this.service.getSyntacticDiagnostics(fileName), ...this.service.getSemanticDiagnostics(fileName)];
    const out: CodeDiagnostic[] = [];
    for (const diagnostic of all) {
      if (diagnostic.category !== ts.DiagnosticCategory.Error) continue;
      const where = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : { line: 0, character: 0 };
      out.push({
        path,
        line: where.line + 1,
        column: where.character + 1,
        message: ts.flattenDiagnosticMessageText(diagnostic.messageText, " ").replace(/\s+/g, " ").trim(),
        code: `TS${diagnostic.code}`,
      });
    }
    return out;
  }

  /** Workspace files whose relative imports resolve to `path`. */
  private importersOf(path: string): string[] {
    const out: string[] = [];
    for (const [file, entry] of this.files) {
      if (file === path || !TS_SOURCE.test(file)) continue;
      let cached = this.importsOf.get(file);
      if (cached?.version !== entry.version) {
        cached = { version: entry.version, paths: this.resolveImports(file, entry.text) };
        this.importsOf.set(file, cached);
      }
      if (cached.paths.includes(path)) out.push(file);
    }
    return out;
  }

  private resolveImports(file: string, text: string): string[] {
    const ts = this.ts;
    const host: TS.ModuleResolutionHost = { fileExists: (name) => this.readFile(name) !== undefined, readFile: (name) => this.readFile(name) };
    const paths: string[] = [];
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      if (!imported.fileName.startsWith(".")) continue;
      const resolved = ts.resolveModuleName(imported.fileName, "/" + file, this.options, host, this.moduleCache).resolvedModule;
      if (resolved && !resolved.resolvedFileName.startsWith(LIB_DIR)) paths.push(resolved.resolvedFileName.slice(1));
    }
    return paths;
  }

  private documentSymbols(path: string): CodeLocation[] {
    const tree = this.service.getNavigationTree("/" + path);
    const out: CodeLocation[] = [];
    const visit = (node: TS.NavigationTree, depth: number) => {
      if (depth > 0 && node.kind !== "alias" && node.spans[0]) {
        const at = this.position(path, node.nameSpan?.start ?? node.spans[0].start);
        out.push({ ...at, name: node.text, kind: node.kind });
      }
      for (const child of node.childItems ?? []) visit(child, depth + 1);
    };
    visit(tree, 0);
    return out;
  }

  private workspaceSymbols(query: string): CodeQueryResult {
    const items = this.service.getNavigateToItems(query, 200, undefined, true);
    const locations = items
      .filter((item) => !item.fileName.startsWith(LIB_DIR))
      .map((item) => ({ ...this.position(item.fileName.slice(1), item.textSpan.start), name: item.name, kind: item.kind }));
    return { locations };
  }

  private spans(items: ReadonlyArray<{ fileName: string; textSpan: TS.TextSpan }>): CodeLocation[] {
    const out: CodeLocation[] = [];
    for (const item of items) {
      if (item.fileName.startsWith(LIB_DIR)) {
        out.push({ path: item.fileName.slice(LIB_DIR.length), line: 0, column: 0, preview: "(TypeScript's built-in declarations)" });
        continue;
      }
      out.push(this.position(item.fileName.slice(1), item.textSpan.start));
    }
    return out;
  }

  private position(path: string, offset: number): CodeLocation {
    const text = this.files.get(path)?.text ?? "";
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const lineStart = before.lastIndexOf("\n") + 1;
    const lineEnd = text.indexOf("\n", offset);
    const preview = text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd).trim();
    return { path, line, column: offset - lineStart + 1, preview };
  }

  private offsetOf(path: string, line: number, column: number): number {
    const lines = this.files.get(path)!.text.split("\n");
    if (line < 1 || line > lines.length) throw new Error(`${path} has ${lines.length} lines; line ${line} is out of range.`);
    let offset = 0;
    for (let i = 0; i < line - 1; i++) offset += lines[i]!.length + 1;
    return offset + Math.max(0, Math.min(column - 1, lines[line - 1]!.length));
  }

  private entry(fileName: string): Entry | undefined {
    return fileName.startsWith("/") ? this.files.get(fileName.slice(1)) : undefined;
  }

  private readFile(fileName: string): string | undefined {
    if (fileName.startsWith(LIB_DIR)) return this.config.libFiles[fileName.slice(LIB_DIR.length)];
    return this.entry(fileName)?.text;
  }

  private hasFolder(dir: string): boolean {
    const prefix = dir.replace(/^\//, "").replace(/\/?$/, "/");
    for (const key of this.files.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }
}
