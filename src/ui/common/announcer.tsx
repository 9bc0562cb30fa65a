// Screen-reader announcements: two visually hidden live regions (polite, assertive) rendered once by
// the app, and `announce()` for the places that have news (a permission ask, a finished answer).
// Hand-written (a few lines) rather than a library: the regions must exist before the text changes.
import { useEffect, useRef, type RefObject } from "react";
import { createStore } from "zustand/vanilla";
import { useStore } from "zustand";

export type Politeness = "polite" | "assertive";

interface AnnouncerState {
  polite: string;
  assertive: string;
}

const announcements = createStore<AnnouncerState>(() => ({ polite: "", assertive: "" }));
let clearTimer: ReturnType<typeof setTimeout> | undefined;

/** Says `message` through the live region; the same text said twice is said again. */
export function announce(message: string, politeness: Politeness = "polite"): void {
  // Emptied first, then filled on the next tick: a region whose text does not change is not re-read.
  announcements.setState({ [politeness]: "" } as Partial<AnnouncerState>);
  setTimeout(() => announcements.setState({ [politeness]: message } as Partial<AnnouncerState>), 50);
  if (clearTimer) clearTimeout(clearTimer);
  // Cleared after a while so that a reader browsing the page later does not find stale news.
  clearTimer = setTimeout(() => announcements.setState({ polite: "", assertive: "" }), 10_000);
}

/** The app's live regions (rendered once, at the root). */
export function LiveAnnouncer() {
  const state = useStore(announcements);
  return (
    <div className="visually-hidden">
      <div role="status" aria-live="polite" aria-atomic="true" data-announcer="polite">
        {state.polite}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="true" data-announcer="assertive">
        {state.assertive}
      </div>
    </div>
  );
}

const EDITABLE = "input, textarea, select, [contenteditable=''], [contenteditable='true'], .monaco-editor, .xterm";

/**
 * Whether the user seems to be typing somewhere, so that news must not move the focus: the focus is
 * in the editor, the terminal or a field holding text, or a key went down in a field just now.
 */
export function userIsTyping(lastKeyAt: number, now = Date.now()): boolean {
  const active = document.activeElement as HTMLElement | null;
  if (!active || active === document.body) return false;
  const field = active.closest<HTMLElement>(EDITABLE);
  if (!field) return false;
  if (field.matches(".monaco-editor, .xterm") || field.closest(".monaco-editor, .xterm")) return true;
  const value = (active as HTMLInputElement).value;
  return (typeof value === "string" && value.length > 0) || now - lastKeyAt < 1000;
}

let lastKeyAt = 0;
// Keys that write or erase text; Enter (which sends a message) and navigation keys are not typing.
if (typeof document !== "undefined")
  document.addEventListener(
    "keydown",
    (event) => {
      if ((event.key.length === 1 && !event.ctrlKey && !event.metaKey) || event.key === "Backspace" || event.key === "Delete") lastKeyAt = Date.now();
    },
    true,
  );

/**
 * Moves the focus to `element` when it appears, unless the user is typing; on unmount, when the focus
 * was inside and is now lost (on <body>), puts it on `fallback(parent)` so the keyboard user is not stranded.
 */
export function useTakeFocus(element: RefObject<HTMLElement | null>, fallback: (parent: HTMLElement) => HTMLElement | null | undefined): void {
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;
  useEffect(() => {
    const node = element.current;
    if (node && !userIsTyping(lastKeyAt)) node.focus();
    // The parent as it was at mount: when this cleanup runs the element is already out of the page.
    const parent = node?.parentElement;
    return () => {
      const active = document.activeElement;
      if (parent && (!active || active === document.body)) fallbackRef.current(parent)?.focus();
    };
  }, [element]);
}
