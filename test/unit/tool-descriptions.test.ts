// Tool descriptions must tell the truth: every number in a description is the constant the code
// uses, and the descriptions stay lean (they are sent with every request).
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodSchema } from "ai";
import { buildTools, createGitHubPushTool, getTool, toolsForEditStyle } from "../../src/agent/tools";
import { leanJsonSchema } from "../../src/agent/session/tool-calls";
import { CODE_MAX_RESULTS } from "../../src/agent/tools/code";
import { BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS } from "../../src/agent/tools/bash";
import { GLOB_MAX_RESULTS } from "../../src/agent/tools/glob";
import { GREP_MAX_MATCHES } from "../../src/agent/tools/grep";
import { LIST_MAX_ENTRIES } from "../../src/agent/tools/list";
import { QUESTION_HEADER_MAX } from "../../src/agent/tools/question";
import { READ_DEFAULT_LIMIT, READ_MAX_BYTES, READ_MAX_LINE_LENGTH } from "../../src/agent/tools/read";
import { WEBFETCH_DEFAULT_TIMEOUT_S, WEBFETCH_MAX_BYTES, WEBFETCH_MAX_TIMEOUT_S } from "../../src/agent/tools/webfetch";
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "../../src/agent/tools/wrapper";

/**
 * Every tool, the code tool included (it is offered when a code service is injected), and
 * github_push (offered in a workspace opened from GitHub).
 */
const BUILTIN_TOOLS = [...buildTools({ code: true }), createGitHubPushTool({ upstream: () => undefined, push: () => Promise.reject(new Error("unused")) })];

const KB = 1024;
const MB = 1024 * 1024;

/** For each description: the numbers it may contain, each from a constant the tool really uses. */
const NUMBERS: Record<string, number[]> = {
  read: [READ_DEFAULT_LIMIT, READ_MAX_LINE_LENGTH, READ_MAX_BYTES / KB],
  write: [],
  edit: [],
  apply_patch: [],
  glob: [GLOB_MAX_RESULTS],
  grep: [GREP_MAX_MATCHES],
  code: [CODE_MAX_RESULTS],
  list: [LIST_MAX_ENTRIES],
  bash: [BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS, MAX_OUTPUT_LINES, MAX_OUTPUT_BYTES / KB],
  task: [],
  todowrite: [],
  webfetch: [WEBFETCH_MAX_BYTES / MB, WEBFETCH_DEFAULT_TIMEOUT_S, WEBFETCH_MAX_TIMEOUT_S],
  question: [QUESTION_HEADER_MAX],
  github_push: [],
};

function numbersIn(text: string): number[] {
  return [...text.matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
}

describe("tool descriptions", () => {
  it("has one markdown file per tool in prompts/tools", () => {
    const files = readdirSync("prompts/tools").filter((f) => f.endsWith(".md")).map((f) => f.slice(0, -3)).sort();
    expect(files).toEqual(BUILTIN_TOOLS.map((t) => t.id).sort());
  });

  for (const tool of BUILTIN_TOOLS) {
    it(`${tool.id}: every number is a constant the code uses, and each constant is stated`, () => {
      const allowed = NUMBERS[tool.id]!;
      const found = numbersIn(tool.description);
      for (const n of found) expect(allowed, `${tool.id} description mentions ${n}`).toContain(n);
      for (const n of allowed) expect(found, `${tool.id} description should state ${n}`).toContain(n);
    });
  }

  it("the file on disk is what the tool sends", () => {
    for (const tool of BUILTIN_TOOLS) {
      const text = readFileSync(`prompts/tools/${tool.id}.md`, "utf8");
      if (tool.id === "task") expect(tool.description).toBe(text.replace("{agents}", tool.description.match(/- general:.*\n- explore:.*/)![0]));
      else expect(tool.description).toBe(text);
    }
  });

  it("stays lean: descriptions plus parameter schemas of the build agent's set", () => {
    const size = (tools: typeof BUILTIN_TOOLS) => {
      const descriptions = tools.reduce((n, t) => n + new TextEncoder().encode(t.description).length, 0);
      // Without "$schema": providers receive only the parameters object.
      const schemas = tools.reduce((n, t) => {
        const { $schema: _, ...schema } = z.toJSONSchema(t.parameters) as Record<string, unknown>;
        return n + JSON.stringify(schema).length;
      }, 0);
      return { descriptions, schemas, total: descriptions + schemas };
    };
    // github_push is offered only in a workspace opened from GitHub: measured on its own.
    const withCode = toolsForEditStyle(BUILTIN_TOOLS, false).filter((t) => t.id !== "github_push");
    const build = size(withCode.filter((t) => t.id !== "code"));
    const code = size(withCode).total - build.total;
    const github = size(BUILTIN_TOOLS.filter((t) => t.id === "github_push")).total;
    const all = size(BUILTIN_TOOLS.filter((t) => t.id !== "github_push"));
    console.log(`build set: descriptions ${build.descriptions} B + schemas ${build.schemas} B = ${build.total} B; code tool ${code} B; github_push ${github} B; all ${BUILTIN_TOOLS.length - 1} built-in tools ${all.total} B`);
    expect(build.total).toBeLessThanOrEqual(8 * KB);
    // The code tool is offered where a code service runs (the page): at most 1 KB more.
    expect(code).toBeLessThanOrEqual(1 * KB);
    expect(github).toBeLessThanOrEqual(1.5 * KB);
    expect(all.total).toBeLessThanOrEqual(10 * KB);
  });
});

describe("tool schemas as sent", () => {
  it("carry no $schema line, no additionalProperties: false and no safe-integer bounds (the input is checked with zod)", () => {
    for (const tool of BUILTIN_TOOLS) {
      const sent = JSON.stringify(leanJsonSchema(zodSchema(tool.parameters).jsonSchema));
      expect(sent, tool.id).not.toMatch(/\$schema|"additionalProperties":false|9007199254740991/);
    }
    // What a model needs stays: the code tool's lines and columns count from one.
    expect(leanJsonSchema(zodSchema(getTool("code", BUILTIN_TOOLS)!.parameters).jsonSchema)).toMatchObject({ properties: { line: { type: "integer", minimum: 1 } } });
  });
});
