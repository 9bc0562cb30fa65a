// "Test connection" in the built app, served cross-origin isolated: a server that answers without
// CORS headers is reported as a CORS refusal (not as down), and a closed port as unreachable.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { waitForWorkbench } from "../support/browser";
import { startFakeModelServer } from "../support/fake-model-server";
import { useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

/** Settings → Custom OpenAI-compatible → base URL → Test connection; returns the result box. */
async function testConnectionTo(page: Page, baseUrl: string) {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Provider", { exact: true }).selectOption("custom");
  await dialog.getByLabel("Base URL").fill(baseUrl);
  await dialog.getByRole("button", { name: "Test connection" }).click();
  const result = dialog.locator(".test-result");
  await expect.poll(() => result.count(), { timeout: 30_000 }).toBe(1);
  return result;
}

describe("Test connection under cross-origin isolation", () => {
  it("reports a server without CORS headers as blocked by CORS, and the page stays cross-origin isolated", async () => {
    const server = await browser.startServer([], { cors: false });
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);

    const result = await testConnectionTo(page, server.url);
    expect(await result.getAttribute("data-outcome")).toBe("cors");
    expect(await result.innerText()).toContain("Blocked by the browser (CORS)");
    // The server was asked (the probe reached it) and did answer.
    expect(server.requests.some((r) => r.protocol === "models")).toBe(true);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  });

  it("still reports a closed port as unreachable", async () => {
    const closed = await startFakeModelServer([]);
    const url = closed.url;
    await closed.close();
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);

    const result = await testConnectionTo(page, url);
    expect(await result.getAttribute("data-outcome")).toBe("unreachable");
    expect(await result.innerText()).toContain("Server unreachable");
  });
});
