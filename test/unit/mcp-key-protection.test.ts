// MCP server headers and OAuth tokens are kept exactly like provider keys (issue 14, point 1; the
// passphrase of issue 9): sealed under the keys' passphrase, locked until it is given (a locked
// server says so and sends nothing), sealed again when it changes, stored as typed when it is
// removed, and never in backups, exports (known secrets) or the console.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_SETTINGS_KEY, McpHub, type McpServerConfig } from "../../src/agent";
import { WrongPassphraseError, isKeyVault, openValue, type KeyVault } from "../../src/providers";
import { decodeBackup, openStorage, type Storage } from "../../src/storage";
import { McpSettings } from "../../src/ui/settings/mcp-settings";
import { ProviderSettings } from "../../src/ui/settings/provider-settings";
import { loadKnownSecrets } from "../../src/ui/transfer/secret-findings";
import { startMcpTestServer, type McpTestServer } from "../support/mcp-test-server";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Built from pieces so that no scanner mistakes them for real ones.
const TOKEN = "mcp" + "tok-" + "Q7w8E9r0T1y2U3i4O5p6";
const ACCESS = "acc" + "ess-" + "A1s2D3f4G5h6J7k8L9z0";
const REFRESH = "ref" + "resh-" + "Z0x9C8v7B6n5M4a3S2d1";
const PASS = "correct horse battery";
const NEW_PASS = "another horse battery";

async function newStorage(): Promise<Storage> {
  const storage = await openStorage({ name: `mcp-keys-${Math.random()}` });
  cleanups.push(() => storage.close());
  return storage;
}

/** A page load: the provider settings own the passphrase, the MCP settings keep their secrets under it. */
async function page(storage: Storage, answers: string[] = []): Promise<{ settings: ProviderSettings; mcp: McpSettings; asked: number }> {
  const settings = new ProviderSettings(storage);
  const mcp = new McpSettings(storage, settings);
  settings.addSealedStore(mcp);
  await Promise.all([settings.load(), mcp.load()]);
  const out = { settings, mcp, asked: 0 };
  settings.setPassphraseAsker(async () => (out.asked++, answers.shift()));
  return out;
}

function server(url: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    id: "srv",
    name: "tools",
    url,
    transport: "http",
    enabled: true,
    timeoutMs: 10_000,
    source: { kind: "user" },
    secret: { headers: { Authorization: `Bearer ${TOKEN}`, "X-Team": "web" } },
    ...extra,
  };
}

async function storedRecord(storage: Storage): Promise<{ servers: McpServerConfig[]; vault?: KeyVault }> {
  return (await storage.settings.get<{ servers: McpServerConfig[]; vault?: KeyVault }>(MCP_SETTINGS_KEY))!;
}

async function bearerServer(): Promise<McpTestServer> {
  const mcpServer = await startMcpTestServer({ bearer: TOKEN });
  cleanups.push(() => mcpServer.close());
  return mcpServer;
}

function hubFor(mcp: McpSettings): McpHub {
  const hub = new McpHub();
  hub.setServers(mcp.servers);
  const unsubscribe = mcp.store.subscribe((state, previous) => {
    if (state.servers !== previous.servers) hub.setServers(state.servers);
  });
  cleanups.push(() => hub.dispose(), unsubscribe);
  return hub;
}

describe("MCP credentials under the keys' passphrase", () => {
  it("are sealed when a passphrase is set, locked after a reload (the server waits and is not contacted), and connect once it is given", async () => {
    const storage = await newStorage();
    const mcpServer = await bearerServer();
    const first = await page(storage);
    await first.mcp.save(server(mcpServer.url));
    await first.mcp.updateOAuth("srv", () => ({ tokens: { access_token: ACCESS, token_type: "Bearer", refresh_token: REFRESH }, tokensAt: 1 }));
    expect(JSON.stringify(await storedRecord(storage))).toContain(TOKEN);

    await first.settings.setPassphrase(PASS);
    const sealed = await storedRecord(storage);
    for (const secret of [TOKEN, ACCESS, REFRESH, "X-Team\":\"web"]) expect(JSON.stringify(sealed)).not.toContain(secret);
    expect(isKeyVault(sealed.vault)).toBe(true);
    expect(sealed.servers[0]).toMatchObject({ name: "tools", url: mcpServer.url, enabled: true });

    // A new page load: the server is listed, locked, and nothing reaches it.
    const second = await page(storage, [PASS]);
    expect(second.mcp.store.getState().locked).toBe(true);
    expect(second.mcp.servers[0]).toMatchObject({ name: "tools", sealed: { headers: ["Authorization", "X-Team"], oauth: true } });
    expect(second.mcp.servers[0]!.secret).toBeUndefined();
    const hub = hubFor(second.mcp);
    expect(hub.store.getState().servers.srv).toEqual({ status: "locked" });
    await new Promise((r) => setTimeout(r, 300));
    expect(mcpServer.requests).toEqual([]);
    expect(hub.tools()).toEqual([]);

    // Unlocking the provider keys unlocks the MCP credentials: the server connects with its header.
    await second.settings.requireKeys();
    expect(second.asked).toBe(1);
    expect(second.mcp.store.getState().locked).toBe(false);
    expect(second.mcp.oauthOf("srv")?.tokens?.refresh_token).toBe(REFRESH);
    await expect.poll(() => hub.store.getState().servers.srv?.status, { timeout: 10_000 }).toBe("connected");
    expect(mcpServer.requests.length).toBeGreaterThan(0);
    expect(mcpServer.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it("are sealed again when the passphrase changes, and stored as typed when it is removed", async () => {
    const storage = await newStorage();
    const first = await page(storage);
    await first.mcp.save(server("https://mcp.example.test/mcp"));
    await first.settings.setPassphrase(PASS);
    await first.settings.setPassphrase(NEW_PASS);
    const { vault } = await storedRecord(storage);
    await expect(openValue(vault!, PASS)).rejects.toBeInstanceOf(WrongPassphraseError);
    expect(JSON.stringify(await openValue(vault!, NEW_PASS))).toContain(TOKEN);

    // The old passphrase no longer unlocks them on the next page load; the new one does.
    const second = await page(storage, [PASS, NEW_PASS]);
    await second.settings.requireKeys();
    expect(second.asked).toBe(2);
    expect(second.mcp.servers[0]!.secret?.headers?.Authorization).toBe(`Bearer ${TOKEN}`);

    await second.settings.removePassphrase();
    const plain = await storedRecord(storage);
    expect(plain.vault).toBeUndefined();
    expect(plain.servers[0]!.secret?.headers?.Authorization).toBe(`Bearer ${TOKEN}`);
    const third = await page(storage);
    expect(third.mcp.store.getState().locked).toBe(false);
    expect(third.mcp.servers[0]!.secret?.headers?.Authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("while locked: switching a server off keeps the sealed credentials; a change that brings credentials asks for the passphrase first", async () => {
    const storage = await newStorage();
    const first = await page(storage);
    await first.mcp.save(server("https://a.example.test/mcp"));
    await first.settings.setPassphrase(PASS);

    const second = await page(storage, [PASS]);
    await second.mcp.setEnabled("srv", false);
    expect(second.asked).toBe(0);
    expect(JSON.stringify(await storedRecord(storage))).not.toContain(TOKEN);
    expect((await storedRecord(storage)).servers[0]!.enabled).toBe(false);

    await second.mcp.save(server("https://b.example.test/mcp", { id: "other", name: "other", secret: { headers: { Authorization: "Bearer other-token-123" } } }));
    expect(second.asked).toBe(1);
    const record = JSON.stringify(await storedRecord(storage));
    expect(record).not.toContain(TOKEN);
    expect(record).not.toContain("other-token-123");

    const third = await page(storage, [PASS]);
    await third.settings.requireKeys();
    expect(third.mcp.servers.map((s) => [s.name, s.enabled, s.secret?.headers?.Authorization])).toEqual([
      ["tools", false, `Bearer ${TOKEN}`],
      ["other", true, "Bearer other-token-123"],
    ]);
  });

  it("while locked: a workspace's declared server with headers waits for the unlock; one without is added at once", async () => {
    const storage = await newStorage();
    const first = await page(storage);
    await first.mcp.save(server("https://a.example.test/mcp"));
    await first.settings.setPassphrase(PASS);
    const second = await page(storage, [PASS]);
    await second.mcp.addDeclared("ws1", "Repo", [
      { name: "open", url: "https://open.example.test/mcp", transport: "auto", file: "opencode.json" },
      { name: "keyed", url: "https://keyed.example.test/mcp", transport: "auto", headers: { Authorization: "Bearer repo-token-456" }, file: "opencode.json" },
    ]);
    expect(second.asked).toBe(0);
    expect(second.mcp.servers.map((s) => s.name)).toEqual(["tools", "open"]);
    await second.settings.requireKeys();
    await expect.poll(() => second.mcp.servers.map((s) => s.name)).toEqual(["tools", "open", "keyed"]);
    expect(second.mcp.servers[2]).toMatchObject({ enabled: false, secret: { headers: { Authorization: "Bearer repo-token-456" } } });
    expect(JSON.stringify(await storedRecord(storage))).not.toContain("repo-token-456");
  });
});

describe("MCP credentials never leave the browser", () => {
  it("are left out of backups, sealed or not, and are known secrets that shares and exports look for", async () => {
    const storage = await newStorage();
    const first = await page(storage);
    await first.mcp.save(server("https://a.example.test/mcp"));
    await first.mcp.updateOAuth("srv", () => ({ tokens: { access_token: ACCESS, token_type: "Bearer", refresh_token: REFRESH }, client: { client_id: "webcode", client_secret: "client-secret-789" } }));

    const plainBackup = JSON.stringify(decodeBackup(await storage.backup()));
    for (const secret of [TOKEN, ACCESS, REFRESH, "client-secret-789"]) expect(plainBackup).not.toContain(secret);
    expect(plainBackup).toContain("https://a.example.test/mcp");
    const known = await loadKnownSecrets(storage);
    for (const secret of [`Bearer ${TOKEN}`, TOKEN, ACCESS, REFRESH, "client-secret-789"]) expect(known).toContain(secret);
    expect(known).not.toContain("web");

    await first.settings.setPassphrase(PASS);
    const sealedBackup = JSON.stringify(decodeBackup(await storage.backup()));
    for (const secret of [TOKEN, ACCESS, REFRESH, "client-secret-789"]) expect(sealedBackup).not.toContain(secret);
  });

  it("are not written to the console when a server refuses them or cannot be reached", async () => {
    const logged: unknown[] = [];
    for (const level of ["log", "info", "warn", "error", "debug"] as const) vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(...args));
    const mcpServer = await startMcpTestServer({ bearer: "a-different-token-000" });
    cleanups.push(() => mcpServer.close());
    const storage = await newStorage();
    const { mcp } = await page(storage);
    await mcp.save(server(mcpServer.url));
    await mcp.save(server("http://127.0.0.1:9/mcp", { id: "gone", name: "gone" }));
    const hub = hubFor(mcp);
    await expect.poll(() => [hub.store.getState().servers.srv?.status, hub.store.getState().servers.gone?.status], { timeout: 10_000 }).toEqual(["error", "error"]);
    const everything = JSON.stringify(hub.store.getState()) + logged.map((l) => (l instanceof Error ? `${l.message} ${l.stack}` : JSON.stringify(l))).join("\n");
    expect(everything).not.toContain(TOKEN);
  });
});
