// A compact HTML to markdown (or plain text) converter for webfetch. It needs no DOM, so it runs the
// same in Node and in the page; it covers what pages mostly hold: headings, paragraphs, links,
// emphasis, code, lists, quotes, tables and images. Scripts, styles and other non-content are dropped.

const DROPPED = ["script", "style", "noscript", "template", "svg", "head", "iframe", "object", "canvas", "select", "button"];
const BLOCKS = new Set([
  "p", "div", "section", "article", "header", "footer", "main", "nav", "aside", "form", "fieldset", "figure",
  "figcaption", "details", "summary", "dl", "dt", "dd", "address", "center", "body", "html", "tbody", "thead", "tfoot",
]);

const ENTITIES: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", copy: "\u00A9", reg: "\u00AE", trade: "\u2122",
  hellip: "\u2026", mdash: "\u2014", ndash: "\u2013", lsquo: "\u2018", rsquo: "\u2019", ldquo: "\u201C", rdquo: "\u201D",
  bull: "\u2022", middot: "\u00B7", times: "\u00D7", divide: "\u00F7", euro: "\u20AC", pound: "\u00A3", yen: "\u00A5",
  cent: "\u00A2", sect: "\u00A7", deg: "\u00B0", laquo: "\u00AB", raquo: "\u00BB", larr: "\u2190", rarr: "\u2192",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

function attribute(attrs: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i").exec(attrs);
  if (!match) return undefined;
  return decodeEntities(match[1] ?? match[2] ?? match[3] ?? "");
}

function resolveUrl(href: string, base: string | undefined): string {
  if (!base) return href;
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}

function stripDropped(html: string): string {
  let out = html.replace(/<!--[\s\S]*?-->/g, "").replace(/<!DOCTYPE[^>]*>/gi, "");
  for (const tag of DROPPED) out = out.replace(new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}\\s*>`, "gi"), "");
  return out;
}

interface ListState {
  ordered: boolean;
  index: number;
}

/** Converts HTML to markdown; `baseUrl` makes relative links absolute. `plain` gives text without markup. */
export function htmlToMarkdown(html: string, options: { baseUrl?: string; plain?: boolean } = {}): string {
  const plain = options.plain ?? false;
  const source = stripDropped(html);
  const tagPattern = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  let out = "";
  let pre = 0;
  const lists: ListState[] = [];
  const links: { href: string; start: number }[] = [];
  const quotes: number[] = [];
  let row: { cells: number; header: boolean } | undefined;
  let tableHasSeparator = false;

  const append = (text: string) => {
    out += text;
  };
  const newline = (count: number) => {
    const trailing = /\n*$/.exec(out)![0].length;
    if (out.length === 0) return;
    out = out.replace(/[ \t]+$/, "");
    if (trailing < count) out += "\n".repeat(count - trailing);
  };
  const appendText = (raw: string) => {
    if (pre > 0) {
      append(decodeEntities(raw));
      return;
    }
    let text = decodeEntities(raw.replace(/\s+/g, " "));
    if (text === "") return;
    if (text.startsWith(" ") && (out === "" || /[\s]$/.test(out))) text = text.slice(1);
    append(text);
  };

  let last = 0;
  for (let match = tagPattern.exec(source); match; match = tagPattern.exec(source)) {
    appendText(source.slice(last, match.index));
    last = tagPattern.lastIndex;
    const closing = match[1] === "/";
    const tag = match[2]!.toLowerCase();
    const attrs = match[3] ?? "";
    if (/^h[1-6]$/.test(tag)) {
      newline(2);
      if (!closing && !plain) append("#".repeat(Number(tag[1])) + " ");
    } else if (BLOCKS.has(tag)) newline(tag === "p" ? 2 : 1);
    else if (tag === "br") append("\n");
    else if (tag === "hr") {
      newline(2);
      if (!plain) append("---");
      newline(2);
    } else if ((tag === "strong" || tag === "b") && !plain) append("**");
    else if ((tag === "em" || tag === "i") && !plain) append("_");
    else if (tag === "code" && pre === 0 && !plain) append("`");
    else if (tag === "pre") {
      if (closing) {
        pre = Math.max(0, pre - 1);
        newline(1);
        if (!plain) append("```");
        newline(2);
      } else {
        newline(2);
        if (!plain) append("```\n");
        pre++;
      }
    } else if (tag === "ul" || tag === "ol") {
      if (closing) lists.pop();
      else lists.push({ ordered: tag === "ol", index: 0 });
      // A top-level list is its own paragraph; a nested one continues its item.
      newline(lists.length === 0 || (!closing && lists.length === 1) ? 2 : 1);
    } else if (tag === "li" && !closing) {
      newline(1);
      const list = lists[lists.length - 1];
      const indent = "  ".repeat(Math.max(0, lists.length - 1));
      if (list?.ordered) append(`${indent}${++list.index}. `);
      else append(`${indent}- `);
    } else if (tag === "a") {
      if (!closing) links.push({ href: attribute(attrs, "href") ?? "", start: out.length });
      else {
        const link = links.pop();
        if (link && !plain && link.href && !/^(javascript|data):/i.test(link.href) && !link.href.startsWith("#")) {
          const text = out.slice(link.start).trim();
          out = out.slice(0, link.start) + (text ? `[${text}](${resolveUrl(link.href, options.baseUrl)})` : "");
        }
      }
    } else if (tag === "img" && !plain) {
      const src = attribute(attrs, "src");
      const alt = attribute(attrs, "alt") ?? "";
      if (src && !src.startsWith("data:")) append(`![${alt}](${resolveUrl(src, options.baseUrl)})`);
    } else if (tag === "blockquote") {
      if (!closing) {
        newline(2);
        quotes.push(out.length);
      } else {
        const start = quotes.pop() ?? out.length;
        const body = out.slice(start).trim();
        out = out.slice(0, start) + (plain ? body : body.split("\n").map((l) => (l ? `> ${l}` : ">")).join("\n"));
        newline(2);
      }
    } else if (tag === "table") {
      newline(2);
      tableHasSeparator = false;
    } else if (tag === "tr") {
      if (!closing) {
        newline(1);
        row = { cells: 0, header: false };
      } else if (row) {
        if (!plain) append(" |");
        if (!plain && !tableHasSeparator) {
          append("\n|" + " --- |".repeat(Math.max(1, row.cells)));
          tableHasSeparator = true;
        }
        row = undefined;
      }
    } else if ((tag === "td" || tag === "th") && !closing) {
      if (row) {
        row.cells++;
        if (tag === "th") row.header = true;
      }
      append(plain ? (row && row.cells > 1 ? "\t" : "") : row && row.cells > 1 ? " | " : "| ");
    }
  }
  appendText(source.slice(last));
  return out
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Plain text of an HTML page (for format "text"). */
export function htmlToText(html: string): string {
  return htmlToMarkdown(html, { plain: true });
}
