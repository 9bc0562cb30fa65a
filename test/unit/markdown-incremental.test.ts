// @vitest-environment happy-dom
// Streaming markdown: rendering grows with the stream, re-doing only the last block, and always
// ends identical to rendering the whole text at once.
import "../support/happy-dom-node-name";
import { describe, expect, it } from "vitest";
import { IncrementalMarkdown, renderMarkdown } from "../../src/ui/markdown";

const DOCUMENT = [
  "# Plan",
  "",
  "First I will **read** the file `src/app.ts`, then edit it.",
  "",
  "```ts",
  "export function add(a: number, b: number): number {",
  "  return a + b;",
  "}",
  "```",
  "",
  "- step one",
  "- step two",
  "",
  "| file | change |",
  "|---|---|",
  "| a.ts | added |",
  "",
  "> Note: see [the docs](https://example.com/docs).",
  "",
  "Done.",
].join("\n");

/** Normalises HTML for comparison (block wrappers removed). */
function joined(blocks: { html: string }[]): string {
  return blocks.map((b) => b.html).join("").replace(/\s+/g, " ").trim();
}

function whole(text: string): string {
  return renderMarkdown(text).replace(/\s+/g, " ").trim();
}

describe("IncrementalMarkdown", () => {
  it("matches a full render at every step of a character-by-character stream", () => {
    const renderer = new IncrementalMarkdown();
    for (let end = 1; end <= DOCUMENT.length; end += 7) {
      const prefix = DOCUMENT.slice(0, end);
      expect(joined(renderer.update(prefix))).toBe(whole(prefix));
    }
    expect(joined(renderer.update(DOCUMENT, { final: true }))).toBe(whole(DOCUMENT));
  });

  it("only lexes and renders the last block while text grows", () => {
    const renderer = new IncrementalMarkdown();
    const body = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with some *words* in it.`).join("\n\n");
    renderer.update(body);
    expect(renderer.stats.renderedBlocks).toBe(200);
    const blocksBefore = renderer.update(body + " more");
    expect(renderer.stats.renderedBlocks).toBe(1);
    expect(renderer.stats.lexedChars).toBeLessThan(60);
    const after = renderer.update(body + " more\n\nA new paragraph");
    // The previous last block is unchanged (served from the cache); only the new one is rendered.
    expect(renderer.stats.renderedBlocks).toBe(1);
    // Earlier blocks are the very same objects' HTML and keys: React leaves their DOM alone.
    expect(after.slice(0, 199).map((b) => b.key)).toEqual(blocksBefore.slice(0, 199).map((b) => b.key));
    expect(after).toHaveLength(201);
  });

  it("starts over when the text is replaced rather than extended", () => {
    const renderer = new IncrementalMarkdown();
    renderer.update("# One\n\nalpha");
    const blocks = renderer.update("Completely different");
    expect(renderer.stats.lexedChars).toBe("Completely different".length);
    expect(joined(blocks)).toBe(whole("Completely different"));
  });

  it("renders an unclosed code fence as code while it streams", () => {
    const renderer = new IncrementalMarkdown();
    const blocks = renderer.update("Look:\n\n```js\nconst a = 1;\n");
    const container = document.createElement("div");
    container.innerHTML = joined(blocks);
    expect(container.querySelector("pre code")?.textContent).toBe("const a = 1;");
    expect(container.querySelector("button[aria-label='Copy code']")).not.toBeNull();
  });

  it("resolves reference links defined after use once the stream is final", () => {
    const renderer = new IncrementalMarkdown();
    const text = "See [the site][s].\n\nMore text.\n\n[s]: https://example.com";
    let partial = "";
    for (const ch of text) renderer.update((partial += ch));
    const final = renderer.update(text, { final: true });
    expect(joined(final)).toBe(whole(text));
    expect(joined(final)).toContain('href="https://example.com"');
  });

  it("keeps per-update work bounded over a 20,000-token answer", () => {
    const renderer = new IncrementalMarkdown();
    const paragraph = "This sentence is about eight tokens long, more or less. ";
    let text = "";
    let maxLexed = 0;
    let maxRendered = 0;
    for (let i = 0; i < 2500; i++) {
      text += paragraph + (i % 10 === 9 ? "\n\n" : "");
      if (i % 25 === 24) text += "\n\n```ts\nconst x = " + i + ";\n```\n\n";
      renderer.update(text);
      if (i === 0) continue;
      maxLexed = Math.max(maxLexed, renderer.stats.lexedChars);
      maxRendered = Math.max(maxRendered, renderer.stats.renderedBlocks);
    }
    expect(text.length).toBeGreaterThan(140_000);
    // The structural guarantee: each update lexes one block's worth of text and renders at most
    // the two blocks at the end, however long the answer already is.
    expect(maxLexed).toBeLessThan(1000);
    expect(maxRendered).toBeLessThanOrEqual(2);
    // The time per update is measured in a real browser by `npm run bench` (markdown.measure.ts),
    // not here, where a loaded machine would make it flaky.
  }, 60_000);
});
