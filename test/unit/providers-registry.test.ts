// The registry builds working AI SDK models for each provider kind (checked against the fake
// model server over HTTP), uses the injected fetch, and explains missing keys and providers.
import { afterEach, describe, expect, it } from "vitest";
import { generateText, streamText } from "ai";
import { UserFacingError } from "../../src/base";
import {
  ANTHROPIC_BROWSER_HEADER,
  MODEL_CATALOGUE,
  configFromPreset,
  createProviderRegistry,
  defaultModelInfo,
  type ProviderConfig,
} from "../../src/providers";
import { startFakeModelServer, type FakeModelServer } from "../support/fake-model-server";

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = "sk-registry-test-key";
const reply = [{ chunks: [{ type: "text" as const, text: "hi there" }], usage: { input: 11, output: 2 } }];

async function ask(config: ProviderConfig, modelId: string, fetchImpl?: typeof fetch) {
  const registry = createProviderRegistry([config], fetchImpl ? { fetch: fetchImpl } : {});
  const result = streamText({ model: registry.languageModel({ providerId: config.id, modelId }), prompt: "hello", maxRetries: 0 });
  const text = await result.text;
  return { text, usage: await result.usage };
}

describe("createProviderRegistry against the fake server", () => {
  it("OpenAI speaks the Responses API by default", async () => {
    server = await startFakeModelServer(reply);
    const out = await ask(configFromPreset("openai", { apiKey: KEY, baseUrl: server.url }), "gpt-5");
    expect(out.text).toBe("hi there");
    const [request] = server.modelRequests();
    expect(request!.protocol).toBe("openai-responses");
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect((request!.body as { model: string }).model).toBe("gpt-5");
  });

  it("OpenAI with api 'chat' speaks chat completions", async () => {
    server = await startFakeModelServer(reply);
    const out = await ask(configFromPreset("openai", { apiKey: KEY, baseUrl: server.url, api: "chat" }), "gpt-4.1");
    expect(out.text).toBe("hi there");
    expect(server.modelRequests()[0]!.protocol).toBe("openai-chat");
  });

  it("Anthropic sends the key and the direct-browser-access header", async () => {
    server = await startFakeModelServer(reply);
    const out = await ask(configFromPreset("anthropic", { apiKey: KEY, baseUrl: server.url }), "claude-sonnet-4-5");
    expect(out.text).toBe("hi there");
    const [request] = server.modelRequests();
    expect(request!.protocol).toBe("anthropic");
    expect(request!.headers["x-api-key"]).toBe(KEY);
    expect(request!.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
    expect(ANTHROPIC_BROWSER_HEADER["anthropic-dangerous-direct-browser-access"]).toBe("true");
  });

  it("OpenRouter speaks chat completions with usage and its title header", async () => {
    server = await startFakeModelServer(reply);
    const out = await ask(configFromPreset("openrouter", { apiKey: KEY, baseUrl: server.url }), "anthropic/claude-sonnet-4.5");
    expect(out.text).toBe("hi there");
    expect(out.usage.inputTokens).toBe(11);
    const [request] = server.modelRequests();
    expect(request!.protocol).toBe("openai-chat");
    expect(request!.headers["x-title"]).toBe("webcode");
    expect((request!.body as { stream_options?: unknown }).stream_options).toEqual({ include_usage: true });
  });

  it("OpenAI-compatible servers (Ollama) work without a key and report usage", async () => {
    server = await startFakeModelServer(reply);
    const out = await ask(configFromPreset("ollama", { baseUrl: server.url, models: [defaultModelInfo("ollama", "qwen3")] }), "qwen3");
    expect(out.text).toBe("hi there");
    expect(out.usage.outputTokens).toBe(2);
    expect(server.modelRequests()[0]!.headers.authorization).toBeUndefined();
  });

  it("OpenAI-compatible servers send a key when one is set", async () => {
    server = await startFakeModelServer(reply);
    await ask(configFromPreset("custom", { baseUrl: server.url, apiKey: KEY }), "m");
    expect(server.modelRequests()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("uses the injected fetch for every kind", async () => {
    server = await startFakeModelServer([...reply, ...reply, ...reply]);
    const urls: string[] = [];
    const recording: typeof fetch = (input, init) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return fetch(input, init);
    };
    await ask(configFromPreset("openai", { apiKey: KEY, baseUrl: server.url }), "gpt-5", recording);
    await ask(configFromPreset("anthropic", { apiKey: KEY, baseUrl: server.url }), "claude-haiku-4-5", recording);
    await ask(configFromPreset("lmstudio", { baseUrl: server.url }), "local", recording);
    expect(urls).toEqual([`${server.url}/responses`, `${server.url}/messages`, `${server.url}/chat/completions`]);
  });

  it("Google goes to the Gemini endpoint with its key header", async () => {
    const seen: { url: string; key: string | null }[] = [];
    const fakeFetch: typeof fetch = async (input, init) => {
      seen.push({ url: String(input), key: new Headers(init?.headers).get("x-goog-api-key") });
      return new Response(JSON.stringify({ error: { code: 400, message: "scripted", status: "INVALID_ARGUMENT" } }), {
        status: 400,
        headers: { "content-type": "application/json" },
      });
    };
    const registry = createProviderRegistry([configFromPreset("google", { apiKey: KEY })], { fetch: fakeFetch });
    await expect(
      generateText({ model: registry.languageModel({ providerId: "google", modelId: "gemini-2.5-flash" }), prompt: "x", maxRetries: 0 }),
    ).rejects.toThrow(/scripted/);
    expect(seen[0]!.url).toContain("generativelanguage.googleapis.com");
    expect(seen[0]!.url).toContain("gemini-2.5-flash");
    expect(seen[0]!.key).toBe(KEY);
  });
});

describe("registry errors", () => {
  it("explains a missing key instead of reading environment variables", () => {
    const registry = createProviderRegistry([configFromPreset("openai"), configFromPreset("anthropic", { apiKey: "  " })]);
    for (const providerId of ["openai", "anthropic"]) {
      let error: unknown;
      try {
        registry.languageModel({ providerId, modelId: "x" });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UserFacingError);
      expect((error as Error).message).toMatch(/No API key is set for (OpenAI|Anthropic)\. Add your key in Settings/);
    }
  });

  it("explains an unknown provider and a compatible server without a URL", () => {
    const registry = createProviderRegistry([configFromPreset("custom")]);
    expect(() => registry.languageModel({ providerId: "nope", modelId: "x" })).toThrow(/No provider "nope" is configured/);
    expect(() => registry.languageModel({ providerId: "custom", modelId: "x" })).toThrow(/has no base URL/);
  });
});

describe("model facts", () => {
  const registry = createProviderRegistry([
    configFromPreset("openai", { apiKey: KEY }),
    configFromPreset("anthropic", { id: "work-anthropic", apiKey: KEY, models: [] }),
    configFromPreset("ollama", { models: [defaultModelInfo("ollama", "llama3.2")] }),
  ]);

  it("finds a config's own models, else the catalogue's facts for the provider", () => {
    expect(registry.modelInfo({ providerId: "openai", modelId: "gpt-5" })).toMatchObject({ context: 400_000, providerId: "openai" });
    // The config lists no models, but the catalogue knows this Anthropic model.
    expect(registry.modelInfo({ providerId: "work-anthropic", modelId: "claude-sonnet-4-5" })).toMatchObject({
      providerId: "work-anthropic",
      context: 200_000,
    });
    expect(registry.modelInfo({ providerId: "work-anthropic", modelId: "gpt-5" })).toBeUndefined();
    expect(registry.modelInfo({ providerId: "ollama", modelId: "llama3.2" })?.cost).toEqual({ input: 0, output: 0 });
    expect(registry.modelInfo({ providerId: "missing", modelId: "gpt-5" })).toBeUndefined();
  });

  it("picks the configured or preset small model, else the model itself", () => {
    expect(registry.smallModel({ providerId: "openai", modelId: "gpt-5" })).toEqual({ providerId: "openai", modelId: "gpt-4.1-mini" });
    expect(registry.smallModel({ providerId: "work-anthropic", modelId: "claude-opus-4-5" })).toEqual({
      providerId: "work-anthropic",
      modelId: "claude-haiku-4-5",
    });
    // A hand-made config without smallModel still gets its kind's preset small model.
    const bare = createProviderRegistry([{ id: "g2", kind: "google", name: "Gemini", apiKey: KEY, models: [] }]);
    expect(bare.smallModel({ providerId: "g2", modelId: "gemini-2.5-pro" })).toEqual({ providerId: "g2", modelId: "gemini-2.5-flash-lite" });
    expect(registry.smallModel({ providerId: "ollama", modelId: "llama3.2" })).toEqual({ providerId: "ollama", modelId: "llama3.2" });
    const custom = createProviderRegistry([configFromPreset("ollama", { smallModel: "tiny" })]);
    expect(custom.smallModel({ providerId: "ollama", modelId: "big" })).toEqual({ providerId: "ollama", modelId: "tiny" });
  });

  it("names providers for error messages", () => {
    expect(registry.providerName("work-anthropic")).toBe("Anthropic");
    expect(registry.providerName("unknown")).toBe("unknown");
  });

  it("lists configs and models", () => {
    expect(registry.configs().map((c) => c.id)).toEqual(["openai", "work-anthropic", "ollama"]);
    expect(registry.models().some((m) => m.id === "llama3.2")).toBe(true);
  });
});

describe("MODEL_CATALOGUE", () => {
  it("covers current models of each hosted provider with sane limits and prices", () => {
    const ids = MODEL_CATALOGUE.map((m) => `${m.providerId}/${m.id}`);
    for (const expected of ["openai/gpt-5", "openai/gpt-4.1", "openai/o3", "anthropic/claude-sonnet-4-5", "anthropic/claude-haiku-4-5", "google/gemini-2.5-pro", "google/gemini-2.5-flash"]) {
      expect(ids).toContain(expected);
    }
    expect(MODEL_CATALOGUE.some((m) => m.providerId === "openrouter")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of MODEL_CATALOGUE) {
      expect(m.context).toBeGreaterThan(m.output);
      expect(m.input ?? 0).toBeLessThanOrEqual(m.context);
      expect(m.cost.output).toBeGreaterThanOrEqual(m.cost.input);
      expect(m.cost.input).toBeGreaterThan(0);
    }
  });

  it("gives each config its own copy of the catalogue", () => {
    const a = configFromPreset("openai");
    a.models[0]!.cost.input = 999;
    expect(configFromPreset("openai").models[0]!.cost.input).not.toBe(999);
    expect(configFromPreset("openai", { id: "second" }).models.every((m) => m.providerId === "second")).toBe(true);
  });
});
