// <Markdown>: renders (streaming) markdown as sanitised HTML blocks. Only blocks whose HTML changed
// are touched in the DOM; code blocks get working copy buttons through one delegated listener.
import { memo, useCallback, useMemo, useRef, type MouseEvent } from "react";
import { IncrementalMarkdown } from "./incremental-markdown";
import "./markdown.css";

export interface MarkdownProps {
  text: string;
  /** True while the text is still growing; enables incremental rendering. */
  streaming?: boolean;
  className?: string;
}

/** How long a copy button says "Copied". */
const COPIED_FEEDBACK_MS = 1500;

export function Markdown({ text, streaming = false, className }: MarkdownProps) {
  const renderer = useRef<IncrementalMarkdown | null>(null);
  renderer.current ??= new IncrementalMarkdown();
  const incremental = renderer.current;
  const blocks = useMemo(() => incremental.update(text, { final: !streaming }), [incremental, text, streaming]);
  const onClick = useCallback((event: MouseEvent<HTMLDivElement>) => {
    const target = event.target as Element | null;
    const button = target?.closest?.("[data-md-copy]");
    if (!button) return;
    const code = button.closest(".md-code")?.querySelector("code")?.textContent ?? "";
    void copyText(code).then((ok) => {
      button.textContent = ok ? "Copied" : "Copy failed";
      setTimeout(() => {
        button.textContent = "Copy";
      }, COPIED_FEEDBACK_MS);
    });
  }, []);
  return (
    <div className={className ? `md ${className}` : "md"} onClick={onClick}>
      {blocks.map((block) => (
        <MarkdownBlock key={block.key} html={block.html} />
      ))}
    </div>
  );
}

const MarkdownBlock = memo(function MarkdownBlock({ html }: { html: string }) {
  // The HTML was sanitised by IncrementalMarkdown (sanitize.ts) before it got here.
  return <div className="md-block" dangerouslySetInnerHTML={{ __html: html }} />;
});

async function copyText(text: string): Promise<boolean> {
  try {
    await globalThis.navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
