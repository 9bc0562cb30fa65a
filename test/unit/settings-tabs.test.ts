// Settings in two tabs: each tab's settings stores over their own connection to one database
// (fake-indexeddb), told about the other's stored settings over BroadcastChannel as in the browser.
// A change in one tab is read by the other, whose next change starts from it; a backup restore
// reloads the stores of the tab that restored too.
import { afterEach, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../../src/storage";
import { BudgetSettings, McpSettings, PermissionSettings, ProviderSettings } from "../../src/ui/settings";
import { defaultModelInfo, type ProviderConfig } from "../../src/providers";

let counter = 0;
const opened: Storage[] = [];
afterEach(() => {
  for (const storage of opened.splice(0)) storage.close();
});

async function open(name: string): Promise<Storage> {
  const storage = await openStorage({ name });
  opened.push(storage);
  return storage;
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Waited 10 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function provider(id: string, apiKey: string): ProviderConfig {
  return { id, kind: "openai-compatible", name: id, baseUrl: "http://localhost:1/v1", apiKey, models: [defaultModelInfo(id, "m")] };
}

describe("settings in two tabs", () => {
  it("a change stored in one tab is read in the other, whose next change keeps it", async () => {
    const name = `settings-tabs-${counter++}-${Date.now()}`;
    const [one, two] = [await open(name), await open(name)];
    const a = { permissions: new PermissionSettings(one), budget: new BudgetSettings(one), mcp: new McpSettings(one) };
    const b = { permissions: new PermissionSettings(two), budget: new BudgetSettings(two), mcp: new McpSettings(two) };
    await Promise.all([...Object.values(a), ...Object.values(b)].map((store) => store.load()));

    await a.permissions.set("edit", "ask");
    await a.budget.set("dollars", 3);
    await a.mcp.updateSkills((skills) => [...skills, { name: "tone", description: "When writing", content: "Be brief." }]);
    await eventually(() => b.permissions.choices.edit === "ask" && b.budget.budget?.dollars === 3 && b.mcp.skills.length === 1, "tab B to read tab A's settings");

    await b.permissions.set("bash", "deny");
    await b.budget.set("tokens", 1000);
    await b.mcp.updateSkills((skills) => [...skills, { name: "tests", description: "When testing", content: "Run them." }]);
    expect(await two.settings.get("permission")).toEqual({ edit: "ask", bash: "deny" });
    expect(await two.settings.get("budget")).toEqual({ dollars: 3, tokens: 1000 });
    await eventually(() => a.permissions.choices.bash === "deny" && a.budget.budget?.tokens === 1000 && a.mcp.skills.length === 2, "tab A to read tab B's settings");
    expect(a.mcp.skills.map((s) => s.name)).toEqual(["tone", "tests"]);
  });

  it("provider settings follow, and keys unlocked in a tab stay unlocked when the other tab saves", async () => {
    const name = `settings-tabs-${counter++}-${Date.now()}`;
    const [one, two] = [await open(name), await open(name)];
    const a = new ProviderSettings(one);
    await a.load();
    await a.saveProvider(provider("local", "sk-one"));
    await a.setPassphrase("correct horse battery");
    const b = new ProviderSettings(two);
    await b.load();
    expect(b.store.getState().keys).toBe("locked");
    await b.unlock("correct horse battery");

    await a.saveProvider(provider("second", "sk-two"));
    await a.setDefaultModel({ providerId: "second", modelId: "m" });
    await eventually(() => b.configs.length === 2 && b.defaultModel?.providerId === "second", "tab B to read the new provider and default");
    expect(b.store.getState().keys).toBe("unlocked");
    expect(b.configs.map((c) => c.apiKey)).toEqual(["sk-one", "sk-two"]);
  }, 60_000);

  it("MCP credentials unlocked in a tab stay open when the other tab stores a skill or a server change", async () => {
    const name = `settings-tabs-${counter++}-${Date.now()}`;
    const [one, two] = [await open(name), await open(name)];
    const page = async (storage: Storage) => {
      const settings = new ProviderSettings(storage);
      const mcp = new McpSettings(storage, settings);
      settings.addSealedStore(mcp);
      await Promise.all([settings.load(), mcp.load()]);
      return { settings, mcp };
    };
    const a = await page(one);
    await a.settings.saveProvider(provider("local", "sk-one"));
    await a.mcp.save({ id: "srv", name: "tools", url: "https://mcp.example/mcp", transport: "http", enabled: true, timeoutMs: 10_000, source: { kind: "user" }, secret: { headers: { Authorization: "Bearer secret-token" } } });
    await a.settings.setPassphrase("correct horse battery");
    const b = await page(two);
    await b.settings.unlock("correct horse battery");
    expect(b.mcp.servers[0]!.secret?.headers?.Authorization).toBe("Bearer secret-token");
    const seen: Array<{ locked: boolean; sealed: boolean }> = [];
    b.mcp.store.subscribe((state) => seen.push({ locked: state.locked, sealed: state.servers.some((s) => s.sealed !== undefined) }));

    await a.mcp.updateSkills((skills) => [...skills, { name: "tone", description: "When writing", content: "Be brief." }]);
    await eventually(() => b.mcp.skills.length === 1, "tab B to read the skill");
    await a.mcp.setEnabled("srv", false);
    await eventually(() => b.mcp.servers[0]?.enabled === false, "tab B to read the server change");
    // Never shown locked or sealed on the way (that would disconnect the server here).
    expect(seen.filter((s) => s.locked || s.sealed)).toEqual([]);
    expect(b.mcp.servers[0]!.secret?.headers?.Authorization).toBe("Bearer secret-token");
    // A change made here afterwards is sealed again, not stored in the clear.
    await b.mcp.setEnabled("srv", true);
    const stored = JSON.stringify(await two.settings.get("mcp-servers"));
    expect(stored).not.toContain("secret-token");
  }, 60_000);

  it("a backup restored in a tab reloads that tab's settings", async () => {
    const source = await open(`settings-source-${counter++}-${Date.now()}`);
    const permissionsThere = new PermissionSettings(source);
    await permissionsThere.load();
    await permissionsThere.set("webfetch", "allow");
    const backup = await source.backup();

    const here = await open(`settings-here-${counter++}-${Date.now()}`);
    const permissions = new PermissionSettings(here);
    await permissions.load();
    // The user confirmed the backup's permission settings.
    const summary = await here.restoreBackup(backup, async () => []);
    expect(summary.settingsAdded).toContain("permission");
    await eventually(() => permissions.choices.webfetch === "allow", "the restored choice to be read");
    await permissions.set("edit", "ask");
    expect(await here.settings.get("permission")).toEqual({ webfetch: "allow", edit: "ask" });
  });
});
