// The sessions sidebar: every session, newest first, with search, new, rename and delete; child
// sessions of subagents listed under their parent. In a narrow chat panel it is a drawer over the
// transcript (chat.css), closed by opening a session or Escape.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { revealInvisibleChars } from "../../base";
import type { SessionRecord } from "../../storage";
import type { SessionTextSearch } from "./session-text-search";
import { Icon, trapFocus } from "../common";

export interface SessionsSidebarProps {
  sessions: readonly SessionRecord[];
  activeSessionId?: string;
  /** Sessions the agent is working in (marked in the list). */
  busy?: ReadonlySet<string>;
  onOpen(sessionId: string): void;
  onNew(): void;
  /** Omitted when the agent cannot rename (the button is hidden). */
  onRename?(sessionId: string): void;
  /** Omitted when the agent cannot delete; the caller asks for confirmation. */
  onDelete?(sessionId: string): void;
  /** Closes the sidebar: called on Escape, and after opening a session while it covers the transcript. */
  onDismiss?(): void;
  now?: number;
  /** Searches the sessions' messages too (not only titles); omitted: titles only. */
  textSearch?: SessionTextSearch;
}

export interface SessionTreeItem {
  session: SessionRecord;
  children: SessionRecord[];
}

/**
 * Top-level sessions newest first, each with its child sessions (newest first), filtered by `query`
 * (in the title, or `textMatches`: sessions whose messages contain it).
 */
export function sessionTree(sessions: readonly SessionRecord[], query = "", textMatches?: ReadonlySet<string>): SessionTreeItem[] {
  const newest = (a: SessionRecord, b: SessionRecord) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1);
  const byParent = new Map<string, SessionRecord[]>();
  const ids = new Set(sessions.map((s) => s.id));
  for (const session of sessions) {
    if (!session.parentId || !ids.has(session.parentId)) continue;
    const list = byParent.get(session.parentId) ?? [];
    list.push(session);
    byParent.set(session.parentId, list);
  }
  const q = query.trim().toLowerCase();
  const matches = (s: SessionRecord) => !q || s.title.toLowerCase().includes(q) || textMatches?.has(s.id) === true;
  return sessions
    .filter((s) => !s.archived && (!s.parentId || !ids.has(s.parentId)))
    .sort(newest)
    .map((session) => ({ session, children: (byParent.get(session.id) ?? []).sort(newest) }))
    .filter((item) => matches(item.session) || item.children.some(matches))
    .map((item) => (q && !matches(item.session) ? { ...item, children: item.children.filter(matches) } : item));
}

/** "just now", "5 min ago", "3 h ago", else the date. */
export function relativeTime(then: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(then).toLocaleDateString();
}

export function SessionsSidebar({ sessions, activeSessionId, busy, onOpen: openSession, onNew, onRename, onDelete, onDismiss, now = Date.now(), textSearch }: SessionsSidebarProps) {
  const [query, setQuery] = useState("");
  const [textMatches, setTextMatches] = useState<{ query: string; ids: ReadonlySet<string> } | undefined>(undefined);
  const searchId = useId();
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!textSearch || query.trim() === "") return;
    let live = true;
    const timer = setTimeout(() => {
      void textSearch.matching(sessions, query).then((ids) => live && setTextMatches({ query, ids }));
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [textSearch, sessions, query]);
  const tree = useMemo(() => sessionTree(sessions, query, textMatches?.query === query ? textMatches.ids : undefined), [sessions, query, textMatches]);
  // As a drawer (positioned over the transcript by the stylesheet) it would hide the session just
  // opened; beside the transcript it stays.
  const onOpen = (id: string) => {
    openSession(id);
    if (nav.current && getComputedStyle(nav.current).position === "absolute") onDismiss?.();
  };
  // As a drawer it is modal-like: focus moves into it, Tab stays inside, and on close focus goes
  // back to what opened it (or stays where the user moved it outside the drawer).
  const drawer = () => nav.current !== null && getComputedStyle(nav.current).position === "absolute";
  useEffect(() => {
    const element = nav.current;
    if (!element || !drawer()) return;
    const opener = document.activeElement as HTMLElement | null;
    element.querySelector<HTMLElement>("input")?.focus();
    return () => {
      const active = document.activeElement;
      if (!active || active === document.body || element.contains(active)) opener?.focus();
    };
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === "Escape" && onDismiss) {
      event.stopPropagation();
      onDismiss();
      return;
    }
    if (drawer()) trapFocus(event);
  };
  return (
    <nav className="sessions-sidebar" id="chat-sessions" aria-label="Sessions" ref={nav} onKeyDown={onKeyDown}>
      <div className="sessions-toolbar">
        <button type="button" className="button button-primary" onClick={onNew}>
          New session
        </button>
        <label className="visually-hidden" htmlFor={searchId}>
          Search sessions
        </label>
        <input
          id={searchId}
          className="text-input sessions-search"
          type="search"
          placeholder="Search sessions"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      {tree.length === 0 ? (
        <p className="sessions-empty">{query ? `No session matches "${query}".` : "No sessions yet. Send a message to start one."}</p>
      ) : (
        <ul className="sessions-list">
          {tree.map(({ session, children }) => (
            <li key={session.id}>
              <SessionRow session={session} active={session.id === activeSessionId} busy={busy?.has(session.id) ?? false} now={now} onOpen={onOpen} onRename={onRename} onDelete={onDelete} />
              {children.length > 0 && (
                <ul className="sessions-children" aria-label={`Subagent sessions of ${revealInvisibleChars(session.title)}`}>
                  {children.map((child) => (
                    <li key={child.id}>
                      <SessionRow session={child} active={child.id === activeSessionId} busy={busy?.has(child.id) ?? false} now={now} onOpen={onOpen} />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

function SessionRow(props: { session: SessionRecord; active: boolean; busy: boolean; now: number; onOpen(id: string): void; onRename?(id: string): void; onDelete?(id: string): void }) {
  const { session, active, busy, now, onOpen, onRename, onDelete } = props;
  return (
    <div className={active ? "session-row session-row-active" : "session-row"}>
      <button type="button" className="session-open" aria-current={active ? "true" : undefined} onClick={() => onOpen(session.id)}>
        <span className="session-title">{revealInvisibleChars(session.title)}</span>
        <span className="session-meta">
          {busy ? "working… · " : ""}
          {relativeTime(session.updatedAt, now)}
        </span>
      </button>
      {onRename && (
        <button type="button" className="icon-text-button session-action" aria-label={`Rename ${revealInvisibleChars(session.title)}`} title="Rename" onClick={() => onRename(session.id)}>
          <Icon name="rename" />
        </button>
      )}
      {onDelete && (
        <button type="button" className="icon-text-button session-action" aria-label={`Delete ${revealInvisibleChars(session.title)}`} title="Delete" onClick={() => onDelete(session.id)}>
          <Icon name="trash" />
        </button>
      )}
    </div>
  );
}
