// The built-in preview in a real browser: the browser runtime serves the workspace as a website
// through the service worker (static sites, a React + TypeScript starter compiled on the way out),
// reloads on save, shows errors with file and line, and keeps the previewed code away from webcode.
import type { Frame, FrameLocator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";
import { DEFAULT_APP, brokenApp, hostileSite, importZip, reactStarter, staticSite } from "../support/preview-sites";

const browser = useBrowser();

/** The previewed page: inside the Preview's frame, which holds its navigation policy. */
function preview(page: Page): FrameLocator {
  return page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
}

async function previewFrame(page: Page): Promise<Frame> {
  const outer = await (await page.locator('iframe[title="Preview"]').elementHandle({ timeout: 20_000 }))!.contentFrame();
  const handle = await outer!.locator('iframe[title="Previewed page"]').elementHandle({ timeout: 20_000 });
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
    await expect.poll(() => frame.evaluate(() => (document.getElementById("logo") as HTMLImageElement).naturalWidth)).toBe(2);
    await expect.poll(() => site.locator("#data").textContent()).toBe("hello from json");
    expect(await frame.evaluate(() => self.origin)).toBe("null");

    await site.getByRole("link", { name: "About" }).click();
    await expect.poll(() => site.locator("h1").textContent(), { timeout: 10_000 }).toBe("About us");
    await expect.poll(() => addressBar(page)).toBe("/about.html");

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
    // npm runs the script ("vite") through the shell, where vite opens the Preview. Lines wrap at the terminal's width.
    await expect.poll(async () => (await terminalText(page)).replace(/\n/g, ""), { timeout: 10_000 }).toContain("> vite" + "No Node.js dev server runs in the browser runtime: vite is served by the browser runtime's built-in preview");
    // The Preview comes forward by itself.
    const site = preview(page);
    await expect.poll(() => site.getByRole("button").textContent({ timeout: 20_000 }), { timeout: 30_000 }).toBe("count is 0");
    await site.getByRole("button").click();
    await expect.poll(() => site.getByRole("button").textContent()).toBe("count is 1");
    expect(await site.locator("h1").textContent()).toBe("Vite + React");
    expect(await site.locator("#mode").textContent()).toBe("development true");
    const frame = await previewFrame(page);
    expect(await frame.evaluate(() => getComputedStyle(document.querySelector("button")!).color)).toBe("rgb(200, 0, 0)");

    // A save updates the running page in place (a hot update): a value the first load set survives,
    // React and react-dom are not evaluated again, and the app is rendered anew with the new text.
    await frame.evaluate(() => ((window as unknown as { firstLoad: string }).firstLoad = "kept"));
    await waitForTerminal(page);
    await runInTerminal(page, "sed -i 's/count is/clicks:/' src/App.tsx");
    await expect.poll(() => site.getByRole("button").textContent().catch(() => ""), { timeout: 10_000 }).toBe("clicks: 0");
    expect(await frame.evaluate(() => (window as unknown as { firstLoad?: string }).firstLoad)).toBe("kept");
    expect(await site.getByRole("button").count()).toBe(1);
    expect(await frame.evaluate(() => getComputedStyle(document.querySelector("button")!).color)).toBe("rgb(200, 0, 0)");
    await site.getByRole("button").click();
    await expect.poll(() => site.getByRole("button").textContent()).toBe("clicks: 1");

    // A changed stylesheet module: its old style goes, the new one applies, still without a reload.
    await runInTerminal(page, "sed -i 's/200, 0, 0/0, 0, 200/' src/index.css");
    await expect
      .poll(() => frame.evaluate(() => getComputedStyle(document.querySelector("button")!).color).catch(() => ""), { timeout: 10_000, interval: 25 })
      .toBe("rgb(0, 0, 200)");
    expect(await frame.evaluate(() => [...document.querySelectorAll("style[data-file]")].map((s) => (s as HTMLElement).dataset.file))).toEqual(["src/index.css"]);
    expect(await frame.evaluate(() => (window as unknown as { firstLoad?: string }).firstLoad)).toBe("kept");
    expect(errors).toEqual([]);
    void DEFAULT_APP;
  });

  it("unmounts the old React tree on a hot update (its effects are cleaned up) and takes updates only from the panel", async () => {
    const effectApp = `import { useEffect } from "react";\n\ntype Counted = { mounted?: number };\n\nexport default function App() {\n  useEffect(() => {\n    const w = window as unknown as Counted;\n    w.mounted = (w.mounted ?? 0) + 1;\n    return () => {\n      w.mounted = (w.mounted ?? 0) - 1;\n    };\n  }, []);\n  return <button>version one</button>;\n}\n`;
    const { page, errors } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await importZip(page, "app.zip", reactStarter(effectApp));
    await openPreviewTab(page);
    await page.getByRole("button", { name: "Open preview" }).click();
    const site = preview(page);
    await expect.poll(() => site.getByRole("button").textContent({ timeout: 20_000 }).catch(() => ""), { timeout: 30_000 }).toBe("version one");
    const frame = await previewFrame(page);
    const mounted = () => frame.evaluate(() => (window as unknown as { mounted?: number }).mounted);
    await expect.poll(mounted).toBe(1);

    // A message of the page's own making, in the shape of an update, is ignored.
    await frame.evaluate(() =>
      window.postMessage({ source: "webcode-preview-host", kind: "hot", id: 1, imports: {}, entries: [], removeStyles: [], shell: "<body><p id=taken>taken</p></body>" }, "*"),
    );
    await page.waitForTimeout(200);
    expect(await site.locator("#taken").count()).toBe(0);

    await waitForTerminal(page);
    await runInTerminal(page, "sed -i 's/version one/version two/' src/App.tsx");
    await expect.poll(() => site.getByRole("button").textContent().catch(() => ""), { timeout: 10_000 }).toBe("version two");
    // The same window (no reload), one app mounted: the old one's effect was cleaned up.
    expect(await mounted()).toBe(1);
    expect(await site.getByRole("button").count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it("falls back to a full reload, on the same path, when a save changes what a hot update cannot carry (the HTML)", async () => {
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await importZip(page, "app.zip", reactStarter());
    await openPreviewTab(page);
    await page.getByRole("button", { name: "Open preview" }).click();
    const site = preview(page);
    await expect.poll(() => site.getByRole("button").textContent({ timeout: 20_000 }), { timeout: 30_000 }).toBe("count is 0");
    // A route of the single-page app: served its index.html, and kept across the reload.
    await page.getByRole("textbox", { name: "Preview path" }).fill("/settings");
    await page.getByRole("textbox", { name: "Preview path" }).press("Enter");
    await expect.poll(() => site.getByRole("button").textContent({ timeout: 20_000 }).catch(() => ""), { timeout: 30_000 }).toBe("count is 0");
    const marked = await previewFrame(page);
    await marked.evaluate(() => ((window as unknown as { firstLoad: string }).firstLoad = "kept"));

    await waitForTerminal(page);
    await runInTerminal(page, "sed -i 's/<title>Vite + React + TS/<title>Renamed/' index.html");
    await expect.poll(async () => (await previewFrame(page)).evaluate(() => document.title).catch(() => ""), { timeout: 10_000, interval: 25 }).toBe("Renamed");
    const reloaded = await previewFrame(page);
    expect(await reloaded.evaluate(() => (window as unknown as { firstLoad?: string }).firstLoad)).toBeUndefined();
    await expect.poll(() => site.getByRole("button").textContent().catch(() => ""), { timeout: 10_000 }).toBe("count is 0");
    expect(await reloaded.evaluate(() => location.pathname.endsWith("/settings"))).toBe(true);
    expect(await addressBar(page)).toBe("/settings");
  });

  it("shows errors of the previewed app in an overlay with file and line: syntax, module not found, runtime", async () => {
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    // Line 4 has the syntax error.
    await importZip(page, "broken.zip", brokenApp(`import { useState } from "react";\n\nexport default function App() {\n  const [n, setN] = useState(0;\n  return <p>{n}</p>;\n}\n`));
    await openPreviewTab(page);
    await page.getByRole("button", { name: "Open preview" }).click();
    const overlay = preview(page).getByRole("alert");
    await expect.poll(() => overlay.textContent({ timeout: 20_000 }).catch(() => ""), { timeout: 30_000 }).toContain("src/App.tsx:4");
    expect(await overlay.textContent()).toMatch(/Syntax error/);

    // A module that is not there (line 2), after a save: the overlay follows.
    await waitForTerminal(page);
    await runInTerminal(page, `printf 'import { useState } from "react";\\nimport missing from "./missing";\\nexport default function App() { return <p>{missing}</p>; }\\n' > src/App.tsx`);
    await expect.poll(() => overlay.textContent().catch(() => ""), { timeout: 10_000 }).toMatch(/Module not found[\s\S]*\.\/missing/);
    expect(await overlay.textContent()).toContain("src/App.tsx:2");

    // A runtime error thrown while rendering (line 3).
    await runInTerminal(page, `printf 'export default function App() {\\n  const items: string[] | undefined = undefined;\\n  throw new Error("boom at render " + items);\\n}\\n' > src/App.tsx`);
    await expect.poll(() => overlay.textContent().catch(() => ""), { timeout: 10_000 }).toContain("boom at render");
    expect(await overlay.textContent()).toContain("src/App.tsx:3");
  });

  it("isolates the previewed code: no webcode storage, DOM or top navigation, and a hang leaves the IDE responsive", async () => {
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await importZip(page, "evil.zip", hostileSite());
    await openPreviewTab(page);
    await page.getByRole("button", { name: "Open preview" }).click();
    const site = preview(page);
    await expect.poll(() => site.locator("#out").textContent({ timeout: 20_000 }).catch(() => ""), { timeout: 30_000 }).toContain("origin");
    const results = JSON.parse((await site.locator("#out").textContent())!) as Record<string, string>;
    expect(results).toEqual({ origin: "null", indexedDB: "SecurityError", parentDocument: "SecurityError", localStorage: "SecurityError", cookie: "SecurityError" });

    const appUrl = page.url();
    await site.getByRole("button", { name: "Take over" }).click();
    await expect.poll(() => site.locator("#nav").textContent()).not.toBe("");
    expect(page.url()).toBe(appUrl);
    expect(await page.getByRole("tree", { name: "Files" }).count()).toBe(1);

    // An endless loop in the preview: the IDE still answers and its terminal still runs commands.
    await site.getByRole("button", { name: "Hang" }).click();
    await page.waitForTimeout(500);
    const started = Date.now();
    expect(await page.evaluate(() => document.title)).toBe("webcode");
    expect(Date.now() - started).toBeLessThan(2000);
    await waitForTerminal(page);
    await runInTerminal(page, "echo still-$((40 + 2))");
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toContain("still-42");
  });

  it("keeps the app's cross-origin isolation with the service worker in place", async () => {
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await waitForWorkbench(page);
    expect(await page.evaluate(() => ({ isolated: self.crossOriginIsolated, controlled: navigator.serviceWorker.controller !== null }))).toEqual({
      isolated: true,
      controlled: true,
    });
  });
});
