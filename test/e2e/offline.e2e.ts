// webcode offline: after one visit the service worker has cached the app shell, so a reload with no
// network opens the IDE, the workspace and the terminal; a new build waits until the user reloads.
import { createServer, type Server } from "node:http";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseUrl, openApp, runInTerminal, terminalText, treeItem, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";

const browser = useBrowser();

/** Until the service worker controls the page (it has installed, so the whole build is cached). */
async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 }).toBe(true);
}

/**
 * The test build served again on a port of its own, where "the next build" can be switched on: its
 * sw.js then lists the same files under another version, as a rebuild with changed chunks does.
 */
async function rebuildableServer(): Promise<{ url: string; nextBuild(): void; close(): Promise<void> }> {
  let next = false;
  const upstream = baseUrl();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const response = await fetch(new URL(req.url ?? "/", upstream));
      const headers = Object.fromEntries([...response.headers].filter(([name]) => !["content-length", "content-encoding", "transfer-encoding"].includes(name)));
      let body = Buffer.from(await response.arrayBuffer());
      if (next && (req.url ?? "").startsWith("/sw.js")) body = Buffer.from(body.toString("utf8").replace(/"version":"[0-9a-f]+"/, '"version":"next-build"'));
      res.writeHead(response.status, headers);
      res.end(body);
    })().catch(() => {
      res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    nextBuild: () => {
      next = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("offline", () => {
  it("reloads with no network: the IDE, the workspace's files and the terminal work", async () => {
    const { page, context } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "echo kept-offline > notes.txt");
    await expect.poll(() => treeItem(page, "notes.txt").count(), { timeout: 10_000 }).toBe(1);
    await waitForServiceWorker(page);

    await context.setOffline(true);
    try {
      await page.reload();
      await waitForWorkbench(page);
      await expect.poll(() => treeItem(page, "notes.txt").count(), { timeout: 10_000 }).toBe(1);
      expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
      await waitForTerminal(page);
      await runInTerminal(page, "cat notes.txt | tr a-z A-Z");
      await expect.poll(() => terminalText(page), { timeout: 10_000 }).toContain("KEPT-OFFLINE");
      // Monaco opens a file from the cache too.
      await treeItem(page, "notes.txt").click();
      await expect.poll(() => page.locator(".monaco-host .view-lines").textContent(), { timeout: 15_000 }).toContain("kept-offline");
    } finally {
      await context.setOffline(false);
    }
  });

  it("a new build is installed beside the running one and offered as an update", async () => {
    const server = await rebuildableServer();
    browser.afterTest(server.close);
    // openApp resolves the query against the suite's URL: this test's server is another origin.
    const app = browser.track(await openApp(browser.chromium(), server.url + "?runtime=browser"));
    const { page } = app;
    await waitForWorkbench(page);
    await waitForServiceWorker(page);
    const shellCaches = () => page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith("webcode-shell-")));
    const first = await shellCaches();
    expect(first).toHaveLength(1);

    server.nextBuild();
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const update = page.getByRole("button", { name: "Update ready: reload" });
    await expect.poll(() => update.count(), { timeout: 60_000 }).toBe(1);
    // The new build's files are in a cache of their own; the page runs on the first until the user agrees.
    expect(await shellCaches()).toEqual([...first, "webcode-shell-next-build"]);

    await Promise.all([page.waitForEvent("load", { timeout: 30_000 }), update.click()]);
    await waitForWorkbench(page);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state), { timeout: 10_000 }).toBe("activated");
    expect(await update.count()).toBe(0);
    expect(await shellCaches()).toContain("webcode-shell-next-build");
  });
});
