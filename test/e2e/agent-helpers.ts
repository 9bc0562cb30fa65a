// Helpers for the agent browser tests: configure the fake OpenAI-compatible server through the
// Settings UI, send messages, and script model turns (main requests vs. background title requests).
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { useBrowser, waitForWorkbench, type AppPage, type BrowserFixture } from "../support/browser";
import { startFakeModelServer, type FakeModelServer, type FakeTurn, type RecordedRequest } from "../support/fake-model-server";

export const FAKE_KEY = "sk-fake-e2e-key-0123456789";
export const FAKE_MODEL = "fake-model";

export interface ProviderSetup {
  baseUrl: string;
  key?: string;
  /** Choice for "File edits" in Settings → Permissions ("ask" makes edits ask first). */
  edits?: "ask" | "allow" | "deny";
}

/** Opens Settings, adds the custom OpenAI-compatible provider pointing at the fake server, and closes. */
export async function configureProvider(page: Page, setup: ProviderSetup): Promise<void> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Provider", { exact: true }).selectOption("custom");
  await dialog.getByLabel("Base URL").fill(setup.baseUrl);
  await dialog.getByLabel("API key").fill(setup.key ?? FAKE_KEY);
  await dialog.getByLabel("Other model ID").fill(FAKE_MODEL);
  await dialog.getByRole("button", { name: "Add model" }).click();
  await expect.poll(() => dialog.getByLabel("Model", { exact: true }).inputValue()).toBe(FAKE_MODEL);
  await dialog.getByRole("button", { name: "Save" }).click();
  // Saved: the provider is listed with its key masked.
  await expect.poll(() => dialog.getByRole("button", { name: /^Edit / }).count()).toBe(1);
  if (setup.edits) await dialog.getByLabel("File edits").selectOption(setup.edits);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect.poll(() => page.getByRole("dialog", { name: "Settings" }).count()).toBe(0);
}

/** `useBrowser()` plus the fake model server for agent tests; servers it starts are closed after each test. */
export interface AgentBrowserFixture extends BrowserFixture {
  /** Starts a fake OpenAI-compatible server (arguments as `startFakeModelServer`), closed after the test. */
  startServer(...args: Parameters<typeof startFakeModelServer>): Promise<FakeModelServer>;
  /** Opens the app, waits for the workbench and adds `server` as the provider through Settings. */
  openWithProvider(server: FakeModelServer, setup?: Omit<ProviderSetup, "baseUrl">): Promise<AppPage>;
}

/** Registers the browser hooks (see `useBrowser`) and closes fake servers after each test, once the app is closed. */
export function useAgentBrowser(): AgentBrowserFixture {
  const fixture = useBrowser();
  return {
    ...fixture,
    async startServer(...args) {
      const server = await startFakeModelServer(...args);
      fixture.afterTest(() => server.close());
      return server;
    },
    async openWithProvider(server, setup) {
      const app = await fixture.open();
      await waitForWorkbench(app.page);
      await configureProvider(app.page, { ...setup, baseUrl: server.url });
      return app;
    },
  };
}

/** The chat panel (the right panel's Chat tab). */
export function chat(page: Page): Locator {
  return page.locator("#panel-chat");
}

export async function sendMessage(page: Page, text: string): Promise<void> {
  const box = chat(page).getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

/** The text of the chat's transcript. */
export async function transcript(page: Page): Promise<string> {
  return chat(page).locator(".chat-main").innerText();
}

/** Title requests run in the background without tools; the agent's own requests carry tools. */
export function isTitleRequest(request: RecordedRequest): boolean {
  const body = request.body as { tools?: unknown[] } | undefined;
  return !body?.tools || body.tools.length === 0;
}

/**
 * A script for the fake server: the agent's requests take `turns` in order; title requests get a
 * fixed title. Past the end, a turn saying so (a test that asks for more fails on it).
 */
export function scripted(turns: FakeTurn[], title = "Scripted session"): (request: RecordedRequest) => FakeTurn {
  let next = 0;
  return (request) => {
    if (isTitleRequest(request)) return { chunks: [{ type: "text", text: title }] };
    return turns[next++] ?? { error: { status: 500, message: `no scripted turn left (agent request ${next})` } };
  };
}

/** The agent's requests (not titles), in order. */
export function agentRequests(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => (r.protocol === "openai-chat" || r.protocol === "openai-responses") && !isTitleRequest(r));
}

/** The messages of a chat-completions request, as sent. */
export function messagesOf(request: RecordedRequest): Array<{ role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string }> {
  return (request.body as { messages: Array<{ role: string; content?: unknown }> }).messages;
}
