// The dev-server commands of the browser runtime: npm run dev, npm start, npx vite, npx serve and
// python3 -m http.server start the built-in preview (reported like a server) instead of failing;
// other npm uses still say that they need WebContainer.
import { describe, expect, it } from "vitest";
import { Emitter } from "../../src/base";
import { PreviewHub, WebContainerBoot, WorkspaceFiles, WorkspaceRuntime, type Runtime } from "../../src/runtime";
import { createBrowserRuntime, matchDevServerCommand } from "../../src/runtime/browser";
import { openStorage } from "../../src/storage";

let counter = 0;

async function open(files: Record<string, string>) {
  const storage = await openStorage({ name: `preview-commands-${counter++}-${Date.now()}` });
  const workspace = await WorkspaceFiles.open(storage, "ws");
  for (const [path, text] of Object.entries(files)) await workspace.writeFile(path, text);
  let ids = 0;
  const hub = new PreviewHub("http://app.test", () => `s${++ids}`);
  const runtime = createBrowserRuntime(workspace, { preview: hub });
  const ready: Array<[number, string]> = [];
  runtime.onServerReady((port, url) => ready.push([port, url]));
  return { runtime, hub, ready };
}

describe("dev-server command lines", () => {
  it("recognises the usual ways to start a front-end dev server", () => {
    const scripts = { dev: "vite", start: "serve -p 4000 public", build: "tsc && vite build", api: "node server.js" };
    expect(matchDevServerCommand("pnpm", ["run", "dev"], scripts)).toMatchObject({ dir: "." });
    expect(matchDevServerCommand("yarn", ["start"], scripts)).toMatchObject({ dir: "public", port: 4000 });
    expect(matchDevServerCommand("pnpm", ["run", "api"], scripts)).toEqual({ script: "api", missing: false });
    // A build is never a dev server, whatever tool it names (issue 28 point 1).
    expect(matchDevServerCommand("yarn", ["run", "build"], scripts)).toEqual({ script: "build", missing: false });
    expect(matchDevServerCommand("pnpm", ["run", "lint"], scripts)).toEqual({ script: "lint", missing: true });
    expect(matchDevServerCommand("pnpm", ["install"], scripts)).toBeUndefined();
    // npm runs its scripts through the shell, where vite and serve are commands of their own.
    expect(matchDevServerCommand("npm", ["run", "dev"], scripts)).toBeUndefined();
    expect(matchDevServerCommand("npx", ["vite", "build"])).toBeUndefined();
    expect(matchDevServerCommand("npx", ["vite", "--port", "3001", "web"])).toMatchObject({ dir: "web", port: 3001 });
    expect(matchDevServerCommand("npx", ["serve", "-l", "8080", "dist"])).toMatchObject({ dir: "dist", port: 8080 });
    expect(matchDevServerCommand("python3", ["-m", "http.server", "9000", "-d", "site"])).toMatchObject({ dir: "site", port: 9000 });
    expect(matchDevServerCommand("python3", ["-m", "http.server"])).toMatchObject({ dir: ".", port: 8000 });
    expect(matchDevServerCommand("python3", ["script.py"])).toBeUndefined();
  });
});

describe("dev-server commands in the browser runtime", () => {
  it("npm run dev serves the project folder, says where, and reports it like a server", async () => {
    const { runtime, hub, ready } = await open({ "app/package.json": JSON.stringify({ scripts: { dev: "vite --port 5180" } }), "app/index.html": "<h1>app</h1>" });
    const result = await runtime.exec("cd app && npm run dev");
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain("served by the browser runtime's built-in preview");
    expect(result.output).toContain("http://app.test/__preview/s1/");
    expect(ready).toEqual([[5180, "http://app.test/__preview/s1/"]]);
    const page = await hub.handle("http://app.test/__preview/s1/");
    expect(String(page?.body)).toContain("<h1>app</h1>");
    // Running it again keeps the same preview.
    await runtime.exec("cd app && npm run dev");
    expect(ready.at(-1)).toEqual([5180, "http://app.test/__preview/s1/"]);
    runtime.dispose();
    expect(await hub.handle("http://app.test/__preview/s1/")).toBeUndefined();
  });

  it("python3 -m http.server and npx serve serve the folder they name", async () => {
    const { runtime, ready } = await open({ "site/index.html": "<p>x</p>", "docs/index.html": "<p>d</p>" });
    expect((await runtime.exec("python3 -m http.server 8123 -d site")).exitCode).toBe(0);
    expect((await runtime.exec("npx serve docs")).exitCode).toBe(0);
    expect(ready).toHaveLength(2);
    expect(ready[0]![0]).toBe(8123);
    // Two folders, two previews.
    expect(ready[1]![1]).not.toBe(ready[0]![1]);
    expect((await runtime.exec("npx serve nowhere")).output).toContain("is not a folder");
  });

  it("other npm and python uses go to their own commands; a missing script is npm's error", async () => {
    const { runtime, ready } = await open({ "package.json": JSON.stringify({ scripts: { api: "node server.js" } }) });
    // npm itself (nothing to install here), not the preview.
    const install = await runtime.exec("npm install");
    expect(install.exitCode).toBe(0);
    // A script that is not a front-end dev server runs as a script (node is not given to this runtime).
    expect((await runtime.exec("npm run api")).output).toContain("needs the WebContainer runtime");
    const missing = await runtime.exec("npm run dev");
    expect(missing.exitCode).toBe(1);
    expect(missing.output).toContain(`Missing script: "dev"`);
    expect((await runtime.exec("python3 app.py")).output).toContain("Python is not available");
    expect(ready).toEqual([]);
  });

  it("Open preview serves the folder with the site's index.html", async () => {
    const { runtime } = await open({ "README.md": "x", "web/index.html": "<p>w</p>", "web/sub/index.html": "<p>s</p>" });
    const started = await runtime.startPreview!();
    expect(started.root).toBe("web");
  });

  it("once WebContainer runs, its real dev servers take the commands; the built-in preview stays reported", async () => {
    const storage = await openStorage({ name: `preview-commands-wc-${counter++}-${Date.now()}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    await files.writeFile("package.json", JSON.stringify({ scripts: { dev: "vite" } }));
    await files.writeFile("index.html", "<p>x</p>");
    const hub = new PreviewHub("http://app.test", () => "builtin");
    const servers = new Emitter<{ port: number; url: string }>();
    const commands: string[] = [];
    const container = {
      kind: "webcontainer",
      capabilities: { node: true, npm: true, servers: true },
      fs: files,
      exec: async (command: string) => {
        commands.push(command);
        servers.fire({ port: 5173, url: "https://wc--5173.example" });
        return { output: "VITE ready", exitCode: 0 };
      },
      openShell: () => {
        throw new Error("no shell in this test");
      },
      onServerReady: (listener: (port: number, url: string) => void) => servers.event(({ port, url }) => listener(port, url)),
      dispose: () => undefined,
    } as unknown as Runtime;
    const boot = new WebContainerBoot<object>({ boot: async () => ({}), teardown: () => undefined, timeoutMs: 5000 });
    const runtime = new WorkspaceRuntime<object>({ files, browser: createBrowserRuntime(files, { preview: hub }), webcontainer: boot, attach: async () => container });
    try {
      expect((await runtime.exec("npm run dev")).output).toContain("built-in preview");
      boot.start();
      for (let i = 0; i < 50 && runtime.kind !== "webcontainer"; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(runtime.kind).toBe("webcontainer");
      const seen: string[] = [];
      const subscription = runtime.onServerReady((_port, url) => seen.push(url));
      expect((await runtime.exec("npm run dev")).output).toBe("VITE ready");
      expect(commands).toEqual(["npm run dev"]);
      expect(seen).toEqual(["http://app.test/__preview/builtin/", "https://wc--5173.example"]);
      subscription.dispose();
    } finally {
      runtime.dispose();
    }
  });
});
