// The read tool over the real browser runtime: numbering, limits and footers, folders, missing
// files, binary files and images, AGENTS.md reminders, read times and paths outside the workspace.
import { afterEach, describe, expect, it } from "vitest";
import { runTool } from "../../src/agent/tools/wrapper";
import { readTool, READ_DEFAULT_LIMIT, READ_MAX_BYTES, READ_MAX_LINE_LENGTH } from "../../src/agent/tools/read";
import { PermissionDeniedError } from "../../src/agent/tools/tool";
import { createToolHarness, type ToolHarness } from "../support/tool-context";

let harness: ToolHarness;
afterEach(async () => harness?.dispose());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

describe("read", () => {
  it("returns numbered lines and says the file ended", async () => {
    harness = await createToolHarness({ files: { "src/a.ts": "const a = 1;\nconst b = 2;\n" } });
    const result = await runTool(readTool, { filePath: "src/a.ts" }, harness.context);
    expect(result.output).toBe("1: const a = 1;\n2: const b = 2;\n\n(End of file: 2 lines.)");
    expect(harness.asks).toEqual([{ permission: "read", patterns: ["src/a.ts"], always: ["src/a.ts"], metadata: { filePath: "src/a.ts" } }]);
    expect(result.title).toBe("src/a.ts");
  });

  it("records the read time for the edit check", async () => {
    harness = await createToolHarness({ files: { "a.txt": "x" } });
    await runTool(readTool, { filePath: "a.txt" }, harness.context);
    expect(harness.context.fileTimes.lastRead("a.txt")).toBe((await harness.files.stat("a.txt"))!.mtime);
  });

  it("pages with offset and limit and tells how to continue", async () => {
    const text = Array.from({ length: 50 }, (_, i) => `row ${i + 1}`).join("\n");
    harness = await createToolHarness({ files: { "rows.txt": text } });
    const result = await runTool(readTool, { filePath: "rows.txt", offset: 10, limit: 5 }, harness.context);
    expect(result.output).toBe("10: row 10\n11: row 11\n12: row 12\n13: row 13\n14: row 14\n\n(Showing lines 10-14 of 50. Use offset=15 to continue.)");
    await expect(runTool(readTool, { filePath: "rows.txt", offset: 51 }, harness.context)).rejects.toThrow(/past the end .* 50 lines/);
  });

  it(`stops at ${READ_DEFAULT_LIMIT} lines by default`, async () => {
    const text = Array.from({ length: READ_DEFAULT_LIMIT + 10 }, (_, i) => `${i}`).join("\n");
    harness = await createToolHarness({ files: { "big.txt": text } });
    const result = await runTool(readTool, { filePath: "big.txt" }, harness.context);
    expect(result.output).toContain(`(Showing lines 1-${READ_DEFAULT_LIMIT} of ${READ_DEFAULT_LIMIT + 10}. Use offset=${READ_DEFAULT_LIMIT + 1} to continue.)`);
  });

  it("cuts long lines and caps the output bytes", async () => {
    const line = "x".repeat(READ_MAX_LINE_LENGTH + 500);
    harness = await createToolHarness({ files: { "wide.txt": Array.from({ length: 40 }, () => line).join("\n") } });
    const result = await runTool(readTool, { filePath: "wide.txt" }, harness.context);
    const first = result.output.split("\n")[0]!;
    expect(first).toBe(`1: ${"x".repeat(READ_MAX_LINE_LENGTH)}... (line cut at ${READ_MAX_LINE_LENGTH} characters)`);
    const body = result.output.slice(0, result.output.lastIndexOf("\n\n("));
    expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(READ_MAX_BYTES);
    expect(result.output).toMatch(/\(Output capped at 50 KB: showing lines 1-\d+ of 40\. Use offset=\d+ to continue\.\)$/);
  });

  it("lists a folder's entries", async () => {
    harness = await createToolHarness({ files: { "src/a.ts": "", "src/lib/b.ts": "" } });
    const result = await runTool(readTool, { filePath: "src" }, harness.context);
    expect(result.output).toBe("src/ is a folder:\nlib/\na.ts\n\n(2 entries.)");
  });

  it("suggests up to 3 similar paths for a missing file", async () => {
    harness = await createToolHarness({ files: { "src/utils.ts": "", "src/util/index.ts": "", "test/utils.test.ts": "", "README.md": "", "docs/x.md": "" } });
    const error = (await runTool(readTool, { filePath: "src/utils.js" }, harness.context).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^File not found: src\/utils\.js\. Did you mean one of these\?\n/);
    const suggestions = error.message.split("\n").slice(1);
    expect(suggestions.length).toBeLessThanOrEqual(3);
    expect(suggestions[0]).toBe("src/utils.ts");
    expect(suggestions).not.toContain("README.md");
  });

  it("refuses binary files", async () => {
    harness = await createToolHarness({ files: { "app.wasm": new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]) } });
    await expect(runTool(readTool, { filePath: "app.wasm" }, harness.context)).rejects.toThrow(/binary file/);
  });

  it("returns images as attachments for vision models and refuses them otherwise", async () => {
    harness = await createToolHarness({ files: { "logo.png": PNG }, supportsImages: true });
    const result = await runTool(readTool, { filePath: "logo.png" }, harness.context);
    expect(result.attachments).toEqual([{ mime: "image/png", filename: "logo.png", url: `data:image/png;base64,${Buffer.from(PNG).toString("base64")}` }]);
    await harness.dispose();
    harness = await createToolHarness({ files: { "logo.png": PNG } });
    await expect(runTool(readTool, { filePath: "logo.png" }, harness.context)).rejects.toThrow(/cannot view images/);
  });

  it("appends AGENTS.md of folders between the file and the root once per session", async () => {
    harness = await createToolHarness({
      files: {
        "AGENTS.md": "root rules (in the system prompt already)",
        "packages/AGENTS.md": "packages rules",
        "packages/api/AGENTS.md": "api rules",
        "packages/api/src/server.ts": "listen();",
        "packages/api/src/routes.ts": "route();",
      },
    });
    const first = await runTool(readTool, { filePath: "packages/api/src/server.ts" }, harness.context);
    expect(first.output).toContain("<system-reminder>\nInstructions from: packages/AGENTS.md\npackages rules\n\nInstructions from: packages/api/AGENTS.md\napi rules\n</system-reminder>");
    expect(first.output).not.toContain("root rules");
    expect([...harness.context.instructionsLoaded].sort()).toEqual(["packages/AGENTS.md", "packages/api/AGENTS.md"]);
    const second = await runTool(readTool, { filePath: "packages/api/src/routes.ts" }, harness.context);
    expect(second.output).not.toContain("system-reminder");
  });

  it("maps absolute paths under the workspace root and refuses others after asking", async () => {
    harness = await createToolHarness({ files: { "src/a.ts": "a" } });
    const inside = await runTool(readTool, { filePath: "/workspace/src/a.ts" }, harness.context);
    expect(inside.output).toContain("1: a");
    const alsoInside = await runTool(readTool, { filePath: "/home/workspace/src/a.ts" }, harness.context);
    expect(alsoInside.title).toBe("src/a.ts");
    await expect(runTool(readTool, { filePath: "/etc/passwd" }, harness.context)).rejects.toThrow(/outside the workspace.*\/workspace/);
    expect(harness.asks.at(-1)).toMatchObject({ permission: "external_directory", patterns: ["/etc/*"] });
    await expect(runTool(readTool, { filePath: "../secret.txt" }, harness.context)).rejects.toThrow(/outside the workspace/);
  });

  it("propagates a permission denial without reading", async () => {
    harness = await createToolHarness({ files: { ".env": "KEY=1" }, onAsk: (r) => (r.permission === "read" ? new PermissionDeniedError("read", ".env") : undefined) });
    await expect(runTool(readTool, { filePath: ".env" }, harness.context)).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(harness.context.fileTimes.lastRead(".env")).toBeUndefined();
  });

  it("says an empty file is empty", async () => {
    harness = await createToolHarness({ files: { "empty.txt": "" } });
    expect((await runTool(readTool, { filePath: "empty.txt" }, harness.context)).output).toBe("(The file is empty.)");
  });
});
