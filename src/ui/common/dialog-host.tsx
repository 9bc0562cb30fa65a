// Renders the open dialog of a Dialogs service: a modal with a focus trap, Escape to cancel and
// Enter for the main action. Prompts validate as the user types and show why a value is refused.
import { useEffect, useId, useRef, useState } from "react";
import { useStore } from "zustand";
import type { ChoiceRequest, Dialogs, PromptRequest } from "./dialogs";
import { modalKeyDown, useRestoreFocus } from "./modal-keys";

export function DialogHost({ dialogs }: { dialogs: Dialogs }) {
  const current = useStore(dialogs.store, (s) => s.current);
  if (!current) return null;
  const answer = (value: string | undefined) => dialogs.answer(current.id, value);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && answer(cancelValue(current.request))}>
      {current.request.kind === "choice" ? (
        <ChoiceDialog key={current.id} request={current.request} answer={answer} />
      ) : (
        <PromptDialog key={current.id} request={current.request} answer={answer} />
      )}
    </div>
  );
}

function cancelValue(request: ChoiceRequest | PromptRequest): string | undefined {
  return request.kind === "choice" ? request.cancelId : undefined;
}

function ChoiceDialog({ request, answer }: { request: ChoiceRequest; answer: (value: string | undefined) => void }) {
  const titleId = useId();
  const messageId = useId();
  const primary = useRef<HTMLButtonElement>(null);
  // A destructive choice (a danger button) starts on the safe one: Enter must not delete.
  const destructive = request.buttons.some((b) => b.danger);
  const startId = destructive ? request.cancelId : request.buttons.find((b) => b.primary)?.id;
  useRestoreFocus();
  useEffect(() => primary.current?.focus(), []);
  return (
    <div
      className="modal"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onKeyDown={modalKeyDown(() => answer(request.cancelId))}
    >
      <h2 id={titleId}>{request.title}</h2>
      <p id={messageId}>{request.message}</p>
      <div className="modal-buttons">
        {request.buttons.map((button) => (
          <button
            key={button.id}
            type="button"
            ref={button.id === startId ? primary : undefined}
            className={`button ${button.primary ? "button-primary" : ""} ${button.danger ? "button-danger" : ""}`}
            onClick={() => answer(button.id)}
          >
            {button.label}
          </button>
        ))}
      </div>
    </div>
  );
}

function PromptDialog({ request, answer }: { request: PromptRequest; answer: (value: string | undefined) => void }) {
  const titleId = useId();
  const inputId = useId();
  const errorId = useId();
  const [value, setValue] = useState(request.initialValue);
  const [touched, setTouched] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useRestoreFocus();
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const problem = request.validate?.(value);
  const shownProblem = touched ? problem : undefined;
  const submit = () => {
    setTouched(true);
    if (!problem) answer(value);
  };
  return (
    <form
      className="modal"
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      onKeyDown={modalKeyDown(() => answer(undefined))}
    >
      <h2 id={titleId}>{request.title}</h2>
      <label htmlFor={inputId}>{request.label}</label>
      <input
        id={inputId}
        ref={input}
        className="text-input"
        type={request.secret ? "password" : "text"}
        value={value}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={shownProblem ? true : undefined}
        aria-describedby={shownProblem ? errorId : undefined}
        onChange={(event) => {
          setValue(event.target.value);
          setTouched(true);
        }}
      />
      {shownProblem && (
        <p id={errorId} className="input-error" role="alert">
          {shownProblem}
        </p>
      )}
      <div className="modal-buttons">
        <button type="button" className="button" onClick={() => answer(undefined)}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={touched && !!problem}>
          {request.confirmLabel}
        </button>
      </div>
    </form>
  );
}
