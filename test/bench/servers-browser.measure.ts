// Issue 29 point 5, in the browser: a previewed Vite front end's fetch('/api/hello') through its
// vite.config's server.proxy to an Express server started in the terminal, and back, timed inside the
// previewed page (warm: after 5 round trips). The path is the user's: the plain URL, the terminal, the
// Preview panel; the hops are postMessage (page ↔ panel ↔ tab ↔ sandbox worker), not timer turns.
import type { Page } from "playwright-core";
import { it } from "vitest";
import { runInTerminal, terminalText, waitForTerminal, waitForWorkbench } from "../support/browser";
import { fullStackStarter, importZip } from "../support/preview-sites";
import { useBuiltApp } from "./built-app";
import { median, report } from "./report";

const app = useBuiltApp();
const ROUND_TRIPS = 50;

const APP = `export default function App() {
  return <h1>ready</h1>;
}
`;

const SERVER = `import express from "express";
const app = express();
app.get("/api/hello", (req, res) => res.json({ hello: "world", n: Number(req.query.n) }));
app.listen(3001, () => console.log("API on http://localhost:3001"));
`;

function previewed(page: Page) {
  return page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
}

it("Preview → Express JSON round trip in Chromium (warm)", async () => {
  const { context, page } = await app.open();
  try {
    await waitForWorkbench(page);
    await importZip(page, "app.zip", fullStackStarter(APP, SERVER));
    await waitForTerminal(page);
    await runInTerminal(page, "node server.mjs &");
    for (let i = 0; !(await terminalText(page)).replace(/\n/g, "").includes("API on http://localhost:3001"); i++) {
      if (i > 300) throw new Error(`the server did not start:\n${await terminalText(page)}`);
      await page.waitForTimeout(100);
    }
    await runInTerminal(page, "npm run dev");
    const site = previewed(page);
    await site.getByRole("heading", { name: "ready" }).waitFor({ timeout: 60_000 });
    const frame = await (await (await (await page.locator('iframe[title="Preview"]').elementHandle())!.contentFrame())!.locator('iframe[title="Previewed page"]').elementHandle())!.contentFrame();
    const times = await frame!.evaluate(async (count) => {
      const out: number[] = [];
      for (let i = 0; i < count + 5; i++) {
        const started = performance.now();
        const body = (await (await fetch(`/api/hello?n=${i}`)).json()) as { n: number };
        if (body.n !== i) throw new Error(`unexpected answer ${JSON.stringify(body)}`);
        if (i >= 5) out.push(performance.now() - started);
      }
      return out;
    }, ROUND_TRIPS);
    report({
      name: `servers: Preview → Express JSON round trip in Chromium, warm (median of ${ROUND_TRIPS})`,
      value: Math.round(median(times) * 10) / 10,
      unit: "ms",
      target: "<= 20",
      note: `timed in the previewed page: fetch('/api/hello') through server.proxy to Express; p90 ${Math.round([...times].sort((a, b) => a - b)[Math.floor(times.length * 0.9)]! * 10) / 10} ms`,
    });
  } finally {
    await context.close();
  }
});
