// A permission ask in the chat: what the agent wants to do (the command, the diff, the paths) and
// the three replies. "Reject" can carry a message telling the model what to do instead.
// Bidi controls and invisible characters are shown as ⟨U+…⟩: what is approved is what is read.
import { useEffect, useId, useRef, useState } from "react";
import { revealInvisibleChars, revealInvisibleInText } from "../../base";
import { announce, useTakeFocus } from "../common";
import { highlightCode } from "../markdown";
import type { PendingPermission, PermissionReply } from "./agent-port";
import { DiffBlock } from "./tool-part-view";

export interface PermissionCardProps {
  request: PendingPermission;
  onReply(requestId: string, reply: PermissionReply, message?: string): void;
  /** Stores "always allow this site" in Settings (network asks); without it that button is not offered. */
  onTrustOrigin?(origin: string): Promise<void>;
}

const TITLES: Record<string, string> = {
  edit: "The agent wants to change files",
  bash: "The agent wants to run a command",
  read: "The agent wants to read a protected file",
  external_directory: "The agent wants to work outside the workspace",
  webfetch: "The agent wants to fetch a web page",
  network: "A command the agent runs wants to reach a site",
  websearch: "The agent may search the web in this turn",
  doom_loop: "The agent is repeating the same call",
  task: "The agent wants to start a subagent",
  mcp: "The agent wants to call an MCP server's tool",
  skill: "The agent wants to load a skill",
  github_push: "The agent wants to push to GitHub and open a pull request",
};

export function permissionTitle(permission: string): string {
  return TITLES[permission] ?? `The agent asks for the "${revealInvisibleChars(permission)}" permission`;
}

/** What one permission covers, in words ("file edits"), for the "Always allow" note. */
const SUBJECTS: Record<string, string> = {
  edit: "file edits",
  bash: "commands",
  read: "reads of protected files",
  external_directory: "work outside the workspace",
  webfetch: "web page fetches",
  network: "requests by commands to",
  websearch: "web searches",
  doom_loop: "repeated identical calls",
  task: "subagents",
  mcp: "calls of the MCP tool",
  skill: "the skill",
};

/** "Always allow: allow all file edits for the rest of this session." (or "… commands matching `npm test *` …"). */
export function alwaysAllowNote(permission: string, always: readonly string[]): { lead: string; patterns: string[]; tail: string } {
  const subject = SUBJECTS[permission] ?? `"${revealInvisibleChars(permission)}" requests`;
  const tail = " for the rest of this session.";
  // A web fetch grant covers one origin ("https://example.com/*"): say so in those words.
  if (permission === "webfetch" && always.length > 0 && always.every((p) => p.endsWith("/*") && p !== "/*")) {
    return { lead: "Always allow: allow fetches from ", patterns: always.map((p) => revealInvisibleChars(p.slice(0, -2))), tail: ` (that site only, any page on it)${tail}` };
  }
  if (always.includes("*")) return { lead: `Always allow: allow all ${subject}`, patterns: [], tail };
  return { lead: `Always allow: allow ${subject} matching `, patterns: always.map(revealInvisibleChars), tail };
}

export function PermissionCard({ request, onReply, onTrustOrigin }: PermissionCardProps) {
  const [message, setMessage] = useState("");
  const [sent, setSent] = useState(false);
  const messageId = useId();
  const titleId = useId();
  const command = typeof request.metadata.command === "string" ? request.metadata.command : request.permission === "bash" ? request.patterns.join("\n") : undefined;
  const diff = typeof request.metadata.diff === "string" ? request.metadata.diff : undefined;
  const card = useRef<HTMLElement>(null);
  // Said at once (the turn waits on it) and focused unless the user is typing; once answered and
  // gone, the focus goes to the message box rather than falling to <body>.
  useEffect(() => announce(`Permission needed. ${permissionTitle(request.permission)}${command !== undefined ? `: ${command}` : request.patterns.length > 0 ? `: ${request.patterns.join(", ")}` : ""}.`, "assertive"), [request.id]);
  useTakeFocus(card, (parent) => parent.closest(".chat-panel")?.querySelector<HTMLElement>("textarea.prompt-input"));
  // A command's request: the site is what the answer is about (the full first URL is in the detail).
  const origin = request.permission === "network" && typeof request.metadata.origin === "string" ? request.metadata.origin : undefined;
  const trust = async () => {
    if (sent || origin === undefined || !onTrustOrigin) return;
    setSent(true);
    card.current?.focus();
    try {
      await onTrustOrigin(origin);
    } finally {
      // Stored or not (the error is shown by whoever stores it), this request goes ahead for the session.
      onReply(request.id, "always");
    }
  };
  const reply = (answer: PermissionReply) => {
    if (sent) return;
    setSent(true);
    // The buttons are disabled next: keep the focus on the card until it goes.
    card.current?.focus();
    const text = message.trim();
    onReply(request.id, answer, answer === "reject" && text ? text : undefined);
  };
  return (
    <section ref={card} className="permission-card" role="group" aria-labelledby={titleId} tabIndex={-1}>
      <h3 id={titleId} className="card-title">
        {permissionTitle(request.permission)}
      </h3>
      {command !== undefined && (
        <pre className="tool-command">
          <code dangerouslySetInnerHTML={{ __html: highlightCode(`$ ${revealInvisibleInText(command)}`, "bash") }} />
        </pre>
      )}
      {diff !== undefined && <DiffBlock diff={diff} />}
      {typeof request.metadata.detail === "string" && <p className="card-note">{revealInvisibleInText(request.metadata.detail)}</p>}
      {request.permission === "mcp" && typeof request.metadata.server === "string" && (
        // What leaves the page: the arguments go to the server named here.
        <>
          <p className="card-note">
            Sends these arguments to the MCP server <code>{revealInvisibleChars(request.metadata.server)}</code>:
          </p>
          <pre className="tool-input" aria-label="Arguments">
            {revealInvisibleInText(JSON.stringify(request.metadata.input ?? {}, null, 2))}
          </pre>
        </>
      )}
      {command === undefined && request.patterns.length > 0 && (
        <ul className="permission-patterns">
          {request.patterns.map((pattern) => (
            <li key={pattern}>
              <code>{revealInvisibleChars(pattern)}</code>
            </li>
          ))}
        </ul>
      )}
      {request.always.length > 0 && origin === undefined && <AlwaysAllowNote permission={request.permission} always={request.always} />}
      {/* A rejected web search is not a failed call: the turn goes on without the search tool. */}
      {request.permission === "websearch" ? (
        <p className="card-note">Reject: the model answers this turn without searching.</p>
      ) : (
        <>
          <label className="card-label" htmlFor={messageId}>
            Message to the agent
          </label>
          <input
            id={messageId}
            className="text-input"
            type="text"
            value={message}
            placeholder="Optional: what to do instead (sent with Reject)"
            onChange={(event) => setMessage(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && message.trim()) reply("reject");
            }}
          />
        </>
      )}
      <div className="card-buttons">
        <button type="button" className="button button-primary" disabled={sent} onClick={() => reply("once")}>
          Allow once
        </button>
        {origin !== undefined ? (
          <>
            <button type="button" className="button" disabled={sent} onClick={() => reply("always")}>
              Allow {revealInvisibleChars(origin)} for this session
            </button>
            {onTrustOrigin && (
              <button type="button" className="button" disabled={sent} onClick={() => void trust()}>
                Always allow {revealInvisibleChars(origin)}
              </button>
            )}
          </>
        ) : (
          <button type="button" className="button" disabled={sent} onClick={() => reply("always")}>
            Always allow
          </button>
        )}
        <button type="button" className="button button-danger" disabled={sent} onClick={() => reply("reject")}>
          Reject
        </button>
      </div>
    </section>
  );
}

function AlwaysAllowNote({ permission, always }: { permission: string; always: readonly string[] }) {
  const note = alwaysAllowNote(permission, always);
  return (
    <p className="card-note">
      {note.lead}
      {note.patterns.map((pattern, i) => (
        <span key={pattern}>
          {i > 0 && (i === note.patterns.length - 1 ? " or " : ", ")}
          <code>{pattern}</code>
        </span>
      ))}
      {note.tail}
    </p>
  );
}
