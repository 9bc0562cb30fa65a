// The built-in preview in a real browser: the browser runtime serves the workspace as a website
// through the service worker (static sites, a React + TypeScript starter compiled on the way out),
// reloads on save, shows errors with file and line, and keeps the previewed code away from webcode.
import type { Frame, FrameLocator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";
import { DEFAULT_APP, importZip, reactStarter, staticSite } from "../support/preview-sites";

const browser = useBrowser();

function preview(page: Page): FrameLocator {
  return page.frameLocator('iframe[title="Preview"]');
}

async function previewFrame(page: Page): Promise<Frame> {
  const handle = await page.locator('iframe[title="Preview"]').elementHandle({ timeout: 20_000 });
  const frame = await handle!.contentFrame();
  return frame!;
}

async function openPreviewTab(page: Page): Promise<void> {
  await page.getByRole("tab", { name: "Preview" }).click();
}

async function addressBar(page: Page): Promise<string> {
  return page.getByRole("textbox", { name: "Preview path" }).inputValue();
}

describe("built-in preview", () => {
  it("serves a static site: page, CSS, image, JSON fetch, links, 404, and reloads on save keeping the path", async () => {
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await importZip(page, "site.zip", staticSite());
    await openPreviewTab(page);
    await page.getByRole("button", { name: "Open preview" }).click();
    const site = preview(page);
    await expect.poll(() => site.locator("h1").textContent({ timeout: 20_000 }), { timeout: 30_000 }).toBe("Home page");
    const frame = await previewFrame(page);
    expect(await frame.evaluate(() => getComputedStyle(document.querySelector("h1")!).color)).toBe("rgb(10, 20, 30)");
    await expect.poll(() => frame.evaluate(() => (document.getElementById("logo") as HTMLImageElement).naturalWidth), { timeout: 5000 }).toBe(2);
    await expect.poll(() => site.locator("#data").textContent(), { timeout: 5000 }).toBe("hello from json");
    expect(await frame.evaluate(() => self.origin)).toBe("null");

    await site.getByRole("link", { name: "About" }).click();
    await expect.poll(() => site.locator("h1").textContent(), { timeout: 10_000 }).toBe("About us");
    await expect.poll(() => addressBar(page), { timeout: 5000 }).toBe("/about.html");

    // A save reloads the page on the same path.
    await waitForTerminal(page);
    const before = Date.now();
    await runInTerminal(page, "sed -i 's/10, 20, 30/0, 128, 0/' css/style.css");
    await expect
      .poll(async () => (await previewFrame(page)).evaluate(() => getComputedStyle(document.querySelector("h1")!).color).catch(() => ""), { timeout: 10_000, interval: 25 })
      .toBe("rgb(0, 128, 0)");
    console.log(`static: save → updated preview ${Date.now() - before} ms (includes typing the command)`);
    expect(await addressBar(page)).toBe("/about.html");
    expect(await site.locator("h1").textContent()).toBe("About us");

    // A missing page is a 404 with a message.
    await page.getByRole("textbox", { name: "Preview path" }).fill("/missing.html");
    await page.getByRole("textbox", { name: "Preview path" }).press("Enter");
    await expect.poll(() => site.getByRole("alert").textContent(), { timeout: 10_000 }).toContain("404 Not found: /missing.html");
  });

  it("runs the React + TypeScript starter from npm run dev and updates it on save", async () => {
    const { page, errors } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await importZip(page, "app.zip", reactStarter());
    await waitForTerminal(page);
    await runInTerminal(page, "npm run dev");
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toContain("built-in preview");
    // The Preview comes forward by itself.
    const site = preview(page);
    await expect.poll(() => site.getByRole("button").textContent({ timeout: 20_000 }), { timeout: 30_000 }).toBe("count is 0");
    await site.getByRole("button").click();
    await expect.poll(() => site.getByRole("button").textContent(), { timeout: 5000 }).toBe("count is 1");
    expect(await site.locator("h1").textContent()).toBe("Vite + React");
    expect(await site.locator("#mode").textContent()).toBe("development true");
    const frame = await previewFrame(page);
    expect(await frame.evaluate(() => getComputedStyle(document.querySelector("button")!).color)).toBe("rgb(200, 0, 0)");

    await runInTerminal(page, "sed -i 's/count is/clicks:/' src/App.tsx");
    await expect.poll(() => site.getByRole("button").textContent().catch(() => ""), { timeout: 10_000 }).toBe("clicks: 0");
    expect(errors).toEqual([]);
    void DEFAULT_APP;
  });
});
