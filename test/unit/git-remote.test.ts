// git clone, fetch, pull and push from the browser runtime against a git smart-HTTP server on
// 127.0.0.1 (the machine's `git http-backend`), reached through the CORS proxy URL from Settings.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage } from "../../src/storage";
import { startFakeGitServer, type FakeGitServer } from "../support/fake-git-server";

const hasGit = (() => {
  try {
    execFileSync("git", ["--version"]);
    return true;
  } catch {
    return false;
  }
})();

const IDENTITY = { GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_COMMITTER_NAME: "Ada", GIT_COMMITTER_EMAIL: "ada@example.com" };
const gitEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir(), GIT_CONFIG_NOSYSTEM: "1", ...IDENTITY };

let counter = 0;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A bare repository "demo.git" with two commits on main, served by a fake git server. */
async function remote(): Promise<{ server: FakeGitServer; root: string; bare: string }> {
  const root = mkdtempSync(join(tmpdir(), "webcode-git-remote-"));
  const work = join(root, "work");
  const bare = join(root, "demo.git");
  const run = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8" });
  execFileSync("mkdir", ["-p", work]);
  run(work, "init", "-q", "-b", "main");
  execFileSync("bash", ["-c", "printf 'hello\\n' > README.md && mkdir -p src && printf 'print(1)\\n' > src/app.py"], { cwd: work });
  run(work, "add", ".");
  run(work, "commit", "-q", "-m", "Initial commit");
  execFileSync("bash", ["-c", "printf 'hello\\nworld\\n' > README.md"], { cwd: work });
  run(work, "commit", "-q", "-am", "Second commit");
  run(root, "clone", "-q", "--bare", work, bare);
  run(bare, "config", "http.receivepack", "true");
  const server = await startFakeGitServer(root);
  cleanups.push(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { server, root, bare };
}

async function open(proxy: string, token = "", tokenHost = "git.example.test") {
  const storage = await openStorage({ name: `git-remote-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  const runtime = createBrowserRuntime(files, {
    fetch: (input, init) => fetch(input, init),
    git: { remoteSettings: async () => ({ corsProxy: proxy, token, tokenHost }) },
  });
  cleanups.push(() => {
    runtime.dispose();
    files.dispose();
  });
  return { files, runtime };
}

describe.skipIf(!hasGit)("git over HTTPS through the CORS proxy", () => {
  it("clone without a proxy says how to set one, and changes nothing", async () => {
    const { files, runtime } = await open("");
    const result = await runtime.exec("git clone https://git.example.test/demo.git");
    expect(result.exitCode).toBe(128);
    expect(result.output).toContain("no CORS proxy is set");
    expect(result.output).toContain("Settings → Runtime → Git");
    expect(await files.exists("demo")).toBe(false);
  });

  it("clone brings the files and history; the repository is in the workspace's files", async () => {
    const { server } = await remote();
    const { files, runtime } = await open(server.url);
    const cloned = await runtime.exec("git clone https://git.example.test/demo.git");
    expect(cloned.exitCode, cloned.output).toBe(0);
    expect(cloned.output).toContain("Cloning into 'demo'...");
    expect(await files.readText("demo/README.md")).toBe("hello\nworld\n");
    expect(await files.readText("demo/src/app.py")).toBe("print(1)\n");
    expect(await files.exists("demo/.git/HEAD")).toBe(true);
    const log = await runtime.exec("cd demo && git log --oneline && git status");
    expect(log.output).toMatch(/^[0-9a-f]{7} Second commit\n[0-9a-f]{7} Initial commit\nOn branch main\nYour branch is up to date with 'origin\/main'\.\n\nnothing to commit, working tree clean\n$/);
    expect(server.requests[0]).toMatchObject({ host: "git.example.test", path: "/demo.git/info/refs" });
  });

  it("push sends a new commit that the server's repository then holds; fetch and pull bring one back", async () => {
    const { server, bare, root } = await remote();
    const { files, runtime } = await open(server.url);
    await runtime.exec("git clone https://git.example.test/demo.git");
    await files.writeFile("demo/NEW.txt", "from the browser\n");
    const pushed = await runtime.exec("cd demo && git add NEW.txt && git commit -q -m 'From the browser' && git push", { env: IDENTITY });
    expect(pushed.exitCode, pushed.output).toBe(0);
    expect(pushed.output).toContain("main -> main");
    expect(execFileSync("git", ["log", "--format=%s", "-1", "main"], { cwd: bare, env: gitEnv, encoding: "utf8" })).toBe("From the browser\n");

    // Someone else pushes; pull fast-forwards.
    const other = join(root, "other");
    execFileSync("git", ["clone", "-q", bare, other], { env: gitEnv });
    execFileSync("bash", ["-c", "printf 'theirs\\n' > THEIRS.txt && git add . && git commit -q -m 'Their commit' && git push -q origin main"], { cwd: other, env: gitEnv });
    const fetched = await runtime.exec("cd demo && git fetch && git status");
    expect(fetched.exitCode, fetched.output).toBe(0);
    expect(fetched.output).toContain("Your branch is behind 'origin/main' by 1 commit, and can be fast-forwarded.");
    const pulled = await runtime.exec("cd demo && git pull", { env: IDENTITY });
    expect(pulled.exitCode, pulled.output).toBe(0);
    expect(pulled.output).toContain("Fast-forward");
    expect(await files.readText("demo/THEIRS.txt")).toBe("theirs\n");
  });

  it("sends the access token only to its host, and a refused token is named", async () => {
    const { server } = await remote();
    server.requirePassword = "s3cret-token";
    const wrongHost = await open(server.url, "s3cret-token", "github.com");
    const refused = await wrongHost.runtime.exec("git clone https://git.example.test/demo.git");
    expect(refused.exitCode).toBe(128);
    expect(refused.output).toContain("this remote needs an access token. Set one for git.example.test in Settings → Runtime → Git.");
    expect(server.requests.every((r) => r.authorization === undefined)).toBe(true);

    const rightHost = await open(server.url, "s3cret-token", "git.example.test");
    const cloned = await rightHost.runtime.exec("git clone https://git.example.test/demo.git");
    expect(cloned.exitCode, cloned.output).toBe(0);
    expect(cloned.output).not.toContain("s3cret-token");
    expect(server.requests.some((r) => r.authorization?.startsWith("Basic "))).toBe(true);
  });

  it("a remote that is not HTTPS is refused with the reason", async () => {
    const { runtime } = await open("http://127.0.0.1:1");
    const result = await runtime.exec("git clone git@github.com:owner/repo.git");
    expect(result.exitCode).toBe(128);
    expect(result.output).toContain("is not an HTTPS URL");
  });
});
