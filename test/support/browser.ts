// Playwright helpers for the browser tests: one Chromium per test file, a fresh context (fresh
// IndexedDB) per test, and helpers that drive the IDE by role and name and wait for conditions.
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

export function baseUrl(): string {
  return inject("baseUrl") ?? process.env.WEBCODE_BASE_URL!;
}

export interface AppPage {
  context: BrowserContext;
  page: Page;
  /** Page errors and console errors seen so far (a test can assert there were none). */
  errors: string[];
}

/** How the e2e build's fake WebContainer boot behaves (test/support/fake-webcontainer-api.ts). */
export type FakeBoot = "hang" | "fail" | { delayMs: number };

export interface OpenOptions {
  /** Default "hang": like a page that cannot reach StackBlitz's servers. */
  webcontainer?: FakeBoot;
}

/**
 * A fresh context and page on the plain app URL (what a user opens); `query` is appended (e.g.
 * "?runtime=browser"). WebContainer's boot is the e2e build's fake, hanging unless told otherwise.
 */
export async function openApp(browser: Browser, query = "", size = { width: 1440, height: 900 }, options: OpenOptions = {}): Promise<AppPage> {
  const context = await browser.newContext({ viewport: size });
  await setFakeBoot(context, options.webcontainer ?? "hang");
  const page = await context.newPage();
  const errors: string[] = [];
  // A page error that says only "Event" is a resource that failed to load (a worker's script, say):
  // the requests that failed just before it go into its line, so a failure report says which.
  const failedRequests: Array<{ at: number; text: string }> = [];
  context.on("requestfailed", (request) => failedRequests.push({ at: Date.now(), text: `${request.method()} ${request.url()} ${request.failure()?.errorText ?? ""}`.trim() }));
  page.on("pageerror", (error) => {
    const recent = failedRequests.filter((r) => Date.now() - r.at < 10_000).map((r) => r.text);
    errors.push(`pageerror: ${error.message}${recent.length > 0 ? ` (requests that failed before it: ${recent.join("; ")})` : ""}`);
  });
  await page.goto(new URL(query, baseUrl()).toString());
  return { context, page, errors };
}

/** Sets, for every page of `context`, how the fake WebContainer boot behaves. */
export async function setFakeBoot(context: BrowserContext, boot: FakeBoot): Promise<void> {
  await context.addInitScript((mode) => {
    (window as Window & { __webcodeFakeWebContainer?: { boot: unknown } }).__webcodeFakeWebContainer = { boot: mode };
  }, boot);
}

/** A test file's browser from `useBrowser()`: what it opens is closed after each test. */
export interface BrowserFixture {
  /** The file's Chromium (launched in beforeAll). */
  chromium(): Browser;
  /** `openApp` in a fresh context that is closed after the test. */
  open(query?: string, size?: { width: number; height: number }, options?: OpenOptions): Promise<AppPage>;
  /** Closes `app` (a context the test made itself) after the test; returns it. */
  track(app: AppPage): AppPage;
  /** Closes `app` now (a test that needs it gone before it ends); it is not closed again. */
  close(app: AppPage): Promise<void>;
  /** Runs `cleanup` after the test, once the test's contexts are closed (e.g. a fake server's close). */
  afterTest(cleanup: () => Promise<void>): void;
}

/**
 * Registers the hooks every browser test file needs: one Chromium for the file (beforeAll/afterAll)
 * and, after each test, closing the contexts it opened and running its cleanups, in that order.
 */
export function useBrowser(): BrowserFixture {
  let browser: Browser | undefined;
  const opened: AppPage[] = [];
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const app of opened.splice(0)) await app.context.close();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  const fixture: BrowserFixture = {
    chromium() {
      if (!browser) throw new Error("The browser is launched in beforeAll; use it inside a test or hook.");
      return browser;
    },
    async open(query, size, options) {
      const app = await openApp(fixture.chromium(), query, size, options);
      opened.push(app);
      return app;
    },
    track(app) {
      opened.push(app);
      return app;
    },
    async close(app) {
      const index = opened.indexOf(app);
      if (index >= 0) opened.splice(index, 1);
      await app.context.close();
    },
    afterTest(cleanup) {
      cleanups.push(cleanup);
    },
  };
  return fixture;
}

/** Waits until the workspace is open: the file tree is there and the editor has loaded Monaco. */
export async function waitForWorkbench(page: Page): Promise<void> {
  await expect.poll(() => page.getByRole("tree", { name: "Files" }).count(), { timeout: 30_000 }).toBe(1);
  await page.waitForSelector("[data-editor-ready='true']", { state: "attached", timeout: 30_000 });
}

/** Waits until the terminal is connected to a shell and showing its prompt. */
export async function waitForTerminal(page: Page): Promise<void> {
  await page.waitForSelector("[data-terminal-ready='true']", { state: "attached", timeout: 30_000 });
  await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/\$\s*$/m);
}

/** The text on the terminal's screen (xterm's DOM renderer rows; no-break spaces made plain). */
export async function terminalText(page: Page): Promise<string> {
  const text = await page.locator(".terminal-host .xterm-rows").innerText().catch(() => "");
  return text.replace(/\u00a0/g, " ");
}

/** Types a command into the terminal and presses Enter. */
export async function runInTerminal(page: Page, command: string): Promise<void> {
  await page.locator(".terminal-host").click();
  await page.keyboard.type(command);
  await page.keyboard.press("Enter");
}

/**
 * Clears the terminal, runs `line` with `; echo MARKER=$?` after it, and waits for that line: the
 * screen's text then, the line's exit code and how long it took from Enter.
 */
export async function runToExit(page: Page, line: string, marker: string, timeout: number): Promise<{ text: string; code: number; ms: number }> {
  const done = new RegExp(`^${marker}=(\\d+)$`, "m");
  await runInTerminal(page, "clear");
  await expect.poll(() => terminalText(page), { timeout: 10_000 }).not.toMatch(done);
  const started = Date.now();
  await runInTerminal(page, `${line}; echo ${marker}=$?`);
  await expect.poll(() => terminalText(page), { timeout }).toMatch(done);
  const ms = Date.now() - started;
  const text = await terminalText(page);
  return { text, code: Number(done.exec(text)![1]), ms };
}

export function treeItem(page: Page, name: string): Locator {
  return page.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name, exact: true });
}

/** Creates a file with the tree's "New file" button and the inline name field. */
export async function createFileFromTree(page: Page, name: string): Promise<void> {
  await page.getByRole("button", { name: "New file" }).click();
  const input = page.getByRole("textbox", { name: "Name" });
  await input.fill(name);
  await input.press("Enter");
  await expect.poll(() => treeItem(page, name).count()).toBe(1);
}

/** The editor's text as Monaco renders it (view lines; fine for short files). Monaco renders spaces as no-break spaces. */
export async function editorText(page: Page): Promise<string> {
  return (await page.locator(".monaco-host .view-lines").innerText()).replace(/\u00a0/g, " ");
}

/** Waits for the active editor tab to be named `name`. */
export async function waitForActiveTab(page: Page, name: string): Promise<void> {
  await expect
    .poll(() => page.getByRole("tablist", { name: "Open files" }).getByRole("tab", { selected: true }).getAttribute("data-path"), { timeout: 20_000 })
    .toBe(name);
}

/** A fresh context whose origin storage quota is `quotaBytes` (set through CDP before the app loads), tracked by `browser`. */
export async function openWithQuota(browser: BrowserFixture, quotaBytes: number): Promise<AppPage> {
  const context = await browser.chromium().newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Storage.overrideQuotaForOrigin", { origin: new URL(baseUrl()).origin, quotaSize: quotaBytes });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  await page.goto(new URL("?runtime=browser", baseUrl()).toString());
  return browser.track({ context, page, errors });
}

/** A second tab of `first`'s context on the app, with its workbench and terminal ready. */
export async function openSecondTab(first: Page): Promise<Page> {
  const page = await first.context().newPage();
  await page.goto(baseUrl());
  await waitForWorkbench(page);
  await waitForTerminal(page);
  return page;
}

/** Workspace names as stored (the app's IndexedDB, sorted), to check what an action created or left alone. */
export async function storedWorkspaceNames(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open("webcode");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction("workspaces").objectStore("workspaces").getAll();
          request.onsuccess = () => {
            open.result.close();
            resolve((request.result as Array<{ name: string }>).map((w) => w.name).sort());
          };
          request.onerror = () => reject(request.error);
        };
      }),
  );
}

export const MOD = process.platform === "darwin" ? "Meta" : "Control";
