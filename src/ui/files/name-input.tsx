// The inline name editor of the tree (new file, new folder, rename): validates as the user types,
// shows why a name is refused, Enter commits, Escape cancels, leaving the field commits a valid name.
import { useEffect, useId, useRef, useState } from "react";

export interface NameInputProps {
  initialValue: string;
  validate(value: string): string | undefined;
  onCommit(value: string): void;
  onCancel(): void;
  /** The field was left holding a refused name (the name is dropped; the reason should be shown). */
  onRejected?(value: string, problem: string): void;
}

export function NameInput({ initialValue, validate, onCommit, onCancel, onRejected }: NameInputProps) {
  const [value, setValue] = useState(initialValue);
  const [showError, setShowError] = useState(false);
  const done = useRef(false);
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const problem = validate(value);

  useEffect(() => {
    const element = input.current;
    if (!element) return;
    element.focus();
    // Select the name without its extension, as editors do, so typing replaces just the name.
    const dot = initialValue.lastIndexOf(".");
    element.setSelectionRange(0, dot > 0 ? dot : initialValue.length);
  }, [initialValue]);

  const finish = (commit: boolean) => {
    if (done.current) return;
    if (!commit || value === "" || value === initialValue) {
      done.current = true;
      onCancel();
      return;
    }
    if (problem) {
      setShowError(true);
      input.current?.focus();
      return;
    }
    done.current = true;
    onCommit(value);
  };

  const visibleError = (showError || value !== initialValue) && value !== "" ? problem : undefined;
  return (
    <div className="name-input">
      <input
        ref={input}
        className="text-input"
        aria-label="Name"
        value={value}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={visibleError ? true : undefined}
        aria-describedby={visibleError ? errorId : undefined}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          // Keys typed here are text, not tree navigation.
          event.stopPropagation();
          if (event.key === "Enter") {
            event.preventDefault();
            finish(true);
          } else if (event.key === "Escape") {
            event.preventDefault();
            finish(false);
          }
        }}
        onBlur={() => {
          // An invalid name on blur is dropped rather than trapping the focus in the tree.
          if (problem && !done.current && value !== initialValue) {
            done.current = true;
            onCancel();
            onRejected?.(value, problem);
          } else finish(true);
        }}
        onClick={(event) => event.stopPropagation()}
      />
      {visibleError && (
        <p id={errorId} className="input-error" role="alert">
          {visibleError}
        </p>
      )}
    </div>
  );
}
