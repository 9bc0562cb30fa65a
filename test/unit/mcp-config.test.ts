// MCP server entries: the restore step for stored entries, the servers a workspace declares
// (opencode.json / .opencode/opencode.json `mcp` remote entries, .mcp.json url form) added disabled
// with their source, names made safe for tool names, secrets kept out of backups, and a rule that
// denies a server's tools by name keeps them from being offered.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_RULES, MCP_SETTINGS_KEY, readWorkspaceServers, restoreMcpServers, ruleset, type McpServerConfig, type ToolDefinition } from "../../src/agent";
import { resolveTools } from "../../src/agent/session/loop";
import type { SessionEnv } from "../../src/agent/session/env";
import { decodeBackup } from "../../src/storage";
import { McpSettings } from "../../src/ui/settings";
import { createToolHarness, type ToolHarness } from "../support/tool-context";

const harnesses: ToolHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.dispose();
});

const server = (extra: Partial<McpServerConfig> = {}): McpServerConfig => ({
  id: "s1",
  name: "demo",
  url: "https://mcp.example.com/mcp",
  transport: "auto",
  enabled: true,
  timeoutMs: 60_000,
  source: { kind: "user" },
  ...extra,
});

describe("restoreMcpServers", () => {
  it("keeps valid entries, fills defaults and skips invalid or duplicate ones with a problem", () => {
    const problems: string[] = [];
    const restored = restoreMcpServers(
      { v: 1, servers: [{ id: "a", name: "ok", url: "https://x.test/mcp" }, { id: "b", name: "bad name!", url: "https://x.test" }, { id: "c", name: "c", url: "javascript:alert(1)" }, { id: "a", name: "dup", url: "https://y.test" }] },
      (p) => problems.push(p),
    );
    expect(restored).toEqual([{ id: "a", name: "ok", url: "https://x.test/mcp", transport: "auto", enabled: false, timeoutMs: 60_000, source: { kind: "user" } }]);
    expect(problems).toHaveLength(3);
    expect(restoreMcpServers("garbage", (p) => problems.push(p))).toEqual([]);
  });
});

describe("servers a workspace declares", () => {
  it("reads opencode.json, .opencode/opencode.json and .mcp.json remote entries, and reports local ones", async () => {
    const h = await createToolHarness({
      files: {
        "opencode.json": JSON.stringify({ mcp: { "my tools": { type: "remote", url: "https://a.test/mcp", headers: { Authorization: "Bearer x" } }, local: { type: "local", command: ["npx", "srv"] } } }),
        ".opencode/opencode.json": JSON.stringify({ mcp: { legacy: { type: "remote", url: "https://b.test/sse" } } }),
        ".mcp.json": JSON.stringify({ mcpServers: { docs: { type: "sse", url: "https://c.test/sse" }, fs: { command: "node", args: ["fs.js"] }, bad: { url: "ftp://d.test" } } }),
      },
    });
    harnesses.push(h);
    const { servers, problems } = await readWorkspaceServers(h.runtime.fs);
    expect(servers).toEqual([
      { name: "my-tools", url: "https://a.test/mcp", transport: "auto", headers: { Authorization: "Bearer x" }, file: "opencode.json" },
      { name: "legacy", url: "https://b.test/sse", transport: "auto", file: ".opencode/opencode.json" },
      { name: "docs", url: "https://c.test/sse", transport: "sse", file: ".mcp.json" },
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringContaining('"local" runs as a local program'),
      expect.stringContaining('"fs" runs as a local program'),
      expect.stringContaining('"bad" was skipped'),
    ]);
  });

  it("adds them disabled with their source, once, with names kept apart; their headers stay secret in backups", async () => {
    const h = await createToolHarness();
    harnesses.push(h);
    const settings = new McpSettings(h.storage);
    await settings.load();
    await settings.save(server());
    const declared = [{ name: "demo", url: "https://a.test/mcp", transport: "auto" as const, headers: { Authorization: "Bearer from-repo" }, file: "opencode.json" }];
    await settings.addDeclared("ws1", "Imported repo", declared);
    await settings.addDeclared("ws1", "Imported repo", declared);
    expect(settings.servers).toHaveLength(2);
    const added = settings.servers[1]!;
    expect(added).toMatchObject({ name: "demo-2", enabled: false, source: { kind: "workspace", workspaceId: "ws1", workspaceName: "Imported repo", file: "opencode.json" } });

    const reloaded = new McpSettings(h.storage);
    await reloaded.load();
    expect(reloaded.servers).toEqual(settings.servers);
    await expect(settings.save(server({ id: "s3" }))).rejects.toThrow('already named "demo"');

    const backup = decodeBackup(await h.storage.backup());
    const stored = JSON.stringify(backup.settings.find((s) => s.key === MCP_SETTINGS_KEY));
    expect(stored).toContain("https://a.test/mcp");
    expect(stored).not.toContain("from-repo");
  });
});

describe("rules naming MCP tools", () => {
  it("does not offer a server's tools when a rule denies <server>_* for mcp, and still offers the others", () => {
    const tool = (id: string): ToolDefinition => ({ id, description: id, parameters: z.object({}), permission: "mcp", execute: async () => ({ title: "", output: "", metadata: {} }) });
    const tools = [tool("github_search"), tool("github_issue"), tool("docs_lookup")];
    const env = { services: { prefersApplyPatch: () => false, tools: () => tools } } as unknown as SessionEnv;
    const offered = (rules: ReturnType<typeof ruleset>) => resolveTools(env, { modelId: "m", rules: [...DEFAULT_RULES, ...rules], supportsTools: true, subagents: [] }).map((t) => t.id);
    expect(offered([])).toEqual(["github_search", "github_issue", "docs_lookup"]);
    expect(offered(ruleset({ mcp: { "github_*": "deny" } }))).toEqual(["docs_lookup"]);
    expect(offered(ruleset({ "github_*": "deny" }))).toEqual(["docs_lookup"]);
  });

  it("keeps every OAuth change made at once, and a form saved after a token refresh keeps the new tokens", async () => {
    const h = await createToolHarness();
    harnesses.push(h);
    const settings = new McpSettings(h.storage);
    await settings.load();
    await settings.save(server());
    const opened = settings.servers[0]!; // what the form was opened with
    // The client registration and the tokens are saved one right after the other, as a sign-in does.
    await Promise.all([
      settings.updateOAuth("s1", (current) => ({ ...current, client: { client_id: "c1" }, registered: true })),
      settings.updateOAuth("s1", (current) => ({ ...current, tokens: { access_token: "first", token_type: "Bearer" } })),
    ]);
    expect(settings.oauthOf("s1")).toMatchObject({ client: { client_id: "c1" }, registered: true, tokens: { access_token: "first" } });
    // A background refresh, then the form (opened before it) is saved with a new name.
    await settings.updateOAuth("s1", (current) => ({ ...current, tokens: { access_token: "refreshed", token_type: "Bearer" } }));
    await settings.save({ ...opened, name: "renamed" });
    expect(settings.servers[0]!.name).toBe("renamed");
    expect(settings.oauthOf("s1")).toMatchObject({ client: { client_id: "c1" }, tokens: { access_token: "refreshed" } });
  });
});
