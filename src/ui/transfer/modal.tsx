// A modal frame for the import, export and share dialogs: backdrop, role dialog with a name,
// Escape to close, focus moved inside on open and back where it was on close, Tab kept inside.
import { useEffect, useRef, type ReactNode } from "react";
import { FOCUSABLE, modalKeyDown, useRestoreFocus } from "../common";

export interface ModalProps {
  /** The dialog's accessible name (also its heading). */
  label: string;
  /** Escape and a click on the backdrop; omit to make the dialog wait (e.g. while writing). */
  onClose?(): void;
  className?: string;
  children: ReactNode;
}

export function Modal({ label, onClose, className, children }: ModalProps) {
  const dialog = useRef<HTMLDivElement>(null);
  useRestoreFocus();
  const focusFirst = () => {
    const first = dialog.current?.querySelector<HTMLElement>("[data-autofocus]") ?? dialog.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? dialog.current)?.focus();
  };
  useEffect(focusFirst, []);
  // One Modal shows several steps (import: reading → options → progress); when a step's controls
  // go, the focused one goes with them and focus would fall to <body>: put it back inside.
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body) focusFirst();
  });

  return (
    <div className="modal-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose?.()}>
      <div
        ref={dialog}
        className={className ? `modal transfer-modal ${className}` : "modal transfer-modal"}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        tabIndex={-1}
        onKeyDown={modalKeyDown(onClose)}
      >
        <h2>{label}</h2>
        {children}
      </div>
    </div>
  );
}
