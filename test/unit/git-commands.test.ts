// git in the browser runtime, command by command: what the differential test (against the
// machine's git) does not cover: stash, switch/checkout of branches, restore, reset modes, tags,
// config, working from a subfolder, errors, and that the repository is stored with the workspace.
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime, type BrowserRuntimeOptions } from "../../src/runtime/browser";
import { openStorage, type Storage } from "../../src/storage";
import { exportWorkspaceZip, readZip } from "../../src/transfer";

const IDENTITY = { GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_COMMITTER_NAME: "Ada", GIT_COMMITTER_EMAIL: "ada@example.com" };

let counter = 0;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function open(options: BrowserRuntimeOptions = {}, storage?: Storage) {
  const store = storage ?? (await openStorage({ name: `git-commands-${counter++}-${Date.now()}` }));
  const files = await WorkspaceFiles.open(store, "ws");
  const runtime = createBrowserRuntime(files, options);
  cleanups.push(() => {
    runtime.dispose();
    files.dispose();
  });
  const sh = async (command: string) => runtime.exec(command, { env: IDENTITY });
  return { files, runtime, storage: store, sh };
}

/** A repository with one commit holding a.txt and src/b.txt. */
async function repository(options?: BrowserRuntimeOptions) {
  const opened = await open(options);
  await opened.files.writeFile("a.txt", "alpha\n");
  await opened.files.writeFile("src/b.txt", "bee\n");
  const setup = await opened.sh("git init -q && git add . && git commit -q -m 'Initial commit'");
  expect(setup.exitCode, setup.output).toBe(0);
  return opened;
}

describe("git in the browser runtime", () => {
  it("outside a repository says so, like git, with exit code 128", async () => {
    const { sh } = await open();
    const result = await sh("git status");
    expect(result.exitCode).toBe(128);
    expect(result.output).toBe("fatal: not a git repository (or any of the parent directories): .git\n");
  });

  it("git outside the workspace mount is refused with the reason", async () => {
    const { sh } = await open();
    const result = await sh("cd /tmp && git init");
    expect(result.exitCode).toBe(128);
    expect(result.output).toContain("git works inside the workspace (/workspace) only");
  });

  it("a commit without an identity asks who you are; config user.name/email sets it", async () => {
    const { files, runtime } = await open();
    await files.writeFile("a.txt", "a\n");
    const refused = await runtime.exec("git init -q && git add a.txt && git commit -m first");
    expect(refused.exitCode).toBe(128);
    expect(refused.output).toContain("*** Please tell me who you are.");
    const ok = await runtime.exec("git config user.name 'Grace Hopper' && git config user.email grace@example.com && git commit -m first && git log -1 --format='%an <%ae>' && git config user.name");
    expect(ok.exitCode, ok.output).toBe(0);
    expect(ok.output).toContain("[main (root-commit) ");
    expect(ok.output).toContain("Grace Hopper <grace@example.com>\nGrace Hopper\n");
  });

  it("git config outside a repository reads the global values and refuses to write, as git does", async () => {
    let stored = "";
    const globalConfig = { read: async () => stored, write: async (text: string) => void (stored = text) };
    const { runtime } = await open({ git: { globalConfig } });
    await runtime.exec("git config --global user.email global@example.com");
    const read = await runtime.exec("git config user.email; echo read=$?; git config --get user.name; echo missing=$?; git config --list");
    expect(read.output).toBe("global@example.com\nread=0\nmissing=1\nuser.email=global@example.com\n");
    const write = await runtime.exec("git config user.email x@example.com");
    expect(write.exitCode).toBe(128);
    expect(write.output).toBe("fatal: not in a git directory\n");
    // In a repository: its own value first, the global one where it has none; --list shows both.
    const inside = await runtime.exec("git init -q && git config user.name Local && git config user.name && git config user.email && git config --list | grep -E '^user'");
    expect(inside.output).toBe("Local\nglobal@example.com\nuser.email=global@example.com\nuser.name=Local\n");
  });

  it("git config --global is kept outside the workspace and used for commits", async () => {
    let stored = "";
    const globalConfig = { read: async () => stored, write: async (text: string) => void (stored = text) };
    const { files, runtime } = await open({ git: { globalConfig } });
    const set = await runtime.exec("git config --global user.name 'Global Name' && git config --global user.email global@example.com");
    expect(set.exitCode, set.output).toBe(0);
    expect(stored).toContain("[user]");
    expect(stored).toContain("name = Global Name");
    expect(await files.exists(".gitconfig")).toBe(false);
    await files.writeFile("a.txt", "a\n");
    const committed = await runtime.exec("git init -q && git add . && git commit -q -m one && git log --format=%ae");
    expect(committed.output).toBe("global@example.com\n");
  });

  it("git config --global run twice at once (the agent's parallel commands) keeps both keys; --unset removes one", async () => {
    let stored = "";
    const globalConfig = {
      read: async () => stored,
      write: async (text: string) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        stored = text;
      },
    };
    const { runtime } = await open({ git: { globalConfig } });
    const results = await Promise.all([runtime.exec("git config --global user.name 'Both Kept'"), runtime.exec("git config --global user.email both@example.com")]);
    expect(results.map((r) => r.exitCode)).toEqual([0, 0]);
    expect(stored).toContain("name = Both Kept");
    expect(stored).toContain("email = both@example.com");
    expect((await runtime.exec("git config --global --unset user.name && git config --global --list")).output).toBe("user.email=both@example.com\n");
  });

  it("paths are shown relative to the working folder, and pathspecs are read from it", async () => {
    const { files, sh } = await repository();
    await files.writeFile("src/b.txt", "bee\nmore\n");
    await files.writeFile("src/new/c.txt", "c\n");
    const status = await sh("cd src && git status");
    expect(status.output).toContain("\tmodified:   b.txt\n");
    expect(status.output).toContain("\tnew/\n");
    const added = await sh("cd src && git add b.txt && git status -s");
    expect(added.output).toBe("M  b.txt\n?? new/\n");
    const top = await sh("git status -s");
    expect(top.output).toBe("M  src/b.txt\n?? src/new/\n");
  });

  it("stash saves and clears changes; pop brings them back", async () => {
    const { files, sh } = await repository();
    await files.writeFile("a.txt", "alpha\nchanged\n");
    const saved = await sh("git stash");
    expect(saved.exitCode, saved.output).toBe(0);
    expect(saved.output).toMatch(/^Saved working directory and index state WIP on main: [0-9a-f]{7} Initial commit\n$/);
    expect(await files.readText("a.txt")).toBe("alpha\n");
    expect((await sh("git stash list")).output).toMatch(/^stash@\{0\}: WIP on main: [0-9a-f]{7} Initial commit\n$/);
    const popped = await sh("git stash pop");
    expect(popped.exitCode, popped.output).toBe(0);
    expect(popped.output).toContain("\tmodified:   a.txt\n");
    expect(popped.output).toMatch(/Dropped refs\/stash@\{0\} \([0-9a-f]{40}\)\n$/);
    expect(await files.readText("a.txt")).toBe("alpha\nchanged\n");
    expect((await sh("git stash list")).output).toBe("");
    expect((await sh("git stash")).exitCode).toBe(0);
    expect((await sh("git stash drop")).exitCode).toBe(0);
    expect(await files.readText("a.txt")).toBe("alpha\n");
    expect((await sh("git stash")).output).toBe("No local changes to save\n");
  });

  it("branches: create, switch (files follow), list, rename, delete; checkout -b; a detached HEAD", async () => {
    const { files, sh } = await repository();
    const created = await sh("git switch -c feature");
    expect(created.output).toBe("Switched to a new branch 'feature'\n");
    await files.writeFile("feature.txt", "f\n");
    await sh("git add feature.txt && git commit -q -m 'Feature work'");
    const back = await sh("git switch main");
    expect(back.output).toBe("Switched to branch 'main'\n");
    expect(await files.exists("feature.txt")).toBe(false);
    expect((await sh("git branch")).output).toBe("  feature\n* main\n");
    await sh("git checkout feature");
    expect(await files.readText("feature.txt")).toBe("f\n");
    expect((await sh("git checkout -b topic")).output).toBe("Switched to a new branch 'topic'\n");
    expect((await sh("git branch -m topic renamed && git branch")).output).toBe("  feature\n  main\n* renamed\n");
    expect((await sh("git branch -d renamed")).exitCode).toBe(1);
    await sh("git switch main");
    expect((await sh("git branch -d renamed")).output).toMatch(/^Deleted branch renamed \(was [0-9a-f]{7}\)\.\n$/);
    const unknown = await sh("git switch nope");
    expect(unknown.exitCode).toBe(128);
    expect(unknown.output).toBe("fatal: invalid reference: nope\n");
    const detached = await sh("git checkout HEAD~0 --detach 2>&1; git checkout feature~1 && git status");
    expect(detached.output).toContain("HEAD is now at");
    expect(detached.output).toContain("HEAD detached at");
  });

  it("switching with local changes that would be overwritten refuses and keeps them", async () => {
    const { files, sh } = await repository();
    await sh("git switch -q -c other 2>/dev/null; git switch -c other2");
    await files.writeFile("a.txt", "on other\n");
    await sh("git commit -q -am 'Other'");
    await sh("git switch main");
    await files.writeFile("a.txt", "unsaved work\n");
    const refused = await sh("git switch other2");
    expect(refused.exitCode).toBe(1);
    expect(refused.output).toContain("Your local changes to the following files would be overwritten by checkout:\n\ta.txt\n");
    expect(await files.readText("a.txt")).toBe("unsaved work\n");
  });

  it("restore: the work tree from the index, --staged from HEAD, --source from a commit", async () => {
    const { files, sh } = await repository();
    await files.writeFile("a.txt", "staged\n");
    await sh("git add a.txt");
    await files.writeFile("a.txt", "unstaged\n");
    await sh("git restore a.txt");
    expect(await files.readText("a.txt")).toBe("staged\n");
    await sh("git restore --staged a.txt");
    expect((await sh("git status -s")).output).toBe(" M a.txt\n");
    await sh("git commit -q -am 'Change a'");
    await sh("git restore --source=HEAD~1 a.txt");
    expect(await files.readText("a.txt")).toBe("alpha\n");
    const missing = await sh("git restore nope.txt");
    expect(missing.exitCode).toBe(1);
    expect(missing.output).toBe("error: pathspec 'nope.txt' did not match any file(s) known to git\n");
  });

  it("reset --soft keeps the index, --mixed unstages, --hard resets files and removes added ones", async () => {
    const { files, sh } = await repository();
    await files.writeFile("a.txt", "two\n");
    await files.writeFile("added.txt", "new\n");
    await sh("git add . && git commit -q -m 'Second'");
    await sh("git reset --soft HEAD~1");
    expect((await sh("git status -s")).output).toBe("M  a.txt\nA  added.txt\n");
    await sh("git commit -q -m 'Second again'");
    const mixed = await sh("git reset HEAD~1");
    expect(mixed.output).toBe("Unstaged changes after reset:\nM\ta.txt\n");
    expect((await sh("git status -s")).output).toBe(" M a.txt\n?? added.txt\n");
    await sh("git add . && git commit -q -m 'Third'");
    const hard = await sh("git reset --hard HEAD~1");
    expect(hard.output).toMatch(/^HEAD is now at [0-9a-f]{7} Initial commit\n$/);
    expect(await files.readText("a.txt")).toBe("alpha\n");
    expect(await files.exists("added.txt")).toBe(false);
    expect((await sh("git status")).output).toBe("On branch main\nnothing to commit, working tree clean\n");
  });

  it("tags: lightweight and annotated, listed, shown in log --decorate, deleted", async () => {
    const { sh } = await repository();
    await sh("git tag v1.0 && git tag -a v1.1 -m 'Release 1.1'");
    expect((await sh("git tag")).output).toBe("v1.0\nv1.1\n");
    expect((await sh("git log --oneline --decorate")).output).toMatch(/^[0-9a-f]{7} \(HEAD -> main, tag: v1\.1, tag: v1\.0\) Initial commit\n$/);
    expect((await sh("git show v1.1:a.txt")).output).toBe("alpha\n");
    expect((await sh("git tag v1.0")).output).toBe("fatal: tag 'v1.0' already exists\n");
    expect((await sh("git tag -d v1.0")).output).toMatch(/^Deleted tag 'v1\.0' \(was [0-9a-f]{7}\)\n$/);
  });

  it("commit -a stages tracked changes; nothing to commit exits 1 with the status", async () => {
    const { files, sh } = await repository();
    const nothing = await sh("git commit -m 'Empty'");
    expect(nothing.exitCode).toBe(1);
    expect(nothing.output).toBe("On branch main\nnothing to commit, working tree clean\n");
    await files.writeFile("a.txt", "changed\n");
    await files.remove("src/b.txt");
    const committed = await sh("git commit -am 'Change and delete'");
    expect(committed.output).toMatch(/^\[main [0-9a-f]{7}\] Change and delete\n 2 files changed, 1 insertion\(\+\), 2 deletions\(-\)\n delete mode 100644 src\/b.txt\n$/);
    const amended = await sh("git commit --amend -m 'Reworded' && git log --oneline");
    expect(amended.output).toMatch(/\n[0-9a-f]{7} Reworded\n[0-9a-f]{7} Initial commit\n$/);
    const noMessage = await sh("git commit --allow-empty");
    expect(noMessage.exitCode).toBe(1);
    expect(noMessage.output).toContain("no commit message given");
  });

  it("the repository is stored with the workspace: reopened from storage, the history is there", async () => {
    const first = await repository();
    await first.files.flush();
    const again = await open({}, first.storage);
    const log = await again.sh("git log --oneline && git status");
    expect(log.exitCode, log.output).toBe(0);
    expect(log.output).toMatch(/^[0-9a-f]{7} Initial commit\nOn branch main\nnothing to commit, working tree clean\n$/);
  });

  it("an exported zip carries .git; imported with .git kept, the history works in the new workspace", async () => {
    const first = await repository();
    const zip = await exportWorkspaceZip(first.files, { rootName: "proj" });
    const skipped = readZip(zip);
    expect(skipped.entries.some((e) => e.path.startsWith(".git/"))).toBe(false);
    const kept = readZip(zip, { keepGit: true });
    const second = await open();
    for (const entry of kept.entries) if (entry.kind === "file") await second.files.writeFile(entry.path, entry.data);
    const log = await second.sh("git log --oneline && git status -s");
    expect(log.exitCode, log.output).toBe(0);
    expect(log.output).toMatch(/^[0-9a-f]{7} Initial commit\n$/);
  });

  it("commands git has that the browser runtime does not say so; an unknown one is named", async () => {
    const { sh } = await repository();
    const merge = await sh("git merge other");
    expect(merge.exitCode).toBe(1);
    expect(merge.output).toContain("git merge is not available in the browser runtime");
    expect((await sh("git frobnicate")).output).toBe("git: 'frobnicate' is not a git command. See 'git --help'.\n");
  });

  it("remote add, -v, get-url; fetch without a proxy says how to set one", async () => {
    const { sh } = await repository();
    await sh("git remote add origin https://github.com/owner/repo.git");
    expect((await sh("git remote -v")).output).toBe("origin\thttps://github.com/owner/repo.git (fetch)\norigin\thttps://github.com/owner/repo.git (push)\n");
    const fetched = await sh("git fetch");
    expect(fetched.exitCode).toBe(128);
    expect(fetched.output).toContain("fatal: no CORS proxy is set");
  });
});
