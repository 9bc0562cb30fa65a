// git clone, fetch, pull, push and remote. A web page cannot open git's own protocols, and git
// hosts do not answer cross-origin requests, so HTTPS remotes are reached through the CORS proxy set
// in Settings → Runtime (none by default: these commands then say how to set one). The access token
// is sent only to the host it was set for.
import type { GitAuth, GitHttpRequest, GitHttpResponse, HttpClient } from "isomorphic-git";
import { git, GitFatal, GitUsageError, type GitContext, type GitRemoteSettings } from "./git-context";

const NO_PROXY =
  "fatal: no CORS proxy is set. A web page can reach a git host only through a CORS proxy: set one in Settings → Runtime → Git (for example https://cors.isomorphic-git.org), then try again.";

/**
 * Where a request through the CORS proxy really goes: isomorphic-git asks for
 * "<proxy>/<host>/<path>" (or "<proxy>?<url>"), and the remote behind it is what the egress gate
 * must judge, not the proxy the user set.
 */
export function proxiedDestination(url: string, corsProxy: string): string {
  if (corsProxy === "" || !url.startsWith(corsProxy)) return url;
  const rest = url.slice(corsProxy.length).replace(/^[/?]/, "");
  return /^https?:\/\//i.test(rest) ? rest : `https://${rest}`;
}

/** isomorphic-git's HTTP client over the page's fetch (bodies are small enough to send whole). */
function httpClient(ctx: GitContext, corsProxy: string): HttpClient {
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      let body: Uint8Array | undefined;
      if (request.body) {
        const chunks: Uint8Array[] = [];
        for await (const chunk of request.body as AsyncIterable<Uint8Array>) chunks.push(chunk);
        body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
        let offset = 0;
        for (const chunk of chunks) {
          body.set(chunk, offset);
          offset += chunk.length;
        }
      }
      const response = await ctx.env.fetch(request.url, {
        method: request.method ?? "GET",
        headers: request.headers,
        body: body as BodyInit | undefined,
        signal: ctx.signal,
        destination: proxiedDestination(request.url, corsProxy),
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, key) => (headers[key] = value));
      const bytes = new Uint8Array(await response.arrayBuffer());
      return {
        url: response.url || request.url,
        method: request.method,
        headers,
        statusCode: response.status,
        statusMessage: response.statusText,
        body: (async function* () {
          yield bytes;
        })(),
      };
    },
  };
}

interface RemoteAccess {
  /** What to tell the user when the server asks for credentials (401/403). */
  authProblem: string;
  http: HttpClient;
  corsProxy: string;
  onAuth: (url: string) => GitAuth | void;
  onAuthFailure: (url: string) => GitAuth | void;
}

async function access(ctx: GitContext, url: string): Promise<RemoteAccess> {
  if (!/^https?:\/\//i.test(url)) {
    throw new GitFatal(`'${url}' is not an HTTPS URL. In the browser git reaches remotes over HTTPS only (https://host/owner/repo.git).`);
  }
  const settings: GitRemoteSettings = await ctx.env.remoteSettings();
  if (settings.corsProxy === "") throw new GitFatal(NO_PROXY.replace(/^fatal: /, ""));
  const host = new URL(url).hostname.toLowerCase();
  const tokenFits = settings.token !== "" && settings.tokenHost !== "" && host === settings.tokenHost.toLowerCase();
  const authProblem = tokenFits
    ? `Authentication failed for '${url}': the server refused the access token set in Settings → Runtime → Git.`
    : `Authentication failed for '${url}': this remote needs an access token. Set one for ${host} in Settings → Runtime → Git.`;
  return {
    authProblem,
    http: httpClient(ctx, settings.corsProxy.replace(/\/+$/, "")),
    corsProxy: settings.corsProxy.replace(/\/+$/, ""),
    onAuth: () => (tokenFits ? { username: "x-access-token", password: settings.token } : undefined),
    onAuthFailure: () => {
      throw new GitFatal(authProblem);
    },
  };
}

function progress(ctx: GitContext) {
  let last = "";
  return (event: { phase: string; loaded: number; total?: number }) => {
    const line = event.total ? `${event.phase}: ${Math.round((event.loaded / event.total) * 100)}% (${event.loaded}/${event.total})` : `${event.phase}: ${event.loaded}`;
    if (line.split(":")[0] !== last.split(":")[0] && last !== "") ctx.err(`${last}, done.\n`);
    last = line;
  };
}

async function remoteUrl(ctx: GitContext, remote: string): Promise<string> {
  const url = (await git.getConfig({ fs: ctx.fs, dir: ctx.dir, path: `remote.${remote}.url` })) as string | undefined;
  if (!url) throw new GitFatal(`'${remote}' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.`);
  return url;
}

function networkError(error: unknown, url: string, remote?: RemoteAccess): never {
  if (error instanceof GitFatal) throw error;
  const e = error as { code?: string; message?: string; data?: { statusCode?: number } };
  if (e.code === "HttpError" && (e.data?.statusCode === 401 || e.data?.statusCode === 403) && remote) throw new GitFatal(remote.authProblem);
  if (e.code === "HttpError") throw new GitFatal(`unable to access '${url}': The requested URL returned error: ${e.data?.statusCode ?? ""}`.trim());
  if (e.code === "PushRejectedError") throw new GitFatal(`failed to push some refs to '${url}'\nhint: Updates were rejected because the remote contains work that you do not\nhint: have locally. Integrate the remote changes (git pull) before pushing again.`, 1);
  if (e.code === "NotFoundError" || e.code === "SmartHttpError") throw new GitFatal(`repository '${url}' not found (${e.message ?? ""})`);
  if (error instanceof TypeError) throw new GitFatal(`unable to access '${url}': the CORS proxy or the network refused the request (${error.message}). Check the proxy URL in Settings → Runtime → Git.`);
  throw error;
}

export async function clone(ctx: GitContext, args: string[], cwd: string): Promise<number> {
  let depth: number | undefined;
  let branch: string | undefined;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--depth") depth = Number(args[++i]);
    else if (arg.startsWith("--depth=")) depth = Number(arg.slice(8));
    else if (arg === "-b" || arg === "--branch") branch = args[++i];
    else if (!arg.startsWith("-")) operands.push(arg);
  }
  const url = operands[0];
  if (!url) throw new GitUsageError("usage: git clone [<options>] <repo> [<dir>]");
  const name = operands[1] ?? url.replace(/\/+$/, "").replace(/\.git$/, "").split("/").pop()!;
  const dir = `${cwd === "/" ? "" : cwd}/${name}`.replace(/\/\.$/, "") || "/";
  if (ctx.fs.existsSync(dir) && ctx.fs.isFolder(dir) && (await ctx.fs.readdir(dir)).length > 0) {
    throw new GitFatal(`destination path '${name}' already exists and is not an empty directory.`);
  }
  const remote = await access(ctx, url);
  ctx.err(`Cloning into '${name}'...\n`);
  const created = !ctx.fs.existsSync(dir);
  ctx.fs.ensureFolder(dir);
  try {
    const { authProblem: _unused, ...options } = remote;
    await git.clone({ fs: ctx.fs, dir, url, ref: branch, singleBranch: branch !== undefined, depth, onProgress: progress(ctx), ...options });
  } catch (error) {
    // Like git, a failed clone leaves nothing behind.
    if (created && ctx.fs.existsSync(dir)) ctx.fs.removeTree(dir);
    networkError(error, url, remote);
  }
  return 0;
}

export async function fetch(ctx: GitContext, args: string[]): Promise<number> {
  const remote = args.find((a) => !a.startsWith("-")) ?? "origin";
  const url = await remoteUrl(ctx, remote);
  const access_ = await access(ctx, url);
  try {
    const result = await git.fetch({ fs: ctx.fs, dir: ctx.dir, remote, tags: true, onProgress: progress(ctx), ...access_ });
    if (result.fetchHead) ctx.err(`From ${url}\n`);
  } catch (error) {
    networkError(error, url, access_);
  }
  return 0;
}

export async function pull(ctx: GitContext, args: string[]): Promise<number> {
  const operands = args.filter((a) => !a.startsWith("-"));
  const remote = operands[0] ?? "origin";
  const branch = await ctx.branch();
  if (!branch) throw new GitFatal("You are not currently on a branch.");
  const url = await remoteUrl(ctx, remote);
  const before = await ctx.headOid();
  const access_ = await access(ctx, url);
  const author = await ctx.identity("AUTHOR");
  try {
    await git.pull({
      fs: ctx.fs,
      dir: ctx.dir,
      remote,
      remoteRef: operands[1],
      ref: branch,
      singleBranch: true,
      author,
      committer: author,
      fastForward: true,
      onProgress: progress(ctx),
      ...access_,
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "MergeConflictError" || code === "MergeNotSupportedError") {
      throw new GitFatal(`Not possible to merge automatically: ${(error as Error).message}\nResolve by hand: git fetch, then compare with git diff HEAD ${remote}/${branch}.`, 1);
    }
    networkError(error, url, access_);
  }
  const after = await ctx.headOid();
  ctx.err(`From ${url}\n`);
  if (before === after) ctx.out("Already up to date.\n");
  else ctx.out(`Updating ${before?.slice(0, 7) ?? "0000000"}..${after?.slice(0, 7)}\nFast-forward\n`);
  return 0;
}

export async function push(ctx: GitContext, args: string[]): Promise<number> {
  const force = args.includes("-f") || args.includes("--force");
  const setUpstream = args.includes("-u") || args.includes("--set-upstream");
  const operands = args.filter((a) => !a.startsWith("-"));
  const remote = operands[0] ?? "origin";
  const branch = operands[1] ?? (await ctx.branch());
  if (!branch) throw new GitFatal("You are not currently on a branch.");
  const url = await remoteUrl(ctx, remote);
  const access_ = await access(ctx, url);
  let result;
  try {
    result = await git.push({ fs: ctx.fs, dir: ctx.dir, remote, ref: branch, force, onProgress: progress(ctx), ...access_ });
  } catch (error) {
    networkError(error, url, access_);
  }
  if (result && !result.ok) throw new GitFatal(`failed to push some refs to '${url}': ${result.error ?? "rejected"}`, 1);
  if (setUpstream) {
    await git.setConfig({ fs: ctx.fs, dir: ctx.dir, path: `branch.${branch}.remote`, value: remote });
    await git.setConfig({ fs: ctx.fs, dir: ctx.dir, path: `branch.${branch}.merge`, value: `refs/heads/${branch}` });
  }
  ctx.err(`To ${url}\n   ${branch} -> ${branch}\n`);
  if (setUpstream) ctx.err(`branch '${branch}' set up to track '${remote}/${branch}'.\n`);
  return 0;
}

export async function remoteCommand(ctx: GitContext, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "-v" || sub === "--verbose") {
    for (const { remote, url } of await git.listRemotes({ fs: ctx.fs, dir: ctx.dir })) {
      ctx.out(sub ? `${remote}\t${url} (fetch)\n${remote}\t${url} (push)\n` : `${remote}\n`);
    }
    return 0;
  }
  if (sub === "add") {
    const [name, url] = rest.filter((a) => !a.startsWith("-"));
    if (!name || !url) throw new GitUsageError("usage: git remote add <name> <url>");
    if ((await git.listRemotes({ fs: ctx.fs, dir: ctx.dir })).some((r) => r.remote === name)) throw new GitFatal(`error: remote ${name} already exists.`, 3);
    await git.addRemote({ fs: ctx.fs, dir: ctx.dir, remote: name, url });
    return 0;
  }
  if (sub === "remove" || sub === "rm") {
    const name = rest[0];
    if (!name || !(await git.listRemotes({ fs: ctx.fs, dir: ctx.dir })).some((r) => r.remote === name)) throw new GitFatal(`error: No such remote: '${name ?? ""}'`, 2);
    await git.deleteRemote({ fs: ctx.fs, dir: ctx.dir, remote: name });
    return 0;
  }
  if (sub === "get-url") {
    ctx.out(`${await remoteUrl(ctx, rest[0] ?? "origin")}\n`);
    return 0;
  }
  if (sub === "set-url") {
    const [name, url] = rest;
    if (!name || !url) throw new GitUsageError("usage: git remote set-url <name> <newurl>");
    await remoteUrl(ctx, name);
    await git.setConfig({ fs: ctx.fs, dir: ctx.dir, path: `remote.${name}.url`, value: url });
    return 0;
  }
  throw new GitUsageError(`usage: git remote [-v] | add <name> <url> | remove <name> | get-url <name> | set-url <name> <url>`);
}
