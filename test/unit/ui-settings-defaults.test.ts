// Settings details: context sizes as the catalogue writes them, and which model becomes the default
// when the default provider is removed.
import { afterEach, describe, expect, it } from "vitest";
import { UNKNOWN_MODEL_LIMITS, catalogueModels, defaultModelInfo, type ProviderConfig } from "../../src/providers";
import { openStorage, type Storage } from "../../src/storage";
import { ProviderSettings, modelLabel } from "../../src/ui/settings";
import { formatContext } from "../../src/ui/settings/model-picker";

let storage: Storage | undefined;
afterEach(() => {
  storage?.close();
  storage = undefined;
});

describe("formatContext", () => {
  it("rounds down, so a 32,768-token limit reads 32k, not 33k", () => {
    expect(formatContext(32_768)).toBe("32k");
    expect(formatContext(131_072)).toBe("131k");
    expect(formatContext(200_000)).toBe("200k");
    expect(formatContext(1_047_576)).toBe("1M");
    expect(formatContext(1_500_000)).toBe("1.5M");
    expect(formatContext(512)).toBe("512");
  });

  it("labels a model of unknown limits with 32k context", () => {
    const model = defaultModelInfo("ollama", "qwen2.5-coder:7b");
    expect(model.context).toBe(UNKNOWN_MODEL_LIMITS.context);
    expect(modelLabel(model)).toContain("— 32k context");
  });
});

function provider(id: string, modelIds: string[]): ProviderConfig {
  return { id, kind: "openai-compatible", name: id, baseUrl: "http://localhost:1/v1", models: modelIds.map((m) => defaultModelInfo(id, m)) };
}

describe("ProviderSettings default model", () => {
  it("falls back to the remaining provider's own chosen model when the default provider is removed, also after a reload", async () => {
    storage = await openStorage({ name: `settings-defaults-${Math.random()}` });
    const settings = new ProviderSettings(storage);
    await settings.load();
    await settings.saveProvider(provider("local", ["small", "coder"]));
    await settings.setProviderModel("local", "coder");
    await settings.saveProvider({ ...provider("openai", []), models: catalogueModels("openai") });
    await settings.setDefaultModel({ providerId: "openai", modelId: "gpt-5" });
    expect(settings.defaultModel).toEqual({ providerId: "openai", modelId: "gpt-5" });

    await settings.removeProvider("openai");
    expect(settings.defaultModel).toEqual({ providerId: "local", modelId: "coder" });

    const reloaded = new ProviderSettings(storage);
    await reloaded.load();
    expect(reloaded.defaultModel).toEqual({ providerId: "local", modelId: "coder" });
  });

  it("remembers a model chosen as the default for its provider", async () => {
    storage = await openStorage({ name: `settings-defaults-${Math.random()}` });
    const settings = new ProviderSettings(storage);
    await settings.load();
    await settings.saveProvider(provider("local", ["small", "coder"]));
    await settings.saveProvider(provider("other", ["x"]));
    await settings.setDefaultModel({ providerId: "local", modelId: "coder" });
    await settings.setDefaultModel({ providerId: "other", modelId: "x" });
    await settings.removeProvider("other");
    expect(settings.defaultModel).toEqual({ providerId: "local", modelId: "coder" });
    expect(settings.providerModel("other")).toBeUndefined();
  });

  it("keeps every one of several changes made at once, in the order they were made (none starts from a stale copy)", async () => {
    storage = await openStorage({ name: `settings-defaults-${Math.random()}` });
    const settings = new ProviderSettings(storage);
    await settings.load();
    // What a quick user does: save two providers, then pick models and levels before the saves land.
    await Promise.all([
      settings.saveProvider(provider("local", ["small", "coder"])),
      settings.saveProvider(provider("other", ["x", "y"])),
      settings.setDefaultModel({ providerId: "local", modelId: "coder" }),
      settings.setProviderModel("other", "y"),
      settings.setSmallModel("other", "x"),
      settings.setReasoning({ providerId: "local", modelId: "coder" }, "high"),
      settings.setReasoning({ providerId: "other", modelId: "y" }, "low"),
    ]);
    const reloaded = new ProviderSettings(storage);
    await reloaded.load();
    for (const view of [settings, reloaded]) {
      expect(view.configs.map((c) => [c.id, c.smallModel])).toEqual([["local", undefined], ["other", "x"]]);
      expect(view.defaultModel).toEqual({ providerId: "local", modelId: "coder" });
      expect([view.providerModel("local"), view.providerModel("other")]).toEqual(["coder", "y"]);
      expect(view.reasoningFor({ providerId: "local", modelId: "coder" })).toBe("high");
      expect(view.reasoningFor({ providerId: "other", modelId: "y" })).toBe("low");
    }
  });

  it("uses the provider's first model when its chosen one is gone or none was chosen", async () => {
    storage = await openStorage({ name: `settings-defaults-${Math.random()}` });
    const settings = new ProviderSettings(storage);
    await settings.load();
    await settings.saveProvider(provider("local", ["small", "coder"]));
    expect(settings.defaultModel).toEqual({ providerId: "local", modelId: "small" });
    await settings.setProviderModel("local", "gone");
    expect(settings.defaultModel).toEqual({ providerId: "local", modelId: "small" });
  });
});
