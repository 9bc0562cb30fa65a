// @vitest-environment happy-dom
// The Settings dialog: add a provider from a preset with the labelled fields, keys stored only in
// IndexedDB and shown masked, the four connection outcomes told apart, default and small model.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { act } from "react";
import { openStorage, type Storage } from "../../src/storage";
import { loadProviderConfigs, testConnection, type ConnectionResult, type ProviderConfig } from "../../src/providers";
import { ProviderSettings, SettingsDialog, DEFAULT_MODEL_KEY } from "../../src/ui/settings";
import { button, byLabel, click, render, settle, settleUntil, typeInto, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
let storage: Storage | undefined;
afterEach(async () => {
  await view?.unmount();
  storage?.close();
  view = undefined;
});

async function setup(test: (config: ProviderConfig) => Promise<ConnectionResult>) {
  storage = await openStorage({ name: `settings-${Math.random()}` });
  const settings = new ProviderSettings(storage);
  await settings.load();
  const tested: ProviderConfig[] = [];
  let closed = 0;
  view = await render(
    <SettingsDialog
      settings={settings}
      testConnection={(config) => {
        tested.push(config);
        return test(config);
      }}
      onClose={() => closed++}
    />,
  );
  return { settings, tested, closed: () => closed };
}

function field<T extends HTMLElement>(label: string): T {
  const element = byLabel<T>(view!.container, label);
  if (!element) throw new Error(`no field labelled ${label}`);
  return element;
}

async function choose(select: HTMLSelectElement, value: string) {
  await act(async () => {
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await settle();
}

describe("SettingsDialog", () => {
  it("is a dialog named Settings with the labelled fields, starting on Add provider when there is none", async () => {
    await setup(async () => ({ ok: true }));
    const dialog = view!.container.querySelector('[role="dialog"]')!;
    expect(dialog.getAttribute("aria-label")).toBe("Settings");
    expect(field<HTMLSelectElement>("Provider").tagName).toBe("SELECT");
    expect(Array.from(field<HTMLSelectElement>("Provider").options).map((o) => o.textContent)).toEqual([
      "OpenAI",
      "Anthropic",
      "Google Gemini",
      "OpenRouter",
      "Ollama",
      "LM Studio",
      "Custom (OpenAI-compatible URL)",
    ]);
    expect(field<HTMLInputElement>("Base URL").tagName).toBe("INPUT");
    expect(field<HTMLInputElement>("API key").type).toBe("password");
    expect(field<HTMLSelectElement>("Model").options.length).toBeGreaterThan(1);
    expect(field<HTMLSelectElement>("Model").options[0]!.textContent).toMatch(/context · \$[\d.]+ \/ \$[\d.]+ per M tokens/);
  });

  it("saves a provider with its key to IndexedDB, shows it masked, and makes its model the default", async () => {
    const { settings } = await setup(async () => ({ ok: true }));
    await choose(field<HTMLSelectElement>("Provider"), "anthropic");
    await typeInto(field<HTMLInputElement>("API key"), "sk-ant-secret-key-123456");
    await choose(field<HTMLSelectElement>("Model"), "claude-sonnet-4-5");
    await click(button(view!.container, "Save"));
    // Saving takes several storage round trips: wait until the form has given way to the list.
    await settleUntil(() => !!view!.container.querySelector('button[aria-label="Edit Anthropic"]'), "the saved provider in the list");
    const saved = await loadProviderConfigs(storage!);
    expect(saved.map((c) => [c.id, c.apiKey])).toEqual([["anthropic", "sk-ant-secret-key-123456"]]);
    expect(await storage!.settings.get(DEFAULT_MODEL_KEY)).toEqual({ providerId: "anthropic", modelId: "claude-sonnet-4-5" });
    expect(settings.defaultModel).toEqual({ providerId: "anthropic", modelId: "claude-sonnet-4-5" });
    // The key is never shown in full.
    expect(view!.container.innerHTML).not.toContain("sk-ant-secret-key-123456");
    expect(view!.container.textContent).toContain("sk-…3456");
    // Editing keeps the saved key when the box is left empty.
    await click(button(view!.container, "Edit Anthropic"));
    expect(field<HTMLInputElement>("API key").value).toBe("");
    expect(field<HTMLInputElement>("API key").placeholder).toBe("Saved: sk-…3456");
    await click(button(view!.container, "Save"));
    await settle();
    expect((await loadProviderConfigs(storage!))[0]!.apiKey).toBe("sk-ant-secret-key-123456");
  });

  it("sets the context window and output limit of a custom model, refusing limits that cannot work", async () => {
    await setup(async () => ({ ok: true }));
    await choose(field<HTMLSelectElement>("Provider"), "custom");
    await typeInto(field<HTMLInputElement>("Base URL"), "http://127.0.0.1:1234/v1");
    await typeInto(field<HTMLInputElement>("Other model ID"), "local-128k");
    await click(button(view!.container, "Add model"));
    // A model nobody catalogued starts at the conservative defaults...
    expect(field<HTMLInputElement>("Context window (tokens)").value).toBe("32768");
    expect(field<HTMLInputElement>("Output limit (tokens)").value).toBe("8192");
    // ...and an output limit as big as the window is refused with a message.
    await typeInto(field<HTMLInputElement>("Output limit (tokens)"), "40000");
    await click(button(view!.container, "Save"));
    await settle();
    expect(view!.container.textContent).toContain("The output limit of local-128k (40000) must be smaller than its context window (32768).");
    expect(await loadProviderConfigs(storage!)).toEqual([]);
    await typeInto(field<HTMLInputElement>("Context window (tokens)"), "131072");
    await typeInto(field<HTMLInputElement>("Output limit (tokens)"), "16384");
    // The no-data timeout starts at the 90 s default; a slow local model gets more.
    expect(field<HTMLInputElement>("No-data timeout (seconds)").value).toBe("90");
    await typeInto(field<HTMLInputElement>("No-data timeout (seconds)"), "300");
    await click(button(view!.container, "Save"));
    // Saving takes several storage round trips: wait until the form has given way to the list.
    await settleUntil(() => !!view!.container.querySelector('button[aria-label^="Edit "]'), "the saved provider in the list");
    const saved = await loadProviderConfigs(storage!);
    expect(saved[0]!.models.find((m) => m.id === "local-128k")).toMatchObject({ context: 131_072, output: 16_384, stallTimeoutMs: 300_000 });
  });

  it.each([
    [{ ok: true, models: ["a", "b"] } as ConnectionResult, "ok", "Connected", "lists 2 models"],
    [{ ok: false, kind: "bad-key", message: "OpenAI refused the API key (HTTP 401)." } as ConnectionResult, "bad-key", "The API key was refused", "HTTP 401"],
    [{ ok: false, kind: "cors", message: "blocked because the server does not allow this page's origin" } as ConnectionResult, "cors", "Blocked by the browser (CORS)", "origin"],
    [{ ok: false, kind: "unreachable", message: "Could not reach OpenAI." } as ConnectionResult, "unreachable", "Server unreachable", "Could not reach"],
  ])("tells the outcome apart: %o", async (result, outcome, heading, detail) => {
    const { tested } = await setup(async () => result);
    await typeInto(field<HTMLInputElement>("API key"), "sk-test-123");
    await click(button(view!.container, "Test connection"));
    await settle();
    expect(tested[0]!.apiKey).toBe("sk-test-123");
    const status = view!.container.querySelector(".test-result")!;
    expect(status.getAttribute("data-outcome")).toBe(outcome);
    expect(status.querySelector("strong")!.textContent).toBe(heading);
    expect(status.textContent).toContain(detail);
  });

  it("tells a CORS refusal from an unreachable server with the real testConnection", async () => {
    // fetch rejects the same way for both; a no-cors probe that succeeds means the server is up.
    const corsFetch = (async (_url: string, init?: RequestInit) => {
      if (init?.mode === "no-cors") return new Response(null, { status: 200 });
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    const downFetch = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    for (const [fetchImpl, outcome] of [
      [corsFetch, "cors"],
      [downFetch, "unreachable"],
    ] as const) {
      await setup((config) => testConnection(config, { fetch: fetchImpl }));
      await choose(field<HTMLSelectElement>("Provider"), "ollama");
      await click(button(view!.container, "Test connection"));
      await settle();
      expect(view!.container.querySelector(".test-result")!.getAttribute("data-outcome")).toBe(outcome);
      await view!.unmount();
      view = undefined;
    }
  });

  it("adds the models a local server lists, and needs a base URL for a custom server", async () => {
    await setup(async () => ({ ok: true, models: ["qwen2.5-coder:7b", "llama3.2"] }));
    await choose(field<HTMLSelectElement>("Provider"), "custom");
    await click(button(view!.container, "Save"));
    expect(view!.container.querySelector('[role="alert"]')?.textContent).toContain("base URL");
    await typeInto(field<HTMLInputElement>("Base URL"), "http://127.0.0.1:8080/v1/");
    await click(button(view!.container, "Test connection"));
    await settle();
    const models = Array.from(field<HTMLSelectElement>("Model").options).map((o) => o.value);
    expect(models).toContain("qwen2.5-coder:7b");
    expect(models).toContain("llama3.2");
    await click(button(view!.container, "Save"));
    // Saving takes several storage round trips: wait until the form has given way to the list.
    await settleUntil(() => !!view!.container.querySelector('button[aria-label^="Edit "]'), "the saved provider in the list");
    const saved = await loadProviderConfigs(storage!);
    expect(saved[0]!.baseUrl).toBe("http://127.0.0.1:8080/v1");
    expect(saved[0]!.models.map((m) => m.id)).toEqual(["qwen2.5-coder:7b", "llama3.2"]);
  });

  it("picks the default and the small model, and removes a provider", async () => {
    const { settings } = await setup(async () => ({ ok: true }));
    await typeInto(field<HTMLInputElement>("API key"), "sk-openai-0000000000");
    await click(button(view!.container, "Save"));
    // Saving takes several storage round trips (the last one makes its model the default): wait
    // until the form has given way to the list, as a user does, before picking another default.
    await settleUntil(() => !!view!.container.querySelector('button[aria-label="Edit OpenAI"]'), "the saved provider in the list");
    const defaultPicker = field<HTMLSelectElement>("Default model");
    await choose(defaultPicker, "openai\u0000gpt-5-mini");
    // Each pick is stored (a few fake-indexeddb round trips) before the settings change.
    await settleUntil(() => settings.defaultModel?.modelId === "gpt-5-mini", "the default model to be stored");
    expect(settings.defaultModel).toEqual({ providerId: "openai", modelId: "gpt-5-mini" });
    expect(await storage!.settings.get(DEFAULT_MODEL_KEY)).toEqual({ providerId: "openai", modelId: "gpt-5-mini" });
    await choose(field<HTMLSelectElement>("Small model"), "openai\u0000gpt-5-nano");
    await settleUntil(async () => (await loadProviderConfigs(storage!))[0]?.smallModel === "gpt-5-nano", "the small model to be stored");
    expect((await loadProviderConfigs(storage!))[0]!.smallModel).toBe("gpt-5-nano");
    await click(button(view!.container, "Edit OpenAI"));
    await click(button(view!.container, "Remove provider"));
    await settleUntil(async () => (await storage!.settings.get(DEFAULT_MODEL_KEY)) === undefined, "the default model to be removed with its provider");
    expect(await loadProviderConfigs(storage!)).toEqual([]);
  });

  it("closes on Escape and with Close", async () => {
    const { closed } = await setup(async () => ({ ok: true }));
    await act(async () => {
      view!.container.querySelector('[role="dialog"]')!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    });
    await click(button(view!.container, "Close"));
    expect(closed()).toBe(2);
  });
});
