// Benchmarks that load the built app: serve dist/ and launch Chromium once per file, stop both after.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { ensureBuilt, startServer } from "../e2e/global-setup";
import { launchBrowser } from "../support/browser";

export interface BuiltApp {
  browser(): Browser;
  /** The app's plain URL, as a user opens it (WebContainer's boot cannot finish here; nothing waits on it). */
  url(): string;
  /** A new 1440×900 context (requests leaving localhost held) with a page on the plain URL. */
  open(): Promise<{ context: BrowserContext; page: Page }>;
}

export function useBuiltApp(): BuiltApp {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    ensureBuilt();
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    browser: () => browser!,
    url: () => server!.url,
    open: async () => {
      const context = await browser!.newContext({ viewport: { width: 1440, height: 900 } });
      await holdForeignRequests(context);
      const page = await context.newPage();
      await page.goto(server!.url);
      return { context, page };
    },
  };
}

/** Holds every request that leaves localhost: WebContainer's boot then hangs, as offline. */
export async function holdForeignRequests(context: BrowserContext): Promise<void> {
  await context.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    () => new Promise<void>(() => undefined),
  );
}
