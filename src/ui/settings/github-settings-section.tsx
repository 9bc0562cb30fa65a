// Settings → Runtime → GitHub: the token "Open from GitHub" and "Push to GitHub" send to the GitHub
// API (optional for public repositories), and the API URL for GitHub Enterprise Server. Kept like
// provider keys: only in this browser's storage for this site, never exported or shared.
import { useId } from "react";
import { useStore } from "zustand";
import { cleanProxyUrl } from "../../runtime";
import type { RuntimeSettingsStore } from "./runtime-settings-store";
import { TokenRow } from "./token-row";
import { UrlRow } from "./url-row";

export function GitHubSettingsSection({ runtime, onProblem }: { runtime: RuntimeSettingsStore; onProblem(action: () => Promise<void>): void }) {
  const settings = useStore(runtime.store);
  const baseId = useId();
  return (
    <fieldset className="settings-subsection">
      <legend>GitHub</legend>
      <p className="form-hint">
        Open from GitHub and Push to GitHub talk to GitHub's API from this page. A fine-grained personal access token is optional for public repositories (without
        one GitHub allows 60 requests an hour); it needs "Contents: read-only" to open a private repository, and "Contents: read and write" plus "Pull requests: read
        and write" to push a branch and open a pull request. Kept only in this browser's storage for this site; never exported or shared.
      </p>
      <TokenRow
        id={`${baseId}-token`}
        label="GitHub token"
        saved={settings.githubAccessToken}
        setLabel="Set GitHub token"
        removeLabel="Remove GitHub token"
        save={(token) => runtime.update({ githubAccessToken: token })}
        run={onProblem}
      />
      <UrlRow
        id={`${baseId}-api`}
        label="GitHub Enterprise API URL"
        placeholder="None: github.com"
        saved={settings.githubApiUrl}
        clean={cleanProxyUrl}
        invalid="Enter an http:// or https:// URL, such as https://github.example.com/api/v3."
        setLabel="Set API URL"
        save={(url) => runtime.update({ githubApiUrl: url })}
        run={onProblem}
      />
    </fieldset>
  );
}
