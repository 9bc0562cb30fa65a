// Session grants ("Always allow") only answer asks: a configured deny stands whatever was granted,
// in any agent of the session (issue 3, item 2). Rules from workspace agent files only tighten
// (item 6). Unit level on the rule engine and manager, then through the loop.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { builtinAgent, loadAgents } from "../../src/agent/agents";
import {
  DEFAULT_RULES,
  PermissionManager,
  decide,
  disabledTools,
  mergeRules,
  ruleset,
  type PendingPermission,
} from "../../src/agent/permission";
import type { ToolDefinition } from "../../src/agent/tools/tool";
import { MODEL, ScriptedModel, TEST_AGENTS, createRig, partsOf, text, tools, type Rig } from "./agent-harness";

function outcome(promise: Promise<void>): Promise<string> {
  return promise.then(
    () => "allowed",
    (error: Error) => error.name,
  );
}

const editRequest = (path: string) => ({ permission: "edit", patterns: [path], always: ["*"], metadata: {} });

describe("session grants never override a deny", () => {
  it("an 'always' given in build mode does not let plan edit source files", async () => {
    const asked: PendingPermission[] = [];
    const manager = new PermissionManager({ onAsked: (p) => asked.push(p) });
    const build = mergeRules(DEFAULT_RULES, ruleset({ edit: "ask" }));
    const first = outcome(manager.ask({ sessionId: "s", request: editRequest("src/a.ts"), rules: build }));
    expect(asked).toHaveLength(1);
    manager.reply(asked[0]!.id, "always");
    expect(await first).toBe("allowed");
    // Same session, now the plan agent: its edit deny stands.
    const plan = mergeRules(DEFAULT_RULES, builtinAgent("plan")!.permission);
    expect(await outcome(manager.ask({ sessionId: "s", request: editRequest("src/b.ts"), rules: plan }))).toBe("PermissionDeniedError");
    expect(await outcome(manager.ask({ sessionId: "s", request: editRequest(".webcode/plans/p.md"), rules: plan }))).toBe("allowed");
    // Back in build mode the grant still answers the ask.
    expect(await outcome(manager.ask({ sessionId: "s", request: editRequest("src/c.ts"), rules: build }))).toBe("allowed");
    expect(asked).toHaveLength(1);
  });

  it("with edit {'*': ask, 'secrets/*': deny}, an 'always' for '*' still denies secrets/key", async () => {
    const asked: PendingPermission[] = [];
    const manager = new PermissionManager({ onAsked: (p) => asked.push(p) });
    const rules = mergeRules(DEFAULT_RULES, ruleset({ edit: { "*": "ask", "secrets/*": "deny" } }));
    const first = outcome(manager.ask({ sessionId: "s", request: editRequest("src/a.ts"), rules }));
    manager.reply(asked[0]!.id, "always");
    expect(await first).toBe("allowed");
    expect(await outcome(manager.ask({ sessionId: "s", request: editRequest("secrets/key"), rules }))).toBe("PermissionDeniedError");
    expect(await outcome(manager.ask({ sessionId: "s", request: editRequest("src/z.ts"), rules }))).toBe("allowed");
  });

  it("a grant does not override a workspace limit's deny either", async () => {
    const asked: PendingPermission[] = [];
    const manager = new PermissionManager({ onAsked: (p) => asked.push(p) });
    const rules = mergeRules(DEFAULT_RULES, ruleset({ bash: "ask" }));
    const bash = (command: string) => ({ permission: "bash", patterns: [command], always: ["*"], metadata: {} });
    const first = outcome(manager.ask({ sessionId: "s", request: bash("ls"), rules }));
    manager.reply(asked[0]!.id, "always");
    expect(await first).toBe("allowed");
    const limits = ruleset({ bash: { "curl *": "deny" } });
    expect(await outcome(manager.ask({ sessionId: "s", request: bash("curl x"), rules, limits }))).toBe("PermissionDeniedError");
    expect(await outcome(manager.ask({ sessionId: "s", request: bash("pwd"), rules, limits }))).toBe("allowed");
  });
});

describe("decide: workspace limits only tighten", () => {
  const base = mergeRules(DEFAULT_RULES, ruleset({ bash: "ask" }));

  it("cannot loosen an ask or a deny, can tighten an allow", () => {
    const limits = ruleset({ bash: "allow", read: { "*": "allow", "src/*": "deny" } });
    expect(decide("bash", "ls", base, limits)).toBe("ask");
    expect(decide("read", ".env", base, limits)).toBe("ask");
    expect(decide("read", "src/a.ts", base, limits)).toBe("deny");
    expect(decide("read", "README.md", base, limits)).toBe("allow");
    expect(decide("edit", "a.ts", base, ruleset({ edit: "ask" }))).toBe("ask");
  });

  it("a narrower workspace allow inside a wider deny keeps the base decision there", () => {
    const limits = ruleset({ edit: { "*": "deny", "docs/*": "allow" } });
    expect(decide("edit", "docs/a.md", base, limits)).toBe("allow");
    expect(decide("edit", "src/a.ts", base, limits)).toBe("deny");
    expect(decide("edit", "docs/a.md", mergeRules(base, ruleset({ edit: "ask" })), limits)).toBe("ask");
  });

  it("disabledTools hides a tool that the limits deny outright, and only then", () => {
    const toolsList = ["read", "edit", "write", "bash"];
    expect([...disabledTools(toolsList, base, ruleset({ edit: "deny" }))].sort()).toEqual(["edit", "write"]);
    expect([...disabledTools(toolsList, base, ruleset({ edit: { "*": "deny", "docs/*": "allow" } }))]).toEqual([]);
    // A limit allow never re-enables a tool the configured rules deny.
    expect([...disabledTools(toolsList, mergeRules(base, ruleset({ bash: "deny" })), ruleset({ bash: "allow" }))]).toEqual(["bash"]);
  });
});

// ---- through the loop -------------------------------------------------------------------------

/** An edit-family tool that asks like the real edit tool: pattern the path, "always" for every path. */
const editLike: ToolDefinition = {
  id: "edit",
  description: "Edits a file.",
  parameters: z.object({ path: z.string(), content: z.string() }),
  async execute(args: { path: string; content: string }, context) {
    await context.ask({ permission: "edit", patterns: [args.path], always: ["*"], metadata: {} });
    await context.runtime.fs.writeFile(args.path, args.content, { source: "agent" });
    return { title: args.path, output: `wrote ${args.path}`, metadata: {} };
  },
};

let rig: Rig | undefined;
afterEach(() => rig?.dispose());

async function toolErrors(sessionId: string): Promise<string[]> {
  return (await partsOf(rig!.agent, sessionId, "tool")).flatMap((p) => (p.type === "tool" && p.state.status === "error" ? [p.state.error] : []));
}

describe("through the loop", () => {
  it("after 'Always allow' in build mode, plan still cannot edit and secrets/* stays denied", async () => {
    const model = new ScriptedModel([
      tools([{ name: "edit", input: { path: "src/a.ts", content: "a" } }]),
      text("done a"),
      tools([{ name: "edit", input: { path: "secrets/key", content: "k" } }]),
      text("done secrets"),
      tools([{ name: "edit", input: { path: "src/b.ts", content: "b" } }]),
      text("done b"),
    ]);
    rig = await createRig({
      models: { [MODEL.modelId]: model },
      services: { tools: () => [editLike], loadAgents: async () => [...TEST_AGENTS, builtinAgent("plan")!] },
      deps: { userRules: () => ruleset({ edit: { "*": "ask", "secrets/*": "deny" } }) },
    });
    const session = await rig.agent.createSession();
    let asks = 0;
    rig.agent.bus.on("permission-asked", (request) => {
      asks++;
      rig!.agent.replyPermission(request.id, "always");
    });
    await rig.agent.prompt(session.id, { text: "edit a" });
    expect(await rig.files.readText("src/a.ts")).toBe("a");
    await rig.agent.prompt(session.id, { text: "edit the secret" });
    expect(await rig.files.exists("secrets/key")).toBe(false);
    await rig.agent.prompt(session.id, { text: "plan: edit b", agent: "plan" });
    expect(await rig.files.exists("src/b.ts")).toBe(false);
    expect(asks).toBe(1);
    const errors = await toolErrors(session.id);
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => /permission rule denies edit/.test(e))).toBe(true);
  });

  it("a workspace build.md cannot loosen the user's asks (bash, .env reads)", async () => {
    const probe: ToolDefinition = {
      id: "probe",
      description: "Asks bash and read.",
      parameters: z.object({}),
      async execute(_args, context) {
        await context.ask({ permission: "bash", patterns: ["curl evil.example"], always: ["curl *"], metadata: {} });
        await context.ask({ permission: "read", patterns: [".env"], always: [".env"], metadata: {} });
        return { title: "probe", output: "ran", metadata: {} };
      },
    };
    const model = new ScriptedModel([tools([{ name: "probe", input: {} }]), text("done")]);
    rig = await createRig({
      models: { [MODEL.modelId]: model },
      services: { tools: () => [probe], loadAgents: (runtime) => loadAgents(runtime.fs) },
      deps: { userRules: () => ruleset({ bash: "ask" }) },
    });
    await rig.files.writeFile(".webcode/agent/build.md", "---\npermission:\n  bash: allow\n  read: allow\n  probe: allow\n---\n");
    const session = await rig.agent.createSession();
    const asked: string[] = [];
    rig.agent.bus.on("permission-asked", (request) => {
      asked.push(`${request.permission} ${request.patterns.join(",")}`);
      rig!.agent.replyPermission(request.id, "once");
    });
    await rig.agent.prompt(session.id, { text: "probe" });
    expect(asked).toEqual(["bash curl evil.example", "read .env"]);
  });

  it("a workspace agent file can still tighten: deny removes the tool, ask adds a card", async () => {
    const model = new ScriptedModel([tools([{ name: "put", input: { path: "a.txt", content: "x" } }]), text("done")]);
    rig = await createRig({
      models: { [MODEL.modelId]: model },
      services: { loadAgents: (runtime) => loadAgents(runtime.fs) },
    });
    await rig.files.writeFile(".webcode/agent/build.md", "---\npermission:\n  echo: deny\n  edit: ask\n---\n");
    const session = await rig.agent.createSession();
    const asked: string[] = [];
    rig.agent.bus.on("permission-asked", (request) => {
      asked.push(`${request.permission} ${request.patterns.join(",")}`);
      rig!.agent.replyPermission(request.id, "once");
    });
    await rig.agent.prompt(session.id, { text: "go" });
    expect(model.toolNames(0)).not.toContain("echo");
    expect(model.toolNames(0)).toContain("put");
    expect(asked).toEqual(["edit a.txt"]);
    expect(await rig.files.readText("a.txt")).toBe("x");
  });
});
