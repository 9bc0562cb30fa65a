// Live collaboration (issue 33): from a keystroke in A's editor to the character drawn in B's
// editor. The built app in two Chromium contexts (two people, each with their own IndexedDB)
// against the repository's sync server script on 127.0.0.1; A shares its workspace and B joins
// through an invite link, both with README.md open. A types 20 characters, 150 ms apart; each is
// timed from A's keydown to the moment B's Monaco shows it (a MutationObserver on B's rendered
// lines), both on the machine's clock (performance.timeOrigin + performance.now()).
import type { Page } from "playwright-core";
import { it } from "vitest";
import { startSyncServerScript } from "../support/sync-server";
import { joinFromLink, startSharing } from "../support/sync-pair";
import { treeItem, waitForActiveTab, waitForWorkbench } from "../support/browser";
import { holdForeignRequests, useBuiltApp } from "./built-app";
import { median, report } from "./report";

const MARK = "qzxjvkwqzxjvkwqzxjvk";

async function openPage(app: ReturnType<typeof useBuiltApp>, url: string): Promise<Page> {
  const context = await app.browser().newContext({ viewport: { width: 1440, height: 900 } });
  await holdForeignRequests(context);
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

async function openReadme(page: Page): Promise<void> {
  await treeItem(page, "README.md").waitFor({ timeout: 30_000 });
  await treeItem(page, "README.md").dblclick();
  await waitForActiveTab(page, "README.md");
}

const app = useBuiltApp();

it("keystroke in A to the character in B's editor", async () => {
  const server = await startSyncServerScript();
  try {
    const a = await openPage(app, new URL("?runtime=browser", app.url()).href);
    await waitForWorkbench(a);
    const { link, room } = await startSharing(a, server, "Ann");
    const b = await openPage(app, link);
    await joinFromLink(b, room, server.url);
    await waitForWorkbench(b);
    await openReadme(a);
    await openReadme(b);
    await b.evaluate((mark) => {
      const lines = document.querySelector(".monaco-host .view-lines")!;
      const seen: number[] = [];
      (window as unknown as { __seen: number[] }).__seen = seen;
      new MutationObserver(() => {
        const text = (lines.textContent ?? "").replace(/\u00a0/g, " ");
        while (seen.length < mark.length && text.includes(mark.slice(0, seen.length + 1))) seen.push(performance.timeOrigin + performance.now());
      }).observe(lines, { subtree: true, childList: true, characterData: true });
    }, MARK);
    await a.evaluate(() => {
      const down: number[] = [];
      (window as unknown as { __down: number[] }).__down = down;
      document.addEventListener("keydown", () => down.push(performance.timeOrigin + performance.now()), true);
    });
    await a.locator(".monaco-host .view-lines").click();
    await a.keyboard.press("Control+Home");
    await a.evaluate(() => ((window as unknown as { __down: number[] }).__down.length = 0));
    for (const char of MARK) {
      await a.keyboard.type(char);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await b.waitForFunction((n) => (window as unknown as { __seen: number[] }).__seen.length >= n, MARK.length, { timeout: 10_000 });
    const down = await a.evaluate(() => (window as unknown as { __down: number[] }).__down);
    const seen = await b.evaluate(() => (window as unknown as { __seen: number[] }).__seen);
    const latencies = seen.map((t, i) => t - down[i]!);
    report({
      name: "sync: keystroke in A to character in B (median)",
      value: Math.round(median(latencies) * 10) / 10,
      unit: "ms",
      target: "<= 100",
      note: `${latencies.length} keystrokes, max ${Math.round(Math.max(...latencies))} ms; two Chromium contexts, server script on 127.0.0.1`,
    });
    await a.context().close();
    await b.context().close();
  } finally {
    await server.stop();
  }
}, 180_000);
