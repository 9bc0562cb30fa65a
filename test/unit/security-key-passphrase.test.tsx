// @vitest-environment happy-dom
// Issue 9, point 9: an optional passphrase encrypts the stored provider keys (WebCrypto PBKDF2 +
// AES-GCM); it is asked once per page load when a key is first needed, and requests wait for it.
import "../support/happy-dom-node-name";
import { generateText } from "ai";
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { PROVIDER_SETTINGS_KEY, WrongPassphraseError, createProviderRegistry, openVault, saveProviderConfigs, sealSecrets, type ProviderConfig } from "../../src/providers";
import { openStorage, type Storage } from "../../src/storage";
import { KeyProtectionSection } from "../../src/ui/settings/key-protection-section";
import { KEYS_LOCKED_MESSAGE, ProviderSettings } from "../../src/ui/settings/provider-settings";
import { startFakeModelServer } from "../support/fake-model-server";
import { button, byLabel, click, render, typeInto } from "./ui-chat-render";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const KEY = "sk-" + "proj-" + "Z9y8X7w6V5u4T3s2R1q0".repeat(2);
const PROXY = "tok" + "9f8e7d6c5b4a39281706f5e4d3c2b1a0";
const PASS = "correct horse battery";

async function storageWith(configs: ProviderConfig[]): Promise<Storage> {
  const storage = await openStorage({ name: `passphrase-${Math.random()}` });
  cleanups.push(() => storage.close());
  await saveProviderConfigs(storage, configs);
  return storage;
}

function config(baseUrl: string): ProviderConfig {
  return {
    id: "local",
    kind: "openai-compatible",
    name: "Local",
    baseUrl,
    apiKey: KEY,
    headers: { "X-Proxy-Token": PROXY, "X-Team": "web" },
    models: [{ id: "m", name: "m", providerId: "local", context: 1000, output: 100, cost: { input: 0, output: 0 }, capabilities: { tools: true, images: false, reasoning: false, temperature: true } }],
  };
}

describe("the key vault", () => {
  it("seals with a fresh salt and IV, opens with the passphrase only", async () => {
    const secrets = { a: { apiKey: KEY } };
    const one = await sealSecrets(secrets, PASS);
    const two = await sealSecrets(secrets, PASS);
    expect(one.salt).not.toBe(two.salt);
    expect(one.iv).not.toBe(two.iv);
    expect(one.iterations).toBe(600_000);
    expect(JSON.stringify(one)).not.toContain(KEY.slice(3, 20));
    expect(one.fields).toEqual({ a: { apiKey: true } });
    expect(await openVault(one, PASS)).toEqual(secrets);
    await expect(openVault(one, "wrong horse battery")).rejects.toBeInstanceOf(WrongPassphraseError);
    await expect(openVault({ ...one, data: two.data }, PASS)).rejects.toBeInstanceOf(WrongPassphraseError);
  });
});

describe("provider keys under a passphrase", () => {
  it("are stored encrypted, locked after a reload, and a request waits for the passphrase (asked once)", async () => {
    const server = await startFakeModelServer(() => ({ chunks: [{ type: "text", text: "hi" }] }));
    cleanups.push(() => server.close());
    const storage = await storageWith([config(server.url)]);
    const first = new ProviderSettings(storage);
    await first.load();
    expect(first.store.getState().keys).toBe("plain");
    await first.setPassphrase(PASS);
    const stored = JSON.stringify(await storage.settings.get(PROVIDER_SETTINGS_KEY));
    expect(stored).not.toContain(KEY);
    expect(stored).not.toContain(PROXY);
    expect(stored).toContain('"X-Team":"web"');

    // A new page load.
    const settings = new ProviderSettings(storage);
    await settings.load();
    expect(settings.store.getState().keys).toBe("locked");
    expect(JSON.stringify(settings.configs)).not.toContain(KEY);
    const asked: Array<string | undefined> = [];
    const answers = ["not it", PASS];
    settings.setPassphraseAsker(async (problem) => (asked.push(problem), answers.shift()));
    const registry = createProviderRegistry(settings.configs, { fetch: settings.fetchWithKeys });
    const model = registry.languageModel({ providerId: "local", modelId: "m" });
    const results = await Promise.all([1, 2, 3].map(() => generateText({ model, prompt: "x", maxRetries: 0 })));
    expect(results.map((r) => r.text)).toEqual(["hi", "hi", "hi"]);
    // One question for three requests; the wrong answer was asked again, saying why.
    expect(asked).toEqual([undefined, "That passphrase does not unlock the provider keys. Try again."]);
    const calls = server.requests.filter((r) => r.method === "POST");
    expect(calls.map((r) => r.headers["authorization"])).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`, `Bearer ${KEY}`]);
    expect(calls.map((r) => r.headers["x-proxy-token"])).toEqual([PROXY, PROXY, PROXY]);
    expect(settings.store.getState().keys).toBe("unlocked");
    expect(settings.configs[0]!.apiKey).toBe(KEY);
  });

  it("sends nothing when the passphrase is not given", async () => {
    const server = await startFakeModelServer(() => ({ chunks: [{ type: "text", text: "hi" }] }));
    cleanups.push(() => server.close());
    const storage = await storageWith([config(server.url)]);
    const setup = new ProviderSettings(storage);
    await setup.load();
    await setup.setPassphrase(PASS);
    const settings = new ProviderSettings(storage);
    await settings.load();
    settings.setPassphraseAsker(async () => undefined);
    const model = createProviderRegistry(settings.configs, { fetch: settings.fetchWithKeys }).languageModel({ providerId: "local", modelId: "m" });
    await expect(generateText({ model, prompt: "x", maxRetries: 0 })).rejects.toThrow(KEYS_LOCKED_MESSAGE);
    expect(server.requests).toEqual([]);
    expect(settings.store.getState().keys).toBe("locked");
  });

  it("keeps the key when a provider is edited after unlocking, and can go back to no passphrase", async () => {
    const storage = await storageWith([config("http://127.0.0.1:9/v1")]);
    const setup = new ProviderSettings(storage);
    await setup.load();
    await setup.setPassphrase(PASS);
    const settings = new ProviderSettings(storage);
    await settings.load();
    settings.setPassphraseAsker(async () => PASS);
    // The form was filled from the locked config: its key is the stand-in.
    const edited = { ...settings.configs[0]!, name: "Renamed" };
    await settings.saveProvider(edited);
    expect(settings.configs[0]).toMatchObject({ name: "Renamed", apiKey: KEY });
    expect(JSON.stringify(await storage.settings.get(PROVIDER_SETTINGS_KEY))).not.toContain(KEY);
    await settings.removePassphrase();
    const plain = new ProviderSettings(storage);
    await plain.load();
    expect(plain.store.getState().keys).toBe("plain");
    expect(plain.configs[0]!.apiKey).toBe(KEY);
  });
});

describe("the Key protection section", () => {
  it("says what each choice protects against and encrypts the keys with the passphrase typed twice", async () => {
    const storage = await storageWith([config("http://127.0.0.1:9/v1")]);
    const settings = new ProviderSettings(storage);
    await settings.load();
    const problems: string[] = [];
    const view = await render(<KeyProtectionSection settings={settings} onProblem={(action) => void action().catch((e: Error) => problems.push(e.message))} />);
    cleanups.push(() => view.unmount());
    const text = view.container.textContent!;
    expect(text).toContain("Without a passphrase");
    expect(text).toMatch(/any program that can read its files, can read them/);
    expect(text).toMatch(/does not protect against anything running in this page or an extension while the keys are unlocked/);
    await typeInto(byLabel<HTMLInputElement>(view.container, "New passphrase")!, PASS);
    await typeInto(byLabel<HTMLInputElement>(view.container, "Repeat the passphrase")!, "different");
    await click(button(view.container, "Encrypt keys with this passphrase"));
    expect(view.container.querySelector('[role="alert"]')?.textContent).toContain("The two passphrases differ");
    await typeInto(byLabel<HTMLInputElement>(view.container, "Repeat the passphrase")!, PASS);
    await click(button(view.container, "Encrypt keys with this passphrase"));
    // Deriving the key takes a moment (600,000 PBKDF2 rounds).
    for (let i = 0; i < 200 && settings.store.getState().keys !== "unlocked"; i++) await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(settings.store.getState().keys).toBe("unlocked");
    expect(view.container.querySelector('[role="status"]')?.textContent).toBe("Keys are encrypted with your passphrase, and unlocked for this page load.");
    expect(problems).toEqual([]);
  });
});
