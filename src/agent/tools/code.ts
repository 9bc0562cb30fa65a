// The code tool (issue 16; OpenCode's `lsp` tool): definition, references, hover, document and
// workspace symbols from the injected code service, as `path:line:col  preview` lines. Offered only
// when the runtime has a code service. Reading applies: the queried file asks `read`; result lines
// in files whose read rule would ask or deny are left out and named, as grep does.
import { z } from "zod";
import description from "../../../prompts/tools/code.md?raw";
import type { CodeLocation, CodeQuery } from "./code-intelligence";
import { resolveToolPath, showPath } from "./workspace-path";
import type { ToolDefinition } from "./tool";
import { MAX_OUTPUT_BYTES } from "./wrapper";

/** At most this many locations are listed. */
export const CODE_MAX_RESULTS = 100;
const PREVIEW_MAX = 200;

const parameters = z.object({
  operation: z.enum(["definition", "references", "hover", "symbols", "workspace_symbols"]),
  filePath: z.string().optional(),
  line: z.number().int().min(1).optional(),
  column: z.number().int().min(1).optional(),
  query: z.string().optional(),
});

function format(location: CodeLocation): string {
  const preview = location.preview.length > PREVIEW_MAX ? location.preview.slice(0, PREVIEW_MAX) + "…" : location.preview;
  const label = location.name ? `${location.kind ?? "symbol"} ${location.name}  ` : "";
  return location.line === 0 ? `${location.path}  ${preview}` : `${location.path}:${location.line}:${location.column}  ${label}${preview}`;
}

export const codeTool: ToolDefinition<typeof parameters> = {
  id: "code",
  description,
  parameters,
  async execute(args, context) {
    const service = context.code;
    if (!service) throw new Error("The code service is not available in this runtime; use grep and read instead.");
    let query: CodeQuery;
    let title: string;
    if (args.operation === "workspace_symbols") {
      if (!args.query?.trim()) throw new Error("workspace_symbols needs query: a name or part of one.");
      query = { operation: "workspace_symbols", query: args.query.trim() };
      title = `symbols matching ${query.query}`;
      await context.ask({ permission: "read", patterns: ["."], always: ["."], metadata: { query: query.query } });
    } else {
      if (!args.filePath) throw new Error(`${args.operation} needs filePath.`);
      const path = await resolveToolPath(args.filePath, context);
      await context.ask({ permission: "read", patterns: [showPath(path)], always: [showPath(path)], metadata: { filePath: path } });
      if (args.operation === "symbols") {
        query = { operation: "symbols", path };
        title = `symbols in ${path}`;
      } else {
        if (args.line === undefined || args.column === undefined) throw new Error(`${args.operation} needs line and column (1-based) of the symbol.`);
        query = { operation: args.operation, path, line: args.line, column: args.column };
        title = `${args.operation} at ${path}:${args.line}:${args.column}`;
      }
    }
    const result = await service.query(query);
    const hidden: string[] = [];
    const visible = result.locations.filter((location) => {
      if (location.line === 0) return true;
      const allowed = context.permissionFor("read", showPath(location.path)) === "allow";
      if (!allowed && !hidden.includes(location.path)) hidden.push(location.path);
      return allowed;
    });
    const parts: string[] = [];
    if (result.hover !== undefined) parts.push(result.hover || "(no type information at this position)");
    if (args.operation !== "hover") {
      if (visible.length === 0) parts.push(hidden.length ? "No results you may read." : "No results.");
      else {
        const shown = visible.slice(0, CODE_MAX_RESULTS);
        const lines = [];
        let bytes = 0;
        for (const location of shown) {
          const line = format(location);
          bytes += line.length + 1;
          if (bytes > MAX_OUTPUT_BYTES / 2) break;
          lines.push(line);
        }
        parts.push(`${visible.length} result${visible.length === 1 ? "" : "s"}${lines.length < visible.length ? ` (showing the first ${lines.length})` : ""}:\n${lines.join("\n")}`);
      }
    } else if (result.hover === undefined) {
      parts.push("No type information at this position.");
    }
    if (hidden.length) parts.push(`(Results in ${hidden.length} file${hidden.length === 1 ? "" : "s"} that need permission to read were left out: ${hidden.slice(0, 20).join(", ")}.)`);
    return { title, output: parts.join("\n\n"), metadata: { operation: args.operation, results: visible.length } };
  },
};
