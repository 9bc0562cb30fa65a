// Open a GitHub repository as a workspace and send its changes back as a pull request, through
// GitHub's REST API and raw host (both answer any origin), with no server of webcode's own.
export { parseRepoSpec, formatRepoSpec, cleanApiUrl, rawBaseUrl, repoWebUrl, GITHUB_API_URL, type GitHubRepoSpec } from "./github-spec";
export { createGitHubApi, describeGitHubError, formatResetTime, GitHubError, type GitHubApi, type GitHubConnection, type GitHubResponse } from "./github-api";
export { listRepository, downloadRepository, isLfsPointer, type GitHubUpstream, type OpenedRepository, type RepositoryListing, type TreeEntry } from "./github-open";
export {
  canPush,
  cleanBranchName,
  connectionForUpstream,
  findUpstreamChanges,
  gitBlobSha,
  pushToGitHub,
  readWorkspaceFiles,
  type PushRequest,
  type PushResult,
  type UpstreamChange,
  type WorkspaceFileData,
} from "./github-push";
