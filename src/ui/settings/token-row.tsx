// One secret setting (an access token): a password field whose placeholder shows the saved value
// masked, "Set …" to save what was typed and "Remove …" while one is saved. Used for the git, GitHub
// and sync tokens; the value is kept like provider keys by whoever `save`s it.
import { useState, type ReactNode } from "react";
import { maskKey } from "../../providers";

export interface TokenRowProps {
  /** The input's id (its label points at it). */
  id: string;
  label: string;
  /** The saved token ("" when none). */
  saved: string;
  /** The buttons' names: "Set GitHub token", "Remove GitHub token". */
  setLabel: string;
  removeLabel: string;
  /** Saves the token ("" removes it). */
  save(token: string): Promise<void>;
  /** Runs an action, showing its failure (the section's onProblem). */
  run(action: () => Promise<void>): void;
  /** What follows in the row (a hint). */
  children?: ReactNode;
}

export function TokenRow({ id, label, saved, setLabel, removeLabel, save, run, children }: TokenRowProps) {
  const [draft, setDraft] = useState("");
  return (
    <div className="form-row">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <div className="form-row-inline">
        <input
          id={id}
          className="text-input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={saved ? `Saved: ${maskKey(saved)}` : "None"}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button
          type="button"
          className="button"
          disabled={draft.trim() === ""}
          onClick={() =>
            run(async () => {
              await save(draft.trim());
              setDraft("");
            })
          }
        >
          {setLabel}
        </button>
        {saved && (
          <button type="button" className="button" onClick={() => run(() => save(""))}>
            {removeLabel}
          </button>
        )}
      </div>
      {children}
    </div>
  );
}
