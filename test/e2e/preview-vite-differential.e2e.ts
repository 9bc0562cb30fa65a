// Issue 28 point 8 (the Preview's part): a differential suite against a real `vite build`. Each
// fixture project (test/support/preview-differential-fixtures.ts) is built with the Vite in this
// repository's node_modules, in this process, its dist/ served on 127.0.0.1 and loaded in Chromium;
// the same files are imported into webcode, run with `npm run dev` in the built-in Preview, and the
// same facts (text the app writes, computed styles, loaded images) are read off both pages. They
// must be equal, except a fact a fixture names as a known difference (with its reason).
//
// The build runs in "development" mode: the Preview is a dev server, and Vite's MODE/DEV/PROD and
// its .env.[mode] file follow the mode, so a development build is what `vite` dev would show.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize, resolve } from "node:path";
import type { FrameLocator, Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";
import { FIXTURES, READ_FACTS, type DifferentialFixture, type Probe } from "../support/preview-differential-fixtures";
import { importZip, installedPackages } from "../support/preview-sites";

const browser = useBrowser();

type Facts = Record<string, unknown>;

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

/** Builds `fixture` with the real Vite into a temporary folder; the path of its dist/. */
async function viteBuild(fixture: DifferentialFixture): Promise<{ dist: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), "webcode-vite-differential-"));
  for (const [path, data] of Object.entries(fixture.files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), data);
  }
  if (fixture.packages?.length) await symlink(resolve("node_modules"), join(root, "node_modules"), "dir");
  // Vite's own command line in the project's folder, as `npm run build` runs it: tools that look in
  // the working folder (Tailwind finds tailwind.config.js there) see the project, not this repository.
  // Vite takes DEV/PROD from NODE_ENV when it is set: the dev server's value.
  const vite = spawnSync(process.execPath, [resolve("node_modules/vite/bin/vite.js"), "build", "--mode", "development", "--minify", "false", "--logLevel", "warn"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "development" },
    encoding: "utf8",
  });
  if (vite.status !== 0) throw new Error(`vite build failed (${vite.status}):\n${vite.stdout}\n${vite.stderr}`);
  return { dist: join(root, "dist"), cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** Serves `dist` on 127.0.0.1 (a free port), as a static host serves a Vite build. */
async function serve(dist: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(dist, path.endsWith("/") ? `${path}index.html` : path);
    readFile(file).then(
      (data) => {
        response.writeHead(200, { "content-type": MIME[extname(file)] ?? "application/octet-stream" });
        response.end(data);
      },
      () => {
        response.writeHead(404);
        response.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/`, server };
}

/** READ_FACTS as a function (Playwright sends its source text to the page, and calls it there). */
const readFactsInPage = new Function(`return ${READ_FACTS}`)() as (body: Element, probes: Probe[]) => Facts;

async function readFacts(body: Locator, probes: Probe[]): Promise<Facts> {
  return body.evaluate(readFactsInPage, probes);
}

function previewedPage(page: Page): FrameLocator {
  return page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
}

describe("built-in preview against a real vite build", () => {
  for (const fixture of FIXTURES) {
    it(`shows what vite build shows: ${fixture.name}`, async () => {
      // What Vite's build shows.
      const built = await viteBuild(fixture);
      const { url, server } = await serve(built.dist);
      browser.afterTest(async () => {
        await new Promise((resolve) => server.close(resolve));
        await built.cleanup();
      });
      const context = await browser.chromium().newContext();
      const sitePage = await context.newPage();
      browser.track({ context, page: sitePage, errors: [] });
      await sitePage.goto(url);
      await sitePage.waitForSelector(`body[${fixture.doneAttribute}]`, { timeout: 15_000 });
      const expected = await readFacts(sitePage.locator("body"), fixture.probes);
      expect(Object.fromEntries(Object.keys(fixture.viteShows).map((fact) => [fact, expected[fact]]))).toEqual(fixture.viteShows);

      // What the built-in Preview shows, on the plain app URL, as a user runs it.
      const { page } = await browser.open();
      await waitForWorkbench(page);
      await importZip(
        page,
        "app.zip",
        [
          ...Object.entries(fixture.files).map(([path, data]) => ({ name: `app/${path}`, data })),
          ...installedPackages(fixture.packages ?? [], "app"),
        ],
      );
      await waitForTerminal(page);
      await runInTerminal(page, "npm run dev");
      const site = previewedPage(page);
      await expect
        .poll(() => site.locator(`body[${fixture.doneAttribute}]`).count().catch(() => 0), { timeout: 30_000 })
        .toBe(1)
        .catch(async (error: unknown) => {
          // What the Preview shows instead (an error overlay, a half-written page) and what the terminal said.
          const shown = await site.locator("body").innerText({ timeout: 1_000 }).catch(() => "(no previewed page)");
          throw new Error(`The Preview did not finish the page.\nPage:\n${shown}\nTerminal:\n${await terminalText(page)}`, { cause: error });
        });
      const actual = await readFacts(site.locator("body"), fixture.probes);

      const known = fixture.knownDifferences ?? {};
      const compared = (facts: Facts) => Object.fromEntries(Object.entries(facts).filter(([fact]) => !(fact in known)));
      // Every probe found its element on the built site (a fixture that reads nothing proves nothing).
      expect(Object.values(expected).filter((value) => typeof value === "string" && value.startsWith("(no element"))).toEqual([]);
      expect(compared(actual)).toEqual(compared(expected));
      // A known difference that no longer differs is taken off the list.
      for (const fact of Object.keys(known)) expect(actual[fact], `"${fact}" is listed as a known difference but is now equal`).not.toEqual(expected[fact]);
    }, 90_000);
  }
});
