// "Push to GitHub": the workspace's changes since the commit it was opened from go to a new branch
// as one commit, then a pull request with a title and body the user edits. Without write access
// it says so and offers the user's fork. The workspace's own git history is not touched.
import { useId, useRef, useState } from "react";
import { errorMessage } from "../../base";
import { connectionForUpstream, createGitHubApi, findUpstreamChanges, GitHubError, pushToGitHub, readWorkspaceFiles, repoWebUrl, type GitHubUpstream, type PushResult } from "../../transfer";
import type { WorkbenchServices } from "../app";
import { Modal } from "./modal";
import { IsolatedMessage, ShownName } from "./shown-name";
import { githubConnection } from "./github-source";

type PushState =
  | { step: "form"; problem?: string }
  | { step: "running"; text: string }
  | { step: "error"; message: string; canFork: boolean }
  | { step: "done"; result: PushResult; changes: number };

function defaultBranch(now = new Date()): string {
  return `webcode/${now.toISOString().slice(0, 16).replace(/[-:T]/g, "")}`;
}

export function GitHubPushDialog({ services, upstream, fetch: fetchImpl, onClose }: { services: WorkbenchServices; upstream: GitHubUpstream; fetch?: typeof fetch; onClose(): void }) {
  const id = useId();
  const [branch, setBranch] = useState(defaultBranch);
  const [title, setTitle] = useState(`Changes from webcode`);
  const [body, setBody] = useState("");
  const [state, setState] = useState<PushState>({ step: "form" });
  const abort = useRef<AbortController | undefined>(undefined);
  const repoName = `${upstream.owner}/${upstream.repo}`;

  const push = async (fork: boolean) => {
    if (title.trim() === "") {
      setState({ step: "form", problem: "Give the pull request a title." });
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    try {
      setState({ step: "running", text: "Saving open files" });
      await services.documents.saveAll();
      await services.files.flush();
      const api = await createGitHubApi(connectionForUpstream(await githubConnection(services.storage, fetchImpl), upstream));
      setState({ step: "running", text: `Comparing the workspace with ${upstream.commit.slice(0, 7)}` });
      const files = await readWorkspaceFiles(services.files);
      const changes = await findUpstreamChanges(api, upstream, files, { signal: controller.signal });
      const result = await pushToGitHub(api, {
        upstream,
        changes,
        branch,
        title: title.trim(),
        body,
        fork,
        signal: controller.signal,
        onStep: (text) => setState({ step: "running", text }),
      });
      setState({ step: "done", result, changes: changes.length });
    } catch (error) {
      if (controller.signal.aborted) {
        setState({ step: "form" });
        return;
      }
      setState({ step: "error", message: errorMessage(error), canFork: error instanceof GitHubError && error.reason === "no-write-access" });
    } finally {
      abort.current = undefined;
    }
  };

  if (state.step === "running") {
    return (
      <Modal label="Push to GitHub" className="import-dialog">
        <p className="transfer-progress-text" role="status" aria-live="polite">
          {state.text}…
        </p>
        <div className="modal-buttons">
          <button type="button" className="button" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        </div>
      </Modal>
    );
  }
  if (state.step === "done") {
    return (
      <Modal label="Pull request opened" onClose={onClose} className="import-dialog">
        <p role="status">
          Pushed {state.changes === 1 ? "1 change" : `${state.changes} changes`} to the branch <code><ShownName name={state.result.branch} /></code> of {state.result.repository} and
          opened pull request #{state.result.pullRequestNumber}.
        </p>
        <p>
          <a href={state.result.pullRequestUrl} target="_blank" rel="noopener noreferrer" data-autofocus>
            Open pull request #{state.result.pullRequestNumber} on GitHub
          </a>
        </p>
        <div className="modal-buttons">
          <button type="button" className="button button-primary" onClick={onClose}>
            Close
          </button>
        </div>
      </Modal>
    );
  }
  if (state.step === "error") {
    return (
      <Modal label="Push to GitHub failed" onClose={onClose} className="import-dialog">
        <p className="transfer-error" role="alert">
          <IsolatedMessage text={state.message} />
        </p>
        <p className="form-hint">Nothing was changed on {repoName}.</p>
        <div className="modal-buttons">
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
          <button type="button" className="button" onClick={() => setState({ step: "form" })}>
            Back
          </button>
          {state.canFork && (
            <button type="button" className="button button-primary" data-autofocus onClick={() => void push(true)}>
              Push to a fork
            </button>
          )}
        </div>
      </Modal>
    );
  }
  return (
    <Modal label="Push to GitHub" onClose={onClose} className="import-dialog">
      <p className="transfer-source">
        To <a href={repoWebUrl(upstream.apiUrl, upstream.owner, upstream.repo)} target="_blank" rel="noopener noreferrer">{repoName}</a>, from commit{" "}
        <code>{upstream.commit.slice(0, 7)}</code> of <ShownName name={upstream.ref} />
        {upstream.path ? <> (folder <ShownName name={upstream.path} />)</> : null}
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void push(false);
        }}
      >
        <label htmlFor={`${id}-branch`}>New branch</label>
        <input id={`${id}-branch`} className="text-input" spellCheck={false} value={branch} onChange={(event) => setBranch(event.target.value)} />
        <label htmlFor={`${id}-title`}>Pull request title</label>
        <input
          id={`${id}-title`}
          className="text-input"
          data-autofocus
          value={title}
          aria-invalid={state.problem ? true : undefined}
          aria-describedby={state.problem ? `${id}-problem` : undefined}
          onChange={(event) => setTitle(event.target.value)}
        />
        {state.problem && (
          <p id={`${id}-problem`} className="input-error" role="alert">
            {state.problem}
          </p>
        )}
        <label htmlFor={`${id}-body`}>Pull request description</label>
        <textarea id={`${id}-body`} className="text-input" rows={6} value={body} onChange={(event) => setBody(event.target.value)} />
        <p className="form-hint">
          Sends the files changed, added or deleted since that commit (node_modules and .git excluded) as one commit on the new branch, then opens a pull request.
          No existing branch is changed. Needs a GitHub token with "Contents: read and write" and "Pull requests: read and write" (Settings → Runtime → GitHub).
          The agent can do the same with a title and description drafted from its session: ask it to open a pull request.
        </p>
        <div className="modal-buttons">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary">
            Push and open pull request
          </button>
        </div>
      </form>
    </Modal>
  );
}
