// Markdown to sanitised HTML for chat messages: marked for parsing, our highlighter for code blocks
// (with a copy button), raw HTML shown as text, remote images shown as links, DOMPurify last.
import { Marked, type Tokens, type TokensList } from "marked";
import { escapeHtml, highlightCode } from "./highlight";
import { isSafeImageUrl, isSafeLinkUrl, sanitizeHtml } from "./sanitize";

const marked = new Marked({ gfm: true, breaks: false, async: false });

marked.use({
  renderer: {
    code({ text, lang }: Tokens.Code): string {
      const language = (lang ?? "").trim().split(/\s+/)[0] ?? "";
      const label = /^[\w+#.-]{1,24}$/.test(language) ? language : "";
      const body = highlightCode(text.replace(/\n$/, ""), label);
      return (
        `<div class="md-code"><div class="md-code-header"><span class="md-code-lang">${escapeHtml(label || "text")}</span>` +
        `<button type="button" class="md-copy" data-md-copy="" aria-label="Copy code">Copy</button></div>` +
        `<pre><code${label ? ` data-lang="${escapeHtml(label)}"` : ""}>${body}</code></pre></div>`
      );
    },
    // Raw HTML in model output is shown as the text it is: models write `<div>` meaning the word.
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(text);
    },
    image({ href, title, text }: Tokens.Image): string {
      if (isSafeImageUrl(href)) {
        return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}"${title ? ` title="${escapeHtml(title)}"` : ""}>`;
      }
      // Never load remote images (an exfiltration channel); offer the link instead.
      const label = `image: ${text || href}`;
      return isSafeLinkUrl(href) ? `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>` : escapeHtml(label);
    },
    checkbox({ checked }: Tokens.Checkbox): string {
      return `<span class="md-task" aria-label="${checked ? "done" : "not done"}">${checked ? "☑" : "☐"}</span> `;
    },
  },
});

/** Top-level block tokens of `source`. Their `raw` strings concatenate back to the source. */
export function lexBlocks(source: string): TokensList {
  return marked.lexer(source);
}

/** One top-level block token to sanitised HTML. */
export function renderBlock(token: TokensList[number]): string {
  if (token.type === "space") return "";
  return sanitizeHtml(marked.parser([token]));
}

/** A whole markdown document to sanitised HTML (for one-off rendering; streams use BlockCache). */
export function renderMarkdown(source: string): string {
  return sanitizeHtml(marked.parser(marked.lexer(source)));
}
