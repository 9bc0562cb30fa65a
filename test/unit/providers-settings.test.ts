// Provider configs persist in IndexedDB settings through a restore step; keys never show in
// redacted copies; costs follow the catalogue prices.
import { afterEach, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../../src/storage";
import {
  PROVIDER_SETTINGS_KEY,
  REDACTED,
  calculateCost,
  configFromPreset,
  loadProviderConfigs,
  maskKey,
  redactConfig,
  restoreProviderConfigs,
  saveProviderConfigs,
} from "../../src/providers";

let storage: Storage | undefined;
afterEach(() => {
  storage?.close();
  storage = undefined;
});

const KEY = "sk-proj-abcdefghijklmnop1234";

describe("provider settings", () => {
  it("round-trips configs with keys through IndexedDB", async () => {
    storage = await openStorage({ name: `providers-${Math.random()}` });
    expect(await loadProviderConfigs(storage)).toEqual([]);
    const configs = [configFromPreset("openai", { apiKey: KEY }), configFromPreset("ollama")];
    await saveProviderConfigs(storage, configs);
    const loaded = await loadProviderConfigs(storage);
    expect(loaded).toEqual(configs);
    expect(loaded[0]!.apiKey).toBe(KEY);
    expect(((await storage.settings.get(PROVIDER_SETTINGS_KEY)) as { v: number }).v).toBe(1);
  });

  it("refuses to save duplicate ids or invalid models", async () => {
    storage = await openStorage({ name: `providers-${Math.random()}` });
    await expect(saveProviderConfigs(storage, [configFromPreset("openai"), configFromPreset("openai")])).rejects.toThrow(/share the id "openai"/);
    const broken = configFromPreset("openai");
    broken.models[0]!.context = -1;
    await expect(saveProviderConfigs(storage, [broken])).rejects.toThrow(/Model "gpt-5.1" of provider "openai" is invalid/);
  });

  it("restores what it can from damaged data and reports the rest", () => {
    const problems: string[] = [];
    const good = configFromPreset("anthropic", { apiKey: "k" });
    const restored = restoreProviderConfigs(
      {
        v: 1,
        configs: [
          good,
          { id: "x", kind: "martian", name: "X", models: [] },
          { ...good, name: "again" },
          { id: "local", kind: "openai-compatible", name: "Local", baseUrl: "http://localhost:1/v1", models: [{ id: "bad" }, { ...good.models[0], providerId: "wrong" }] },
        ],
      },
      (p) => problems.push(p),
    );
    expect(restored.map((c) => c.id)).toEqual(["anthropic", "local"]);
    expect(restored[0]).toEqual(good);
    // Models are re-assigned to the config that holds them; invalid ones are skipped.
    expect(restored[1]!.models.map((m) => [m.id, m.providerId])).toEqual([["claude-opus-4-5", "local"]]);
    expect(problems).toHaveLength(3);
    expect(restoreProviderConfigs("garbage", (p) => problems.push(p))).toEqual([]);
    expect(problems[3]).toMatch(/unreadable/);
  });
});

describe("redaction", () => {
  it("replaces the key and credential headers, leaving the original untouched", () => {
    const config = configFromPreset("custom", { apiKey: KEY, baseUrl: "http://x/v1", headers: { Authorization: "Bearer zzz", "X-Team": "blue" } });
    const redacted = redactConfig(config);
    expect(JSON.stringify(redacted)).not.toContain(KEY);
    expect(JSON.stringify(redacted)).not.toContain("zzz");
    expect(redacted.apiKey).toBe(REDACTED);
    expect(redacted.headers).toEqual({ Authorization: REDACTED, "X-Team": "blue" });
    expect(config.apiKey).toBe(KEY);
    expect(redactConfig(configFromPreset("ollama")).apiKey).toBeUndefined();
  });

  it("masks keys for display", () => {
    expect(maskKey(KEY)).toBe("sk-…1234");
    expect(maskKey("short")).toBe("••••");
    expect(maskKey(undefined)).toBe("");
  });
});

describe("calculateCost", () => {
  const info = { cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };

  it("prices each kind of token per million", () => {
    expect(calculateCost(info, { input: 1_000_000, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 })).toBeCloseTo(3);
    expect(calculateCost(info, { input: 0, output: 1_000_000, reasoning: 0, cacheRead: 0, cacheWrite: 0 })).toBeCloseTo(15);
    expect(calculateCost(info, { input: 2000, output: 500, reasoning: 0, cacheRead: 10_000, cacheWrite: 4000 })).toBeCloseTo(
      (2000 * 3 + 500 * 15 + 10_000 * 0.3 + 4000 * 3.75) / 1e6,
    );
  });

  it("does not charge reasoning twice (it is part of output)", () => {
    const withReasoning = calculateCost(info, { input: 0, output: 1000, reasoning: 800, cacheRead: 0, cacheWrite: 0 });
    expect(withReasoning).toBeCloseTo((1000 * 15) / 1e6);
  });

  it("charges cache tokens at the input price when no cache price is listed", () => {
    expect(calculateCost({ cost: { input: 2, output: 8 } }, { input: 0, output: 0, reasoning: 0, cacheRead: 1e6, cacheWrite: 1e6 })).toBeCloseTo(4);
  });

  it("is zero for free local models", () => {
    expect(calculateCost({ cost: { input: 0, output: 0 } }, { input: 5e6, output: 5e6, reasoning: 0, cacheRead: 0, cacheWrite: 0 })).toBe(0);
  });
});
