// One message of the transcript with its parts, its usage and cost, its error and what to do about
// it, and the per-message actions (fork, revert). Memoised on the entry, which the store replaces
// only when the message or one of its parts changed.
import { memo } from "react";
import type { MessageError } from "../../storage";
import { ErrorBoundary } from "../common";
import type { MessageEntry } from "./chat-store";
import { describeUsage, formatCost } from "./format";
import { PartView } from "./part-views";

export interface MessageActions {
  onFork?(messageId: string): void;
  onRevert?(messageId: string): void;
  onOpenSession?(sessionId: string): void;
  onOpenFile?(path: string): void;
  onOpenSettings?(): void;
}

export interface MessageViewProps extends MessageActions {
  entry: MessageEntry;
  /** The session is busy (revert is refused while busy). */
  busy: boolean;
}

export const MessageView = memo(function MessageView({ entry, busy, onFork, onRevert, onOpenSession, onOpenFile, onOpenSettings }: MessageViewProps) {
  const { info, parts } = entry;
  const streaming = info.role === "assistant" && info.completedAt === undefined;
  const label = info.role === "user" ? "Your message" : `Reply from ${info.agent}`;
  return (
    <article className={`message message-${info.role}`} aria-label={label} data-message-id={info.id}>
      <div className="message-parts">
        {parts.map((part) => (
          // One malformed part (a share link, a model's odd output) must not take the chat down with it.
          <ErrorBoundary key={part.id}>
            <PartView part={part} streaming={streaming} onOpenSession={onOpenSession} onOpenFile={onOpenFile} />
          </ErrorBoundary>
        ))}
        {streaming && parts.length === 0 && <p className="message-waiting">Waiting for the model…</p>}
      </div>
      {info.role === "assistant" && info.error && <MessageErrorView error={info.error} onOpenSettings={onOpenSettings} />}
      <footer className="message-footer">
        {info.role === "assistant" && info.completedAt !== undefined && (
          <span className="message-usage" aria-label="Message usage">
            {info.model.modelId} · {describeUsage(info.tokens)} · {formatCost(info.cost)}
          </span>
        )}
        <span className="message-actions">
          {onFork && (
            <button type="button" className="link-button" onClick={() => onFork(info.id)}>
              Fork from here
            </button>
          )}
          {onRevert && (
            <button type="button" className="link-button" disabled={busy} title={busy ? "Stop the agent before reverting." : undefined} onClick={() => onRevert(info.id)}>
              Revert to here
            </button>
          )}
        </span>
      </footer>
    </article>
  );
});

/** Whether an error is about the key: the action is then to open Settings and fix it. */
export function isKeyError(error: MessageError): boolean {
  return error.status === 401 || error.status === 403 || /auth|api key/i.test(error.name) || /api key/i.test(error.action ?? "");
}

export function MessageErrorView({ error, onOpenSettings }: { error: MessageError; onOpenSettings?(): void }) {
  const aborted = error.name === "AbortError" || error.name === "MessageAbortedError";
  return (
    <div className={aborted ? "message-error message-aborted" : "message-error"} role={aborted ? "status" : "alert"}>
      <p className="message-error-text">{aborted ? "Stopped." : error.message}</p>
      {error.action && <p className="message-error-action">{error.action}</p>}
      {isKeyError(error) && onOpenSettings && (
        <button type="button" className="button" onClick={onOpenSettings}>
          Open Settings
        </button>
      )}
    </div>
  );
}
