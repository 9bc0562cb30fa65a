// Web search by the provider, in the browser: turned on for OpenAI in Settings (the cost said beside
// the switch), asked about before the turn's request, offered in that request (body checked at the
// fake OpenAI Responses server on 127.0.0.1), and the search with its query and the answer's cited
// source shown in the chat.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { waitForWorkbench } from "../support/browser";
import { SEARCHED_URL, openAiSearchedTurn } from "../support/web-search-turns";
import { FAKE_KEY, agentRequests, chat, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();
/** Settings → add OpenAI pointed at the fake server, with web search on. */
async function addOpenAiWithSearch(page: Page, baseUrl: string): Promise<void> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Provider", { exact: true }).selectOption("openai");
  await dialog.getByLabel("Base URL").fill(baseUrl);
  await dialog.getByLabel("API key").fill(FAKE_KEY);
  await dialog.getByLabel("Other model ID").fill("gpt-5");
  await dialog.getByRole("button", { name: "Add model" }).click();
  await expect.poll(() => dialog.getByLabel("Model", { exact: true }).inputValue()).toBe("gpt-5");
  const search = dialog.getByRole("checkbox", { name: "Let the model search the web" });
  expect(await search.isChecked()).toBe(false);
  expect(await dialog.getByText(/It costs money: OpenAI bills each search/).count()).toBe(1);
  await search.check();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect.poll(() => dialog.getByRole("button", { name: /^Edit / }).count()).toBe(1);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect.poll(() => page.getByRole("dialog", { name: "Settings" }).count()).toBe(0);
}

describe("provider web search", () => {
  it("asks before the turn, offers OpenAI's web_search in the request and shows the search and its source", async () => {
    const server = await browser.startServer(scripted([openAiSearchedTurn()], "Vite 8"));
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await addOpenAiWithSearch(page, server.url);

    await sendMessage(page, "Is Vite 8 out?");
    const card = chat(page).getByRole("group", { name: "The agent may search the web in this turn" });
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    expect(await card.innerText()).toMatch(/billed by OpenAI per search/);
    expect(agentRequests(server.modelRequests())).toHaveLength(0);
    await card.getByRole("button", { name: "Allow once" }).click();

    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Vite 8 is out.");
    const requests = agentRequests(server.modelRequests());
    expect(requests).toHaveLength(1);
    const tools = (requests[0]!.body as { tools: Array<{ type: string; name?: string }> }).tools;
    expect(tools.some((t) => t.type === "web_search")).toBe(true);
    expect(tools.some((t) => t.name === "read")).toBe(true);
    expect(await transcript(page)).toContain("vite 8 release");
    const source = chat(page).getByRole("navigation", { name: "Sources" }).getByRole("link", { name: "Announcing Vite 8" });
    await expect.poll(() => source.count(), { timeout: 10_000 }).toBe(1);
    expect(await source.getAttribute("href")).toBe(SEARCHED_URL);
    expect(app.errors).toEqual([]);
  });
});
