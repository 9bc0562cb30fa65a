// One URL setting: a field holding the saved URL (or what is being typed), "Set …" to save it when it
// is valid, and the reason when it is not. Used for the git CORS proxy, GitHub's API URL and the sync
// server, beside TokenRow for their tokens.
import { useState } from "react";

export interface UrlRowProps {
  /** The input's id (its label points at it; the error is `${id}-problem`). */
  id: string;
  label: string;
  placeholder: string;
  /** The saved URL ("" when none). */
  saved: string;
  /** The URL as it is saved, or "" when it is not one this setting takes ("" typed clears it). */
  clean(url: string): string;
  /** Said when `clean` refuses what was typed. */
  invalid: string;
  /** The button's name: "Set proxy". */
  setLabel: string;
  save(url: string): Promise<void>;
  /** Runs an action, showing its failure (the section's onProblem). */
  run(action: () => Promise<void>): void;
}

export function UrlRow({ id, label, placeholder, saved, clean, invalid, setLabel, save, run }: UrlRowProps) {
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const url = draft ?? saved;
  const problem = url.trim() !== "" && clean(url) === "" ? invalid : undefined;
  return (
    <div className="form-row">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <div className="form-row-inline">
        <input
          id={id}
          className="text-input"
          type="url"
          spellCheck={false}
          placeholder={placeholder}
          value={url}
          aria-invalid={problem !== undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button
          type="button"
          className="button"
          disabled={draft === undefined || problem !== undefined}
          onClick={() =>
            run(async () => {
              await save(clean(url));
              setDraft(undefined);
            })
          }
        >
          {setLabel}
        </button>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="input-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
