// @vitest-environment happy-dom
// What the provider did on its own, as rendered in a reply: its web search with query and result
// links, the answer's sources under it (web addresses only, new tab), and a refusal said plainly.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { MessageView } from "../../src/ui/chat/message-view";
import type { MessageEntry } from "../../src/ui/chat/chat-store";
import { assistantMessage, part, userMessage } from "./ui-chat-fixtures";
import { render, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
afterEach(async () => {
  await view?.unmount();
  view = undefined;
});

async function show(entry: MessageEntry) {
  view = await render(<MessageView entry={entry} busy={false} />);
  return view.container;
}

const user = userMessage("ses_1");

describe("provider parts in a reply", () => {
  it("lists the answer's sources as links opening in a new tab, and unsafe URLs as plain text", async () => {
    const reply = assistantMessage("ses_1", user.id, { completedAt: 2_000, finish: "stop" });
    const container = await show({
      info: reply,
      parts: [
        part(reply, { type: "text", text: "Vite 8 was released this week." }),
        part(reply, { type: "source", sourceType: "url", url: "https://vite.dev/blog/announcing-vite8", title: "Announcing Vite 8" }),
        part(reply, { type: "source", sourceType: "url", url: "javascript:alert(1)", title: "Click me" }),
        part(reply, { type: "source", sourceType: "document", title: "design.pdf", mediaType: "application/pdf" }),
      ],
    });
    const sources = container.querySelector('nav[aria-label="Sources"]')!;
    expect(sources).not.toBeNull();
    const links = [...sources.querySelectorAll("a")];
    expect(links.map((a) => [a.textContent, a.getAttribute("href"), a.target, a.rel])).toEqual([
      ["Announcing Vite 8", "https://vite.dev/blog/announcing-vite8", "_blank", "noopener noreferrer"],
    ]);
    expect(sources.textContent).toContain("Click me");
    expect(sources.textContent).toContain("design.pdf");
    expect(container.innerHTML).not.toContain("javascript:");
  });

  it("shows a provider's web search with its query and results, not as a webcode tool", async () => {
    const reply = assistantMessage("ses_1", user.id, { completedAt: 2_000, finish: "stop" });
    const container = await show({
      info: reply,
      parts: [
        part(reply, {
          type: "provider-tool",
          callId: "srvtoolu_1",
          tool: "web_search",
          state: { status: "completed", input: { query: "vite 8 release" }, output: [{ url: "https://vite.dev/blog", title: "Vite blog" }] },
        }),
      ],
    });
    const details = container.querySelector(".part-provider-tool")!;
    expect(details.querySelector("summary")?.textContent).toBe("Web search by the provider: vite 8 release");
    const link = details.querySelector<HTMLAnchorElement>('ul[aria-label="Web search results"] a')!;
    expect([link.textContent, link.getAttribute("href"), link.target]).toEqual(["Vite blog", "https://vite.dev/blog", "_blank"]);
  });

  it("says that the model declined to answer when the reply ended as a refusal", async () => {
    const reply = assistantMessage("ses_1", user.id, { completedAt: 2_000, finish: "content-filter" });
    const container = await show({ info: reply, parts: [part(reply, { type: "step-start" })] });
    expect(container.querySelector('[role="status"]')?.textContent).toMatch(/^The model declined to answer/);
  });

  it("adds no refusal note to an ordinary answer", async () => {
    const reply = assistantMessage("ses_1", user.id, { completedAt: 2_000, finish: "stop" });
    const container = await show({ info: reply, parts: [part(reply, { type: "text", text: "Hi." })] });
    expect(container.textContent).not.toContain("declined");
    expect(container.querySelector('nav[aria-label="Sources"]')).toBeNull();
  });
});

describe("reasoning with nothing to show", () => {
  it("hides encrypted or redacted reasoning once it ended, keeps reasoning with text", async () => {
    const reply = assistantMessage("ses_1", user.id, { completedAt: 2_000, finish: "stop" });
    const container = await show({
      info: reply,
      parts: [
        part(reply, { type: "reasoning", text: "", time: { start: 1, end: 2 }, providerMetadata: { openai: { reasoningEncryptedContent: "enc" } } }),
        part(reply, { type: "reasoning", text: "Plan the change.", time: { start: 1, end: 1001 } }),
        part(reply, { type: "text", text: "Done." }),
      ],
    });
    const details = container.querySelectorAll(".part-reasoning");
    expect(details).toHaveLength(1);
    expect(details[0]!.textContent).toContain("Plan the change.");
  });
});
