// Diagnostics after edit, write and apply_patch with a fake code service: new errors listed with
// line:column, errors that were there before counted and not listed, "no errors" said, the list
// capped, a failing service reported without failing the edit, and nothing added without a service.
import { afterEach, describe, expect, it } from "vitest";
import { runTool } from "../../src/agent/tools/wrapper";
import { readTool } from "../../src/agent/tools/read";
import { writeTool } from "../../src/agent/tools/write";
import { editTool } from "../../src/agent/tools/edit";
import { applyPatchTool } from "../../src/agent/tools/apply-patch";
import { DIAGNOSTICS_MAX_LINES, formatDiagnostics, newErrors, type CodeDiagnostic, type CodeIntelligence, type EditedFile, type FileDiagnostics } from "../../src/agent/tools/code-intelligence";
import { defaultServices } from "../../src/agent/session/default-services";
import { builtinAgent } from "../../src/agent/agents";
import { DEFAULT_RULES, disabledTools, mergeRules } from "../../src/agent/permission";
import { createToolHarness, type ToolHarness } from "../support/tool-context";

let harness: ToolHarness;
afterEach(async () => harness?.dispose());

const error = (path: string, line: number, message: string, code = "TS2322"): CodeDiagnostic => ({ path, line, column: 7, message, code });

/** A fake service: records what it is asked and answers from `answer`. */
function fakeService(answer: (edits: EditedFile[]) => FileDiagnostics[] | Promise<FileDiagnostics[]>) {
  const calls: EditedFile[][] = [];
  const service: CodeIntelligence = {
    async diagnose(edits) {
      calls.push(edits);
      return answer(edits);
    },
    query: async () => ({ locations: [] }),
  };
  return { service, calls };
}

describe("diagnostics after edits", () => {
  it("edit lists the errors it introduced, with the file's text before and after given to the service", async () => {
    const fake = fakeService((edits) => [
      { path: edits[0]!.path, errors: [error("src/a.ts", 1, "Type 'string' is not assignable to type 'number'.")], before: [] },
    ]);
    harness = await createToolHarness({ files: { "src/a.ts": "export const a: number = 1;\n" }, code: fake.service });
    await runTool(readTool, { filePath: "src/a.ts" }, harness.context);
    const result = await runTool(editTool, { filePath: "src/a.ts", oldString: "= 1", newString: '= "x"' }, harness.context);
    expect(fake.calls).toEqual([[{ path: "src/a.ts", before: "export const a: number = 1;\n", after: 'export const a: number = "x";\n' }]]);
    expect(result.output).toBe(
      "Edited src/a.ts.\n\n<diagnostics>\nNew errors in src/a.ts:\n  src/a.ts:1:7 Type 'string' is not assignable to type 'number'. [TS2322]\n</diagnostics>",
    );
  });

  it("counts the file's errors from before the edit instead of listing them, and says when a file has none", async () => {
    const old = error("src/a.ts", 3, "Cannot find name 'x'.", "TS2304");
    const fake = fakeService(() => [
      { path: "src/a.ts", errors: [{ ...old, line: 4 }, error("src/a.ts", 1, "New one.")], before: [old] },
      { path: "src/b.ts", errors: [], before: [] },
    ]);
    harness = await createToolHarness({ code: fake.service });
    const result = await runTool(writeTool, { filePath: "src/a.ts", content: "whatever\n" }, harness.context);
    expect(fake.calls[0]).toEqual([{ path: "src/a.ts", before: undefined, after: "whatever\n" }]);
    expect(result.output).toContain("New errors in src/a.ts (plus 1 error already there before this change, not listed):\n  src/a.ts:1:7 New one. [TS2322]");
    expect(result.output).not.toContain("Cannot find name");
    expect(result.output).toContain("src/b.ts: no errors.");
  });

  it("says there are no errors, or no new ones", () => {
    expect(formatDiagnostics([{ path: "a.ts", errors: [], before: [error("a.ts", 1, "old")] }])).toBe("\n\n<diagnostics>\na.ts: no errors.\n</diagnostics>");
    expect(formatDiagnostics([{ path: "a.ts", errors: [error("a.ts", 9, "old")], before: [error("a.ts", 1, "old")] }])).toContain(
      "a.ts: no new errors (1 error already there before this change, not listed).",
    );
    expect(formatDiagnostics([])).toBe("");
  });

  it("a second copy of an old error is new; importers' new errors are labelled with the file they import", () => {
    const old = error("a.ts", 1, "dup");
    expect(newErrors([old, { ...old, line: 5 }], [old])).toEqual([{ ...old, line: 5 }]);
    const text = formatDiagnostics([
      { path: "a.ts", errors: [], before: [] },
      { path: "b.ts", errors: [error("b.ts", 2, "Module './a' has no exported member 'x'.", "TS2305")], before: [], importer: "a.ts" },
      { path: "c.ts", errors: [], before: [], importer: "a.ts" },
    ]);
    expect(text).toBe(
      "\n\n<diagnostics>\na.ts: no errors.\nNew errors in b.ts, which imports a.ts:\n  b.ts:2:7 Module './a' has no exported member 'x'. [TS2305]\n</diagnostics>",
    );
  });

  it(`keeps the block to ${DIAGNOSTICS_MAX_LINES} lines and counts the errors left out`, () => {
    const many = Array.from({ length: 30 }, (_, i) => error("a.ts", i + 1, `error number ${i}`));
    const importer = Array.from({ length: 3 }, (_, i) => error("b.ts", i + 1, `importer error ${i}`));
    const text = formatDiagnostics([
      { path: "a.ts", errors: many, before: [] },
      { path: "b.ts", errors: importer, before: [], importer: "a.ts" },
    ]);
    const inside = text.trim().split("\n").slice(1, -1);
    expect(inside).toHaveLength(DIAGNOSTICS_MAX_LINES);
    expect(inside.filter((l) => l.startsWith("  a.ts:"))).toHaveLength(DIAGNOSTICS_MAX_LINES - 2);
    expect(inside.at(-1)).toBe(`… and ${30 - (DIAGNOSTICS_MAX_LINES - 2) + 3} more new errors not listed.`);
  });

  it("apply_patch gives every changed file to the service, a move as a delete and a create", async () => {
    const fake = fakeService(() => [{ path: "src/new.ts", errors: [error("src/new.ts", 1, "Broken.")], before: [] }]);
    harness = await createToolHarness({ files: { "src/old.ts": "a\n", "src/gone.ts": "g\n" }, code: fake.service });
    await runTool(readTool, { filePath: "src/old.ts" }, harness.context);
    await runTool(readTool, { filePath: "src/gone.ts" }, harness.context);
    const patch = ["*** Begin Patch", "*** Update File: src/old.ts", "*** Move to: src/new.ts", "@@", "-a", "+b", "*** Delete File: src/gone.ts", "*** End Patch"].join("\n");
    const result = await runTool(applyPatchTool, { patchText: patch }, harness.context);
    expect(fake.calls[0]).toEqual([
      { path: "src/old.ts", before: "a\n", after: undefined },
      { path: "src/new.ts", before: undefined, after: "b\n" },
      { path: "src/gone.ts", before: "g\n", after: undefined },
    ]);
    expect(result.output).toContain("New errors in src/new.ts:\n  src/new.ts:1:7 Broken.");
  });

  it("a failing service is reported in the result and the edit stays", async () => {
    const fake = fakeService(() => Promise.reject(new Error("worker crashed")));
    harness = await createToolHarness({ code: fake.service });
    const result = await runTool(writeTool, { filePath: "a.ts", content: "x\n" }, harness.context);
    expect(result.output).toBe("Created a.ts.\n\n<diagnostics>\nDiagnostics are not available for this change: worker crashed\n</diagnostics>");
    expect(await harness.files.readText("a.ts")).toBe("x\n");
  });

  it("a runtime without a code service adds nothing", async () => {
    harness = await createToolHarness();
    const result = await runTool(writeTool, { filePath: "a.ts", content: "const a: number = 'x';\n" }, harness.context);
    expect(result.output).toBe("Created a.ts.");
  });

  it("the code tool is offered only when a code service is injected", () => {
    expect(defaultServices().tools([]).map((t) => t.id)).not.toContain("code");
    expect(defaultServices({ code: true }).tools([]).map((t) => t.id)).toContain("code");
  });

  it("the code tool is a read tool: the read-only explore agent has it, an agent denied reading does not", () => {
    const explore = builtinAgent("explore")!;
    expect(disabledTools(["code", "edit"], mergeRules(DEFAULT_RULES, explore.permission))).toEqual(new Set(["edit"]));
    expect(disabledTools(["code"], mergeRules(DEFAULT_RULES, [{ permission: "read", pattern: "*", action: "deny" }]))).toEqual(new Set(["code"]));
  });
});
