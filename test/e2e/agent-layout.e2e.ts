// The chat at 1440x900 in the built app: a multi-line message keeps its line breaks, usage is shown
// once per reply, and the Sessions sidebar opens over the transcript without squeezing it.
import { describe, expect, it } from "vitest";
import { chat, scripted, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

describe("chat layout", () => {
  it("keeps line breaks, shows usage once, and opens Sessions as a drawer that leaves the transcript its width", async () => {
    const server = await browser.startServer(
      scripted([{ chunks: [{ type: "text", text: "An answer with a [link to the docs](https://example.com/docs) that wraps like prose." }], usage: { input: 10, output: 5 } }]),
    );
    const app = await browser.openWithProvider(server);
    const { page } = app;
    const box = chat(page).getByRole("textbox", { name: "Message" });
    await box.fill("line one\nline two");
    await box.press("Enter");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("wraps like prose");

    expect(await chat(page).getByRole("article", { name: "Your message" }).locator(".message-parts").innerText()).toBe("line one\nline two");
    const reply = chat(page).getByRole("article", { name: /^Reply from/ });
    await expect.poll(() => reply.getByLabel("Message usage").count()).toBe(1);
    expect((await reply.innerText()).match(/in 10 · out 5/g)).toHaveLength(1);

    const mainBefore = (await chat(page).locator(".chat-main").boundingBox())!;
    await chat(page).getByRole("button", { name: "Sessions", exact: true }).click();
    const sidebar = chat(page).getByRole("navigation", { name: "Sessions" });
    await expect.poll(() => sidebar.count()).toBe(1);
    const mainAfter = (await chat(page).locator(".chat-main").boundingBox())!;
    expect(mainAfter.width).toBe(mainBefore.width);
    // The sidebar's buttons are SVG icons with names.
    const rename = sidebar.getByRole("button", { name: /^Rename / });
    expect(await rename.locator("svg").count()).toBe(1);
    expect((await rename.innerText()).trim()).toBe("");

    // Opening a session closes the drawer; Escape does too.
    await sidebar.locator(".session-open").first().click();
    await expect.poll(() => sidebar.count()).toBe(0);
    await chat(page).getByRole("button", { name: "Sessions", exact: true }).click();
    await expect.poll(() => sidebar.count()).toBe(1);
    await sidebar.getByRole("searchbox").press("Escape");
    await expect.poll(() => sidebar.count()).toBe(0);

    // At the side panel's narrowest, the header's controls wrap and none is cut off.
    await page.getByRole("separator", { name: "Resize side panel" }).press("Home");
    await expect.poll(async () => (await chat(page).boundingBox())!.width).toBeLessThan(240);
    const header = chat(page).locator(".chat-header");
    expect(await header.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const headerBox = (await header.boundingBox())!;
    for (const control of await header.locator("button, select").all()) {
      const box = (await control.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(headerBox.x + headerBox.width + 0.5);
    }
    expect(app.errors).toEqual([]);
  });
});
