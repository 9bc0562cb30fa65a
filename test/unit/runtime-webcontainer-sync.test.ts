// File sync between the workspace and the fake container (issue 17 points 3, 4, 5): renames stay
// renames, build output and caches stay out, names and links that broke the sync, and commands
// that see the latest files while the agent sees theirs, with watch events that lag.
import { describe, expect, it } from "vitest";
import { DEFAULT_SYNC_EXCLUDES, SYNC_EXCLUDE_FILE, SyncExclusions } from "../../src/runtime/webcontainer";
import { FakeWebContainer } from "../support/fake-webcontainer";
import { apiWritesOf, setup, sleep } from "./webcontainer-harness";

describe("WebContainer sync: renames", () => {
  // Regression (issue 17 point 4): a renamed folder was removed and rewritten, losing node_modules.
  it("renames a folder renamed in the workspace with fs.rename, keeping what only the container has", async () => {
    const { files, fake, runtime } = await setup(async (f) => {
      await f.writeFile("app/package.json", "{}");
      await f.writeFile("app/src/index.js", "1");
    });
    fake.write("app/node_modules/left-pad/index.js", "module.exports = 1");
    await runtime.sync.settle();
    await files.rename("app", "web", { source: "user" });
    await runtime.sync.settle();
    expect(apiWritesOf(fake)).toEqual(["rename app web"]);
    expect(fake.text("web/node_modules/left-pad/index.js")).toBe("module.exports = 1");
    expect(fake.text("web/src/index.js")).toBe("1");
    expect(fake.files.has("app")).toBe(false);
    // The rename's own watch events change nothing in the workspace.
    await sleep(20);
    await runtime.sync.settle();
    expect(files.snapshotPaths().sort()).toEqual(["web", "web/package.json", "web/src", "web/src/index.js"]);
  });

  it("renames a file moved by the agent, and writes a change made right after the move", async () => {
    const { files, fake, runtime } = await setup(async (f) => f.writeFile("a.txt", "one"));
    await files.rename("a.txt", "docs/b.txt", { source: "agent" });
    await files.writeFile("docs/b.txt", "two", { source: "agent" });
    await runtime.sync.settle();
    expect(apiWritesOf(fake)).toEqual(["rename a.txt docs/b.txt", "docs/b.txt"]);
    expect(fake.text("docs/b.txt")).toBe("two");
    expect(fake.files.has("a.txt")).toBe(false);
  });
});

describe("WebContainer sync: what belongs to the workspace", () => {
  it("keeps build output and caches out of the workspace by default", async () => {
    const { files, fake, runtime } = await setup();
    const excluded = ["dist/index.js", ".next/cache/x", "build/app.js", ".turbo/log", ".cache/a", ".vite/deps/b.js", "coverage/lcov.info", "packages/ui/dist/index.js"];
    for (const path of excluded) fake.write(path, "generated");
    fake.write("src/main.ts", "kept");
    await runtime.sync.settle();
    // The folders above an excluded one are the workspace's; nothing inside it is.
    expect(files.snapshotPaths().sort()).toEqual(["packages", "packages/ui", "src", "src/main.ts"]);
    for (const name of ["node_modules", ".next", "dist", "build", ".turbo", ".cache", ".vite", "coverage"]) expect(DEFAULT_SYNC_EXCLUDES).toContain(name);
  });

  it("the user's list in the workspace adds folders, takes defaults back, and applies when edited", async () => {
    const { files, fake, runtime } = await setup(async (f) => f.writeFile(SYNC_EXCLUDE_FILE, "# mine\nout\n!build\ndocs/site\n!node_modules\n"));
    fake.write("out/a.txt", "x");
    fake.write("build/b.txt", "y");
    fake.write("docs/site/index.html", "z");
    fake.write("docs/guide.md", "kept");
    fake.write("node_modules/p/index.js", "never");
    await runtime.sync.settle();
    expect(await files.exists("out")).toBe(false);
    expect(await files.readText("build/b.txt")).toBe("y");
    expect(await files.exists("docs/site")).toBe(false);
    expect(await files.readText("docs/guide.md")).toBe("kept");
    expect(await files.exists("node_modules")).toBe(false);

    await files.writeFile(SYNC_EXCLUDE_FILE, "logs\n", { source: "editor" });
    await runtime.sync.settle();
    fake.write("logs/today.log", "x");
    fake.write("out/c.txt", "now synced");
    await runtime.sync.settle();
    expect(await files.exists("logs")).toBe(false);
    expect(await files.readText("out/c.txt")).toBe("now synced");
  });

  it("matches names by path segment and drops watch events under excluded folders before reading anything", async () => {
    const exclusions = SyncExclusions.fromText("generated\napps/web/tmp");
    expect(exclusions.excludes("a/node_modules/b")).toBe(true);
    expect(exclusions.excludes("distribution/x")).toBe(false);
    expect(exclusions.excludes("src/generated")).toBe(true);
    expect(exclusions.excludes("apps/web/tmp/x")).toBe(true);
    expect(exclusions.excludes("apps/web/tmpl")).toBe(false);

    const { fake, runtime } = await setup();
    let reads = 0;
    const readFile = fake.fs.readFile;
    fake.fs.readFile = async (path: string) => {
      reads++;
      return readFile(path);
    };
    for (let i = 0; i < 200; i++) fake.write(`node_modules/pkg${i}/index.js`, "x");
    await runtime.sync.settle();
    expect(reads).toBe(0);
  });

  // Regression (issue 17 point 5): the mount's JSON conversion turns "__proto__" into a prototype.
  it("does not lose a file or folder named __proto__, in either direction", async () => {
    const { files, fake, runtime } = await setup(async (f) => {
      await f.writeFile("__proto__", "top");
      await f.writeFile("lib/__proto__/x.js", "inner");
      await f.writeFile("lib/ok.js", "ok");
    });
    expect(fake.text("__proto__")).toBe("top");
    expect(fake.text("lib/__proto__/x.js")).toBe("inner");
    expect(fake.text("lib/ok.js")).toBe("ok");
    fake.write("gen/__proto__", "from container");
    await runtime.sync.settle();
    expect(await files.readText("gen/__proto__")).toBe("from container");
  });

  it("a symlink cycle in the container cannot make the pull recurse", async () => {
    const { files, fake, runtime } = await setup();
    fake.write("pkg/index.js", "1");
    fake.symlink("pkg/self", "..");
    fake.symlink("loop", ".");
    fake.mkdirp("moved");
    fake.symlink("moved/back", "../moved");
    await runtime.sync.settle();
    const paths = files.snapshotPaths().sort();
    expect(paths).toEqual(["moved", "pkg", "pkg/index.js"]);
  });
});

describe("WebContainer sync: commands see the latest files, the agent sees theirs", () => {
  it("pushes pending workspace writes into the container before the command starts", async () => {
    const { files, fake, runtime } = await setup(async (f) => f.writeFile("config.json", "old"));
    const seen: Array<string | undefined> = [];
    fake.onSpawn = (proc, container) => {
      seen.push(container.text("config.json"), container.text("src/new.ts"));
      proc.end(0);
    };
    // Not awaited by anyone before exec: the file service reports them on its next tick.
    void files.writeFile("config.json", "new", { source: "editor" });
    void files.writeFile("src/new.ts", "export {}", { source: "agent" });
    await runtime.exec("cat config.json");
    expect(seen).toEqual(["new", "export {}"]);
  });

  it("a command's changes are in the workspace when exec returns, even when watch events lag", async () => {
    const fake = new FakeWebContainer();
    fake.watchLagMs = 120; // far longer than any fixed wait the adapter could guess
    const { files, runtime } = await setup(undefined, { fake });
    fake.onSpawn = (proc, container) => {
      container.write("src/generated.ts", "export const x = 1;");
      container.remove("obsolete.txt");
      proc.end(0);
    };
    await files.writeFile("obsolete.txt", "x");
    await runtime.sync.settle();
    await runtime.exec("node gen.js", { source: "agent" });
    expect(await files.readText("src/generated.ts")).toBe("export const x = 1;");
    expect(await files.exists("obsolete.txt")).toBe(false);
  });

  it("keeps the workspace right when the agent edits a file the command just wrote", async () => {
    const fake = new FakeWebContainer();
    fake.watchLagMs = 80;
    const { files, runtime } = await setup(async (f) => f.writeFile("package.json", '{"name":"a"}'), { fake });
    fake.onSpawn = (proc, container) => {
      container.write("package.json", '{"name":"a","dependencies":{"x":"1"}}');
      proc.end(0);
    };
    await runtime.exec("npm install x", { source: "agent" });
    // The agent reads what the command wrote and edits it; the late echo must not undo the edit.
    const text = await files.readText("package.json");
    expect(text).toContain("dependencies");
    await files.writeFile("package.json", text.replace('"a"', '"b"'), { source: "agent" });
    await sleep(200);
    await runtime.sync.settle();
    expect(await files.readText("package.json")).toBe('{"name":"b","dependencies":{"x":"1"}}');
    expect(fake.text("package.json")).toBe('{"name":"b","dependencies":{"x":"1"}}');
  });
});
