// Open a repository and push back through a local fake of GitHub's REST API and raw host (the
// Enterprise API URL points at it): what was downloaded, how many API requests it took, the
// errors in plain words, and exactly what the Git Data API received.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  connectionForUpstream,
  createGitHubApi,
  downloadRepository,
  findGitHubSpec,
  findUpstreamChanges,
  formatRepoSpec,
  gitBlobSha,
  GitHubError,
  ImportError,
  listRepository,
  parseRepoSpec,
  pushToGitHub,
  rawBaseUrl,
  type GitHubRepoSpec,
} from "../../src/transfer";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 1, 2, 3]);
const LFS = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n";

let github: FakeGitHub;
beforeEach(async () => {
  github = await startFakeGitHub();
});
afterEach(async () => {
  await github.close();
});

const open = async (spec: GitHubRepoSpec, token = "", options: { keepNodeModules?: boolean } = {}) => {
  const api = await createGitHubApi({ apiUrl: github.apiUrl, token });
  const listing = await listRepository(spec, { api });
  const opened = await downloadRepository(listing, { api, ...options });
  return { api, opened, files: new Map(opened.entries.map((e) => [e.path, e.kind === "file" ? e.data : undefined])) };
};

describe("repository specs", () => {
  it("reads owner/repo, @ref (with slashes), :folder and github.com addresses", () => {
    expect(parseRepoSpec("octo/hello")).toEqual({ owner: "octo", repo: "hello" });
    expect(parseRepoSpec(" octo/hello.git@feature/x:docs/api/ ")).toEqual({ owner: "octo", repo: "hello", ref: "feature/x", path: "docs/api" });
    expect(parseRepoSpec("octo/hello:src")).toEqual({ owner: "octo", repo: "hello", path: "src" });
    expect(parseRepoSpec("https://github.com/octo/hello/tree/v1.2/packages/core")).toEqual({ owner: "octo", repo: "hello", ref: "v1.2", path: "packages/core" });
    expect(parseRepoSpec("https://github.com/octo/hello")).toEqual({ owner: "octo", repo: "hello" });
    expect(formatRepoSpec({ owner: "o", repo: "r", ref: "a/b", path: "x" })).toBe("o/r@a/b:x");
    for (const bad of ["octo", "https://example.com/o/r", "o/r@../x", "../r/x", "o/r/extra"]) expect(() => parseRepoSpec(bad), bad).toThrow(/not a GitHub repository/);
  });

  it("finds #github= in the address, after share/import rules", () => {
    expect(findGitHubSpec("https://webcode.example/#github=octo/hello@main:docs")).toBe("octo/hello@main:docs");
    expect(findGitHubSpec("https://webcode.example/#github=octo%2Fhello")).toBe("octo/hello");
    expect(findGitHubSpec("https://webcode.example/#import=https://x/y.zip&github=o/r")).toBeUndefined();
  });

  it("derives the raw host from the API URL", () => {
    expect(rawBaseUrl("")).toBe("https://raw.githubusercontent.com");
    expect(rawBaseUrl("https://api.github.com/")).toBe("https://raw.githubusercontent.com");
    expect(rawBaseUrl("https://ghe.example.com/api/v3")).toBe("https://ghe.example.com/raw");
  });
});

describe("opening a repository", () => {
  it("opens a public repository: tree from the API, contents from the raw host, in 3 API requests", async () => {
    const { commit } = github.addRepo({
      owner: "octo",
      repo: "hello",
      files: {
        "README.md": "# Hello\n",
        "src/index.ts": "export const x = 1;\n",
        "assets/logo.png": PNG,
        "assets/big.psd": LFS,
        "node_modules/dep/index.js": "module.exports = 1;\n",
        "link-to-readme": "symlink:README.md",
      },
    });
    const { api, opened, files } = await open({ owner: "octo", repo: "hello" });
    expect([...files.keys()]).toEqual(["README.md", "assets/big.psd", "assets/logo.png", "src/index.ts"]);
    expect(files.get("src/index.ts")).toBe("export const x = 1;\n");
    expect(files.get("assets/logo.png")).toEqual(PNG);
    expect(files.get("assets/big.psd")).toBe(LFS);
    expect(opened.lfsPointers).toEqual(["assets/big.psd"]);
    expect(opened.skipped).toMatchObject({ nodeModules: 1, symlinks: 1 });
    expect(opened.upstream).toEqual({ kind: "github", apiUrl: github.apiUrl, owner: "octo", repo: "hello", ref: "main", commit });
    // repository, commit SHA, recursive tree: the files came from the raw host, by commit.
    expect(api.requestCount).toBe(3);
    const raw = github.requests.filter((r) => r.path.startsWith("/raw/"));
    expect(raw).toHaveLength(4);
    expect(raw.every((r) => r.path.startsWith(`/raw/octo/hello/${commit}/`))).toBe(true);
  });

  it("lists a truncated tree folder by folder, and opens a sub-folder at a ref", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`pkg/${i % 3}/file-${i}.txt`] = `file ${i}\n`;
    files["top.txt"] = "top\n";
    github.addRepo({ owner: "octo", repo: "big", files });
    github.truncateAt = 10;
    const whole = await open({ owner: "octo", repo: "big" });
    expect(whole.files.size).toBe(31);
    expect(github.requests.some((r) => /git\/trees\/[0-9a-f]+$/.test(r.path))).toBe(true);
    github.truncateAt = 100_000;
    const part = await open({ owner: "octo", repo: "big", ref: "main", path: "pkg/1" });
    expect([...part.files.keys()].sort()).toEqual(["file-1.txt", "file-10.txt", "file-13.txt", "file-16.txt", "file-19.txt", "file-22.txt", "file-25.txt", "file-28.txt", "file-4.txt", "file-7.txt"]);
    expect(part.opened.upstream.path).toBe("pkg/1");
  });

  it("says a private repository needs a token, and reads it through the API's blobs with one", async () => {
    github.addRepo({ owner: "octo", repo: "secret", private: true, files: { "a.txt": "private\n", "b.bin": PNG } });
    const refused = await open({ owner: "octo", repo: "secret" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GitHubError);
    expect((refused as Error).message).toBe(
      "The repository octo/secret was not found, or it is private. Check the name; for a private repository add a GitHub token in Settings → Runtime → GitHub.",
    );
    github.tokens.set("pat-read", { login: "me", read: new Set(["octo/secret"]), write: new Set() });
    const { files } = await open({ owner: "octo", repo: "secret" }, "pat-read");
    expect(files.get("a.txt")).toBe("private\n");
    expect(files.get("b.bin")).toEqual(PNG);
    expect(github.requests.filter((r) => r.path.includes("/git/blobs/"))).toHaveLength(2);
    expect(github.requests.every((r) => !r.path.startsWith("/raw/"))).toBe(true);
    const wrong = await open({ owner: "octo", repo: "secret" }, "pat-unknown").catch((error: unknown) => error);
    expect((wrong as Error).message).toMatch(/GitHub refused the token: it is wrong, expired or revoked/);
  });

  it("reports the rate limit with its reset time", async () => {
    github.addRepo({ owner: "octo", repo: "hello", files: { "a.txt": "a" } });
    github.anonymousLimit = 2;
    const error = await open({ owner: "octo", repo: "hello" }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^GitHub's rate limit is used up\. It resets at \d\d:\d\d UTC \(in \d+ minutes?\)\. Without a token GitHub allows 60 requests an hour/);
  });

  it("names a missing ref or folder, and refuses a hostile name like a zip", async () => {
    github.addRepo({ owner: "octo", repo: "hello", files: { "a.txt": "a", "we\u202Eird.txt": "x" } });
    await expect(open({ owner: "octo", repo: "hello", ref: "nope" })).rejects.toThrow('octo/hello has no branch, tag or commit named "nope".');
    await expect(open({ owner: "octo", repo: "hello", path: "docs" })).rejects.toThrow('octo/hello has no folder "docs" at "main".');
    const hostile = await open({ owner: "octo", repo: "hello" }).catch((e: unknown) => e);
    expect(hostile).toBeInstanceOf(ImportError);
    expect((hostile as Error).message).toMatch(/invisible or text-direction character/);
  });

  it("refuses too many entries before downloading anything", async () => {
    github.addRepo({ owner: "octo", repo: "hello", files: { "a.txt": "a", "b.txt": "b", "c/d.txt": "d" } });
    const api = await createGitHubApi({ apiUrl: github.apiUrl, token: "" });
    await expect(listRepository({ owner: "octo", repo: "hello" }, { api, limits: { maxEntries: 3 } })).rejects.toThrow(/holds 4 entries; webcode imports at most 3/);
    const listing = await listRepository({ owner: "octo", repo: "hello" }, { api });
    await expect(downloadRepository(listing, { api, limits: { maxBytes: 2 } })).rejects.toThrow(/more than/);
    expect(github.requests.some((r) => r.path.startsWith("/raw/"))).toBe(false);
  });

  it("opens a 1,000-file public repository (measured)", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) files[`src/module-${Math.floor(i / 50)}/file-${i}.ts`] = `export const value${i} = ${i};\n${"// line\n".repeat(40)}`;
    github.addRepo({ owner: "octo", repo: "thousand", files });
    const started = performance.now();
    const { api, files: opened } = await open({ owner: "octo", repo: "thousand" });
    const ms = performance.now() - started;
    expect(opened.size).toBe(1000);
    console.log(`github open: 1,000 files in ${Math.round(ms)} ms, ${api.requestCount} API requests, ${github.requests.filter((r) => r.path.startsWith("/raw/")).length} raw downloads`);
    expect(api.requestCount).toBe(3);
    expect(ms).toBeLessThan(10_000);
  });
});

describe("pushing back", () => {
  const setUp = async () => {
    const { commit } = github.addRepo({ owner: "octo", repo: "hello", files: { "README.md": "# Hello\n", "src/a.ts": "a\n", "src/old.ts": "old\n", "big.psd": LFS } });
    const opened = await open({ owner: "octo", repo: "hello" });
    const files = new Map(opened.files as Map<string, string | Uint8Array>);
    return { commit, files, upstream: opened.opened.upstream };
  };

  it("finds additions, changes and deletions by git blob hash", async () => {
    expect(await gitBlobSha("hello\n")).toBe("ce013625030ba8dba906f756967f9e9ca394464a");
    const { files, upstream } = await setUp();
    files.set("src/a.ts", "a changed\n");
    files.delete("src/old.ts");
    files.set("img/new.png", PNG);
    files.set("node_modules/x/index.js", "ignored\n");
    const api = await createGitHubApi({ apiUrl: github.apiUrl, token: "" });
    const changes = await findUpstreamChanges(api, upstream, files);
    expect(changes.map((c) => [c.kind, c.path])).toEqual([
      ["added", "img/new.png"],
      ["modified", "src/a.ts"],
      ["deleted", "src/old.ts"],
    ]);
  });

  it("creates a branch from the remembered commit with one commit, and opens a pull request", async () => {
    const { commit, files, upstream } = await setUp();
    github.tokens.set("pat-write", { login: "me", read: new Set(), write: new Set(["octo/hello"]) });
    files.set("src/a.ts", "a changed\n");
    files.delete("src/old.ts");
    files.set("img/new.png", PNG);
    const api = await createGitHubApi({ apiUrl: github.apiUrl, token: "pat-write" });
    const changes = await findUpstreamChanges(api, upstream, files);
    const result = await pushToGitHub(api, { upstream, changes, branch: "webcode/fix a", title: "Fix a", body: "Changes a." });
    expect(result).toMatchObject({ repository: "octo/hello", branch: "webcode/fix-a", pullRequestNumber: 1, pullRequestUrl: `${github.origin}/octo/hello/pull/1` });
    const { received } = github;
    expect(received.blobs).toEqual([{ repo: "octo/hello", content: Buffer.from(PNG).toString("base64"), encoding: "base64", sha: await gitBlobSha(PNG) }]);
    expect(received.trees).toHaveLength(1);
    expect(received.trees[0]!.tree).toEqual([
      { path: "img/new.png", mode: "100644", type: "blob", sha: await gitBlobSha(PNG) },
      { path: "src/a.ts", mode: "100644", type: "blob", content: "a changed\n" },
      { path: "src/old.ts", mode: "100644", type: "blob", sha: null },
    ]);
    expect(received.commits).toEqual([{ repo: "octo/hello", message: "Fix a\n\nChanges a.", tree: received.trees[0]!.sha, parents: [commit], sha: result.commit }]);
    expect(received.refs).toEqual([{ repo: "octo/hello", ref: "refs/heads/webcode/fix-a", sha: result.commit }]);
    expect(received.pulls).toEqual([{ repo: "octo/hello", title: "Fix a", body: "Changes a.", head: "webcode/fix-a", base: "main", html_url: result.pullRequestUrl }]);
    // The branch holds the workspace; main is untouched.
    expect(github.filesAt("octo/hello", result.commit).sort()).toEqual(["README.md", "big.psd", "img/new.png", "src/a.ts"]);
    expect(github.branch("octo/hello", "main")).toBe(commit);
    // A second push to the same branch name overwrites nothing.
    await expect(pushToGitHub(api, { upstream, changes, branch: "webcode/fix-a", title: "Again", body: "" })).rejects.toThrow(/already exists.*nothing was overwritten/);
  });

  it("says so without write access, and pushes to a fork instead", async () => {
    const { files, upstream } = await setUp();
    github.tokens.set("pat-read", { login: "me", read: new Set(), write: new Set() });
    files.set("README.md", "# Hello, fork\n");
    const api = await createGitHubApi({ apiUrl: github.apiUrl, token: "pat-read" });
    const changes = await findUpstreamChanges(api, upstream, files);
    const refused = await pushToGitHub(api, { upstream, changes, branch: "readme", title: "Readme", body: "" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GitHubError);
    expect((refused as GitHubError).reason).toBe("no-write-access");
    expect((refused as Error).message).toMatch(/cannot write to octo\/hello\. Push to a fork/);
    const result = await pushToGitHub(api, { upstream, changes, branch: "readme", title: "Readme", body: "", fork: true });
    expect(github.received.forks).toEqual(["octo/hello"]);
    expect(result.repository).toBe("me/hello");
    expect(github.received.pulls.at(-1)).toMatchObject({ repo: "octo/hello", head: "me:readme", base: "main" });
    expect(github.received.refs.at(-1)).toMatchObject({ repo: "me/hello", ref: "refs/heads/readme" });
  });

  it("pushes a workspace opened from a folder with the folder's paths, leaving the rest of the repository alone", async () => {
    const { commit } = github.addRepo({ owner: "octo", repo: "mono", files: { "README.md": "# Mono\n", "packages/core/a.ts": "a\n", "packages/core/b.ts": "b\n", "packages/web/c.ts": "c\n" } });
    github.tokens.set("pat-write", { login: "me", read: new Set(), write: new Set(["octo/mono"]) });
    const opened = await open({ owner: "octo", repo: "mono", path: "packages/core" }, "pat-write");
    const files = new Map(opened.files as Map<string, string | Uint8Array>);
    expect([...files.keys()]).toEqual(["a.ts", "b.ts"]);
    files.set("a.ts", "a2\n");
    files.delete("b.ts");
    const changes = await findUpstreamChanges(opened.api, opened.opened.upstream, files);
    expect(changes.map((c) => [c.kind, c.path])).toEqual([
      ["modified", "packages/core/a.ts"],
      ["deleted", "packages/core/b.ts"],
    ]);
    const result = await pushToGitHub(opened.api, { upstream: opened.opened.upstream, changes, branch: "core", title: "Core", body: "" });
    expect(github.filesAt("octo/mono", result.commit).sort()).toEqual(["README.md", "packages/core/a.ts", "packages/web/c.ts"]);
    expect(new TextDecoder().decode(github.fileAt("octo/mono", result.commit, "packages/core/a.ts"))).toBe("a2\n");
    expect(github.received.commits[0]!.parents).toEqual([commit]);
  });

  it("sends the token only to the API it was set for", () => {
    const upstream = { apiUrl: "https://ghe.example.com/api/v3", owner: "o", repo: "r" };
    expect(connectionForUpstream({ apiUrl: "https://ghe.example.com/api/v3/", token: "t" }, upstream).token).toBe("t");
    expect(() => connectionForUpstream({ apiUrl: "", token: "t" }, upstream)).toThrow(/now points at https:\/\/api\.github\.com/);
  });

  it("needs a token and a change", async () => {
    const { files, upstream } = await setUp();
    const anonymous = await createGitHubApi({ apiUrl: github.apiUrl, token: "" });
    await expect(pushToGitHub(anonymous, { upstream, changes: [{ path: "a", kind: "deleted" }], branch: "b", title: "t", body: "" })).rejects.toThrow(/Pushing needs a GitHub token/);
    github.tokens.set("pat-write", { login: "me", read: new Set(), write: new Set(["octo/hello"]) });
    const api = await createGitHubApi({ apiUrl: github.apiUrl, token: "pat-write" });
    const changes = await findUpstreamChanges(api, upstream, files);
    expect(changes).toEqual([]);
    await expect(pushToGitHub(api, { upstream, changes, branch: "b", title: "t", body: "" })).rejects.toThrow(/no changes/);
  });
});
