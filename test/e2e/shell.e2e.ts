// The browser runtime's shell in a real browser: curl through the page's fetch against fake servers
// on 127.0.0.1 (one that allows CORS, one that does not, one that is closed), output in the order it
// was written, history, and zip/unzip.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";

const browser = useBrowser();

/** The terminal's text with its line wraps undone (long messages wrap at the terminal's width). */
async function unwrapped(page: Parameters<typeof terminalText>[0]): Promise<string> {
  return (await terminalText(page)).replace(/\n/g, "");
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

describe("browser runtime shell", () => {
  it("curl reads a server that allows CORS and says why it cannot read one that does not, or one that is down", async () => {
    const server = createServer((req, res) => {
      if (req.url === "/open") {
        res.writeHead(200, { "content-type": "text/plain", "access-control-allow-origin": "*" });
        res.end("open-data-42\n");
      } else {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("closed-data\n");
      }
    });
    const port = await listen(server);
    const closed = createServer();
    const closedPort = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    browser.afterTest(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    const { page } = await browser.open();
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, `curl -s http://127.0.0.1:${port}/open`);
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/^open-data-42$/m);
    await runInTerminal(page, `curl http://127.0.0.1:${port}/private`);
    await expect
      .poll(() => unwrapped(page), { timeout: 15_000 })
      .toContain(`curl: (7) could not read http://127.0.0.1:${port}/private: the server answered but does not allow requests from a web page (CORS)`);
    expect(await terminalText(page)).not.toContain("closed-data");
    await runInTerminal(page, `curl http://127.0.0.1:${closedPort}/`);
    await expect
      .poll(() => unwrapped(page), { timeout: 15_000 })
      .toContain(`curl: (7) could not reach http://127.0.0.1:${closedPort}/: the network refused it or the server does not allow requests from a web page (CORS)`);
  });

  it("shows stdout and stderr in the order written, lists history, and zips and unzips", async () => {
    const { page } = await browser.open();
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "echo first-out; echo second-err >&2; echo third-out");
    await expect.poll(() => terminalText(page)).toMatch(/^first-out\n\s*second-err\n\s*third-out$/m);
    await runInTerminal(page, "history");
    await expect.poll(() => terminalText(page)).toMatch(/^ {4}1 {2}echo first-out; echo second-err >&2; echo third-out\n {4}2 {2}history$/m);
    await runInTerminal(page, "mkdir -p pack/in && echo zipped-text > pack/in/f.txt && zip -qr p.zip pack && unzip -q p.zip -d out && cat out/pack/in/f.txt");
    await expect.poll(() => terminalText(page)).toMatch(/^zipped-text$/m);
    await runInTerminal(page, "tar cf x.tar pack");
    await expect.poll(() => unwrapped(page)).toContain("tar is not available in the browser runtime. Use zip and unzip");
    expect(await terminalText(page)).not.toMatch(/Node\.js bundle|Exclude 'tar'/);
  });
});
