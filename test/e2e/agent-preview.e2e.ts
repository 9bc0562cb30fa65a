// Issue 30 point 4: a preview the agent starts (its bash tool running `npx serve .`) shows code the
// agent wrote. It does not come to the front or load by itself: the Preview tab says the agent
// started it, and the page loads when the user presses Open preview there.
import { describe, expect, it } from "vitest";
import { waitForWorkbench } from "../support/browser";
import { FAKE_KEY, chat, configureProvider, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

describe("a preview the agent started", () => {
  it("stays behind the chat, unloaded, until the user opens it from the Preview tab", async () => {
    const server = await browser.startServer(
      scripted(
        [
          { chunks: [{ type: "tool-call", name: "bash", input: { command: "printf '<h1>agent site</h1>' > index.html && npx serve .", description: "Serve the site" } }] },
          { chunks: [{ type: "text", text: "The site is being served." }] },
        ],
        "Serve the site",
      ),
      { requireKey: FAKE_KEY },
    );
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await configureProvider(page, { baseUrl: server.url });
    await sendMessage(page, "Serve the site.");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("The site is being served.");
    expect(await transcript(page)).toContain("built-in preview");

    const tab = (name: string) => page.getByRole("tablist", { name: "Side panels" }).getByRole("tab", { name });
    await page.waitForTimeout(500);
    expect(await tab("Chat").getAttribute("aria-selected")).toBe("true");
    expect(await chat(page).count()).toBe(1);
    expect(await page.locator("iframe[title='Preview']").count()).toBe(0);

    await tab("Preview").click();
    await expect.poll(() => page.getByText(/The agent started a preview of http:\/\/127\.0\.0\.1:\d+\/__preview\//).count(), { timeout: 5000 }).toBe(1);
    expect(await page.locator("iframe[title='Preview']").count()).toBe(0);
    await page.getByRole("button", { name: "Open preview" }).click();
    const site = page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
    await expect.poll(() => site.locator("h1").textContent({ timeout: 20_000 }), { timeout: 30_000 }).toBe("agent site");
  });
});
