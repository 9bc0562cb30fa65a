// Assembly of the system prompt (docs/agent.md, "System prompt and environment block") and the AGENTS.md files found for the read tool.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../../src/storage";
import { WorkspaceFiles, type Runtime, type RuntimeCapabilities, type RuntimeKind } from "../../src/runtime";
import { builtinAgent } from "../../src/agent/agents";
import {
  FAMILY_PROMPTS,
  MAX_INSTRUCTION_BYTES,
  PLAN_REMINDER,
  buildSystemPrompt,
  describeRuntime,
  loadDirectoryInstructions,
} from "../../src/agent/prompt";

let storage: Storage;
let fs: WorkspaceFiles;

beforeEach(async () => {
  storage = await openStorage({ name: `prompt-${Math.random()}` });
  fs = await WorkspaceFiles.open(storage, "ws");
});
afterEach(() => {
  fs.dispose();
  storage.close();
});

function runtime(kind: RuntimeKind, capabilities: RuntimeCapabilities): Runtime {
  const unused = () => {
    throw new Error("not used by the system prompt");
  };
  return { kind, capabilities, fs, exec: unused, openShell: unused, onServerReady: unused, dispose: () => {} };
}

const WEBCONTAINER = { node: true, npm: true, servers: true };
const BROWSER = { node: false, npm: true, servers: false };
const date = new Date(2026, 10, 21, 12, 0, 0);

function build(overrides: Partial<Parameters<typeof buildSystemPrompt>[0]> = {}) {
  return buildSystemPrompt({
    agent: builtinAgent("build")!,
    model: { providerId: "anthropic", modelId: "claude-sonnet-4-5" },
    modelName: "Claude Sonnet 4.5",
    runtime: runtime("browser", BROWSER),
    date,
    ...overrides,
  });
}

describe("buildSystemPrompt", () => {
  it("starts with the model family's prompt when the agent has none", async () => {
    expect((await build()).startsWith(FAMILY_PROMPTS.anthropic)).toBe(true);
    const gpt = await build({ model: { providerId: "openai", modelId: "gpt-5" } });
    expect(gpt.startsWith(FAMILY_PROMPTS["openai-reasoning"])).toBe(true);
    const local = await build({ model: { providerId: "ollama", modelId: "qwen3" } });
    expect(local.startsWith(FAMILY_PROMPTS.default)).toBe(true);
  });

  it("uses the agent's own prompt instead", async () => {
    const text = await build({ agent: builtinAgent("explore")! });
    expect(text.startsWith(builtinAgent("explore")!.prompt!)).toBe(true);
    expect(text).not.toContain(FAMILY_PROMPTS.anthropic);
  });

  it("has an environment block with model, root, git, runtime and date", async () => {
    const text = await build();
    expect(text).toContain("<env>");
    expect(text).toContain("Model: Claude Sonnet 4.5 (anthropic/claude-sonnet-4-5)");
    expect(text).toContain("Workspace root:");
    expect(text).toContain("Git repository: no");
    expect(text).toContain("Runtime: browser fallback");
    expect(text).toContain("Can run: npm and npx (pure-JavaScript packages)");
    expect(text).toMatch(/git \(init, status, add, rm, mv, commit, log, diff, show, branch, switch, checkout, restore, reset, stash, tag; no merge or rebase\)/);
    expect(text).toContain("Not available: node, dev servers\n");
    // What the browser runtime's npm leaves to WebContainer is said, so the model does not claim it ran.
    expect(text).toMatch(/Install scripts are not run; packages with native code .* needing WebContainer and do not run here/);
    expect(text).toContain("node_modules/.bin on PATH");
    expect(text).toContain(`Today's date: ${date.toDateString()}`);
    await fs.mkdir(".git");
    expect(await build()).toContain("Git repository: yes");
  });

  it("tells the model python3 runs in the browser runtime when it is there, and what it lacks", () => {
    const text = describeRuntime({ kind: "browser", capabilities: { node: false, npm: false, servers: false, python: true } });
    expect(text).toMatch(/Can run: .*python3 \(CPython 3\.14 via Pyodide: FILE, -c, -m unittest\/doctest\/json\.tool, -m pytest once installed; stdin from a pipe, not typed\), pip \(install NAME/);
    expect(text).toContain("pure-Python wheels only");
    expect(describeRuntime({ kind: "browser", capabilities: { node: false, npm: false, servers: false } })).not.toContain("python3");
  });

  it("describes what a WebContainer can run", () => {
    const text = describeRuntime({ kind: "webcontainer", capabilities: WEBCONTAINER });
    expect(text).toContain("Runtime: WebContainer");
    expect(text).toMatch(/Can run: node, npm, dev servers/);
    // git, pip and python3 run in the browser runtime after the move (issue 32).
    expect(text).not.toContain("Not available: git");
    expect(text).toMatch(/git, pip and python3 run in webcode's browser runtime/);
    expect(describeRuntime({ kind: "webcontainer", capabilities: { node: true, npm: true, servers: false } })).toContain("Not available: dev servers");
  });

  it("says what the browser runtime's node runs and what still needs WebContainer", () => {
    const text = describeRuntime({ kind: "browser", capabilities: { node: true, npm: false, servers: false } });
    expect(text).toContain("Can run: node");
    expect(text).toContain("Not available: npm, dev servers\n");
    expect(text).toMatch(/node --test/);
    expect(text).toMatch(/child_process \(spawn, exec, execSync, fork…\) runs commands as children; worker_threads' Worker runs threads/);
    expect(text).toMatch(/cannot run raw net sockets, http requests to other hosts or native addons .* need WebContainer/);
    expect(text).toContain("reached as localhost:PORT by curl");
    expect(describeRuntime({ kind: "browser", capabilities: { node: false, npm: false, servers: false } })).not.toMatch(/node --test/);
  });

  it("tells the model which commands WebContainer's jsh lacks, what to use instead, and how to keep a dev server running", () => {
    const text = describeRuntime({ kind: "webcontainer", capabilities: WEBCONTAINER });
    expect(text).toMatch(/Shell: jsh \(not bash\)/);
    const missing = text.match(/No ([^:]+):/)![1]!;
    for (const command of ["grep", "sed", "find", "awk"]) expect(missing).toContain(command);
    expect(text).toMatch(/use the grep, glob, read and edit tools/);
    expect(text).toMatch(/npm run dev &/);
    expect(describeRuntime({ kind: "webcontainer", capabilities: { node: true, npm: true, servers: false } })).not.toMatch(/npm run dev &/);
    // The browser runtime has those text commands; it is not told otherwise.
    expect(describeRuntime({ kind: "browser", capabilities: { node: false, npm: false, servers: false } })).not.toMatch(/jsh|No grep/);
  });

  it("adds AGENTS.md from the root, else CLAUDE.md, with its path", async () => {
    expect(await build()).not.toContain("Instructions from:");
    await fs.writeFile("CLAUDE.md", "Use tabs.");
    expect(await build()).toContain("Instructions from: CLAUDE.md\nUse tabs.");
    await fs.writeFile("AGENTS.md", "Run npm test before finishing.\n");
    const text = await build();
    expect(text).toContain("Instructions from: AGENTS.md\nRun npm test before finishing.");
    expect(text).not.toContain("Use tabs.");
  });

  it("cuts huge instruction files", async () => {
    await fs.writeFile("AGENTS.md", "x".repeat(MAX_INSTRUCTION_BYTES + 5000));
    const text = await build();
    expect(text).toContain("[truncated: AGENTS.md");
    expect(text.length).toBeLessThan(MAX_INSTRUCTION_BYTES + 6000);
  });

  it("ends with the per-turn system text and reminders, in that order", async () => {
    await fs.writeFile("AGENTS.md", "Project rules.");
    const text = await build({ userSystem: "Answer in French.", reminders: [PLAN_REMINDER, "  "] });
    const order = [FAMILY_PROMPTS.anthropic.slice(0, 40), "<env>", "Instructions from: AGENTS.md", "Answer in French.", PLAN_REMINDER];
    const positions = order.map((piece) => text.indexOf(piece));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(text.endsWith(PLAN_REMINDER)).toBe(true);
  });

  it("stays within its share of the 15 KB first-request budget", async () => {
    // Tool descriptions take about 7 KB of the 15 KB; the system prompt must leave room for them.
    for (const modelId of ["claude-sonnet-4-5", "gpt-5", "gpt-4.1", "gemini-2.5-pro", "qwen3"]) {
      const text = await build({ model: { providerId: "p", modelId }, runtime: runtime("webcontainer", WEBCONTAINER) });
      expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(3500);
    }
  });
});

describe("loadDirectoryInstructions", () => {
  it("finds AGENTS.md between the file and the root, outermost first, once per session", async () => {
    await fs.writeFile("AGENTS.md", "root");
    await fs.writeFile("packages/AGENTS.md", "packages rules");
    await fs.writeFile("packages/app/CLAUDE.md", "app rules");
    await fs.writeFile("packages/app/src/deep/file.ts", "x");
    const loaded = new Set<string>();
    const found = await loadDirectoryInstructions(fs, "packages/app/src/deep/file.ts", loaded);
    expect(found).toEqual([
      { path: "packages/AGENTS.md", text: "packages rules" },
      { path: "packages/app/CLAUDE.md", text: "app rules" },
    ]);
    expect([...loaded]).toEqual(["packages/AGENTS.md", "packages/app/CLAUDE.md"]);
    expect(await loadDirectoryInstructions(fs, "packages/app/other.ts", loaded)).toEqual([]);
  });

  it("skips the root (already in the system prompt) and the file itself", async () => {
    await fs.writeFile("AGENTS.md", "root");
    await fs.writeFile("a/AGENTS.md", "a rules");
    expect(await loadDirectoryInstructions(fs, "top.ts", new Set())).toEqual([]);
    expect(await loadDirectoryInstructions(fs, "a/AGENTS.md", new Set())).toEqual([]);
  });
});
