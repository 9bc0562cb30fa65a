// Issue 28 point 2: the built-in preview does what Vite does for what a starter uses (a CSS module
// composing from another, .env, public/, ?raw, import.meta.glob), and says what it does not do
// (the project's PostCSS + Tailwind config) on the page, in the error overlay and in the terminal.
import type { FrameLocator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";
import { importZip, viteFeaturesStarter } from "../support/preview-sites";

const browser = useBrowser();

function preview(page: Page): FrameLocator {
  return page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
}

const POSTCSS = "PostCSS (postcss.config.js: tailwindcss, autoprefixer) is not applied by the built-in preview; WebContainer runs it.";

describe("built-in preview: what Vite does", () => {
  it("runs a starter's CSS module, .env, public/, ?raw and glob, and warns about its Tailwind config on the page, in the overlay and in the terminal", async () => {
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await importZip(page, "app.zip", viteFeaturesStarter());
    await waitForTerminal(page);
    await runInTerminal(page, "npm run dev");
    await expect.poll(async () => (await terminalText(page)).replace(/\n/g, ""), { timeout: 10_000 }).toContain("Warning  PostCSS (postcss.config.js: tailwindcss, autoprefixer)");
    const terminal = (await terminalText(page)).replace(/\n/g, "");
    expect(terminal).toContain("Warning  Tailwind (tailwind.config.js) is not applied");

    const site = preview(page);
    await expect.poll(() => site.locator("h1").textContent({ timeout: 20_000 }), { timeout: 30_000 }).toBe("Vite + React");
    // CSS module: a scoped class with what it composes, its rules applied; the global .title untouched.
    const h1 = site.locator("h1");
    expect(await h1.getAttribute("class")).toMatch(/^_title_\w+ _base_\w+$/);
    expect(await h1.evaluate((e) => getComputedStyle(e).color)).toBe("rgb(0, 128, 0)");
    expect(await h1.evaluate((e) => getComputedStyle(e).fontStyle)).toBe("italic");
    expect(await site.locator("#global").evaluate((e) => getComputedStyle(e).color)).not.toBe("rgb(0, 128, 0)");
    // .env: VITE_ variables only.
    expect(await site.locator("#env").textContent()).toBe("https://api.example.test undefined development");
    expect(await site.locator("#raw").textContent()).toBe("raw text");
    expect(await site.locator("#glob").textContent()).toBe("./pages/a.ts=A,./pages/b.ts=B");
    await expect.poll(() => site.locator("#logo").evaluate((e) => (e as HTMLImageElement).naturalWidth)).toBe(4);

    // The notice on the page names the PostCSS config and its plugins.
    const notice = site.getByRole("status");
    await expect.poll(() => notice.textContent()).toContain(POSTCSS);
    expect(await notice.textContent()).toContain("src/index.css uses @tailwind");
    // And the Preview panel lists them above the page.
    await expect.poll(() => page.getByRole("region", { name: "Not applied by the built-in preview" }).textContent()).toContain(POSTCSS);

    // An error's overlay says it as well.
    await runInTerminal(page, `sed -i 's/^function App() {/function App() { throw new Error("boom");/' src/App.tsx`);
    const alert = site.getByRole("alert");
    await expect.poll(() => alert.textContent().catch(() => ""), { timeout: 15_000 }).toContain("boom");
    expect(await alert.textContent()).toContain(POSTCSS);
  });
});
