// The import dialog: where to (a new workspace, named after the zip or folder, or the current one),
// "Keep node_modules", then a progress bar with Cancel, the overwrite question, or the error.
import { useId } from "react";
import { useStore } from "zustand";
import { formatBytes } from "../../base";
import { MAX_IMPORT_BYTES } from "../../transfer";
import { describeProgress, progressPercent, type ImportFlow } from "./import-flow";
import { Modal } from "./modal";
import { IsolatedMessage, ShownName } from "./shown-name";

/** Conflicting paths listed by name; the rest are counted. */
const MAX_LISTED_CONFLICTS = 50;

export function ImportDialog({ flow }: { flow: ImportFlow }) {
  const state = useStore(flow.store);
  const nameId = useId();
  const errorId = useId();
  if (state.step === "closed") return null;

  if (state.step === "confirm") {
    return (
      <Modal label="Import" onClose={() => flow.cancel()} className="import-dialog">
        {state.source.kind === "github" ? (
          <p>
            Open the repository <strong className="transfer-source-name"><ShownName name={state.source.label} /></strong> through the GitHub API at{" "}
            <strong><ShownName name={state.host} /></strong>?
          </p>
        ) : (
          <p>
            Download a zip from <strong className="transfer-source-name"><ShownName name={state.host} /></strong>?
          </p>
        )}
        <p className="transfer-source">
          <code className="transfer-url"><ShownName name={state.url} /></code>
        </p>
        {state.warning && (
          <p className="transfer-warning" role="alert">
            {state.warning}
          </p>
        )}
        {state.source.kind === "github" ? (
          <p className="form-hint">
            webcode lists the repository's files, then downloads them into a new workspace that remembers the repository and commit. Nothing has been requested yet;
            imports stop at {formatBytes(MAX_IMPORT_BYTES)}, and you can cancel.
          </p>
        ) : (
          <p className="form-hint">The link asks webcode to import this zip. Nothing has been requested yet; the download stops if it grows past {formatBytes(MAX_IMPORT_BYTES)}, and you can cancel it.</p>
        )}
        <div className="modal-buttons">
          <button type="button" className="button" onClick={() => flow.cancel()}>
            Cancel
          </button>
          <button type="button" className="button button-primary" data-autofocus={state.warning ? undefined : true} onClick={() => flow.confirmDownload()}>
            {state.source.kind === "github" ? "Open" : "Download"}
          </button>
        </div>
      </Modal>
    );
  }

  if (state.step === "options") {
    return (
      <Modal label="Import" onClose={() => flow.cancel()} className="import-dialog">
        <p className="transfer-source">
          {{ link: "From the link ", zip: "From the zip ", folder: "From the folder ", github: "From the GitHub repository " }[state.source.kind]}
          <strong className="transfer-source-name"><ShownName name={state.source.label} /></strong>
        </p>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void flow.start();
          }}
        >
          <fieldset className="transfer-fieldset">
            <legend>Import into</legend>
            <label className="transfer-radio">
              <input type="radio" name="import-target" checked={state.target === "new"} onChange={() => flow.setOptions({ target: "new" })} />A new workspace
            </label>
            {state.target === "new" && (
              <div className="transfer-indent">
                <label htmlFor={nameId}>Workspace name</label>
                <input
                  id={nameId}
                  className="text-input"
                  value={state.name}
                  data-autofocus
                  aria-invalid={state.nameError ? true : undefined}
                  aria-describedby={state.nameError ? errorId : undefined}
                  onChange={(event) => flow.setOptions({ name: event.target.value })}
                />
                {state.nameError && (
                  <p id={errorId} className="input-error" role="alert">
                    {state.nameError}
                  </p>
                )}
              </div>
            )}
            <label className="transfer-radio">
              <input
                type="radio"
                name="import-target"
                checked={state.target === "current"}
                disabled={state.currentReadOnly || state.source.newWorkspaceOnly}
                onChange={() => flow.setOptions({ target: "current" })}
              />
              The current workspace (<ShownName name={state.currentName} />){state.currentReadOnly ? " — read-only" : state.source.newWorkspaceOnly ? " — a repository opens as a workspace of its own" : ""}
            </label>
            {state.target === "current" && <p className="form-hint transfer-indent">You will be asked before any existing file is replaced.</p>}
          </fieldset>
          <label className="transfer-checkbox">
            <input type="checkbox" checked={state.keepNodeModules} onChange={(event) => flow.setOptions({ keepNodeModules: event.target.checked })} />
            Keep node_modules
          </label>
          <label className="transfer-checkbox">
            <input type="checkbox" checked={state.keepGit} onChange={(event) => flow.setOptions({ keepGit: event.target.checked })} />
            Keep .git (the repository's history, for git in the terminal)
          </label>
          <p className="form-hint">node_modules and .git folders are left out unless kept: npm install rebuilds node_modules; without .git, git starts with no history.</p>
          <div className="modal-buttons">
            <button type="button" className="button" onClick={() => flow.cancel()}>
              Cancel
            </button>
            <button type="submit" className="button button-primary">
              Import
            </button>
          </div>
        </form>
      </Modal>
    );
  }

  if (state.step === "running") {
    const percent = progressPercent(state.progress);
    const text = describeProgress(state.phase, state.progress);
    return (
      <Modal label="Import" className="import-dialog">
        <p className="transfer-source">
          Importing <strong className="transfer-source-name"><ShownName name={state.source.label} /></strong>
        </p>
        <div
          className="transfer-progress"
          role="progressbar"
          aria-label="Import progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={text}
        >
          <div className={percent === undefined ? "transfer-progress-bar is-indeterminate" : "transfer-progress-bar"} style={percent === undefined ? undefined : { width: `${percent}%` }} />
        </div>
        <p className="transfer-progress-text" aria-live="polite">
          {text}
        </p>
        {!state.cancellable && <p className="form-hint">Writing into the open workspace; this cannot be stopped half-way.</p>}
        <div className="modal-buttons">
          <button type="button" className="button" disabled={!state.cancellable} onClick={() => flow.cancel()}>
            Cancel
          </button>
        </div>
      </Modal>
    );
  }

  if (state.step === "conflicts") {
    const listed = state.conflicts.slice(0, MAX_LISTED_CONFLICTS);
    const more = state.conflicts.length - listed.length;
    return (
      <Modal label="Replace existing files?" className="import-dialog">
        <p>
          {state.conflicts.length === 1 ? "1 file" : `${state.conflicts.length.toLocaleString("en")} files`} in this workspace would be replaced by the import:
        </p>
        <ul className="transfer-path-list" aria-label="Files that would be replaced">
          {listed.map((path) => (
            <li key={path}>
              <ShownName name={path} />
            </li>
          ))}
          {more > 0 && <li className="transfer-more">and {more.toLocaleString("en")} more</li>}
        </ul>
        <div className="modal-buttons">
          <button type="button" className="button" onClick={() => flow.resolveConflicts("cancel")}>
            Cancel
          </button>
          <button type="button" className="button" onClick={() => flow.resolveConflicts("skip")}>
            Skip existing
          </button>
          <button type="button" className="button button-primary" data-autofocus onClick={() => flow.resolveConflicts("replace")}>
            Replace
          </button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal label="Import failed" onClose={() => flow.close()} className="import-dialog">
      <p className="transfer-error" role="alert">
        <IsolatedMessage text={state.message} />
      </p>
      <p className="form-hint">Nothing was imported; your workspaces are unchanged.</p>
      <div className="modal-buttons">
        <button type="button" className="button button-primary" onClick={() => flow.close()}>
          Close
        </button>
      </div>
    </Modal>
  );
}
