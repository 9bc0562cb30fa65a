// @vitest-environment happy-dom
// @vitest-environment-options { "url": "https://webcode.test/app/" }
// Issue 9, point 8: links in rendered markdown (model output, shared transcripts) that lead to
// webcode's own #share= / #import= handling are shown as text, not links.
import "../support/happy-dom-node-name";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/ui/markdown";
import { opensTransfer } from "../../src/ui/markdown/sanitize";

function render(markdown: string): HTMLElement {
  const container = document.createElement("div");
  container.innerHTML = renderMarkdown(markdown);
  return container;
}

const OURS = [
  "[your session](#share=v1.AAAA)",
  "[import](#import=https%3A%2F%2Fevil.test%2Fx.zip)",
  "[with other keys](#a=1&share=v1.BBBB)",
  "[same origin](https://webcode.test/#share=v1.CCCC)",
  "[same origin, other path](https://webcode.test/other/?x=1#import=https://evil.test/x.zip)",
  "[relative](./?runtime=browser#share=v1.DDDD)",
  "[scheme-relative](//webcode.test/#share=v1.EEEE)",
  "<https://webcode.test/#share=v1.FFFF>",
  "https://webcode.test/#import=https://evil.test/y.zip",
  "![pic](https://webcode.test/#share=v1.GGGG)",
];

describe("markdown links to webcode's own #share= / #import=", () => {
  it.each(OURS)("%s is shown as text, not a link", (markdown) => {
    const root = render(markdown);
    expect(root.querySelectorAll("a[href]").length).toBe(0);
    expect(root.textContent?.trim().length).toBeGreaterThan(0);
    const inert = root.querySelector("a.md-inert-link");
    expect(inert?.getAttribute("title")).toMatch(/webcode (share|import) link, shown as text/);
  });

  it("keeps ordinary links, and other sites' links whose fragments happen to say share=", () => {
    const root = render("[docs](https://example.com/docs#install) [anchor](#section) [other](https://other.test/#share=1) [q](https://webcode.test/?share=v1.x)");
    expect(Array.from(root.querySelectorAll("a[href]")).map((a) => a.getAttribute("href"))).toEqual([
      "https://example.com/docs#install",
      "#section",
      "https://other.test/#share=1",
      "https://webcode.test/?share=v1.x",
    ]);
  });

  it("decides by the page's origin", () => {
    expect(opensTransfer("https://webcode.test/#share=v1.x", "https://webcode.test/")).toBe(true);
    expect(opensTransfer("https://webcode.test:8443/#share=v1.x", "https://webcode.test/")).toBe(false);
    expect(opensTransfer("#import=https://evil.test/z.zip", "https://webcode.test/")).toBe(true);
    expect(opensTransfer("#share=", "https://webcode.test/")).toBe(false);
  });
});
