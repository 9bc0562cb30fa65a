// OpenCode's opencode.json / opencode.jsonc in a workspace: JSON with comments and trailing commas;
// parse errors reported with file, line and column (never thrown); `permission` only tightens every
// agent; `agent` defines and overrides agents (agent files still win); `instructions` adds files to
// the system prompt; a bad `model` is a problem.
import { afterEach, describe, expect, it } from "vitest";
import { JsoncError, affectsAgents, builtinAgent, loadAgentsWithProblems, loadOpencodeConfig, parseJsonc, type AgentInfo } from "../../src/agent/agents";
import { DEFAULT_RULES, decide, mergeRules } from "../../src/agent/permission";
import { loadConfigInstructions } from "../../src/agent/prompt/instructions";
import { buildSystemPrompt } from "../../src/agent/prompt";
import { createToolHarness, type ToolHarness } from "../support/tool-context";
import { MODEL, createRig } from "./agent-harness";

let harness: ToolHarness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

async function workspace(files: Record<string, string>) {
  harness = await createToolHarness({ files });
  return harness.files;
}

const allowed = (agent: AgentInfo, permission: string, pattern: string) =>
  decide(permission, pattern, mergeRules(DEFAULT_RULES, agent.permission), agent.workspacePermission ?? []);

describe("JSONC", () => {
  it("allows comments and trailing commas, keeps // inside strings", () => {
    const text = '{\n  // a comment\n  "url": "http://x//y", /* block */\n  "list": [1, 2,],\n}\n';
    expect(parseJsonc(text)).toEqual({ url: "http://x//y", list: [1, 2] });
  });

  it("reports where it breaks", () => {
    const at = (text: string) => {
      try {
        parseJsonc(text);
      } catch (error) {
        if (error instanceof JsoncError) return [error.line, error.column];
        throw error;
      }
      return undefined;
    };
    expect(at('{\n  "a": 1\n  "b": 2\n}')).toEqual([3, 3]);
    expect(at('{\n  "a": "open\n}')![0]).toBe(2);
    expect(at("{\n  /* never closed\n}")).toEqual([2, 3]);
  });
});

describe("opencode.json", () => {
  it("a parse error is a problem with file, line and column, and the agents still load", async () => {
    const fs = await workspace({ "opencode.jsonc": '{\n  "permission": { "edit": "deny" }\n  "agent": {}\n}\n' });
    const { agents, problems } = await loadAgentsWithProblems(fs);
    expect(problems).toEqual([{ path: "opencode.jsonc:3:3", message: expect.stringMatching(/^This config file was skipped: .+\.$/) }]);
    expect(agents.find((a) => a.name === "build")!.workspacePermission).toBeUndefined();
  });

  it("permission only tightens every agent: a deny holds, an allow does not loosen an ask", async () => {
    const fs = await workspace({ "opencode.json": JSON.stringify({ permission: { edit: "deny", bash: { "*": "allow" }, read: { ".env": "allow" } } }) });
    const { agents, problems } = await loadAgentsWithProblems(fs);
    expect(problems).toEqual([]);
    const build = agents.find((a) => a.name === "build")!;
    expect(allowed(builtinAgent("build")!, "edit", "src/a.ts")).toBe("allow");
    expect(allowed(build, "edit", "src/a.ts")).toBe("deny");
    // The config's allows change nothing: .env still asks, bash stays what the defaults say.
    expect(allowed(builtinAgent("build")!, "read", ".env")).toBe("ask");
    expect(allowed(build, "read", ".env")).toBe("ask");
    expect(allowed(build, "bash", "rm -rf x")).toBe(allowed(builtinAgent("build")!, "bash", "rm -rf x"));
    expect(agents.every((a) => (a.workspacePermission ?? []).some((r) => r.permission === "edit" && r.action === "deny"))).toBe(true);
  });

  it("defines and overrides agents; an agent file of the same name wins; bad entries are problems", async () => {
    const fs = await workspace({
      "opencode.json": JSON.stringify({
        agent: {
          reviewer: { description: "Reviews code", mode: "subagent", prompt: "You review.", model: "anthropic/claude-x", permission: { edit: "deny" } },
          plan: { temperature: 0.1 },
          docs: { description: "From config", prompt: "config prompt" },
          broken: { mode: "sideways" },
        },
      }),
      ".opencode/agent/docs.md": "---\ndescription: From the file\n---\nfile prompt\n",
    });
    const { agents, problems } = await loadAgentsWithProblems(fs);
    const reviewer = agents.find((a) => a.name === "reviewer")!;
    expect(reviewer).toMatchObject({ description: "Reviews code", mode: "subagent", prompt: "You review.", model: { providerId: "anthropic", modelId: "claude-x" }, source: "opencode.json" });
    expect(allowed(reviewer, "edit", "a.ts")).toBe("deny");
    expect(agents.find((a) => a.name === "plan")!.temperature).toBe(0.1);
    expect(agents.find((a) => a.name === "docs")).toMatchObject({ description: "From the file", prompt: "file prompt" });
    expect(agents.find((a) => a.name === "broken")).toBeUndefined();
    expect(problems).toEqual([{ path: "opencode.json", message: expect.stringContaining('Agent "broken" was skipped: "mode" must be primary, subagent or all') }]);
    expect(affectsAgents("opencode.json")).toBe(true);
    expect(affectsAgents("opencode.jsonc")).toBe(true);
  });

  it("instructions add workspace files (paths and globs) to the system prompt; URLs and outside paths are skipped", async () => {
    const fs = await workspace({
      "opencode.jsonc": '{ "instructions": ["docs/style.md", "rules/*.md", "https://example.com/x.md", "../outside.md", "missing.md"], "model": "openai/gpt-x" }',
      "docs/style.md": "Use tabs.",
      "rules/a.md": "Rule A.",
      "rules/b.md": "Rule B.",
      "AGENTS.md": "Root instructions.",
    });
    expect((await loadConfigInstructions(fs)).map((f) => f.path)).toEqual(["docs/style.md", "rules/a.md", "rules/b.md"]);
    const { config, problems } = await loadOpencodeConfig(fs);
    expect(problems).toEqual([]);
    expect(config.model).toEqual({ providerId: "openai", modelId: "gpt-x" });
    const prompt = await buildSystemPrompt({
      agent: builtinAgent("build")!,
      model: { providerId: "openai", modelId: "gpt-x" },
      modelName: "GPT X",
      runtime: harness!.runtime,
      date: new Date(0),
    });
    expect(prompt).toContain("Instructions from: AGENTS.md\nRoot instructions.");
    expect(prompt).toContain("Instructions from: docs/style.md\nUse tabs.");
    expect(prompt.indexOf("Rule A.")).toBeLessThan(prompt.indexOf("Rule B."));
  });

  it("a wrong model or instructions value is a problem", async () => {
    const fs = await workspace({ "opencode.json": '{ "model": "gpt", "instructions": "a.md" }' });
    const { problems } = await loadOpencodeConfig(fs);
    expect(problems.map((p) => p.message)).toEqual([
      '"instructions" must be a list of file paths or globs; it was ignored.',
      '"model" must look like "provider/model"; it was ignored.',
    ]);
  });

  it("model is a hint for new sessions only when the user has no default model", async () => {
    const withoutDefault = await createRig({ deps: { defaultModel: () => undefined } });
    const withDefault = await createRig({});
    try {
      for (const rig of [withoutDefault, withDefault]) await rig.files.writeFile("opencode.json", '{ "model": "openai/gpt-hint" }');
      expect((await withoutDefault.agent.createSession()).model).toEqual({ providerId: "openai", modelId: "gpt-hint" });
      expect((await withDefault.agent.createSession()).model).toEqual(MODEL);
    } finally {
      withoutDefault.dispose();
      withDefault.dispose();
    }
  });
});
