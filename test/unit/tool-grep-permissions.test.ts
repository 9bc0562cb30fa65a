// grep prints file contents, so it checks the read permission of every file (issue 3, item 3), and
// grep and a folder read stay within the output cap the model is sent (item 4).
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_RULES, decide, mergeRules, ruleset } from "../../src/agent/permission";
import { PermissionDeniedError, PermissionRejectedError, type PermissionRequest } from "../../src/agent/tools/tool";
import { grepTool } from "../../src/agent/tools/grep";
import { readTool } from "../../src/agent/tools/read";
import { MAX_OUTPUT_BYTES, runTool } from "../../src/agent/tools/wrapper";
import { createToolHarness, type ToolHarness } from "../support/tool-context";
import { MODEL, ScriptedModel, createRig, partsOf, text, tools, type Rig } from "./agent-harness";

let harness: ToolHarness | undefined;
let rig: Rig | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  rig?.dispose();
  rig = undefined;
});

const bytes = (s: string) => new TextEncoder().encode(s).length;

const SECRET_FILES = {
  "src/config.ts": "export const API_KEY = process.env.API_KEY;\n",
  ".env": "API_KEY=sk-live-123456\n",
  "config/.env.local": "API_KEY=sk-local-abcdef\n",
  ".env.example": "API_KEY=\n",
};

describe("grep and the read permission of each file", () => {
  it("skips files whose read rule asks (.env) and names them, without asking", async () => {
    harness = await createToolHarness({ files: SECRET_FILES });
    const result = await runTool(grepTool, { pattern: "API_KEY" }, harness.context);
    expect(result.output).not.toContain("sk-live");
    expect(result.output).not.toContain("sk-local");
    expect(result.output).toContain("src/config.ts:");
    expect(result.output).toContain(".env.example:");
    expect(result.output).toMatch(/2 files were not searched because reading them needs the user's permission: (\.env, config\/\.env\.local|config\/\.env\.local, \.env)\./);
    expect(result.metadata.skipped).toEqual(expect.arrayContaining([".env", "config/.env.local"]));
    // Only the folder ask: skipped files are not asked one by one.
    expect(harness.asks.map((a) => a.patterns)).toEqual([["."]]);
  });

  it("still says which files were skipped when nothing else matches", async () => {
    harness = await createToolHarness({ files: { ".env": "TOKEN=abc\n", "a.ts": "x\n" } });
    const result = await runTool(grepTool, { pattern: "TOKEN" }, harness.context);
    expect(result.output).toMatch(/^No matches found\.\n\n\(1 file was not searched because reading it needs the user's permission: \.env\./);
    expect(result.output).not.toContain("abc");
  });

  it("asks once when include names the files literally, and searches them when allowed", async () => {
    harness = await createToolHarness({ files: SECRET_FILES });
    const result = await runTool(grepTool, { pattern: "API_KEY", include: ".env" }, harness.context);
    const fileAsk = harness.asks[1]!;
    expect(fileAsk.permission).toBe("read");
    expect(fileAsk.patterns).toEqual([".env"]);
    expect(result.output).toContain("sk-live-123456");
  });

  it("a rejected ask for a named file stops the call", async () => {
    harness = await createToolHarness({
      files: SECRET_FILES,
      onAsk: (request: PermissionRequest) => (request.patterns.includes(".env") ? new PermissionRejectedError("read") : undefined),
    });
    await expect(runTool(grepTool, { pattern: "API_KEY", include: ".env" }, harness.context)).rejects.toThrow(PermissionRejectedError);
  });

  it("files a rule denies are skipped even when named, and said to be denied", async () => {
    const rules = mergeRules(DEFAULT_RULES, ruleset({ read: { "secrets/*": "deny" } }));
    harness = await createToolHarness({
      files: { "secrets/key.txt": "KEY=hunter2\n", "notes.txt": "KEY in vault\n" },
      permissionFor: (permission, pattern) => decide(permission, pattern, rules),
      onAsk: (request) => (request.patterns.some((p) => p.startsWith("secrets/")) ? new PermissionDeniedError("read", request.patterns[0]!) : undefined),
    });
    const result = await runTool(grepTool, { pattern: "KEY", include: "key.txt" }, harness.context);
    expect(result.output).not.toContain("hunter2");
    expect(result.output).toContain("a permission rule denies reading it: secrets/key.txt");
    const all = await runTool(grepTool, { pattern: "KEY" }, harness.context);
    expect(all.output).toContain("notes.txt:");
    expect(all.output).not.toContain("hunter2");
  });

  it("through the loop: the session's rules decide (user allow for .env searches it, default skips it)", async () => {
    const run = async (userRules: ReturnType<typeof ruleset>) => {
      const model = new ScriptedModel([tools([{ name: "grep", input: { pattern: "API_KEY" } }]), text("done")]);
      rig = await createRig({ models: { [MODEL.modelId]: model }, services: { tools: () => [grepTool] }, deps: { userRules: () => userRules } });
      for (const [path, content] of Object.entries(SECRET_FILES)) await rig.files.writeFile(path, content);
      const session = await rig.agent.createSession();
      const asked: string[] = [];
      rig.agent.bus.on("permission-asked", (request) => {
        asked.push(request.patterns.join(","));
        rig!.agent.replyPermission(request.id, "once");
      });
      await rig.agent.prompt(session.id, { text: "find keys" });
      const part = (await partsOf(rig.agent, session.id, "tool"))[0]!;
      rig.dispose();
      rig = undefined;
      return { output: part.type === "tool" && part.state.status === "completed" ? part.state.output : "", asked };
    };
    const defaults = await run([]);
    expect(defaults.output).toContain("src/config.ts:");
    expect(defaults.output).not.toContain("sk-live");
    expect(defaults.asked).toEqual([]);
    const allowed = await run(ruleset({ read: { "*.env": "allow", "*.env.*": "allow" } }));
    expect(allowed.output).toContain("sk-live-123456");
    expect(allowed.output).toContain("sk-local-abcdef");
  });
});

describe("output stays within the cap the model is sent", () => {
  it("grep stops at MAX_OUTPUT_BYTES and says so, even under the match cap", async () => {
    const long = "needle " + "x".repeat(1990);
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++) files[`f${i}.txt`] = Array.from({ length: 10 }, () => long).join("\n") + "\n";
    harness = await createToolHarness({ files });
    const result = await runTool(grepTool, { pattern: "needle" }, harness.context);
    expect(bytes(result.output)).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
    expect(result.output).toMatch(/^Found 100 matches \(showing the first \d+\)/);
    expect(result.output).toContain(`truncated at ${MAX_OUTPUT_BYTES / 1024} KB`);
    expect(result.metadata.truncated).toBe(true);
  });

  it("reading a folder with many long names stops at the byte cap and says how to continue", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`big/${String(i).padStart(3, "0")}-${"n".repeat(200)}.txt`] = "";
    harness = await createToolHarness({ files });
    const first = await runTool(readTool, { filePath: "big" }, harness.context);
    expect(bytes(first.output)).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
    const next = /Use offset=(\d+) to continue/.exec(first.output);
    expect(next).not.toBeNull();
    const offset = Number(next![1]);
    expect(offset).toBeGreaterThan(100);
    expect(offset).toBeLessThan(400);
    const second = await runTool(readTool, { filePath: "big", offset }, harness.context);
    expect(second.output).toContain(`${String(offset - 1).padStart(3, "0")}-`);
    expect(second.output).not.toContain(`${String(offset - 2).padStart(3, "0")}-`);
  });
});
