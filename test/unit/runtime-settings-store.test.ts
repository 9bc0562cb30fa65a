// Settings → Runtime as stored: the store shows a change at once and puts it back when storage
// refuses it; the WebContainer API key is one of the known secrets the share scan looks for.
import { describe, expect, it } from "vitest";
import { RUNTIME_SETTINGS_KEY, syncCredentials } from "../../src/runtime";
import { openStorage } from "../../src/storage";
import { RuntimeSettingsStore } from "../../src/ui/settings";
import { loadKnownSecrets } from "../../src/ui/share";

let counter = 0;

describe("RuntimeSettingsStore", () => {
  it("stores changes (the timeout clamped) and reads them back on the next load", async () => {
    const storage = await openStorage({ name: `runtime-settings-${counter++}` });
    const store = new RuntimeSettingsStore(storage);
    await store.load();
    const git = { gitCorsProxy: "", gitAccessToken: "", gitTokenHost: "github.com", githubAccessToken: "", githubApiUrl: "", syncServerUrl: "", syncAccessToken: "", syncWorkspaces: [], syncRooms: {}, syncDisplayName: "" };
    expect(store.settings).toEqual({ useWebContainer: true, webContainerApiKey: "", bootTimeoutMs: 15_000, ...git });
    await store.update({ useWebContainer: false, bootTimeoutMs: 500 });
    await store.update({ webContainerApiKey: "wc_api_example_0123456789" });
    const again = new RuntimeSettingsStore(storage);
    await again.load();
    expect(again.settings).toEqual({ useWebContainer: false, webContainerApiKey: "wc_api_example_0123456789", bootTimeoutMs: 2_000, ...git });
    storage.close();
  });

  it("puts a change back and says why when storage refuses it", async () => {
    const values = new Map<string, unknown>();
    const store = new RuntimeSettingsStore({
      settings: {
        get: async <T,>(key: string) => values.get(key) as T | undefined,
        put: async () => {
          throw new DOMException("quota", "QuotaExceededError");
        },
        delete: async () => undefined,
      } as never,
    });
    await store.load();
    await expect(store.update({ useWebContainer: false })).rejects.toThrow(/runtime settings could not be saved/);
    expect(store.settings.useWebContainer).toBe(true);
  });

  it("puts back only the refused change's own fields: a change made meanwhile that was stored stays", async () => {
    const values = new Map<string, unknown>();
    let refuseNext = true;
    const store = new RuntimeSettingsStore({
      settings: {
        get: async <T,>(key: string) => values.get(key) as T | undefined,
        put: async (key: string, value: unknown) => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          if (refuseNext) {
            refuseNext = false;
            throw new DOMException("quota", "QuotaExceededError");
          }
          values.set(key, value);
        },
        delete: async () => undefined,
      } as never,
    });
    await store.load();
    const refused = store.update({ useWebContainer: false });
    const stored = store.update({ gitCorsProxy: "https://proxy.example" });
    await expect(refused).rejects.toThrow(/could not be saved/);
    await stored;
    expect(store.settings.useWebContainer).toBe(true);
    expect(store.settings.gitCorsProxy).toBe("https://proxy.example");
    // What is stored holds the change that was stored, not the refused one.
    expect(values.get(RUNTIME_SETTINGS_KEY)).toMatchObject({ useWebContainer: true, gitCorsProxy: "https://proxy.example" });
  });

  it("git's proxy and token host are cleaned when stored; a proxy that is not http(s) is dropped", async () => {
    const storage = await openStorage({ name: `runtime-settings-${counter++}` });
    const store = new RuntimeSettingsStore(storage);
    await store.load();
    await store.update({ gitCorsProxy: " https://proxy.example.org/ ", gitTokenHost: " GitLab.com ", gitAccessToken: " glpat-x " });
    expect(store.settings).toMatchObject({ gitCorsProxy: "https://proxy.example.org", gitTokenHost: "gitlab.com", gitAccessToken: "glpat-x" });
    await store.update({ gitCorsProxy: "javascript:alert(1)" });
    expect(store.settings.gitCorsProxy).toBe("");
    storage.close();
  });

  it("the git access token is a known secret for the share and export scan", async () => {
    const storage = await openStorage({ name: `runtime-settings-${counter++}` });
    await storage.settings.put(RUNTIME_SETTINGS_KEY, { gitAccessToken: "ghp_exampletoken0123456789" });
    expect(await loadKnownSecrets(storage)).toContain("ghp_exampletoken0123456789");
    storage.close();
  });

  it("the GitHub token is a known secret for the share and export scan, and the API URL is cleaned", async () => {
    const storage = await openStorage({ name: `runtime-settings-${counter++}` });
    await storage.settings.put(RUNTIME_SETTINGS_KEY, { githubAccessToken: " github_pat_example0123456789 ", githubApiUrl: "javascript:alert(1)" });
    expect(await loadKnownSecrets(storage)).toContain("github_pat_example0123456789");
    const store = new RuntimeSettingsStore(storage);
    await store.load();
    expect(store.settings).toMatchObject({ githubAccessToken: "github_pat_example0123456789", githubApiUrl: "" });
    await store.update({ githubApiUrl: " https://ghe.example.com/api/v3/ " });
    expect(store.settings.githubApiUrl).toBe("https://ghe.example.com/api/v3");
    storage.close();
  });

  it("the sync token is a known secret for the share and export scan, is left out of backups, and only ws(s) URLs are kept", async () => {
    const storage = await openStorage({ name: `runtime-settings-${counter++}` });
    await storage.settings.put(RUNTIME_SETTINGS_KEY, { syncAccessToken: " eyJyb29tIjoid3MtMSJ9.sig123456 ", syncServerUrl: "https://sync.example.com", syncWorkspaces: ["ws-1", 7] });
    expect(await loadKnownSecrets(storage)).toContain("eyJyb29tIjoid3MtMSJ9.sig123456");
    const store = new RuntimeSettingsStore(storage);
    await store.load();
    expect(store.settings).toMatchObject({ syncAccessToken: "eyJyb29tIjoid3MtMSJ9.sig123456", syncServerUrl: "", syncWorkspaces: ["ws-1"] });
    await store.update({ syncServerUrl: " wss://sync.example.com/ " });
    expect(store.settings.syncServerUrl).toBe("wss://sync.example.com");
    const backup = await storage.readEverything();
    expect(JSON.stringify(backup.settings)).not.toContain("sig123456");
    expect(JSON.stringify(backup.settings)).toContain("wss://sync.example.com");
    storage.close();
  });

  it("a workspace's own sync room (from an invite) keeps its token out of backups and in the secret scan; bad entries are dropped", async () => {
    const storage = await openStorage({ name: `runtime-settings-${counter++}` });
    await storage.settings.put(RUNTIME_SETTINGS_KEY, {
      syncRooms: { "ws-2": { url: "wss://peer.example.com/", accessToken: "room2payload.room2sig" }, "ws-3": { url: "https://x", accessToken: "t" }, "ws-4": 5 },
      syncDisplayName: `  Ann ${"x".repeat(100)}`,
    });
    expect(await loadKnownSecrets(storage)).toContain("room2payload.room2sig");
    const store = new RuntimeSettingsStore(storage);
    await store.load();
    expect(store.settings.syncRooms).toEqual({ "ws-2": { url: "wss://peer.example.com", accessToken: "room2payload.room2sig" } });
    expect(store.settings.syncDisplayName).toHaveLength(40);
    expect(syncCredentials(store.settings, "ws-2")).toEqual({ url: "wss://peer.example.com", accessToken: "room2payload.room2sig" });
    expect(syncCredentials(store.settings, "ws-1")).toEqual({ url: "", accessToken: "" });
    const backup = await storage.readEverything();
    expect(JSON.stringify(backup.settings)).not.toContain("room2sig");
    expect(JSON.stringify(backup.settings)).toContain("wss://peer.example.com");
    storage.close();
  });

  it("the WebContainer API key is a known secret for the share and export scan", async () => {
    const storage = await openStorage({ name: `runtime-settings-${counter++}` });
    await storage.settings.put(RUNTIME_SETTINGS_KEY, { webContainerApiKey: "wc_api_secret_abcdef123456" });
    expect(await loadKnownSecrets(storage)).toContain("wc_api_secret_abcdef123456");
    storage.close();
  });
});
