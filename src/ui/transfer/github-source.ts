// "Open from GitHub" and `#github=owner/repo@ref:path` as an import source: asks before any
// request (naming the repository and the API host), lists and checks the tree in prepare, downloads
// the files in read. The connection (API URL, token) is read from Settings when the user agrees,
// so a token set meanwhile is used.
import { RUNTIME_SETTINGS_KEY, restoreRuntimeSettings } from "../../runtime";
import type { Storage } from "../../storage";
import {
  cleanApiUrl,
  createGitHubApi,
  downloadRepository,
  formatRepoSpec,
  listRepository,
  localAddressWarning,
  repoWebUrl,
  type GitHubConnection,
  type GitHubRepoSpec,
  type RepositoryListing,
} from "../../transfer";
import type { ImportSource } from "./import-sources";

/** Settings → Runtime → GitHub, read when a request is about to be made (a token set meanwhile counts). */
export async function githubConnection(storage: Storage, fetchImpl?: typeof fetch): Promise<GitHubConnection> {
  const settings = restoreRuntimeSettings(await storage.settings.get<unknown>(RUNTIME_SETTINGS_KEY).catch(() => undefined));
  return { apiUrl: cleanApiUrl(settings.githubApiUrl), token: settings.githubAccessToken, ...(fetchImpl && { fetch: fetchImpl }) };
}

export function githubSource(spec: GitHubRepoSpec, connection: () => Promise<GitHubConnection>, apiUrl: string): ImportSource {
  let listing: RepositoryListing | undefined;
  let pending: Promise<GitHubConnection> | undefined;
  const connect = async () => createGitHubApi(await (pending ??= connection()));
  const api = new URL(apiUrl);
  const warning = localAddressWarning(api);
  const label = formatRepoSpec(spec);
  return {
    label,
    name: spec.path ? `${spec.repo}-${spec.path.split("/").at(-1)!}` : spec.repo,
    kind: "github",
    newWorkspaceOnly: true,
    ask: { host: api.host, url: repoWebUrl(apiUrl, spec.owner, spec.repo), ...(warning && { warning }) },
    async prepare(onProgress, signal) {
      onProgress("list", { files: 0, totalFiles: 0, bytes: 0, totalBytes: 0 });
      listing = await listRepository(spec, { api: await connect(), signal });
    },
    async read(options, onProgress, signal) {
      const client = await connect();
      listing ??= await listRepository(spec, { api: client, signal });
      const opened = await downloadRepository(listing, { ...options, api: client, signal, onProgress: (p) => onProgress("read", p) });
      return opened;
    },
  };
}
