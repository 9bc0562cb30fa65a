// The transcript: renders the newest messages (older ones on request, so a long session mounts
// fast), keeps the view pinned to the bottom while the agent writes unless the user scrolled up.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { MessageEntry } from "./chat-store";
import { MessageView, type MessageActions } from "./message-view";

/** Messages rendered at first and added per "Show earlier messages". */
export const MESSAGE_PAGE = 40;
/**
 * At most this many parts are mounted at first (and per "Show earlier messages"), whatever the
 * message count: a shared session's messages can hold hundreds of parts each (issue 9, point 7).
 */
export const PART_PAGE = 400;

/** How many of the newest entries to show: up to `limit` messages holding at most `parts` parts (at least one). */
export function newestWithin(entries: readonly MessageEntry[], limit: number, parts: number): number {
  let count = 0;
  let total = 0;
  for (let i = entries.length - 1; i >= 0 && count < limit; i--) {
    total += entries[i]!.parts.length;
    if (count > 0 && total > parts) break;
    count++;
  }
  return count;
}
/** Within this many pixels of the bottom the view follows new content. */
const PIN_THRESHOLD_PX = 80;

export interface MessageListProps extends MessageActions {
  entries: readonly MessageEntry[];
  busy: boolean;
}

export function MessageList({ entries, busy, ...actions }: MessageListProps) {
  const [limit, setLimit] = useState(MESSAGE_PAGE);
  const [partLimit, setPartLimit] = useState(PART_PAGE);
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const hidden = entries.length - newestWithin(entries, limit, partLimit);
  const shown = hidden > 0 ? entries.slice(hidden) : entries;

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const onScroll = () => {
      pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < PIN_THRESHOLD_PX;
    };
    element.addEventListener("scroll", onScroll, { passive: true });
    return () => element.removeEventListener("scroll", onScroll);
  }, []);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  });

  return (
    <div className="message-list" ref={scroller} role="log" aria-label="Conversation" aria-busy={busy} aria-live="off">
      {hidden > 0 && (
        <button type="button" className="link-button show-earlier" onClick={() => {
            setLimit((l) => l + MESSAGE_PAGE);
            setPartLimit((p) => p + PART_PAGE);
          }}>
          Show earlier messages ({hidden})
        </button>
      )}
      {shown.map((entry) => (
        <MessageView key={entry.info.id} entry={entry} busy={busy} {...actions} />
      ))}
    </div>
  );
}
