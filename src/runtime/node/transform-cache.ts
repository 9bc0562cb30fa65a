// The worker's side of compiled-store.ts: transformModule with what earlier runs compiled. An entry
// is used only when its source is the very text being loaded (a string compare, far cheaper than
// sucrase); what this run compiles anew is collected for the page. Plain CommonJS JavaScript is not
// kept: it runs as written (only import() renamed), which costs less than handing it around.
import type { CompiledEntries, CompiledEntry } from "../sandbox/protocol";
import { isTypeScript, transformModule, type TransformResult } from "./transform";

export class TransformCache {
  private readonly known: Map<string, CompiledEntry>;
  private added: CompiledEntries = [];

  constructor(entries: CompiledEntries = []) {
    this.known = new Map(entries);
  }

  transform(source: string, filename: string, format: "commonjs" | "module"): TransformResult {
    if (format === "commonjs" && !isTypeScript(filename)) return transformModule(source, filename, format);
    const key = `${format}:${filename}`;
    const hit = this.known.get(key);
    if (hit && hit.source === source) return { code: hit.code, imports: [...hit.imports] };
    const result = transformModule(source, filename, format);
    const entry: CompiledEntry = { source, code: result.code, imports: [...result.imports] };
    this.known.set(key, entry);
    this.added.push([key, entry]);
    return result;
  }

  /** What was compiled since the last call. */
  takeAdded(): CompiledEntries {
    const added = this.added;
    this.added = [];
    return added;
  }
}
