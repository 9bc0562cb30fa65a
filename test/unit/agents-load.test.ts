// Built-in agents (docs/agent.md, "Agents") and custom agents loaded from the workspace through WorkspaceFs.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../../src/storage";
import { WorkspaceFiles } from "../../src/runtime";
import { BUILTIN_AGENTS, affectsAgents, builtinAgent, loadAgents, loadAgentsWithProblems, type AgentInfo } from "../../src/agent/agents";
import { DEFAULT_RULES, decide, disabledTools, evaluate, mergeRules } from "../../src/agent/permission";
import { EXPLORE_PROMPT, TITLE_PROMPT } from "../../src/agent/prompt";

const TOOLS = ["read", "write", "edit", "apply_patch", "glob", "grep", "list", "bash", "task", "todowrite", "webfetch", "question"];

function rulesOf(agent: AgentInfo) {
  return mergeRules(DEFAULT_RULES, agent.permission);
}

/** Rules from workspace files: they only tighten rulesOf (decide). */
function limitsOf(agent: AgentInfo) {
  return agent.workspacePermission ?? [];
}

describe("built-in agents", () => {
  const get = (name: string) => builtinAgent(name)!;

  it("has the built-in agents with their modes", () => {
    expect(BUILTIN_AGENTS.map((a) => [a.name, a.mode, a.hidden ?? false])).toEqual([
      ["build", "primary", false],
      ["plan", "primary", false],
      ["general", "subagent", false],
      ["explore", "subagent", false],
      ["title", "primary", true],
      ["compaction", "primary", true],
      ["summary", "primary", true],
    ]);
    expect(BUILTIN_AGENTS.every((a) => a.builtIn && a.description.length > 0)).toBe(true);
  });

  it("build keeps the defaults and offers every tool", () => {
    expect(get("build").permission).toEqual([]);
    expect(disabledTools(TOOLS, rulesOf(get("build"))).size).toBe(0);
    expect(get("build").prompt).toBeUndefined();
  });

  it("plan denies edits except plan files and asks for bash", () => {
    const rules = rulesOf(get("plan"));
    expect(evaluate("edit", "src/app.ts", rules).action).toBe("deny");
    expect(evaluate("edit", ".webcode/plans/refactor.md", rules).action).toBe("allow");
    expect(evaluate("edit", ".webcode/plans/notes.txt", rules).action).toBe("deny");
    expect(evaluate("bash", "ls", rules).action).toBe("ask");
    expect(evaluate("read", "src/app.ts", rules).action).toBe("allow");
    // The edit tools stay offered so the plan file can be written.
    expect(disabledTools(TOOLS, rules).size).toBe(0);
  });

  it("general denies todowrite only", () => {
    expect([...disabledTools(TOOLS, rulesOf(get("general")))]).toEqual(["todowrite"]);
  });

  it("explore may only read, search and fetch", () => {
    const rules = rulesOf(get("explore"));
    expect([...disabledTools(TOOLS, rules)].sort()).toEqual(["apply_patch", "bash", "edit", "question", "task", "todowrite", "write"]);
    expect(evaluate("read", ".env", rules).action).toBe("allow");
    expect(get("explore").prompt).toBe(EXPLORE_PROMPT);
  });

  it("title, compaction and summary have their own prompts and no tools", () => {
    for (const name of ["title", "compaction", "summary"]) {
      expect(disabledTools(TOOLS, rulesOf(get(name))).size).toBe(TOOLS.length);
      expect(get(name).prompt?.length).toBeGreaterThan(100);
    }
    expect(get("title").prompt).toBe(TITLE_PROMPT);
  });

  it("hands out copies", () => {
    const copy = builtinAgent("plan")!;
    copy.permission.push({ permission: "*", pattern: "*", action: "allow" });
    expect(builtinAgent("plan")!.permission).toHaveLength(3);
  });
});

describe("loadAgents", () => {
  let storage: Storage;
  let fs: WorkspaceFiles;

  beforeEach(async () => {
    storage = await openStorage({ name: `agents-${Math.random()}` });
    fs = await WorkspaceFiles.open(storage, "ws");
  });
  afterEach(() => {
    fs.dispose();
    storage.close();
  });

  it("returns the built-ins for a workspace without agent files", async () => {
    const { agents, problems } = await loadAgentsWithProblems(fs);
    expect(agents.map((a) => a.name)).toEqual(BUILTIN_AGENTS.map((a) => a.name));
    expect(problems).toEqual([]);
  });

  it("loads a custom agent with every setting", async () => {
    await fs.writeFile(
      ".webcode/agent/reviewer.md",
      [
        "---",
        "description: Reviews changes for bugs and style",
        "mode: subagent",
        "model: openrouter/anthropic/claude-sonnet-4.5",
        "temperature: 0.1",
        "top_p: 0.9",
        "steps: 8",
        "color: '#cc6600'",
        "hidden: false",
        "permission:",
        "  edit: deny",
        "  bash:",
        '    "*": ask',
        '    "git diff *": allow',
        "---",
        "You review code. Be specific.",
        "",
      ].join("\n"),
    );
    const agents = await loadAgents(fs);
    const reviewer = agents.find((a) => a.name === "reviewer");
    expect(reviewer).toEqual({
      name: "reviewer",
      description: "Reviews changes for bugs and style",
      mode: "subagent",
      model: { providerId: "openrouter", modelId: "anthropic/claude-sonnet-4.5" },
      temperature: 0.1,
      topP: 0.9,
      steps: 8,
      color: "#cc6600",
      hidden: false,
      prompt: "You review code. Be specific.",
      permission: [],
      workspacePermission: [
        { permission: "edit", pattern: "*", action: "deny" },
        { permission: "bash", pattern: "*", action: "ask" },
        { permission: "bash", pattern: "git diff *", action: "allow" },
      ],
      builtIn: false,
      source: ".webcode/agent/reviewer.md",
    });
    expect(decide("bash", "git diff HEAD", rulesOf(reviewer!), limitsOf(reviewer!))).toBe("allow");
    expect(decide("bash", "ls", rulesOf(reviewer!), limitsOf(reviewer!))).toBe("ask");
  });

  it("merges a file named like a built-in over it", async () => {
    await fs.writeFile(".webcode/agent/build.md", "---\ntemperature: 0.3\npermission:\n  bash: ask\n---\n");
    await fs.writeFile(".webcode/agent/explore.md", "---\nsteps: 5\n---\nCustom explore prompt.");
    const agents = await loadAgents(fs);
    const build = agents.find((a) => a.name === "build")!;
    expect(build).toMatchObject({ mode: "primary", temperature: 0.3, builtIn: true, description: builtinAgent("build")!.description });
    // Shown as coming from the workspace, with its path; untouched built-ins have no source.
    expect(build.source).toBe(".webcode/agent/build.md");
    expect(agents.find((a) => a.name === "plan")!.source).toBeUndefined();
    expect(build.prompt).toBeUndefined();
    expect(decide("bash", "ls", rulesOf(build), limitsOf(build))).toBe("ask");
    const explore = agents.find((a) => a.name === "explore")!;
    expect(explore.prompt).toBe("Custom explore prompt.");
    expect(explore.steps).toBe(5);
    // The built-in's rules stay; the file's rules can only tighten them.
    expect(decide("edit", "a.ts", rulesOf(explore), limitsOf(explore))).toBe("deny");
  });

  it("reads .opencode/agent too, with .webcode winning for the same name", async () => {
    await fs.writeFile(".opencode/agent/docs.md", "---\ndescription: from opencode\nmode: primary\n---\nA");
    await fs.writeFile(".opencode/agent/only-oc.md", "---\ndescription: only here\n---\nB");
    await fs.writeFile(".webcode/agent/docs.md", "---\ndescription: from webcode\n---\n");
    const agents = await loadAgents(fs);
    expect(agents.find((a) => a.name === "docs")).toMatchObject({ description: "from webcode", mode: "primary", prompt: "A" });
    expect(agents.find((a) => a.name === "only-oc")).toMatchObject({ description: "only here", mode: "all", prompt: "B" });
  });

  it("maps the legacy tools map onto permissions", async () => {
    await fs.writeFile(".opencode/agent/readonly.md", "---\ndescription: d\ntools:\n  write: false\n  bash: false\n---\n");
    const agent = (await loadAgents(fs)).find((a) => a.name === "readonly")!;
    expect([...disabledTools(TOOLS, rulesOf(agent), limitsOf(agent))].sort()).toEqual(["apply_patch", "bash", "edit", "write"]);
  });

  it("disables agents with disable: true, built-ins included", async () => {
    await fs.writeFile(".webcode/agent/general.md", "---\ndisable: true\n---\n");
    const agents = await loadAgents(fs);
    expect(agents.some((a) => a.name === "general")).toBe(false);
  });

  it("reports invalid files as problems and keeps the rest", async () => {
    const bad: Record<string, string> = {
      "broken-yaml.md": "---\ndescription: \"a\" b\n---\n",
      "bad-mode.md": "---\ndescription: d\nmode: sometimes\n---\n",
      "bad-model.md": "---\ndescription: d\nmodel: gpt-5\n---\n",
      "bad-temp.md": "---\ndescription: d\ntemperature: 9\n---\n",
      "bad-steps.md": "---\ndescription: d\nsteps: 1.5\n---\n",
      "bad-permission.md": "---\ndescription: d\npermission:\n  edit: sometimes\n---\n",
      "no-description.md": "Just a prompt",
      "bad name.md": "---\ndescription: d\n---\n",
      "unclosed.md": "---\ndescription: d\n",
    };
    for (const [name, text] of Object.entries(bad)) await fs.writeFile(`.webcode/agent/${name}`, text);
    await fs.writeFile(".webcode/agent/good.md", "---\ndescription: fine\nfavourite: blue\n---\nok");
    await fs.writeFile(".webcode/agent/notes.txt", "not an agent");
    const { agents, problems } = await loadAgentsWithProblems(fs);
    expect(agents.map((a) => a.name)).toContain("good");
    for (const name of Object.keys(bad)) expect(agents.map((a) => a.name)).not.toContain(name.replace(".md", ""));
    const skipped = problems.filter((p) => p.message.startsWith("This agent file was skipped"));
    expect(skipped.map((p) => p.path).sort()).toEqual(Object.keys(bad).map((n) => `.webcode/agent/${n}`).sort());
    expect(problems.find((p) => p.path.endsWith("bad-model.md"))!.message).toMatch(/provider\/model/);
    expect(problems.find((p) => p.path.endsWith("bad-temp.md"))!.message).toMatch(/between 0 and 2/);
    expect(problems.find((p) => p.path.endsWith("no-description.md"))!.message).toMatch(/needs a "description"/);
    expect(problems.find((p) => p.path.endsWith("broken-yaml.md"))!.message).toMatch(/line 2/);
    // Unknown settings are reported but do not stop the agent from loading.
    expect(problems.find((p) => p.path.endsWith("good.md"))!.message).toMatch(/Unknown setting "favourite" was ignored/);
    const reported: string[] = [];
    await loadAgents(fs, (p) => reported.push(p.path));
    expect(reported.length).toBe(problems.length);
  });
});

describe("workspace agent files only tighten (issue 3, item 6)", () => {
  let storage: Storage;
  let fs: WorkspaceFiles;
  beforeEach(async () => {
    storage = await openStorage({ name: `agents-limits-${Math.random()}` });
    fs = await WorkspaceFiles.open(storage, "ws");
  });
  afterEach(() => storage.close());

  it("a shipped build.md with bash/read allow keeps the user's asks and the .env ask", async () => {
    await fs.writeFile(".webcode/agent/build.md", "---\npermission:\n  bash: allow\n  read: allow\n  edit: allow\n---\n");
    await fs.writeFile(".opencode/agent/plan.md", "---\npermission:\n  edit: allow\n---\n");
    const agents = await loadAgents(fs);
    const build = agents.find((a) => a.name === "build")!;
    const user = [{ permission: "bash", pattern: "*", action: "ask" as const }];
    const rules = mergeRules(DEFAULT_RULES, user, build.permission);
    expect(decide("bash", "curl x | sh", rules, limitsOf(build))).toBe("ask");
    expect(decide("read", ".env", rules, limitsOf(build))).toBe("ask");
    expect(decide("read", "src/a.ts", rules, limitsOf(build))).toBe("allow");
    // The built-in plan agent's own edit deny keeps its place.
    const plan = agents.find((a) => a.name === "plan")!;
    expect(decide("edit", "src/a.ts", rulesOf(plan), limitsOf(plan))).toBe("deny");
    expect(decide("edit", ".webcode/plans/x.md", rulesOf(plan), limitsOf(plan))).toBe("allow");
  });

  it("a new workspace agent cannot allow what the defaults ask", async () => {
    await fs.writeFile(".webcode/agent/helper.md", "---\ndescription: helps\npermission:\n  '*': allow\n---\nHelp.");
    const helper = (await loadAgents(fs)).find((a) => a.name === "helper")!;
    expect(helper.permission).toEqual([]);
    expect(decide("read", ".env", rulesOf(helper), limitsOf(helper))).toBe("ask");
    expect(decide("external_directory", "/etc", rulesOf(helper), limitsOf(helper))).toBe("ask");
  });
});

describe("which workspace changes reload the agents", () => {
  it("files in any agent folder, and folders above them; nothing else", () => {
    for (const path of [".webcode/agent/build.md", ".webcode/agents/x.md", ".opencode/agent/y.md", ".opencode/agents", ".webcode", ""]) {
      expect(affectsAgents(path), path).toBe(true);
    }
    for (const path of ["src/agent/build.md", ".webcode/command/review.md", ".webcode/agentsmith.md", "README.md"]) {
      expect(affectsAgents(path), path).toBe(false);
    }
  });
});
