// The real code service (Monaco's TypeScript 5.9 and its JSON/CSS validators, in this thread):
// errors after and before an edit, importers checked, JSON and CSS syntax errors, warnings left out;
// the code tool's queries; and the workspace-side service fed from the file service, without an
// editor, through the write and code tools.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CodeService } from "../../src/runtime/code-intel";
import { runTool } from "../../src/agent/tools/wrapper";
import { readTool } from "../../src/agent/tools/read";
import { writeTool } from "../../src/agent/tools/write";
import { editTool } from "../../src/agent/tools/edit";
import { codeTool } from "../../src/agent/tools/code";
import { createMonacoCodeService, inProcessCodeIntelligence } from "../support/code-service";
import { createToolHarness, type ToolHarness } from "../support/tool-context";

let service: CodeService;
beforeAll(() => {
  service = createMonacoCodeService();
}, 30_000);

let harness: ToolHarness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

const MATH = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
const MAIN = 'import { add } from "./math";\n\nexport const three: number = add(1, 2);\n';

describe("code service", () => {
  it("reports the errors after an edit and the ones before it, and checks the files that import the edited one", async () => {
    service.setFile("src/math.ts", MATH);
    service.setFile("src/main.ts", MAIN);
    service.setFile("src/other.ts", "export const unrelated = 1;\n");
    const after = MATH.replace("a: number, b: number", "a: string, b: number").replace("return a + b;", "return a.length + b;");
    const results = await service.diagnose([{ path: "src/math.ts", before: MATH, after }]);
    expect(results.map((r) => [r.path, r.importer])).toEqual([
      ["src/math.ts", undefined],
      ["src/main.ts", "src/math.ts"],
    ]);
    expect(results[0]!.errors).toEqual([]);
    expect(results[1]!.before).toEqual([]);
    expect(results[1]!.errors).toEqual([
      { path: "src/main.ts", line: 3, column: 34, message: "Argument of type 'number' is not assignable to parameter of type 'string'.", code: "TS2345" },
    ]);
    // The service keeps the edited text.
    expect((await service.errors("src/main.ts")).length).toBe(1);
    service.setFile("src/math.ts", MATH);
  });

  it("deleting a file checks the files that import it", async () => {
    service.setFile("src/math.ts", MATH);
    service.setFile("src/main.ts", MAIN);
    const results = await service.diagnose([{ path: "src/math.ts", before: MATH, after: undefined }]);
    expect(results).toEqual([
      {
        path: "src/main.ts",
        importer: "src/math.ts",
        before: [],
        errors: [{ path: "src/main.ts", line: 1, column: 21, message: "Cannot find module './math' or its corresponding type declarations.", code: "TS2307" }],
      },
    ]);
    expect(service.has("src/math.ts")).toBe(false);
    service.setFile("src/math.ts", MATH);
  });

  it("a new file's errors with line and column; warnings and suggestions are left out", async () => {
    const text = "export const ok = 1;\nconst unused = 2;\nexport const bad: number = 'x';\n";
    const [result] = await service.diagnose([{ path: "src/new.ts", before: undefined, after: text }]);
    expect(result!.before).toEqual([]);
    expect(result!.errors).toEqual([{ path: "src/new.ts", line: 3, column: 14, message: "Type 'string' is not assignable to type 'number'.", code: "TS2322" }]);
  });

  it("JSON and CSS syntax errors; comments allowed in tsconfig.json only; HTML is not checked", async () => {
    const [json] = await service.diagnose([{ path: "package.json", before: undefined, after: '{\n  "name": "x",\n  "version": \n}\n' }]);
    expect(json!.errors.length).toBeGreaterThan(0);
    expect(json!.errors[0]).toMatchObject({ path: "package.json", line: 4, column: 1 });
    const [tsconfig] = await service.diagnose([{ path: "tsconfig.json", before: undefined, after: '{\n  // comment\n  "compilerOptions": {},\n}\n' }]);
    expect(tsconfig!.errors).toEqual([]);
    const [comments] = await service.diagnose([{ path: "data.json", before: undefined, after: '{\n  // comment\n  "a": 1\n}\n' }]);
    expect(comments!.errors.length).toBe(1);
    const [css] = await service.diagnose([{ path: "src/app.css", before: undefined, after: "body {\n  color: red;\n\n.a { color: blue; }\n" }]);
    expect(css!.errors.length).toBeGreaterThan(0);
    expect(await service.diagnose([{ path: "index.html", before: undefined, after: "<div>" }])).toEqual([]);
  });

  it("answers definition across files, references, hover, document and workspace symbols", () => {
    service.setFile("src/math.ts", MATH);
    service.setFile("src/main.ts", MAIN);
    const definition = service.query({ operation: "definition", path: "src/main.ts", line: 3, column: 30 });
    expect(definition.locations).toEqual([{ path: "src/math.ts", line: 1, column: 17, preview: "export function add(a: number, b: number): number {" }]);
    const references = service.query({ operation: "references", path: "src/math.ts", line: 1, column: 17 });
    expect(references.locations.map((l) => `${l.path}:${l.line}:${l.column}`).sort()).toEqual(["src/main.ts:1:10", "src/main.ts:3:30", "src/math.ts:1:17"]);
    expect(service.query({ operation: "hover", path: "src/main.ts", line: 3, column: 14 }).hover).toBe("const three: number");
    const symbols = service.query({ operation: "symbols", path: "src/math.ts" }).locations;
    expect(symbols.map((s) => [s.kind, s.name, s.line])).toEqual([["function", "add", 1]]);
    const found = service.query({ operation: "workspace_symbols", query: "thr" }).locations;
    expect(found).toEqual([{ path: "src/main.ts", line: 3, column: 14, preview: MAIN.split("\n")[2], name: "three", kind: "const" }]);
    expect(() => service.query({ operation: "symbols", path: "README.md" })).toThrow(/not a TypeScript or JavaScript file/);
  });
});

describe("the workspace's code service through the tools", () => {
  it("write reports an error it introduced in a file that imports it, with files read from the file service", async () => {
    harness = await createToolHarness({ files: { "src/math.ts": MATH, "src/main.ts": MAIN }, code: (files) => inProcessCodeIntelligence(files) });
    await runTool(readTool, { filePath: "src/math.ts" }, harness.context);
    const result = await runTool(editTool, { filePath: "src/math.ts", oldString: "export function add", newString: "export function plus" }, harness.context);
    expect(result.output).toBe(
      [
        "Edited src/math.ts.",
        "",
        "<diagnostics>",
        "src/math.ts: no errors.",
        "New errors in src/main.ts, which imports src/math.ts:",
        `  src/main.ts:1:10 Module '"./math"' has no exported member 'add'. [TS2305]`,
        "</diagnostics>",
      ].join("\n"),
    );
    // A later change by someone else (the user, a command) reaches the service too.
    await harness.files.writeFile("src/main.ts", 'import { plus } from "./math";\nexport const bad: string = plus(1, 2);\n', { source: "editor" });
    const fixed = await runTool(writeTool, { filePath: "src/extra.ts", content: 'import { plus } from "./math";\nexport const n = plus(1, 2);\n' }, harness.context);
    expect(fixed.output).toBe("Created src/extra.ts.\n\n<diagnostics>\nsrc/extra.ts: no errors.\n</diagnostics>");
  });

  it("the code tool finds a definition in another file; read permission applies to the file and the results", async () => {
    harness = await createToolHarness({
      files: { "src/math.ts": MATH, "src/main.ts": MAIN, "secret/use.ts": 'import { add } from "../src/math";\nadd(1, 1);\n' },
      code: (files) => inProcessCodeIntelligence(files),
      permissionFor: (_permission, pattern) => (pattern.startsWith("secret/") ? "deny" : "allow"),
    });
    const result = await runTool(codeTool, { operation: "definition", filePath: "src/main.ts", line: 3, column: 30 }, harness.context);
    expect(result.output).toBe("1 result:\nsrc/math.ts:1:17  export function add(a: number, b: number): number {");
    expect(harness.asks[0]).toMatchObject({ permission: "read", patterns: ["src/main.ts"] });
    const refs = await runTool(codeTool, { operation: "references", filePath: "src/math.ts", line: 1, column: 17 }, harness.context);
    expect(refs.output).toContain("src/main.ts:3:30  export const three: number = add(1, 2);");
    expect(refs.output).not.toContain("secret/use.ts:");
    expect(refs.output).toContain("(Results in 1 file that need permission to read were left out: secret/use.ts.)");
    const hover = await runTool(codeTool, { operation: "hover", filePath: "src/math.ts", line: 1, column: 17 }, harness.context);
    expect(hover.output).toBe("function add(a: number, b: number): number");
    await expect(runTool(codeTool, { operation: "definition", filePath: "src/main.ts" }, harness.context)).rejects.toThrow(/needs line and column/);
  });
});
