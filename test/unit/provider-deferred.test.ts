// Provider packages load on first use: building the registry and a model loads nothing; the first
// call loads only that provider's package, once, and a package that failed to load is tried again.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createProviderRegistry, type ProviderConfig } from "../../src/providers";
import { providerPackages } from "../../src/providers/packages";

const configs: ProviderConfig[] = [
  { id: "openai", kind: "openai", name: "OpenAI", apiKey: "sk-test-0000000000", models: [] },
  { id: "local", kind: "openai-compatible", name: "Local", baseUrl: "http://127.0.0.1:1/v1", models: [] },
];

describe("provider packages", () => {
  afterEach(() => void vi.restoreAllMocks());

  it("load on a model's first call, only the provider's own, and once", async () => {
    const spies = Object.fromEntries(
      (Object.keys(providerPackages) as Array<keyof typeof providerPackages>).map((name) => [name, vi.spyOn(providerPackages, name)]),
    );
    const registry = createProviderRegistry(configs);
    const model = registry.languageModel({ providerId: "local", modelId: "m" });
    if (typeof model === "string") throw new Error("expected a model object");
    expect(Object.values(spies).every((spy) => spy.mock.calls.length === 0)).toBe(true);
    // Its name before the package loaded is the one the package gives it.
    expect(model.provider).toBe("local.chat");
    await model.supportedUrls;
    await (registry.languageModel({ providerId: "local", modelId: "other" }) as { supportedUrls: PromiseLike<unknown> }).supportedUrls;
    expect(model.provider).toBe("local.chat");
    expect(spies.compatible!.mock.calls.length).toBe(1);
    expect([spies.openai, spies.anthropic, spies.google].every((spy) => spy!.mock.calls.length === 0)).toBe(true);
  });

  it("names an OpenAI model as the package does, and tries a package that failed to load again", async () => {
    const real = providerPackages.openai;
    const spy = vi.spyOn(providerPackages, "openai").mockImplementationOnce(() => Promise.reject(new Error("Failed to fetch dynamically imported module")));
    const model = createProviderRegistry(configs).languageModel({ providerId: "openai", modelId: "gpt-5" });
    if (typeof model === "string") throw new Error("expected a model object");
    expect(model.provider).toBe("openai.responses");
    await expect(Promise.resolve(model.supportedUrls)).rejects.toThrow("Failed to fetch");
    spy.mockImplementation(real);
    await model.supportedUrls;
    expect(model.provider).toBe("openai.responses");
    expect(spy.mock.calls.length).toBe(2);
  });
});
