// Issue 29 point 4: a full-stack starter in the browser runtime. A Vite React front end in the
// built-in preview whose fetch('/api/hello') follows vite.config's server.proxy to an Express server
// started in the terminal (a GET, and a POST with a JSON body and headers); both are listed in the Preview; Ctrl-C stops the server (the page's call
// then fails) and running it again is picked up.
import type { FrameLocator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";
import { fullStackStarter, importZip } from "../support/preview-sites";

const browser = useBrowser();

const APP = `import { useEffect, useState } from "react";

export default function App() {
  const [message, setMessage] = useState("loading");
  const [echo, setEcho] = useState("");
  useEffect(() => {
    fetch("/api/hello")
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error("status " + r.status))))
      .then((data) => setMessage(data.message), (error) => setMessage("failed: " + error.message));
  }, []);
  const send = async () => {
    const r = await fetch("/api/echo?q=1", { method: "POST", headers: { "Content-Type": "application/json", "X-Client": "preview" }, body: JSON.stringify({ n: 41 }) });
    const data = await r.json();
    setEcho([r.status, data.method, data.url, data.type, data.client, data.n, r.headers.get("x-served-by")].join(" "));
  };
  return (
    <>
      <h1>{message}</h1>
      <button onClick={send}>Send</button>
      <p id="echo">{echo}</p>
    </>
  );
}
`;

// An Express server, as a full-stack starter has it: express.json() parses the body (body-parser,
// iconv-lite, raw-body: the real packages, from this repository's node_modules).
const SERVER = `import express from "express";
let count = 0;
const app = express();
app.use(express.json());
app.get("/api/hello", (req, res) => res.json({ message: "hello from the server #" + ++count }));
app.post("/api/echo", (req, res) => {
  res.set("X-Served-By", "node").status(201).json({ method: req.method, url: req.originalUrl, type: req.get("content-type"), client: req.get("x-client"), n: req.body.n + 1 });
});
app.listen(3001, () => console.log("API on http://localhost:3001"));
`;

function previewed(page: Page): FrameLocator {
  return page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
}

describe("full-stack starter in the browser runtime", () => {
  it("a Vite front end reaches an Express API through server.proxy; both are in the Preview; Ctrl-C and a re-run are picked up", async () => {
    // The plain URL, as a user opens it: the e2e build's WebContainer boot hangs (as where it cannot
    // start), and the browser runtime serves the terminal meanwhile.
    const { page } = await browser.open();
    await waitForWorkbench(page);
    await importZip(page, "app.zip", fullStackStarter(APP, SERVER));
    await waitForTerminal(page);
    await runInTerminal(page, "npm run dev");
    await runInTerminal(page, "node server.mjs");
    await expect.poll(async () => (await terminalText(page)).replace(/\n/g, ""), { timeout: 20_000 }).toContain("API on http://localhost:3001");
    await expect.poll(() => page.getByRole("combobox", { name: /server/i }).locator("option").allTextContents().catch(() => []), { timeout: 10_000 }).toEqual(
      expect.arrayContaining([expect.stringContaining("5173"), expect.stringContaining("3001")]),
    );
    await page.getByRole("combobox", { name: /server/i }).selectOption({ label: "preview (port 5173)" });
    const site = previewed(page);
    await expect.poll(() => site.locator("h1").textContent({ timeout: 20_000 }), { timeout: 30_000 }).toMatch(/^hello from the server #\d+$/);
    // A POST with a JSON body and headers reaches the server as sent, and its status and headers come back.
    await site.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => site.locator("#echo").textContent(), { timeout: 15_000 }).toBe("201 POST /api/echo?q=1 application/json preview 42 node");

    await page.locator(".terminal-host").click();
    await page.keyboard.press("Control+C");
    await expect.poll(() => page.getByRole("combobox", { name: /server/i }).count(), { timeout: 10_000 }).toBe(0);
    await page.getByRole("button", { name: "Reload preview" }).click();
    await expect.poll(() => site.locator("h1").textContent({ timeout: 20_000 }), { timeout: 30_000 }).toBe("failed: status 502");

    await runInTerminal(page, "node server.mjs");
    // The server that came back is shown (as any new server is); the front end is one choice away.
    await expect.poll(() => page.getByRole("combobox", { name: /server/i }).count(), { timeout: 20_000 }).toBe(1);
    await page.getByRole("combobox", { name: /server/i }).selectOption({ label: "preview (port 5173)" });
    // A new process counts from 1 again (StrictMode fetches twice in development): the first server would be past #2.
    await expect.poll(() => site.locator("h1").textContent({ timeout: 20_000 }), { timeout: 30_000 }).toMatch(/^hello from the server #[12]$/);
  });
});
