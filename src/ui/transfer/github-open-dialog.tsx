// "Open from GitHub": asks for the repository (owner/repo, @ref, :folder, or a github.com address)
// and hands it to the import flow, which asks before any request like `#import=` does.
import { useId, useState } from "react";
import { parseRepoSpec, type GitHubRepoSpec } from "../../transfer";
import { errorMessage } from "../../base";
import { Modal } from "./modal";

export function GitHubOpenDialog({ onOpen, onClose }: { onOpen(spec: GitHubRepoSpec): void; onClose(): void }) {
  const inputId = useId();
  const errorId = useId();
  const hintId = useId();
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | undefined>(undefined);
  return (
    <Modal label="Open from GitHub" onClose={onClose} className="import-dialog">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          try {
            onOpen(parseRepoSpec(text));
          } catch (error) {
            setProblem(errorMessage(error));
          }
        }}
      >
        <label htmlFor={inputId}>Repository</label>
        <input
          id={inputId}
          className="text-input"
          spellCheck={false}
          autoComplete="off"
          placeholder="owner/repo"
          data-autofocus
          value={text}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${errorId} ${hintId}` : hintId}
          onChange={(event) => {
            setText(event.target.value);
            setProblem(undefined);
          }}
        />
        {problem && (
          <p id={errorId} className="input-error" role="alert">
            {problem}
          </p>
        )}
        <p id={hintId} className="form-hint">
          owner/repo opens the default branch; add @branch (or a tag or commit) and :folder for part of it, e.g. octocat/hello-world@main:docs. Private repositories
          need a GitHub token (Settings → Runtime → GitHub).
        </p>
        <div className="modal-buttons">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={text.trim() === ""}>
            Continue
          </button>
        </div>
      </form>
    </Modal>
  );
}
