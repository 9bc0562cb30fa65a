// Keyboard and focus behaviour shared by the modal dialogs (the Dialogs service's host and the
// transfer dialogs): Escape cancels, Tab stays inside, focus goes back where it was on close.
import { useEffect, type KeyboardEvent } from "react";

/** What Tab can land on inside a modal. */
export const FOCUSABLE = "button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex='0']";

/** Keeps Tab inside the dialog (it is modal: the page behind is inert). */
export function trapFocus(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== "Tab") return;
  const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE));
  if (focusable.length === 0) return;
  const first = focusable[0]!;
  const last = focusable[focusable.length - 1]!;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal's onKeyDown: Escape calls `onEscape` (and goes no further, so an enclosing handler does not
 * also act on it); Tab is trapped. Without `onEscape`, Escape does nothing (the dialog is waiting).
 */
export function modalKeyDown(onEscape: (() => void) | undefined): (event: KeyboardEvent<HTMLElement>) => void {
  return (event) => {
    if (event.key === "Escape" && onEscape) {
      event.preventDefault();
      event.stopPropagation();
      onEscape();
      return;
    }
    trapFocus(event);
  };
}

/** Returns focus to where it was when the dialog opened. Call before the hook that moves focus in. */
export function useRestoreFocus(): void {
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    return () => previous?.focus?.();
  }, []);
}
