// The built-in preview: from "Open preview" to the React + TypeScript starter's first paint (its
// packages already in node_modules), and from a save to the updated preview.
import type { Page } from "playwright-core";
import { it } from "vitest";
import { setFakeBoot, runInTerminal, terminalText, waitForTerminal, waitForWorkbench } from "../support/browser";
import { importZip, reactStarter } from "../support/preview-sites";
import { useBuiltApp } from "./built-app";
import { median, report } from "./report";

const app = useBuiltApp();
const SAVES = 5;

/** Milliseconds until the previewed app's button reads `text` (polled every 10 ms). */
async function until(page: Page, text: string, started: number, timeoutMs = 30_000): Promise<number> {
  // The previewed page is inside the Preview's frame, which holds its navigation policy.
  const button = page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]').getByRole("button");
  for (;;) {
    const now = await button.textContent({ timeout: 50 }).catch(() => null);
    if (now === text) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`the preview never showed "${text}" (last: ${now})`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

it("opens the React starter in the preview and updates it on save", async () => {
  const context = await app.browser().newContext({ viewport: { width: 1440, height: 900 } });
  await setFakeBoot(context, "hang");
  const page = await context.newPage();
  try {
    await page.goto(`${app.url()}?runtime=browser`);
    await waitForWorkbench(page);
    await importZip(page, "app.zip", reactStarter());
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.getByRole("tab", { name: "Preview" }).click();

    let started = performance.now();
    await page.getByRole("button", { name: "Open preview" }).click();
    const cold = await until(page, "count is 0", started);
    // Warm: the compiled modules are cached; "Reload preview" builds the page and the app again.
    const warm: number[] = [];
    for (let run = 0; run < 5; run++) {
      started = performance.now();
      await page.getByRole("button", { name: "Reload preview" }).click();
      await page.waitForTimeout(0);
      warm.push(await until(page, "count is 0", started));
    }

    // Saves are hot updates: a value the last load set on the frame's window must survive them.
    const outer = await (await page.locator('iframe[title="Preview"]').elementHandle())!.contentFrame();
    const frame = await (await outer!.locator('iframe[title="Previewed page"]').elementHandle())!.contentFrame();
    await frame!.evaluate(() => ((window as unknown as { loaded: string }).loaded = "once"));
    await waitForTerminal(page);
    const saves: number[] = [];
    let label = "count is";
    for (let i = 0; i < SAVES; i++) {
      const next = `clicks ${i}:`;
      await page.locator(".terminal-host").click();
      await page.keyboard.type(`sed -i 's/${label}/${next}/' src/App.tsx`);
      started = performance.now();
      await page.keyboard.press("Enter");
      saves.push(await until(page, `${next} 0`, started));
      label = next;
    }
    const survived = await frame!.evaluate(() => (window as unknown as { loaded?: string }).loaded).catch(() => undefined);
    if (survived !== "once") throw new Error("a save reloaded the preview instead of updating it in place");
    await runInTerminal(page, "true");
    void terminalText;

    report({ name: "preview: Open preview → React starter first paint, first time", value: Math.round(cold), unit: "ms", note: "compiles react, react-dom and the app" });
    report({ name: "preview: Reload → React starter first paint, warm (median of 5)", value: Math.round(median(warm)), unit: "ms", target: "<= 1500" });
    report({ name: "preview: save → updated preview (median of 5)", value: Math.round(median(saves)), unit: "ms", target: "<= 500", note: "sed in the terminal, Enter to the new text in the frame; hot update, no reload" });
  } finally {
    await context.close();
  }
});
