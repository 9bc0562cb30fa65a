// The non-tool parts of a message: text (streaming markdown), reasoning (collapsed), attachments,
// the files a step changed, compaction and subtask markers, retries. Step usage is not shown here:
// the message footer carries the same numbers (one step per assistant message).
import { memo } from "react";
import type { PartRecord } from "../../storage";
import { Markdown, isSafeImageUrl } from "../markdown";
import { formatDuration } from "./format";
import { ProviderToolView } from "./source-views";
import { ToolPartView } from "./tool-part-view";

export interface PartViewProps {
  part: PartRecord;
  /** The message is still being written (text renders incrementally). */
  streaming: boolean;
  /** Text is the user's own: shown as typed (line breaks kept), not as markdown. */
  plainText?: boolean;
  onOpenSession?(sessionId: string): void;
  onOpenFile?(path: string): void;
}

/** The timing of a reasoning part, which shared or older parts lack (or carry in a broken shape). */
function reasoningTime(time: unknown): { start?: number; end?: number } {
  if (!time || typeof time !== "object") return {};
  const { start, end } = time as { start?: unknown; end?: unknown };
  return {
    ...(typeof start === "number" && Number.isFinite(start) && { start }),
    ...(typeof end === "number" && Number.isFinite(end) && { end }),
  };
}

export const PartView = memo(function PartView({ part, streaming, plainText, onOpenSession, onOpenFile }: PartViewProps) {
  switch (part.type) {
    case "text":
      if (part.synthetic) return null;
      if (plainText) return <p className="part-text part-user-text">{part.text}</p>;
      return <Markdown text={part.text} streaming={streaming && part.time?.end === undefined} className="part-text" />;
    case "reasoning": {
      const { start, end } = reasoningTime(part.time);
      const took = start !== undefined && end !== undefined ? formatDuration(end - start) : undefined;
      const thinking = streaming === true && start !== undefined && end === undefined;
      // Encrypted or redacted reasoning (kept only to be sent back) has nothing to show.
      if (!thinking && part.text.trim() === "") return null;
      return (
        <details className="part-reasoning">
          <summary>{took ? `Thought for ${took}` : thinking ? "Thinking…" : "Reasoning"}</summary>
          <Markdown text={part.text} streaming={thinking} />
        </details>
      );
    }
    case "file":
      return <AttachmentChip mime={part.mime} filename={part.filename} url={part.url} />;
    case "tool":
      return <ToolPartView part={part} onOpenSession={onOpenSession} />;
    case "provider-tool":
      return <ProviderToolView part={part} />;
    case "source":
      // Listed together under the answer (MessageView).
      return null;
    case "step-start":
    case "step-finish":
      return null;
    case "patch":
      if (part.files.length === 0) return null;
      return (
        <div className="part-patch">
          <span>
            Changed {part.files.length} file{part.files.length === 1 ? "" : "s"}:
          </span>
          <ul>
            {part.files.map((file) => (
              <li key={file}>
                {onOpenFile ? (
                  <button type="button" className="link-button" onClick={() => onOpenFile(file)}>
                    {file}
                  </button>
                ) : (
                  file
                )}
              </li>
            ))}
          </ul>
        </div>
      );
    case "compaction":
      return <p className="part-marker">{part.auto ? "The conversation was compacted automatically to fit the model's context." : "Conversation compacted."}</p>;
    case "subtask":
      return (
        <p className="part-marker">
          Subtask for {part.agent}: {part.description}
        </p>
      );
    case "retry":
      return (
        <p className="part-retry">
          Attempt {part.attempt} failed: {part.error.message}
        </p>
      );
    default:
      // A part type added to the records without a view here fails the type check.
      return ((unhandled: never) => unhandled)(part);
  }
});

export function AttachmentChip({ mime, filename, url, onRemove }: { mime: string; filename: string; url: string; onRemove?(): void }) {
  const image = mime.startsWith("image/") && isSafeImageUrl(url);
  return (
    <span className="attachment-chip">
      {image && <img src={url} alt="" className="attachment-thumb" />}
      <span className="attachment-name">{filename}</span>
      {onRemove && (
        <button type="button" className="icon-text-button" aria-label={`Remove attachment ${filename}`} onClick={onRemove}>
          ×
        </button>
      )}
    </span>
  );
}
