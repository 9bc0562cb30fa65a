// The shared tool wrapper: zod validation, timing, truncation with the full text kept, error passing.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidToolInputError, MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES, runTool, truncateText } from "../../src/agent/tools/wrapper";
import { BUILTIN_TOOLS, getTool, toolsForEditStyle } from "../../src/agent/tools";
import type { ToolContext, ToolDefinition } from "../../src/agent/tools/tool";

const context = {} as ToolContext;

function echoTool(output: string, metadata: Record<string, unknown> = {}): ToolDefinition {
  const parameters = z.object({ n: z.number().int() });
  return { id: "echo", description: "", parameters, execute: async () => ({ title: "t", output, metadata }) };
}

describe("runTool", () => {
  it("rejects invalid input with the agreed message", async () => {
    const error = await runTool(echoTool("x"), { n: "three" }, context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidToolInputError);
    expect((error as Error).message).toMatch(/^The echo tool was called with invalid arguments: n: .*expected number.*\. Rewrite the input so it satisfies the expected schema\.$/);
    const missing = await runTool(echoTool("x"), {}, context).catch((e: unknown) => e);
    expect((missing as Error).message).toContain("n: ");
  });

  it("times the call and passes short output through", async () => {
    const result = await runTool(echoTool("hello"), { n: 1 }, context);
    expect(result.output).toBe("hello");
    expect(typeof result.metadata.durationMs).toBe("number");
    expect(result.metadata.truncated).toBe(false);
  });

  it("cuts output over the line limit, says so and keeps the full text for the UI", async () => {
    const long = Array.from({ length: MAX_OUTPUT_LINES + 500 }, (_, i) => `line ${i + 1}`).join("\n");
    const result = await runTool(echoTool(long), { n: 1 }, context);
    expect(result.output).toContain(`line ${MAX_OUTPUT_LINES}\n`);
    expect(result.output).not.toContain(`line ${MAX_OUTPUT_LINES + 1}\n`);
    expect(result.output).toMatch(/Output truncated: showing the first 2000 of 2500 lines/);
    expect(result.metadata.truncated).toBe(true);
    expect(result.metadata.fullOutput).toBe(long);
  });

  it("cuts output over the byte limit", async () => {
    const wide = Array.from({ length: 100 }, () => "é".repeat(1000)).join("\n");
    const result = await runTool(echoTool(wide), { n: 1 }, context);
    const body = result.output.slice(0, result.output.indexOf("\n\n(Output truncated"));
    expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
    expect(result.metadata.fullOutput).toBe(wide);
  });

  it("leaves alone tools that limit their own output", async () => {
    const long = "x\n".repeat(MAX_OUTPUT_LINES * 2);
    const result = await runTool(echoTool(long, { truncated: false }), { n: 1 }, context);
    expect(result.output).toBe(long);
    expect(result.metadata.fullOutput).toBeUndefined();
  });

  it("lets tool errors propagate as Error, wrapping non-Error throws", async () => {
    const failing: ToolDefinition = { ...echoTool(""), execute: async () => Promise.reject(new Error("boom")) };
    await expect(runTool(failing, { n: 1 }, context)).rejects.toThrow("boom");
    const weird: ToolDefinition = { ...echoTool(""), execute: async () => Promise.reject("plain string") };
    await expect(runTool(weird, { n: 1 }, context)).rejects.toBeInstanceOf(Error);
  });
});

describe("truncateText", () => {
  it("keeps the tail when asked", () => {
    const text = Array.from({ length: 10 }, (_, i) => String(i)).join("\n");
    expect(truncateText(text, { maxLines: 3, keep: "tail" })).toEqual({ text: "7\n8\n9", truncated: true });
    expect(truncateText(text, { maxLines: 3 })).toEqual({ text: "0\n1\n2", truncated: true });
    expect(truncateText("abc", { maxLines: 3 })).toEqual({ text: "abc", truncated: false });
  });

  it("cuts a single huge line inside", () => {
    const cut = truncateText("y".repeat(100), { maxBytes: 10 });
    expect(cut).toEqual({ text: "y".repeat(10), truncated: true });
  });
});

describe("the tool set", () => {
  it("has every tool of the spec, found by id", () => {
    expect(BUILTIN_TOOLS.map((t) => t.id)).toEqual([
      "read", "write", "edit", "apply_patch", "glob", "grep", "list", "bash", "task", "todowrite", "webfetch", "question",
    ]);
    expect(getTool("grep")?.id).toBe("grep");
    expect(getTool("nope")).toBeUndefined();
  });

  it("offers apply_patch instead of edit and write, never both", () => {
    const patchIds = toolsForEditStyle(BUILTIN_TOOLS, true).map((t) => t.id);
    expect(patchIds).toContain("apply_patch");
    expect(patchIds).not.toContain("edit");
    expect(patchIds).not.toContain("write");
    const editIds = toolsForEditStyle(BUILTIN_TOOLS, false).map((t) => t.id);
    expect(editIds).toContain("edit");
    expect(editIds).not.toContain("apply_patch");
  });
});
