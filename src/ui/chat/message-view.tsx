// One message of the transcript with its parts, its usage and cost, its error and what to do about
// it, and the per-message actions (fork, revert). Memoised on the entry, which the store replaces
// only when the message or one of its parts changed.
import { memo } from "react";
import type { MessageError } from "../../storage";
import { ErrorBoundary } from "../common";
import { ErrorText } from "./error-wording";
import type { MessageEntry } from "./chat-store";
import { describeUsage, formatCost } from "./format";
import { PartView } from "./part-views";
import { RefusalNote, SourceList, isRefusal, sourcesOf } from "./source-views";

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
  // Messages the agent writes itself (a compaction request, "continue" after one) are not the user's
  // words: a divider, with nothing to fork from or revert to.
  if (info.role === "user" && info.synthetic) return <SyntheticDivider entry={entry} />;
  const streaming = info.role === "assistant" && info.completedAt === undefined;
  const label = info.role === "user" ? "Your message" : `Reply from ${info.agent}`;
  return (
    <article className={`message message-${info.role}`} aria-label={label} data-message-id={info.id}>
      <div className="message-parts">
        {parts.map((part) => (
          // One malformed part (a share link, a model's odd output) must not take the chat down with it.
          <ErrorBoundary key={part.id}>
            <PartView part={part} streaming={streaming} plainText={info.role === "user"} onOpenSession={onOpenSession} onOpenFile={onOpenFile} />
          </ErrorBoundary>
        ))}
        {streaming && parts.length === 0 && <p className="message-waiting">Waiting for the model…</p>}
      </div>
      {info.role === "assistant" && <SourceList sources={sourcesOf(parts)} />}
      {info.role === "assistant" && isRefusal(info.finish) && <RefusalNote />}
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

function SyntheticDivider({ entry }: { entry: MessageEntry }) {
  const compaction = entry.parts.find((p) => p.type === "compaction");
  const label = compaction ? (compaction.auto ? "Context compacted automatically" : "Context compacted") : "Continued automatically";
  return (
    <div className="message-divider" role="separator" aria-label={label} data-message-id={entry.info.id}>
      <span>{label}</span>
    </div>
  );
}

/** The user pressed Stop: a status, not a failure. */
export function isStopError(error: MessageError): boolean {
  return error.name === "AbortError" || error.name === "AbortedError" || error.name === "MessageAbortedError";
}

/** Whether an error is about the key: the action is then to open Settings and fix it. */
export function isKeyError(error: MessageError): boolean {
  return error.status === 401 || error.status === 403 || /auth|api key/i.test(error.name) || /api key/i.test(error.action ?? "");
}

export function MessageErrorView({ error, onOpenSettings }: { error: MessageError; onOpenSettings?(): void }) {
  if (isStopError(error)) {
    return (
      <p className="message-stopped" role="status">
        {error.message || "Stopped."}
      </p>
    );
  }
  return (
    <div className="message-error" role="alert">
      <div className="message-error-text">
        <ErrorText text={error.message} kind={error.name} className="message-error-words" />
      </div>
      {error.action && <p className="message-error-action">{error.action}</p>}
      {isKeyError(error) && onOpenSettings && (
        <button type="button" className="button" onClick={onOpenSettings}>
          Open Settings
        </button>
      )}
      {/* The agent's BUDGET_ERROR_NAME: a session budget in Settings stopped the turn. */}
      {error.name === "BudgetError" && onOpenSettings && (
        <button type="button" className="button" onClick={onOpenSettings}>
          Raise the budget
        </button>
      )}
    </div>
  );
}
