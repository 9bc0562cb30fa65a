// Markdown rendering for chat: sanitised, highlighted, incremental while streaming.
export { Markdown, type MarkdownProps } from "./markdown-view";
export { IncrementalMarkdown, type RenderedBlock } from "./incremental-markdown";
export { renderMarkdown } from "./render-markdown";
export { sanitizeHtml, isSafeLinkUrl, isSafeImageUrl, safeWebUrl } from "./sanitize";
export { highlightCode, escapeHtml } from "./highlight";
