// A read-only view of a shared session's transcript, straight from storage: markdown (sanitised by
// the markdown renderer), tool calls with their output as plain text. Nothing here can run a tool
// or send a message; untrusted text is only ever rendered as text or sanitised markdown.
import { memo, useEffect, useMemo, useState } from "react";
import { errorMessage, revealInvisibleChars } from "../../base";
import type { MessageRecord, PartRecord, SessionRecord, Storage } from "../../storage";
import { ErrorBoundary } from "../common";
import { Markdown, safeWebUrl } from "../markdown";

interface Entry {
  message: MessageRecord;
  parts: PartRecord[];
}

export async function loadTranscript(storage: Storage, sessionId: string): Promise<Entry[]> {
  const [messages, parts] = await Promise.all([storage.messages.list(sessionId), storage.parts.listBySession(sessionId)]);
  const byMessage = new Map<string, PartRecord[]>();
  for (const part of [...parts].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const list = byMessage.get(part.messageId) ?? [];
    list.push(part);
    byMessage.set(part.messageId, list);
  }
  return [...messages].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((message) => ({ message, parts: byMessage.get(message.id) ?? [] }));
}

/**
 * Parts rendered per slice. A big share (up to SHARE_MAX_PARTS) renders slice by slice, one per
 * macrotask, so the page stays responsive while it fills in (issue 9, point 7).
 */
export const TRANSCRIPT_SLICE_PARTS = 80;
/** Text longer than this is shown as plain text: formatting it as markdown would hold the page. */
export const MARKDOWN_MAX_CHARS = 100_000;

/** The first entries holding at most `budget` parts (always at least one entry). */
function firstEntries(entries: readonly Entry[], budget: number): Entry[] {
  let parts = 0;
  let n = 0;
  while (n < entries.length && (n === 0 || parts + entries[n]!.parts.length <= budget)) {
    parts += Math.max(1, entries[n]!.parts.length);
    n++;
  }
  return entries.slice(0, n);
}

export function SharedTranscript({ storage, session, slice = TRANSCRIPT_SLICE_PARTS }: { storage: Storage; session: SessionRecord; slice?: number }) {
  const [entries, setEntries] = useState<Entry[] | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [budget, setBudget] = useState(slice);
  const shown = useMemo(() => (entries ? firstEntries(entries, budget) : []), [entries, budget]);
  const complete = entries !== undefined && shown.length === entries.length;
  useEffect(() => {
    if (!entries || complete) return;
    // The next slice after the browser has painted this one and handled input.
    const timer = setTimeout(() => setBudget((b) => b + slice), 0);
    return () => clearTimeout(timer);
  }, [entries, complete, budget, slice]);
  useEffect(() => {
    let live = true;
    loadTranscript(storage, session.id).then(
      (loaded) => live && setEntries(loaded),
      (error: unknown) => live && setProblem(`The transcript could not be read: ${errorMessage(error)}.`),
    );
    return () => {
      live = false;
    };
  }, [storage, session.id]);

  if (problem) return <p className="transfer-error" role="alert">{problem}</p>;
  if (!entries) return <p role="status">Loading the transcript…</p>;
  if (entries.length === 0) return <p className="form-hint">This share holds no messages, only files.</p>;
  return (
    <>
      {!complete && (
        <p role="status" className="form-hint">
          Showing {shown.length.toLocaleString("en")} of {entries.length.toLocaleString("en")} messages…
        </p>
      )}
      <ol className="shared-transcript" aria-label="Shared transcript" aria-busy={!complete}>
        {shown.map((entry) => (
          <SharedEntry key={entry.message.id} entry={entry} />
        ))}
      </ol>
    </>
  );
}

/** One message; memoised, so rendering the next slice leaves the messages already shown alone. */
const SharedEntry = memo(function SharedEntry({ entry: { message, parts } }: { entry: Entry }) {
  return (
    <li className={`shared-message is-${message.role}`}>
      <p className="shared-message-role">{message.role === "user" ? "User" : `Assistant${message.model ? ` · ${message.model.modelId}` : ""}`}</p>
      {parts.map((part) => (
        // A part that cannot be rendered is replaced by a notice; the rest of the transcript stays.
        <ErrorBoundary key={part.id}>
          <SharedPart part={part} />
        </ErrorBoundary>
      ))}
      {message.role === "assistant" && message.error && (
        <p className="transfer-error">
          {message.error.name}: {message.error.message}
        </p>
      )}
    </li>
  );
});

function SharedPart({ part }: { part: PartRecord }) {
  switch (part.type) {
    case "text":
      // Restored shares carry no synthetic flag (share-restore.ts): every text is shown.
      return part.text.length > MARKDOWN_MAX_CHARS ? <pre className="shared-text shared-text-plain">{part.text}</pre> : <Markdown text={part.text} className="shared-text" />;
    case "reasoning":
      return (
        <details className="shared-reasoning">
          <summary>Reasoning</summary>
          {part.text.length > MARKDOWN_MAX_CHARS ? <pre className="shared-text-plain">{part.text}</pre> : <Markdown text={part.text} />}
        </details>
      );
    case "file":
      return <p className="shared-file">Attached: {part.filename}</p>;
    case "tool": {
      const state = part.state;
      const title = state.status === "completed" ? state.title : "";
      const body = state.status === "completed" ? state.output : state.status === "error" ? state.error : "";
      return (
        <details className={state.status === "error" ? "shared-tool is-error" : "shared-tool"}>
          <summary>
            <span className="shared-tool-name">{part.tool}</span> {revealInvisibleChars(title)}
            {state.status === "error" ? " (failed)" : ""}
          </summary>
          <pre className="shared-tool-input">{safeStringify(state.input)}</pre>
          {body && <pre className="shared-tool-output">{body}</pre>}
        </details>
      );
    }
    case "subtask":
      return (
        <p className="shared-subtask">
          Subtask for {part.agent}: {part.description}
        </p>
      );
    case "compaction":
      return <p className="form-hint">The conversation was summarised here.</p>;
    case "retry":
      return <p className="form-hint">Retried after an error: {part.error.message}</p>;
    case "source": {
      const href = safeWebUrl(part.url);
      const label = revealInvisibleChars((part.title?.trim() || part.url || part.filename || "Source").slice(0, 300));
      return (
        <p className="shared-source">
          Source:{" "}
          {href ? (
            <a href={href} target="_blank" rel="noopener noreferrer">
              {label}
            </a>
          ) : (
            label
          )}
        </p>
      );
    }
    default:
      return null;
  }
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? "";
  } catch {
    return "";
  }
}
