// Spec §5: wildcards, the config form, last-match evaluation across rulesets, defaults, disabled tools.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_RULES,
  PermissionConfigError,
  disabledTools,
  evaluate,
  isNetworkPermission,
  mergeRules,
  networkRules,
  ruleset,
  toolPermission,
  wildcardMatch,
  type Rule,
} from "../../src/agent/permission";
import { builtinAgent } from "../../src/agent/agents";

describe("wildcardMatch", () => {
  it("matches * as any run (also across /) and ? as one character", () => {
    expect(wildcardMatch("src/a/b.ts", "src/*.ts")).toBe(true);
    expect(wildcardMatch("src/a.js", "src/*.ts")).toBe(false);
    expect(wildcardMatch("a.md", "?.md")).toBe(true);
    expect(wildcardMatch("ab.md", "?.md")).toBe(false);
    expect(wildcardMatch("", "*")).toBe(true);
  });

  it("matches the whole text, not a substring", () => {
    expect(wildcardMatch("xgit status", "git status")).toBe(false);
    expect(wildcardMatch("git statusx", "git status")).toBe(false);
    expect(wildcardMatch("git status", "git status")).toBe(true);
  });

  it("lets a trailing ' *' also match the bare command", () => {
    expect(wildcardMatch("git status", "git status *")).toBe(true);
    expect(wildcardMatch("git status --short", "git status *")).toBe(true);
    expect(wildcardMatch("git statuses", "git status *")).toBe(false);
    expect(wildcardMatch("git", "git status *")).toBe(false);
  });

  it("treats regex characters literally", () => {
    expect(wildcardMatch("a+b(c).[d]$^|{1}\\", "a+b(c).[d]$^|{1}\\")).toBe(true);
    expect(wildcardMatch("aab", "a+b")).toBe(false);
    expect(wildcardMatch("file.ts", "file?ts")).toBe(true);
    expect(wildcardMatch("filexts", "file.ts")).toBe(false);
  });

  it("matches multi-line commands", () => {
    expect(wildcardMatch("echo a\necho b", "echo *")).toBe(true);
  });
});

describe("ruleset", () => {
  it("turns the config form into ordered flat rules", () => {
    expect(ruleset({ bash: "ask", edit: { "*.md": "allow", "*": "ask" } })).toEqual([
      { permission: "bash", pattern: "*", action: "ask" },
      { permission: "edit", pattern: "*.md", action: "allow" },
      { permission: "edit", pattern: "*", action: "ask" },
    ]);
  });

  it("refuses unknown actions with a message naming the key", () => {
    expect(() => ruleset({ bash: "maybe" as never })).toThrow(PermissionConfigError);
    expect(() => ruleset({ edit: { "*.md": "yes" as never } })).toThrow(/edit.*\*\.md/);
    expect(() => ruleset({ edit: ["allow"] as never })).toThrow(/map of patterns/);
  });
});

describe("evaluate", () => {
  it("lets the last matching rule win within one ruleset", () => {
    const rules = ruleset({ edit: { "*": "ask", "*.md": "allow" } });
    expect(evaluate("edit", "README.md", rules).action).toBe("allow");
    expect(evaluate("edit", "src/a.ts", rules).action).toBe("ask");
    // Order matters: a catch-all after a narrow rule overrides it.
    const reversed = ruleset({ edit: { "*.md": "allow", "*": "ask" } });
    expect(evaluate("edit", "README.md", reversed).action).toBe("ask");
  });

  it("lets later rulesets override earlier ones (defaults, user, agent, session)", () => {
    const defaults = ruleset({ "*": "allow" });
    const user = ruleset({ bash: "ask" });
    const agent = ruleset({ bash: { "npm test *": "allow" } });
    const session: Rule[] = [{ permission: "bash", pattern: "git *", action: "allow" }];
    expect(evaluate("bash", "ls", defaults, user, agent, session).action).toBe("ask");
    expect(evaluate("bash", "npm test", defaults, user, agent, session).action).toBe("allow");
    expect(evaluate("bash", "git log", defaults, user, agent, session).action).toBe("allow");
    expect(evaluate("read", "a.ts", defaults, user, agent, session).action).toBe("allow");
    // A user deny beats the defaults but a later agent allow beats the user.
    expect(evaluate("bash", "npm test", defaults, ruleset({ bash: "deny" }), agent).action).toBe("allow");
  });

  it("matches the permission name with wildcards too", () => {
    const rules = ruleset({ "*": "deny", read: "allow" });
    expect(evaluate("webfetch", "https://x", rules).action).toBe("deny");
    expect(evaluate("read", "a.ts", rules).action).toBe("allow");
  });

  it("asks when nothing matches", () => {
    expect(evaluate("bash", "ls")).toEqual({ permission: "bash", pattern: "*", action: "ask" });
    expect(evaluate("bash", "ls", ruleset({ edit: "allow" })).action).toBe("ask");
  });
});

describe("DEFAULT_RULES", () => {
  const act = (permission: string, pattern: string) => evaluate(permission, pattern, [...DEFAULT_RULES]).action;

  it("allows everything else", () => {
    expect(act("edit", "src/a.ts")).toBe("allow");
    expect(act("read", "src/a.ts")).toBe("allow");
    expect(act("bash", "npm test")).toBe("allow");
    expect(act("task", "explore")).toBe("allow");
  });

  it("asks for every tool that reaches the network: webfetch, MCP tools, a command's request to a new site", () => {
    expect(act("webfetch", "https://example.com/?d=secret")).toBe("ask");
    expect(act("mcp", "github_create_issue")).toBe("ask");
    // Commands are judged on where their requests go (command-gate.ts), not on their text.
    expect(act("network", "https://evil.test")).toBe("ask");
    expect(act("network", "http://127.0.0.1:8080")).toBe("ask");
    expect(act("network", "https://registry.npmjs.org")).toBe("allow");
    expect(act("network", "https://pypi.org")).toBe("allow");
    expect(act("network", "https://files.pythonhosted.org")).toBe("allow");
    expect(act("network", "https://registry.npmjs.org.evil.test")).toBe("ask");
    expect(act("bash", "npm test")).toBe("allow");
    expect(isNetworkPermission("webfetch")).toBe(true);
    expect(isNetworkPermission("network")).toBe(true);
    expect(isNetworkPermission("mcp")).toBe(true);
    expect(isNetworkPermission("bash")).toBe(false);
  });

  it("lets the user's network choice stand over an agent's own rules, both ways", () => {
    // The explore subagent reads untrusted code: by default its fetches ask too.
    const agent = builtinAgent("explore")!.permission;
    expect(evaluate("webfetch", "https://x.test/", mergeRules(DEFAULT_RULES, [], agent)).action).toBe("ask");
    const allowing = [...agent, ...ruleset({ webfetch: "allow" })];
    const rulesWith = (user: Rule[]) => mergeRules(DEFAULT_RULES, user, allowing, networkRules(user));
    expect(evaluate("webfetch", "https://x.test/", rulesWith(ruleset({ webfetch: "deny" }))).action).toBe("deny");
    expect(evaluate("webfetch", "https://x.test/", rulesWith(ruleset({ webfetch: "ask" }))).action).toBe("ask");
    expect(evaluate("webfetch", "https://x.test/", rulesWith(ruleset({ webfetch: "allow" }))).action).toBe("allow");
    // Only network permissions are re-applied: the agent's edit deny stands over a user allow.
    expect(evaluate("edit", "a.ts", rulesWith(ruleset({ edit: "allow" }))).action).toBe("deny");
    expect(evaluate("webfetch", "https://x.test/", rulesWith([])).action).toBe("allow");
  });

  it("asks for doom_loop and external_directory", () => {
    expect(act("doom_loop", "read")).toBe("ask");
    expect(act("external_directory", "/etc/passwd")).toBe("ask");
  });

  it("asks before reading env files but allows .env.example", () => {
    expect(act("read", ".env")).toBe("ask");
    expect(act("read", "app/.env")).toBe("ask");
    expect(act("read", ".env.local")).toBe("ask");
    expect(act("read", "config/.env.production")).toBe("ask");
    expect(act("read", ".env.example")).toBe("allow");
    expect(act("read", "app/.env.example")).toBe("allow");
    expect(act("read", "environment.ts")).toBe("allow");
  });

  it("asks for destructive bash commands", () => {
    expect(act("bash", "rm -rf node_modules")).toBe("ask");
    expect(act("bash", "rm -rf")).toBe("ask");
    expect(act("bash", "git push origin main")).toBe("ask");
    expect(act("bash", "git push")).toBe("ask");
    expect(act("bash", "npm publish --access public")).toBe("ask");
    expect(act("bash", "rm a.txt")).toBe("allow");
    expect(act("bash", "git pushx")).toBe("allow");
  });

  it("can be overridden by user config", () => {
    const user = ruleset({ bash: { "git push *": "allow" }, read: { "*.env": "deny" } });
    expect(evaluate("bash", "git push", [...DEFAULT_RULES], user).action).toBe("allow");
    expect(evaluate("read", ".env", [...DEFAULT_RULES], user).action).toBe("deny");
  });
});

describe("toolPermission and disabledTools", () => {
  const tools = ["read", "write", "edit", "apply_patch", "glob", "grep", "list", "bash", "task", "todowrite", "webfetch"];

  it("maps the edit and read families onto one permission", () => {
    expect(["edit", "write", "apply_patch"].map(toolPermission)).toEqual(["edit", "edit", "edit"]);
    expect(["read", "glob", "grep", "list"].map(toolPermission)).toEqual(["read", "read", "read", "read"]);
    expect(toolPermission("bash")).toBe("bash");
    expect(toolPermission("webfetch")).toBe("webfetch");
  });

  it("offers every tool under the defaults", () => {
    expect(disabledTools(tools, [...DEFAULT_RULES]).size).toBe(0);
  });

  it("hides a tool whose last rule for * is deny, with its whole family", () => {
    const rules = [...DEFAULT_RULES, ...ruleset({ edit: "deny" })];
    expect([...disabledTools(tools, rules)].sort()).toEqual(["apply_patch", "edit", "write"]);
  });

  it("keeps a tool whose deny is followed by a narrower allow", () => {
    const rules = ruleset({ edit: { "*": "deny", ".webcode/plans/*.md": "allow" } });
    expect(disabledTools(["edit", "write"], rules).size).toBe(0);
  });

  it("keeps a tool denied only for some patterns", () => {
    expect(disabledTools(["bash"], ruleset({ bash: { "*": "allow", "rm *": "deny" } })).size).toBe(0);
  });

  it("hides everything not allowed again after a * deny", () => {
    const rules = ruleset({ "*": "deny", read: "allow", webfetch: "allow" });
    expect([...disabledTools(tools, rules)].sort()).toEqual(["apply_patch", "bash", "edit", "task", "todowrite", "write"]);
  });

  it("does not hide a tool whose last rule is ask", () => {
    expect(disabledTools(["bash"], ruleset({ bash: "deny", "*": "ask" })).size).toBe(0);
  });
});
