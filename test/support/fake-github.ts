// A fake GitHub on 127.0.0.1 for tests: the REST API under /api/v3 (as GitHub Enterprise Server
// serves it, so webcode reaches it through the Enterprise API URL setting) and the raw host under
// /raw. Real git object ids (blob SHA-1s), GitHub's CORS and rate-limit headers, a recursive tree
// it can truncate, 404 for a private repository without a token, 403 for a token without write
// access, and the Git Data API's answers. It records exactly what was pushed.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

interface GitTree {
  /** name -> entry */
  entries: Map<string, { mode: string; type: "blob" | "tree" | "commit"; sha: string }>;
}

export interface FakeRepoOptions {
  owner: string;
  repo: string;
  /** Path -> content ("symlink:" + target makes a symbolic link). */
  files: Record<string, string | Uint8Array>;
  private?: boolean;
  defaultBranch?: string;
}

export interface FakeGitHub {
  /** The Enterprise API URL to configure (http://127.0.0.1:PORT/api/v3). */
  apiUrl: string;
  origin: string;
  /** Every request: method, path (with query), whether it carried a token. */
  requests: Array<{ method: string; path: string; token?: string }>;
  /** What the Git Data API and pulls endpoints received, in order. */
  received: {
    blobs: Array<{ repo: string; content: string; encoding: string; sha: string }>;
    trees: Array<{ repo: string; base_tree?: string; tree: unknown[]; sha: string }>;
    commits: Array<{ repo: string; message: string; tree: string; parents: string[]; sha: string }>;
    refs: Array<{ repo: string; ref: string; sha: string }>;
    pulls: Array<{ repo: string; title: string; body: string; head: string; base: string; html_url: string }>;
    forks: string[];
  };
  /** Tokens GitHub accepts: token -> repositories ("owner/repo") it can read, and whether it can write. */
  tokens: Map<string, { login: string; read: Set<string>; write: Set<string> }>;
  /** A recursive tree listing with more entries than this comes back truncated (like GitHub's 100,000). */
  truncateAt: number;
  /** Requests allowed per hour without a token (GitHub: 60). */
  anonymousLimit: number;
  addRepo(options: FakeRepoOptions): { commit: string };
  /** A branch's commit, and a file's content at that commit. */
  branch(repo: string, name: string): string | undefined;
  fileAt(repo: string, commit: string, path: string): Uint8Array | undefined;
  /** Paths of the files at a commit. */
  filesAt(repo: string, commit: string): string[];
  close(): Promise<void>;
}

const EXPOSED = "ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset";

const ALLOWED_HEADERS = "Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, If-Unmodified-Since, Accept-Encoding, X-GitHub-OTP, X-Requested-With, User-Agent, GraphQL-Features, X-Github-Next-Global-ID, X-GitHub-Api-Version";

function hashObject(type: string, body: Uint8Array): string {
  return createHash("sha1").update(`${type} ${body.length}\0`).update(body).digest("hex");
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const objects = new Map<string, { type: "blob"; data: Uint8Array } | { type: "tree"; tree: GitTree } | { type: "commit"; tree: string; parents: string[]; message: string }>();
  const repos = new Map<string, { private: boolean; defaultBranch: string; refs: Map<string, string>; forkOf?: string }>();
  const anonymousUse = new Map<string, number>();
  let hourStart = Math.floor(Date.now() / 1000);

  const putBlob = (data: Uint8Array) => {
    const sha = hashObject("blob", data);
    objects.set(sha, { type: "blob", data });
    return sha;
  };
  const putTree = (tree: GitTree) => {
    const body = Buffer.from(JSON.stringify([...tree.entries].sort(([a], [b]) => (a < b ? -1 : 1))));
    const sha = hashObject("tree", body);
    objects.set(sha, { type: "tree", tree });
    return sha;
  };
  const putCommit = (tree: string, parents: string[], message: string) => {
    const sha = hashObject("commit", Buffer.from(JSON.stringify({ tree, parents, message, at: objects.size })));
    objects.set(sha, { type: "commit", tree, parents, message });
    return sha;
  };
  const treeOf = (sha: string): GitTree | undefined => {
    const object = objects.get(sha);
    if (object?.type === "commit") return treeOf(object.tree);
    return object?.type === "tree" ? object.tree : undefined;
  };
  /** A tree with `path` set to an entry (or removed when entry is null), returning the new tree sha. */
  const withEntry = (treeSha: string | undefined, segments: string[], entry: { mode: string; type: "blob" | "tree" | "commit"; sha: string } | null): string | undefined => {
    const tree: GitTree = { entries: new Map(treeSha ? treeOf(treeSha)?.entries : []) };
    const [first, ...rest] = segments;
    if (rest.length === 0) {
      if (entry) tree.entries.set(first!, entry);
      else tree.entries.delete(first!);
    } else {
      const child = tree.entries.get(first!);
      const sub = withEntry(child?.type === "tree" ? child.sha : undefined, rest, entry);
      if (sub === undefined) tree.entries.delete(first!);
      else tree.entries.set(first!, { mode: "040000", type: "tree", sha: sub });
    }
    return tree.entries.size === 0 ? undefined : putTree(tree);
  };
  const flatten = (treeSha: string, prefix = ""): Array<{ path: string; mode: string; type: string; sha: string; size?: number }> => {
    const out: Array<{ path: string; mode: string; type: string; sha: string; size?: number }> = [];
    for (const [name, entry] of [...treeOf(treeSha)!.entries].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const blob = objects.get(entry.sha);
      out.push({ path: prefix + name, mode: entry.mode, type: entry.type, sha: entry.sha, ...(blob?.type === "blob" && { size: blob.data.length }) });
      if (entry.type === "tree") out.push(...flatten(entry.sha, `${prefix}${name}/`));
    }
    return out;
  };
  const resolve = (repo: string, ref: string): string | undefined => {
    const r = repos.get(repo);
    if (!r) return undefined;
    const name = ref.replace(/^refs\/heads\//, "");
    if (r.refs.has(name)) return r.refs.get(name);
    return objects.get(ref)?.type === "commit" ? ref : undefined;
  };

  const fake: FakeGitHub = {
    apiUrl: "",
    origin: "",
    requests: [],
    received: { blobs: [], trees: [], commits: [], refs: [], pulls: [], forks: [] },
    tokens: new Map(),
    truncateAt: 100_000,
    anonymousLimit: 60,
    addRepo(options) {
      let tree: string | undefined;
      for (const [path, content] of Object.entries(options.files)) {
        if (typeof content === "string" && content.startsWith("symlink:")) {
          tree = withEntry(tree, path.split("/"), { mode: "120000", type: "blob", sha: putBlob(Buffer.from(content.slice(8))) });
        } else tree = withEntry(tree, path.split("/"), { mode: "100644", type: "blob", sha: putBlob(typeof content === "string" ? Buffer.from(content) : content) });
      }
      const commit = putCommit(tree!, [], "Initial commit");
      const branch = options.defaultBranch ?? "main";
      repos.set(`${options.owner}/${options.repo}`, { private: options.private ?? false, defaultBranch: branch, refs: new Map([[branch, commit]]) });
      return { commit };
    },
    branch: (repo, name) => repos.get(repo)?.refs.get(name),
    fileAt(_repo, commit, path) {
      let sha = (objects.get(commit) as { tree: string }).tree;
      for (const segment of path.split("/")) {
        const entry = treeOf(sha)?.entries.get(segment);
        if (!entry) return undefined;
        sha = entry.sha;
      }
      const blob = objects.get(sha);
      return blob?.type === "blob" ? blob.data : undefined;
    },
    filesAt: (_repo, commit) => flatten(commit).filter((e) => e.type === "blob").map((e) => e.path),
    close: async () => undefined,
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { "content-type": "application/json", "access-control-allow-origin": "*" });
      res.end(JSON.stringify({ message: String(error) }));
    });
  });

  async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>) : {};
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url!, "http://fake");
    const cors = { "access-control-allow-origin": "*", "access-control-expose-headers": EXPOSED };
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        ...cors,
        "access-control-allow-methods": "GET, POST, PATCH, PUT, DELETE",
        // GitHub's own list: a header the client sends beyond it fails the preflight, as on github.com.
        "access-control-allow-headers": ALLOWED_HEADERS,
        "access-control-max-age": "86400",
      });
      res.end();
      return;
    }
    const auth = /^(?:token|bearer) (.+)$/i.exec(req.headers.authorization ?? "")?.[1];
    fake.requests.push({ method: req.method!, path: url.pathname + url.search, ...(auth && { token: auth }) });

    if (url.pathname.startsWith("/raw/")) {
      // raw host: /raw/owner/repo/<commit or branch>/<path>; private repositories are not served.
      const [owner, repo, ref, ...path] = url.pathname.slice(5).split("/").map(decodeURIComponent);
      const name = `${owner}/${repo}`;
      const commit = resolve(name, ref ?? "");
      const data = commit && !repos.get(name)!.private ? fake.fileAt(name, commit, path.join("/")) : undefined;
      if (!data) {
        res.writeHead(404, { ...cors, "content-type": "text/plain" });
        res.end("404: Not Found");
        return;
      }
      res.writeHead(200, { ...cors, "content-type": "text/plain; charset=utf-8", "content-length": data.length });
      res.end(data);
      return;
    }

    const send = (status: number, json: unknown, extra: Record<string, string> = {}) => {
      const text = typeof json === "string" ? json : JSON.stringify(json);
      res.writeHead(status, { ...cors, ...rate, "content-type": typeof json === "string" ? "text/plain; charset=utf-8" : "application/json; charset=utf-8", ...extra });
      res.end(text);
    };
    const token = auth ? fake.tokens.get(auth) : undefined;
    // Rate limit: 60 an hour per client without a token (5,000 with one, never reached here).
    const now = Math.floor(Date.now() / 1000);
    if (now - hourStart >= 3600) {
      hourStart = now;
      anonymousUse.clear();
    }
    const key = token ? `token:${auth}` : "anonymous";
    const used = (anonymousUse.get(key) ?? 0) + 1;
    anonymousUse.set(key, used);
    const limit = token ? 5000 : fake.anonymousLimit;
    const rate = {
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": String(Math.max(0, limit - used)),
      "x-ratelimit-used": String(Math.min(used, limit)),
      "x-ratelimit-reset": String(hourStart + 3600),
      "x-ratelimit-resource": "core",
    };
    if (auth && !token) return send(401, { message: "Bad credentials", status: "401" });
    if (used > limit) return send(403, { message: "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit.)" });

    const path = url.pathname.replace(/^\/api\/v3/, "");
    if (path === "/user" && req.method === "GET") return token ? send(200, { login: token.login }) : send(401, { message: "Requires authentication" });
    const match = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
    if (!match) return send(404, { message: "Not Found" });
    const name = `${decodeURIComponent(match[1]!)}/${decodeURIComponent(match[2]!)}`;
    const rest = match[3] ?? "";
    const repo = repos.get(name);
    const canRead = repo && (!repo.private || token?.read.has(name));
    if (!repo || !canRead) return send(404, { message: "Not Found" });
    const canWrite = token?.write.has(name) === true;
    const needWrite = () => {
      if (canWrite) return false;
      send(403, { message: "Resource not accessible by personal access token", status: "403" });
      return true;
    };

    if (req.method === "GET") {
      if (rest === "") {
        return send(200, {
          name: name.split("/")[1],
          full_name: name,
          private: repo.private,
          visibility: repo.private ? "private" : "public",
          default_branch: repo.defaultBranch,
          ...(token && { permissions: { admin: false, push: canWrite, pull: true } }),
        });
      }
      let m = /^\/commits\/(.+)$/.exec(rest);
      if (m) {
        const sha = resolve(name, decodeURIComponent(m[1]!));
        if (!sha) return send(422, { message: `No commit found for SHA: ${m[1]}` });
        if (req.headers.accept === "application/vnd.github.sha") return send(200, sha);
        return send(200, { sha, commit: { tree: { sha: (objects.get(sha) as { tree: string }).tree } } });
      }
      m = /^\/git\/commits\/([0-9a-f]+)$/.exec(rest);
      if (m) {
        const object = objects.get(m[1]!);
        if (object?.type !== "commit") return send(404, { message: "Not Found" });
        return send(200, { sha: m[1], tree: { sha: object.tree }, parents: object.parents.map((sha) => ({ sha })), message: object.message });
      }
      m = /^\/git\/trees\/(.+)$/.exec(rest);
      if (m) {
        const ref = decodeURIComponent(m[1]!);
        const sha = resolve(name, ref) ?? ref;
        const object = objects.get(sha);
        const treeSha = object?.type === "commit" ? object.tree : sha;
        if (!treeOf(treeSha)) return send(404, { message: "Not Found" });
        const recursive = url.searchParams.has("recursive");
        const listed = recursive
          ? flatten(treeSha)
          : [...treeOf(treeSha)!.entries].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, e]) => {
              const blob = objects.get(e.sha);
              return { path, ...e, ...(blob?.type === "blob" && { size: blob.data.length }) };
            });
        const truncated = recursive && listed.length > fake.truncateAt;
        return send(200, { sha: treeSha, tree: truncated ? listed.slice(0, fake.truncateAt) : listed, truncated });
      }
      m = /^\/git\/blobs\/([0-9a-f]+)$/.exec(rest);
      if (m) {
        const object = objects.get(m[1]!);
        if (object?.type !== "blob") return send(404, { message: "Not Found" });
        return send(200, { sha: m[1], size: object.data.length, encoding: "base64", content: Buffer.from(object.data).toString("base64").replace(/(.{60})/g, "$1\n") });
      }
      return send(404, { message: "Not Found" });
    }

    if (req.method === "POST") {
      const input = await body(req);
      if (rest === "/forks") {
        if (!token) return send(401, { message: "Requires authentication" });
        const forkName = `${token.login}/${name.split("/")[1]}`;
        if (!repos.has(forkName)) repos.set(forkName, { private: false, defaultBranch: repo.defaultBranch, refs: new Map(repo.refs), forkOf: name });
        token.read.add(forkName);
        token.write.add(forkName);
        fake.received.forks.push(name);
        return send(202, { full_name: forkName, name: name.split("/")[1], owner: { login: token.login } });
      }
      if (rest === "/pulls") {
        if (!token) return send(401, { message: "Requires authentication" });
        const number = fake.received.pulls.length + 1;
        const html_url = `${fake.origin}/${name}/pull/${number}`;
        fake.received.pulls.push({ repo: name, title: String(input.title), body: String(input.body ?? ""), head: String(input.head), base: String(input.base), html_url });
        return send(201, { number, html_url });
      }
      if (needWrite()) return;
      if (rest === "/git/blobs") {
        const content = String(input.content);
        const encoding = String(input.encoding ?? "utf-8");
        const sha = putBlob(encoding === "base64" ? Buffer.from(content, "base64") : Buffer.from(content));
        fake.received.blobs.push({ repo: name, content, encoding, sha });
        return send(201, { sha, url: `${fake.apiUrl}/repos/${name}/git/blobs/${sha}` });
      }
      if (rest === "/git/trees") {
        const baseTree = input.base_tree as string | undefined;
        let sha = baseTree;
        for (const entry of input.tree as Array<{ path: string; mode: string; type: "blob"; sha?: string | null; content?: string }>) {
          const blobSha = entry.content !== undefined ? putBlob(Buffer.from(entry.content)) : entry.sha;
          sha = withEntry(sha, entry.path.split("/"), blobSha === null || blobSha === undefined ? null : { mode: entry.mode, type: entry.type, sha: blobSha });
        }
        sha ??= putTree({ entries: new Map() });
        fake.received.trees.push({ repo: name, ...(baseTree && { base_tree: baseTree }), tree: input.tree as unknown[], sha });
        return send(201, { sha });
      }
      if (rest === "/git/commits") {
        const sha = putCommit(String(input.tree), input.parents as string[], String(input.message));
        fake.received.commits.push({ repo: name, message: String(input.message), tree: String(input.tree), parents: input.parents as string[], sha });
        return send(201, { sha });
      }
      if (rest === "/git/refs") {
        const ref = String(input.ref).replace(/^refs\/heads\//, "");
        if (repo.refs.has(ref)) return send(422, { message: "Reference already exists" });
        repo.refs.set(ref, String(input.sha));
        fake.received.refs.push({ repo: name, ref: String(input.ref), sha: String(input.sha) });
        return send(201, { ref: input.ref, object: { sha: input.sha, type: "commit" } });
      }
    }
    return send(404, { message: "Not Found" });
  }

  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.origin = `http://127.0.0.1:${port}`;
  fake.apiUrl = `${fake.origin}/api/v3`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return fake;
}
