// A read-only view of a shared session's transcript, straight from storage: markdown (sanitised by
// the markdown renderer), tool calls with their output as plain text. Nothing here can run a tool
// or send a message; untrusted text is only ever rendered as text or sanitised markdown.
import { useEffect, useState } from "react";
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

export function SharedTranscript({ storage, session }: { storage: Storage; session: SessionRecord }) {
  const [entries, setEntries] = useState<Entry[] | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
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
    <ol className="shared-transcript" aria-label="Shared transcript">
      {entries.map(({ message, parts }) => (
        <li key={message.id} className={`shared-message is-${message.role}`}>
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
      ))}
    </ol>
  );
}

function SharedPart({ part }: { part: PartRecord }) {
  switch (part.type) {
    case "text":
      return part.synthetic ? null : <Markdown text={part.text} className="shared-text" />;
    case "reasoning":
      return (
        <details className="shared-reasoning">
          <summary>Reasoning</summary>
          <Markdown text={part.text} />
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
