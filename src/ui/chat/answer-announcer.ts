// Screen readers hear an answer once it is finished, politely, instead of every streamed token (the
// transcript's log region is kept quiet for that reason): the start of the reply's text is said.
import { useEffect, useRef } from "react";
import { announce } from "../common";
import type { MessageEntry } from "./chat-store";

const MAX_SPOKEN = 300;

/** What is said when a turn ends: the last reply's text, shortened, or that the turn finished. */
export function finishedAnswerText(entries: readonly MessageEntry[]): string {
  const reply = [...entries].reverse().find((e) => e.info.role === "assistant");
  const text = (reply?.parts ?? [])
    .map((p) => (p.type === "text" && !p.synthetic ? p.text : ""))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  if (!text) return "The agent finished.";
  return `The agent answered: ${text.length > MAX_SPOKEN ? `${text.slice(0, MAX_SPOKEN)}…` : text}`;
}

/** Announces the finished answer when `busy` goes from true to false in the same session. */
export function useAnnounceFinishedAnswers(sessionId: string | undefined, busy: boolean, entries: readonly MessageEntry[]): void {
  const last = useRef({ sessionId, busy });
  const latest = useRef(entries);
  latest.current = entries;
  useEffect(() => {
    const before = last.current;
    last.current = { sessionId, busy };
    if (before.sessionId === sessionId && before.busy && !busy) announce(finishedAnswerText(latest.current), "polite");
  }, [sessionId, busy]);
}
