// webfetch with a fake fetch (never the network): HTML to markdown, formats, size cap, timeout,
// CORS failures explained, http upgraded, permission asked with the URL; and the HTML converter.
import { afterEach, describe, expect, it } from "vitest";
import { runTool } from "../../src/agent/tools/wrapper";
import { createWebfetchTool, WEBFETCH_MAX_BYTES, type FetchFunction } from "../../src/agent/tools/webfetch";
import { htmlToMarkdown, htmlToText } from "../../src/agent/tools/html-to-markdown";
import { createToolHarness, type ToolHarness } from "../support/tool-context";

let harness: ToolHarness;
afterEach(async () => harness?.dispose());

const PAGE = `<!doctype html><html><head><title>Docs</title><style>body{}</style></head><body>
<nav><a href="/">Home</a></nav>
<h1>Install</h1><p>Run <code>npm i thing</code> &amp; then <strong>restart</strong>.</p>
<script>alert("x")</script>
<ul><li>One</li><li>Two <em>twice</em><ul><li>Nested</li></ul></li></ul>
<pre><code>const a = 1;
if (a &lt; 2) go();</code></pre>
<blockquote><p>Quoted text</p></blockquote>
<table><tr><th>Name</th><th>Size</th></tr><tr><td>a</td><td>1</td></tr></table>
<p>See <a href="guide.html">the guide</a> and <img src="/logo.png" alt="logo">.</p>
</body></html>`;

function fakeFetch(respond: (url: string, init?: RequestInit) => Response | Promise<Response>): FetchFunction & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (url: string, init?: RequestInit) => {
    calls.push(url);
    return respond(url, init);
  };
  return Object.assign(fn, { calls });
}

describe("htmlToMarkdown", () => {
  it("converts the usual page elements and drops scripts and styles", () => {
    const md = htmlToMarkdown(PAGE, { baseUrl: "https://example.com/docs/" });
    expect(md).toContain("# Install");
    expect(md).toContain("Run `npm i thing` & then **restart**.");
    expect(md).toContain("- One\n- Two _twice_\n  - Nested");
    expect(md).toContain("```\nconst a = 1;\nif (a < 2) go();\n```");
    expect(md).toContain("> Quoted text");
    expect(md).toContain("| Name | Size |\n| --- | --- |\n| a | 1 |");
    expect(md).toContain("[the guide](https://example.com/docs/guide.html)");
    expect(md).toContain("![logo](https://example.com/logo.png)");
    expect(md).not.toMatch(/alert|body\{\}|<title>|Docs\n/);
  });

  it("gives plain text without markup", () => {
    const text = htmlToText("<h2>Title</h2><p>Some <b>bold</b> and <a href='x'>link</a>.</p>");
    expect(text).toBe("Title\n\nSome bold and link.");
  });
});

describe("webfetch", () => {
  it("asks permission with the URL and returns markdown", async () => {
    harness = await createToolHarness();
    const fetch = fakeFetch(() => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }));
    const result = await runTool(createWebfetchTool({ fetch }), { url: "https://example.com/docs/" }, harness.context);
    expect(harness.asks[0]).toMatchObject({ permission: "webfetch", patterns: ["https://example.com/docs/"], always: ["https://example.com/*"] });
    expect(result.output).toContain("# Install");
    expect(result.title).toBe("https://example.com/docs/ (text/html)");
  });

  it("returns text or raw html on request, and other text types as they are", async () => {
    harness = await createToolHarness();
    const html = createWebfetchTool({ fetch: fakeFetch(() => new Response("<p>Hi <b>there</b></p>", { headers: { "content-type": "text/html" } })) });
    expect((await runTool(html, { url: "https://a.test/", format: "text" }, harness.context)).output).toBe("Hi there");
    expect((await runTool(html, { url: "https://a.test/", format: "html" }, harness.context)).output).toBe("<p>Hi <b>there</b></p>");
    const json = createWebfetchTool({ fetch: fakeFetch(() => new Response('{"a":1}', { headers: { "content-type": "application/json" } })) });
    expect((await runTool(json, { url: "https://a.test/x.json" }, harness.context)).output).toBe('{"a":1}');
  });

  it("upgrades remote http to https but not localhost", async () => {
    harness = await createToolHarness();
    const fetch = fakeFetch(() => new Response("ok", { headers: { "content-type": "text/plain" } }));
    const tool = createWebfetchTool({ fetch });
    await runTool(tool, { url: "http://example.com/a" }, harness.context);
    await runTool(tool, { url: "http://localhost:5173/a" }, harness.context);
    expect(fetch.calls).toEqual(["https://example.com/a", "http://localhost:5173/a"]);
    await expect(runTool(tool, { url: "file:///etc/passwd" }, harness.context)).rejects.toThrow(/Only http/);
    await expect(runTool(tool, { url: "not a url" }, harness.context)).rejects.toThrow(/not a valid URL/);
  });

  it("explains CORS failures plainly", async () => {
    harness = await createToolHarness();
    const tool = createWebfetchTool({ fetch: fakeFetch(() => Promise.reject(new TypeError("Failed to fetch"))) });
    await expect(runTool(tool, { url: "https://no-cors.test/" }, harness.context)).rejects.toThrow(/the site does not allow browser requests \(CORS\)/);
  });

  it("reports HTTP errors with the status", async () => {
    harness = await createToolHarness();
    const tool = createWebfetchTool({ fetch: fakeFetch(() => new Response("no", { status: 404, statusText: "Not Found" })) });
    await expect(runTool(tool, { url: "https://a.test/missing" }, harness.context)).rejects.toThrow("failed with HTTP 404 Not Found");
  });

  it("refuses responses over the size cap, by header or while streaming", async () => {
    harness = await createToolHarness();
    const declared = createWebfetchTool({ fetch: fakeFetch(() => new Response("x", { headers: { "content-length": String(WEBFETCH_MAX_BYTES + 1), "content-type": "text/plain" } })) });
    await expect(runTool(declared, { url: "https://a.test/big" }, harness.context)).rejects.toThrow(/too large/);
    const chunk = new Uint8Array(1024 * 1024).fill(97);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++;
        if (sent > 8) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const streamed = createWebfetchTool({ fetch: fakeFetch(() => new Response(stream, { headers: { "content-type": "text/plain" } })) });
    await expect(runTool(streamed, { url: "https://a.test/stream" }, harness.context)).rejects.toThrow(/too large \(over 5 MB\)/);
    expect(sent).toBeLessThanOrEqual(7);
  });

  it("times out after the given seconds", async () => {
    harness = await createToolHarness();
    const hang = fakeFetch((_url, init) => new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")))));
    const started = Date.now();
    await expect(runTool(createWebfetchTool({ fetch: hang }), { url: "https://slow.test/", timeout: 0.2 }, harness.context)).rejects.toThrow("timed out after 0.2 s");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("returns images as attachments for vision models only", async () => {
    harness = await createToolHarness({ supportsImages: true });
    const png = createWebfetchTool({ fetch: fakeFetch(() => new Response(new Uint8Array([1, 2, 3]), { headers: { "content-type": "image/png" } })) });
    const result = await runTool(png, { url: "https://a.test/logo.png" }, harness.context);
    expect(result.attachments).toEqual([{ mime: "image/png", filename: "logo.png", url: "data:image/png;base64,AQID" }]);
    await harness.dispose();
    harness = await createToolHarness();
    await expect(runTool(png, { url: "https://a.test/logo.png" }, harness.context)).rejects.toThrow(/cannot view images/);
  });
});
