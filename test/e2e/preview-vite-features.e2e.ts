// Issue 28 point 2: the built-in preview does what Vite does for what a starter uses (a CSS module
// composing from another, .env, public/, ?raw, import.meta.glob, the project's PostCSS with Tailwind
// v3 and autoprefixer), and says what it could not do (a PostCSS config whose packages are not
// installed) on the page, in the error overlay and in the terminal.
import type { FrameLocator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";
import { importZip, tailwindStarter, viteFeaturesStarter } from "../support/preview-sites";

const browser = useBrowser();

function preview(page: Page): FrameLocator {
  return page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
}

const POSTCSS =
  "PostCSS (postcss.config.js) was not applied by the built-in preview: postcss is not installed in the workspace (postcss not found; run npm install); WebContainer runs it.";

describe("built-in preview: what Vite does", () => {
  it("runs a starter's CSS module, .env, public/, ?raw and glob, and says its PostCSS could not run (not installed) on the page, in the overlay and the panel", async () => {
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await importZip(page, "app.zip", viteFeaturesStarter());
    await waitForTerminal(page);
    await runInTerminal(page, "npm run dev");
    await expect.poll(async () => (await terminalText(page)).replace(/\n/g, ""), { timeout: 10_000 }).toContain("PostCSS  postcss.config.js (tailwindcss, autoprefixer) runs on every build");

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

  it("runs bolt.new's Tailwind v3 + autoprefixer set-up: utilities applied, no raw @tailwind, a new class in a saved .tsx styled", async () => {
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    let at = Date.now();
    await importZip(page, "tailwind.zip", tailwindStarter());
    console.log(`Tailwind starter: imported in ${Date.now() - at} ms`);
    await waitForTerminal(page);
    at = Date.now();
    await runInTerminal(page, "npm run dev");
    const site = preview(page);
    const title = site.locator("#title");
    await expect.poll(() => title.textContent({ timeout: 30_000 }).catch(() => ""), { timeout: 60_000 }).toBe("Vite + React + Tailwind");
    console.log(`Tailwind starter: first page with its CSS ${Date.now() - at} ms after npm run dev`);
    expect(await title.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe("rgb(239, 68, 68)");
    expect(await title.evaluate((e) => getComputedStyle(e).padding)).toBe("16px");
    expect(await title.evaluate((e) => getComputedStyle(e).color)).toBe("rgb(255, 255, 255)");
    // Preflight reset the heading's margin; no stylesheet has Tailwind's directives as written.
    expect(await title.evaluate((e) => getComputedStyle(e).marginTop)).toBe("0px");
    const css = await site.locator("body").evaluate(() => [...document.querySelectorAll("style")].map((s) => s.textContent).join("\n"));
    expect(css).not.toContain("@tailwind");
    expect(css).toContain("-webkit-user-select: none");
    // Nothing says PostCSS or Tailwind was not applied.
    expect(await site.getByRole("status").count()).toBe(0);
    expect(await site.locator("#plain").evaluate((e) => getComputedStyle(e).textAlign)).not.toBe("center");

    // A class new to the project, saved in App.tsx, gets its utility after the update.
    const saved = Date.now();
    await runInTerminal(page, `sed -i 's/className="select-none"/className="select-none text-center"/' src/App.tsx`);
    await expect.poll(() => site.locator("#plain").evaluate((e) => getComputedStyle(e).textAlign).catch(() => ""), { timeout: 30_000 }).toBe("center");
    console.log(`Tailwind starter: new class styled ${Date.now() - saved} ms after the save`);
    expect(await site.locator("#title").evaluate((e) => getComputedStyle(e).backgroundColor)).toBe("rgb(239, 68, 68)");
  }, 150_000);
});
