// The agent's github_push tool, wired to the transfer layer's GitHub client for one workspace:
// the token and API URL are read from Settings at each push, files from the workspace's file service.
import type { GitHubPushPort } from "../../agent";
import { connectionForUpstream, createGitHubApi, findUpstreamChanges, pushToGitHub, readWorkspaceFiles, type GitHubUpstream } from "../../transfer";
import type { WorkspaceFs } from "../../runtime";

export interface GitHubPushPortOptions {
  upstream: GitHubUpstream;
  files: WorkspaceFs;
  /** Settings → Runtime → GitHub, as stored now. */
  settings(): { githubApiUrl: string; githubAccessToken: string };
  fetch?: typeof fetch;
}

export function githubPushPort(options: GitHubPushPortOptions): GitHubPushPort {
  const { upstream } = options;
  return {
    upstream: () => ({ repository: `${upstream.owner}/${upstream.repo}`, ref: upstream.ref, commit: upstream.commit }),
    async push(request, signal) {
      const settings = options.settings();
      const api = await createGitHubApi(connectionForUpstream({ apiUrl: settings.githubApiUrl, token: settings.githubAccessToken, ...(options.fetch && { fetch: options.fetch }) }, upstream));
      await options.files.flush();
      const changes = await findUpstreamChanges(api, upstream, await readWorkspaceFiles(options.files), { signal });
      const result = await pushToGitHub(api, { upstream, changes, ...request, signal });
      return { ...result, changes: changes.map((c) => `${c.kind} ${c.path}`) };
    },
  };
}
