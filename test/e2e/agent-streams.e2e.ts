// Provider stream endings in the built app: a reply the provider ended as a refusal (content
// filter) says that the model declined, instead of an empty silent turn.
import { describe, expect, it } from "vitest";
import { FAKE_KEY, chat, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

describe("provider stream endings", () => {
  it("shows a refusal as a note in the reply", async () => {
    const server = await browser.startServer(scripted([{ chunks: [], finish: "content-filter" }], "Declined request"), { requireKey: FAKE_KEY });
    const { page } = await browser.openWithProvider(server);
    await sendMessage(page, "Something the model will not do");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("The model declined to answer");
    const reply = chat(page).getByRole("article", { name: /^Reply from / });
    expect(await reply.getByRole("status").innerText()).toMatch(/^The model declined to answer/);
  });
});
