// The WebContainer adapter against a fake WebContainer (the real one loads from StackBlitz's
// servers and cannot boot here): mount, watch flow-back (node_modules excluded), push without
// echo, exec with timeout/abort -> kill, server-ready, boot timeout.
import type { WebContainer } from "@webcontainer/api";
import { describe, expect, it, vi } from "vitest";
import { attachWebContainer, type WebContainerLike } from "../../src/runtime/webcontainer";
import { apiWritesOf, openWorkspace, setup } from "./webcontainer-harness";

// The real class must fit the interface the adapter is written against.
const fitsRealApi: (real: WebContainer) => WebContainerLike = (real) => real;
void fitsRealApi;

describe("WebContainer runtime (fake container)", () => {
  it("mounts the workspace as a tree, binary files as bytes, empty folders included", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x00, 0xff]);
    const { fake, runtime } = await setup(async (files) => {
      await files.writeFile("package.json", '{"name":"demo"}');
      await files.writeFile("src/index.js", "console.log(1)");
      await files.writeFile("public/logo.png", png);
      await files.mkdir("empty");
    });
    expect(runtime.kind).toBe("webcontainer");
    expect(runtime.capabilities).toEqual({ node: true, npm: true, servers: true });
    expect(fake.mounted).toEqual({
      "package.json": { file: { contents: '{"name":"demo"}' } },
      src: { directory: { "index.js": { file: { contents: "console.log(1)" } } } },
      public: { directory: { "logo.png": { file: { contents: png } } } },
      empty: { directory: {} },
    });
    expect(fake.mounted!.public).toMatchObject({ directory: { "logo.png": { file: { contents: expect.any(Uint8Array) } } } });
  });

  it("brings changes made inside the container back into WorkspaceFiles, but not node_modules", async () => {
    const { files, fake, runtime, changes } = await setup(async (f) => f.writeFile("old.txt", "old"));
    fake.write("generated/out.txt", "built");
    fake.write("node_modules/left-pad/index.js", "module.exports = 1");
    fake.write("package-lock.json", "{}");
    fake.remove("old.txt");
    fake.write("image.bin", new Uint8Array([0, 1, 2]));
    await runtime.sync.settle();
    expect(await files.readText("generated/out.txt")).toBe("built");
    expect(await files.readText("package-lock.json")).toBe("{}");
    expect(Array.from(await files.readFile("image.bin"))).toEqual([0, 1, 2]);
    expect(await files.exists("old.txt")).toBe(false);
    expect(await files.exists("node_modules")).toBe(false);
    expect(files.snapshotPaths().some((p) => p.includes("node_modules"))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(changes).toContainEqual(expect.objectContaining({ path: "generated/out.txt", type: "created", source: "terminal" }));
    // What came from the container is not written back into it.
    await runtime.sync.settle();
    expect(apiWritesOf(fake)).toEqual([]);
  });

  it("brings back a folder moved inside the container with its contents", async () => {
    const { files, fake, runtime } = await setup(async (f) => f.writeFile("a/one.txt", "1"));
    fake.move("a", "b");
    await runtime.sync.settle();
    expect(await files.readText("b/one.txt")).toBe("1");
    expect(await files.exists("a")).toBe(false);
  });

  it("pushes changes from other sources into the container without echoing them back", async () => {
    const { files, fake, runtime, changes } = await setup(async (f) => f.writeFile("src/a.ts", "a"));
    await files.writeFile("src/a.ts", "edited", { source: "editor" });
    await files.writeFile("src/new/b.ts", "b", { source: "agent" });
    await files.writeFile("bin.dat", new Uint8Array([0, 200]), { source: "import" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await runtime.sync.settle();
    expect(fake.text("src/a.ts")).toBe("edited");
    expect(fake.text("src/new/b.ts")).toBe("b");
    expect(Array.from(fake.files.get("bin.dat") as Uint8Array)).toEqual([0, 200]);
    // The container's watch reported those writes; none of them came back as a new change.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await runtime.sync.settle();
    const fromContainer = changes.filter((c) => c.source === "terminal" || c.source === "runtime");
    expect(fromContainer).toEqual([]);
    expect(fake.apiWrites.filter((p) => p === "src/a.ts")).toHaveLength(1);

    await files.remove("src/new");
    await files.rename("src/a.ts", "src/renamed.ts");
    await new Promise((resolve) => setTimeout(resolve, 10));
    await runtime.sync.settle();
    expect(fake.files.has("src/new")).toBe(false);
    expect(fake.files.has("src/new/b.ts")).toBe(false);
    expect(fake.text("src/renamed.ts")).toBe("edited");
    expect(fake.files.has("src/a.ts")).toBe(false);
  });

  it("execs with jsh -c, streams output, reports the exit code and the agent as source", async () => {
    const { files, fake, runtime, changes } = await setup();
    fake.onSpawn = (proc, container, args) => {
      if (args[1] === "npm install") {
        proc.print("added 1 package\n");
        container.write("node_modules/x/index.js", "x");
        container.write("package-lock.json", '{"lockfileVersion":3}');
        proc.end(0);
      } else {
        proc.print("boom\n");
        proc.end(2);
      }
    };
    const chunks: string[] = [];
    const result = await runtime.exec("npm install", { cwd: "app", source: "agent", onOutput: (c) => chunks.push(c) });
    expect(fake.spawned[0]).toMatchObject({ command: "jsh", args: ["-c", "npm install"], cwd: "app" });
    expect(result).toEqual({ output: "added 1 package\n", exitCode: 0 });
    expect(chunks).toEqual(["added 1 package\n"]);
    // The command's file changes are in WorkspaceFiles when exec resolves.
    expect(await files.readText("package-lock.json")).toBe('{"lockfileVersion":3}');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(changes).toContainEqual(expect.objectContaining({ path: "package-lock.json", source: "agent" }));
    expect((await runtime.exec("false")).exitCode).toBe(2);
  });

  it("kills a process at its timeout and on abort", async () => {
    const { fake, runtime } = await setup();
    fake.onSpawn = (proc) => proc.print("starting\n"); // never exits by itself
    const started = Date.now();
    const timedOut = await runtime.exec("npm run dev", { timeoutMs: 100 });
    expect(timedOut.exitCode).toBe(124);
    expect(timedOut.timedOut).toBe(true);
    expect(timedOut.output).toContain("starting");
    expect(timedOut.output).toMatch(/timed out after 100 ms/);
    expect(fake.spawned[0]!.proc.killed).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const aborted = await runtime.exec("npm run dev", { signal: controller.signal });
    expect(aborted).toMatchObject({ exitCode: 130, aborted: true });
    expect(fake.spawned[1]!.proc.killed).toBe(true);
  });

  it("opens jsh with the terminal size and passes keystrokes and output through", async () => {
    const { fake, runtime } = await setup();
    fake.onSpawn = (proc) => proc.print("~/workspace ❯ ");
    const shell = runtime.openShell({ cols: 100, rows: 30 });
    shell.write("ls\r"); // typed before the process is ready: kept
    let out = "";
    shell.onData((data) => (out += data));
    await vi.waitFor(() => expect(out).toContain("❯"), { timeout: 10_000 });
    const spawned = fake.spawned[0]!;
    expect(spawned).toMatchObject({ command: "jsh", args: [], terminal: { cols: 100, rows: 30 } });
    await vi.waitFor(() => expect(spawned.proc.typed.join("")).toBe("ls\r"), { timeout: 10_000 });
    shell.resize({ cols: 120, rows: 40 });
    expect(spawned.proc.size).toEqual({ cols: 120, rows: 40 });
    shell.dispose();
    expect(spawned.proc.killed).toBe(true);
  });

  it("reports servers from server-ready, also to listeners that subscribe later", async () => {
    const { fake, runtime } = await setup();
    const seen: Array<[number, string]> = [];
    runtime.onServerReady((port, url) => seen.push([port, url]));
    fake.emit("server-ready", 5173, "https://abc.local-credentialless.webcontainer.io");
    expect(seen).toEqual([[5173, "https://abc.local-credentialless.webcontainer.io"]]);
    const late: number[] = [];
    runtime.onServerReady((port) => late.push(port));
    expect(late).toEqual([5173]);
    fake.emit("port", 5173, "close", "");
    const later: number[] = [];
    runtime.onServerReady((port) => later.push(port));
    expect(later).toEqual([]);
  });

  it("dispose stops its processes and the sync but leaves the container booted for the next workspace", async () => {
    const { files, fake, runtime } = await setup();
    fake.onSpawn = () => undefined; // a command that never ends
    const running = runtime.exec("sleep 100");
    await new Promise((resolve) => setTimeout(resolve, 5));
    runtime.dispose();
    expect(fake.tornDown).toBe(false);
    expect(fake.spawned[0]!.proc.killed).toBe(true);
    await running;
    fake.write("after.txt", "x");
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await files.exists("after.txt")).toBe(false);
  });

  it("attaching another workspace clears what the previous one left in the work folder", async () => {
    const first = await setup(async (files) => {
      await files.writeFile("old.txt", "old");
    });
    first.fake.write("node_modules/left/index.js", "x");
    first.runtime.dispose();
    const files = await openWorkspace("ws2");
    await files.writeFile("new.txt", "new");
    const second = await attachWebContainer(first.fake, files);
    try {
      expect([...first.fake.files.keys()].sort()).toEqual(["new.txt"]);
    } finally {
      second.dispose();
    }
  });
});
