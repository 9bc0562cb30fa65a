// testConnection tells apart success, a bad key, CORS, an unreachable server and a wrong URL.
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { configFromPreset, testConnection } from "../../src/providers";
import { startFakeModelServer, type FakeModelServer } from "../support/fake-model-server";

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("testConnection", () => {
  it("succeeds and lists the models of an OpenAI-style server", async () => {
    server = await startFakeModelServer([], { models: ["gpt-5", "gpt-4.1"], requireKey: "good" });
    const result = await testConnection(configFromPreset("openai", { apiKey: "good", baseUrl: server.url }));
    expect(result).toEqual({ ok: true, models: ["gpt-5", "gpt-4.1"] });
    expect(server.requests[0]!.headers.authorization).toBe("Bearer good");
  });

  it("lists Anthropic and Google models in their own shapes with their own headers", async () => {
    server = await startFakeModelServer([], { models: ["m1"], requireKey: "good" });
    const anthropic = await testConnection(configFromPreset("anthropic", { apiKey: "good", baseUrl: server.url }));
    expect(anthropic).toEqual({ ok: true, models: ["m1"] });
    expect(server.requests[0]!.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
    expect(server.requests[0]!.headers["x-api-key"]).toBe("good");
    const google = await testConnection(configFromPreset("google", { apiKey: "good", baseUrl: server.url }));
    expect(google).toEqual({ ok: true, models: ["m1"] });
  });

  it("works for a keyless local server", async () => {
    server = await startFakeModelServer([], { models: ["qwen3:8b"] });
    expect(await testConnection(configFromPreset("ollama", { baseUrl: server.url }))).toEqual({ ok: true, models: ["qwen3:8b"] });
  });

  it("checks an OpenRouter key on its key endpoint, since its model list is public", async () => {
    server = await startFakeModelServer([], { models: ["openai/gpt-5"], requireKey: "good" });
    expect(await testConnection(configFromPreset("openrouter", { apiKey: "good", baseUrl: server.url }))).toEqual({ ok: true, models: ["openai/gpt-5"] });
    expect(server.requests.map((r) => r.path)).toEqual(["/v1/key", "/v1/models"]);
    const publicModels: typeof fetch = async (input) =>
      String(input).endsWith("/key") ? new Response('{"error":{"message":"No auth credentials found"}}', { status: 401 }) : new Response('{"data":[]}');
    const result = await testConnection(configFromPreset("openrouter", { apiKey: "bad" }), { fetch: publicModels });
    expect(result).toMatchObject({ ok: false, kind: "bad-key" });
  });

  it("reports a refused key as bad-key with the server's message", async () => {
    server = await startFakeModelServer([], { requireKey: "good" });
    const result = await testConnection(configFromPreset("openrouter", { apiKey: "bad", baseUrl: server.url }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.kind).toBe("bad-key");
    expect(result.message).toContain("OpenRouter refused the API key (HTTP 401: Incorrect API key provided.)");
    expect(result.message).not.toContain("bad");
  });

  it("reports a missing key without calling the server", async () => {
    let called = false;
    const result = await testConnection(configFromPreset("openai"), {
      fetch: async () => {
        called = true;
        return new Response("{}");
      },
    });
    expect(result).toMatchObject({ ok: false, kind: "bad-key" });
    expect(called).toBe(false);
  });

  it("reports a wrong base URL as not-found", async () => {
    server = await startFakeModelServer([]);
    const result = await testConnection(configFromPreset("custom", { baseUrl: `${server.url}/nothing-here` }));
    expect(result).toMatchObject({ ok: false, kind: "not-found" });
    if (!result.ok) expect(result.message).toMatch(/usually ends in \/v1/);
    expect(await testConnection(configFromPreset("custom"))).toMatchObject({ ok: false, kind: "not-found" });
  });

  it("reports a server that is not running as unreachable", async () => {
    const port = await closedPort();
    const result = await testConnection(configFromPreset("lmstudio", { baseUrl: `http://127.0.0.1:${port}/v1` }));
    expect(result).toMatchObject({ ok: false, kind: "unreachable" });
    if (!result.ok) expect(result.message).toContain(`127.0.0.1:${port}`);
  });

  it("reports CORS when fetch fails but a no-cors probe shows the server is up", async () => {
    const modes: (string | undefined)[] = [];
    const browserLike: typeof fetch = async (_input, init) => {
      modes.push(init?.mode);
      // What a browser does: the cors request rejects with a bare TypeError, the opaque one resolves.
      if (init?.mode === "no-cors") return new Response(null, { status: 200 });
      throw new TypeError("Failed to fetch");
    };
    const result = await testConnection(configFromPreset("ollama"), { fetch: browserLike, origin: "https://webcode.example" });
    expect(modes).toEqual([undefined, "no-cors"]);
    expect(result).toMatchObject({ ok: false, kind: "cors" });
    if (!result.ok) {
      expect(result.message).toContain("https://webcode.example");
      expect(result.message).toContain("OLLAMA_ORIGINS");
    }
  });

  it("reports unreachable when the no-cors probe fails too", async () => {
    const offline: typeof fetch = async () => {
      throw new TypeError("Failed to fetch");
    };
    expect(await testConnection(configFromPreset("ollama"), { fetch: offline })).toMatchObject({ ok: false, kind: "unreachable" });
  });

  it("reports a server that does not answer in time as unreachable", async () => {
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
    const result = await testConnection(configFromPreset("ollama"), { fetch: hanging, timeoutMs: 50 });
    expect(result).toMatchObject({ ok: false, kind: "unreachable" });
    if (!result.ok) expect(result.message).toMatch(/did not answer within/);
  });

  it("reports other HTTP errors as error with the status", async () => {
    const failing: typeof fetch = async () => new Response(JSON.stringify({ error: { message: "overloaded" } }), { status: 503 });
    const result = await testConnection(configFromPreset("anthropic", { apiKey: "k" }), { fetch: failing });
    expect(result).toMatchObject({ ok: false, kind: "error" });
    if (!result.ok) expect(result.message).toContain("HTTP 503: overloaded");
  });
});
