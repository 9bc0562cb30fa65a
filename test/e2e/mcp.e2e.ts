// MCP servers in the built app against a real MCP server on 127.0.0.1: added in Settings (Test says
// connected with the tool count), a scripted agent turn that calls its tool (ask → Allow once →
// result in the chat and in the model's next request), and a server a workspace declares, which
// starts disabled with its source shown; a server whose header is sealed by the keys' passphrase.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { runInTerminal, waitForTerminal, waitForWorkbench } from "../support/browser";
import { startMcpTestServer, type McpTestServer } from "../support/mcp-test-server";
import { startOAuthTestServer } from "../support/oauth-test-server";
import { agentRequests, chat, messagesOf, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

async function mcpServer(options?: Parameters<typeof startMcpTestServer>[0]): Promise<McpTestServer> {
  const server = await startMcpTestServer(options);
  browser.afterTest(() => server.close());
  return server;
}

function settingsDialog(page: Page) {
  return page.getByRole("dialog", { name: "Settings" });
}

/** Settings → Add MCP server → name and URL → Test (returns the result box) → Save. */
async function addMcpServer(page: Page, name: string, url: string, options: { save?: boolean } = {}) {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = settingsDialog(page);
  await dialog.getByRole("button", { name: "Add MCP server" }).click();
  const form = dialog.getByRole("form", { name: "Add MCP server" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Server URL").fill(url);
  await form.getByRole("button", { name: "Test", exact: true }).click();
  const result = form.locator(".test-result");
  await expect.poll(() => result.count(), { timeout: 30_000 }).toBe(1);
  const outcome = await result.getAttribute("data-outcome");
  const text = await result.innerText();
  if (options.save !== false) await form.getByRole("button", { name: "Save" }).click();
  return { outcome, text, dialog };
}

describe("MCP servers", () => {
  it("adds a server in Settings: Test reports it connected with its tools, and it stays listed as connected", async () => {
    const server = await mcpServer();
    const app = await browser.open();
    await waitForWorkbench(app.page);
    const { outcome, text, dialog } = await addMcpServer(app.page, "demo", server.url);
    expect(outcome).toBe("connected");
    expect(text).toContain("Connected: 6 tools.");
    const row = dialog.locator('[data-mcp-server="demo"]');
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toContain("connected, 6 tools");
    expect(await row.innerText()).toContain("added by you");
    expect(await dialog.getByRole("checkbox", { name: "Enable demo" }).isChecked()).toBe(true);
  });

  it("tells a CORS refusal apart and names what the server must allow", async () => {
    const server = await mcpServer({ cors: "none" });
    const app = await browser.open();
    await waitForWorkbench(app.page);
    const { outcome, text } = await addMcpServer(app.page, "nocors", server.url, { save: false });
    expect(outcome).toBe("cors");
    expect(text).toContain("Access-Control-Expose-Headers: Mcp-Session-Id");
  });

  it("tells a server that hides Mcp-Session-Id from the page (no Access-Control-Expose-Headers) as a CORS problem", async () => {
    const server = await mcpServer({ cors: "no-expose" });
    const app = await browser.open();
    await waitForWorkbench(app.page);
    const { outcome, text } = await addMcpServer(app.page, "hidden", server.url, { save: false });
    expect(outcome).toBe("cors");
    expect(text).toContain("cannot read the Mcp-Session-Id header");
  });

  it("runs a scripted agent turn that calls the server's tool: ask, Allow once, result in the chat and sent to the model", async () => {
    const server = await mcpServer();
    const model = await browser.startServer(
      scripted([
        { chunks: [{ type: "tool-call", name: "demo_echo", input: { text: "from the agent" } }] },
        { chunks: [{ type: "text", text: "The server echoed it." }] },
      ]),
    );
    const app = await browser.openWithProvider(model);
    const { page } = app;
    const { dialog } = await addMcpServer(page, "demo", server.url);
    await expect.poll(() => dialog.locator('[data-mcp-server="demo"]').innerText(), { timeout: 20_000 }).toContain("connected");
    await dialog.getByRole("button", { name: "Close" }).click();

    await sendMessage(page, "Echo something through the demo server.");
    const card = chat(page).getByRole("group", { name: "The agent wants to call an MCP server's tool" });
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    expect(await card.innerText()).toContain("demo_echo");
    expect(await card.innerText()).toContain('"text": "from the agent"');
    expect(server.calls).toEqual([]);
    await card.getByRole("button", { name: "Allow once" }).click();
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("The server echoed it.");
    expect(await chat(page).getByLabel("Tool result").first().innerText()).toBe("echo: from the agent");
    expect(server.calls).toEqual([{ tool: "echo", args: { text: "from the agent" } }]);

    const requests = agentRequests(model.requests);
    const tools = (requests[0]!.body as { tools: Array<{ function: { name: string; parameters: { properties: Record<string, unknown> } } }> }).tools;
    const echo = tools.find((t) => t.function.name === "demo_echo");
    expect(echo?.function.parameters.properties.text).toMatchObject({ type: "string", description: "What to echo" });
    const toolMessage = messagesOf(requests[1]!).find((m) => m.role === "tool");
    expect(JSON.stringify(toolMessage?.content)).toContain("echo: from the agent");
  });

  it("adds a server the workspace declares in opencode.json disabled, showing where it came from", async () => {
    const server = await mcpServer();
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    const config = JSON.stringify({ mcp: { "repo-tools": { type: "remote", url: server.url } } });
    await runInTerminal(page, `printf '%s' '${config}' > opencode.json && echo written`);
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const dialog = settingsDialog(page);
    const row = dialog.locator('[data-mcp-server="repo-tools"]');
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    expect(await row.innerText()).toContain("from opencode.json of workspace");
    expect(await row.innerText()).toContain("disabled");
    expect(await dialog.getByRole("checkbox", { name: "Enable repo-tools" }).isChecked()).toBe(false);
    // Nothing was sent to a server the user has not enabled.
    expect(server.requests).toEqual([]);
    // The switch turns on once the choice is stored.
    await dialog.getByRole("checkbox", { name: "Enable repo-tools" }).click();
    await expect.poll(() => dialog.getByRole("checkbox", { name: "Enable repo-tools" }).isChecked(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toContain("connected, 6 tools");
  });
});

/** The MCP servers' settings record as stored in the app's IndexedDB, as JSON. */
function storedMcpRecord(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open("webcode");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction("settings").objectStore("settings").get("mcp-servers");
          request.onsuccess = () => {
            open.result.close();
            resolve(JSON.stringify(request.result ?? null));
          };
          request.onerror = () => reject(request.error);
        };
      }),
  );
}

describe("MCP credentials under the keys' passphrase", () => {
  it("seals a server's bearer header with the passphrase: after a reload it is locked and not contacted, and connects once unlocked", async () => {
    const token = "e2e" + "tok-" + "R4t5Y6u7I8o9P0a1S2d3";
    const passphrase = "correct horse battery";
    const server = await mcpServer({ bearer: token });
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    let dialog = settingsDialog(page);
    await dialog.getByRole("button", { name: "Add MCP server" }).click();
    const form = dialog.getByRole("form", { name: "Add MCP server" });
    await form.getByLabel("Name", { exact: true }).fill("sealed");
    await form.getByLabel("Server URL").fill(server.url);
    await form.getByLabel("Headers").fill(`Authorization: Bearer ${token}`);
    await form.getByRole("button", { name: "Save" }).click();
    let row = dialog.locator('[data-mcp-server="sealed"]');
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toContain("connected, 6 tools");

    await dialog.getByLabel("New passphrase").fill(passphrase);
    await dialog.getByLabel("Repeat the passphrase").fill(passphrase);
    await dialog.getByRole("button", { name: "Encrypt keys with this passphrase" }).click();
    await expect.poll(() => dialog.getByText("Keys are encrypted with your passphrase, and unlocked").count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => storedMcpRecord(page), { timeout: 10_000 }).toContain('"vault"');
    expect(await storedMcpRecord(page)).not.toContain(token);

    await page.reload();
    await waitForWorkbench(page);
    const before = server.requests.length;
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    dialog = settingsDialog(page);
    row = dialog.locator('[data-mcp-server="sealed"]');
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toContain("locked: its credentials are encrypted with your passphrase");
    await new Promise((r) => setTimeout(r, 1_000));
    expect(server.requests.length).toBe(before);

    await dialog.getByRole("button", { name: "Unlock sealed" }).click();
    const ask = page.getByRole("dialog", { name: "Unlock provider keys" });
    await expect.poll(() => ask.count(), { timeout: 10_000 }).toBe(1);
    await ask.getByLabel(/Passphrase/).fill(passphrase);
    await ask.getByRole("button", { name: "Unlock" }).click();
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toContain("connected, 6 tools");
    const after = server.requests.slice(before);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((r) => r.authorization === `Bearer ${token}`)).toBe(true);
  });
});

describe("MCP OAuth in the browser", () => {
  it("signs in through a popup with PKCE and dynamic registration, connects with the token, and signs out", async () => {
    const as = await startOAuthTestServer();
    browser.afterTest(() => as.close());
    const server = await mcpServer({ oauth: as });
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    const { outcome, dialog } = await addMcpServer(page, "secure", server.url);
    expect(outcome).toBe("auth");
    const row = dialog.locator('[data-mcp-server="secure"]');
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toContain("Authorization required");

    await dialog.getByRole("button", { name: "Edit secure" }).click();
    const form = dialog.getByRole("form", { name: "Edit MCP server secure" });
    await form.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => row.innerText(), { timeout: 30_000 }).toContain("connected, 6 tools");
    expect(as.registrations).toHaveLength(1);
    expect(as.registrations[0]!.redirect_uris[0]).toMatch(/\/oauth-callback\.html$/);
    expect(as.grants).toEqual(["authorization_code"]);
    await form.getByRole("button", { name: "Sign out" }).click();
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toContain("Authorization required");
    expect(await form.getByRole("button", { name: "Sign in" }).count()).toBe(1);
  });
});
