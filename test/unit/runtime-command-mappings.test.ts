// Issue 28 point 1, "no false green": every command line the browser runtime maps (the table in
// docs/architecture.md, "Commands the browser runtime maps") either does what it says (the built-in
// Preview of a dev server's folder) or fails non-zero with one line naming what is missing and what
// would run it. npm scripts run their own commands through the shell: `tsc -b && vite build` runs
// tsc, and a build is never taken for a dev server. `vite build` runs the installed vite with node.
import { describe, expect, it } from "vitest";
import { PreviewHub, WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { SandboxHost } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";
import { installedPackages } from "../support/preview-sites";

let counter = 0;

async function open(files: Record<string, string>, options: { preview?: boolean } = {}) {
  const storage = await openStorage({ name: `command-mappings-${counter++}-${Date.now()}` });
  const workspace = await WorkspaceFiles.open(storage, "ws");
  for (const [path, text] of Object.entries(files)) await workspace.writeFile(path, text);
  let ids = 0;
  const hub = new PreviewHub("http://app.test", () => `s${++ids}`);
  const runtime = createBrowserRuntime(workspace, {
    preview: options.preview === false ? undefined : hub,
    node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false }),
  });
  const ready: Array<[number, string]> = [];
  runtime.onServerReady((port, url) => ready.push([port, url]));
  return { runtime, ready, workspace };
}

const SITE = { "index.html": "<h1>app</h1>", "web/index.html": "<h1>web</h1>", "dist/index.html": "<h1>built</h1>", "package.json": JSON.stringify({ name: "app", version: "1.0.0" }) };
const SERVED = "served by the browser runtime's built-in preview";
const WEBCONTAINER = "Turn on WebContainer (Settings → Runtime) to run it";

/** Dev-server lines: the Preview of the folder they name, on the port they name. */
const SERVES: Array<[string, string, number | undefined]> = [
  ["vite", "/workspace", undefined],
  ["vite dev --port 5174", "/workspace", 5174],
  ["vite serve web", "/workspace/web", undefined],
  ["vite web --port=3000", "/workspace/web", 3000],
  ["webpack serve --port 8081", "/workspace", 8081],
  ["webpack-dev-server", "/workspace", undefined],
  ["parcel index.html", "/workspace", undefined],
  ["serve -l 4000 web", "/workspace/web", 4000],
  ["http-server web -p 8082", "/workspace/web", 8082],
  ["live-server web", "/workspace/web", undefined],
  ["lite-server", "/workspace", undefined],
  ["npx vite web", "/workspace/web", undefined],
  ["npx serve web", "/workspace/web", undefined],
  // vite preview serves the build's output folder: --outDir (of the root given), else dist.
  ["vite preview", "/workspace/dist", undefined],
  ["vite preview --port 4173 --outDir web", "/workspace/web", 4173],
  ["npx vite preview", "/workspace/dist", undefined],
  ["python3 -m http.server 9000 -d web", "/workspace/web", 9000],
];

/** Lines that cannot run here: refused, non-zero, one line saying why and what would run them. */
const REFUSES: Array<[string, RegExp]> = [
  ["vite optimize", /^vite optimize: not available in the browser runtime: it is a bundler.* the built-in Preview serves the sources without a build/],
  ["webpack", /^webpack: not available in the browser runtime: it is a bundler/],
  ["webpack --mode production", /^webpack: not available/],
  ["webpack build", /^webpack build: not available/],
  ["parcel build index.html", /^parcel build: not available/],
  ["esbuild src/main.ts --bundle", /^esbuild src\/main\.ts: not available/],
  ["tsup", /^tsup: not available/],
  ["next dev", /^next dev: not available in the browser runtime: it needs a Node\.js server process/],
  ["next build", /^next build: not available/],
  ["nuxt dev", /^nuxt dev: not available/],
  ["astro build", /^astro build: not available/],
  ["remix build", /^remix build: not available/],
  ["react-scripts start", /^react-scripts start: not available/],
  ["vue-cli-service serve", /^vue-cli-service serve: not available/],
  ["ng serve", /^ng serve: not available/],
  ["npx next build", /^next build: not available/],
];

describe("commands the browser runtime maps", () => {
  for (const [line, folder, port] of SERVES) {
    it(`${line}: the Preview of ${folder}`, async () => {
      const { runtime, ready } = await open(SITE);
      const result = await runtime.exec(line);
      expect(result.output).toContain(SERVED);
      expect(result.output).toContain(`Serving  ${folder}\n`);
      expect(result.exitCode).toBe(0);
      expect(ready).toHaveLength(1);
      if (port !== undefined) expect(ready[0]![0]).toBe(port);
    });
  }

  for (const [line, message] of REFUSES) {
    it(`${line}: refused, exit 1, one line`, async () => {
      const { runtime, ready } = await open(SITE);
      const result = await runtime.exec(line);
      expect(result.exitCode).toBe(1);
      expect(result.output).toMatch(message);
      expect(result.output).toContain(WEBCONTAINER);
      expect(result.output.trimEnd().split("\n")).toHaveLength(1);
      expect(result.output).not.toContain(SERVED);
      expect(ready).toEqual([]);
    });
  }

  it("a dev server in a page without the Preview fails saying so", async () => {
    const { runtime } = await open(SITE, { preview: false });
    const result = await runtime.exec("vite");
    expect(result.exitCode).toBe(1);
    expect(result.output).toBe(`vite: not available in this page: no Node.js dev server runs in the browser runtime, and this page has no built-in Preview. ${WEBCONTAINER}.\n`);
  });
});

describe("npm scripts run their own commands", () => {
  const manifest = (scripts: Record<string, string>) => JSON.stringify({ name: "app", version: "1.0.0", scripts });

  it('"tsc -b && vite build" runs tsc first: without typescript it fails saying what to install, and nothing is served', async () => {
    const { runtime, ready } = await open({ ...SITE, "package.json": manifest({ build: "tsc -b && vite build" }) });
    const result = await runtime.exec("npm run build");
    expect(result.exitCode).toBe(127);
    expect(result.output).toContain("tsc is not installed in this project: install it with npm install -D typescript");
    expect(result.output).not.toContain("vite build:");
    expect(result.output).not.toContain(SERVED);
    expect(ready).toEqual([]);
  });

  it('"tsc -b && vite build" with a tsc but no vite installed: tsc runs, then vite build says to run npm install, and npm fails with its code', async () => {
    const { runtime, ready } = await open({
      ...SITE,
      "package.json": manifest({ build: "tsc -b && vite build" }),
      "node_modules/.bin/tsc": '#!/bin/sh\necho "tsc ran with $@"\n',
    });
    const result = await runtime.exec("npm run build");
    expect(result.output).toContain("tsc ran with -b\n");
    expect(result.output).toMatch(/^vite build: vite is not installed in \/workspace or a folder above it: run npm install \(with vite in package\.json's devDependencies\) first\.$/m);
    expect(result.output).toContain("npm error Lifecycle script `build` failed with error:\nnpm error code 1");
    expect(result.exitCode).toBe(1);
    expect(ready).toEqual([]);
  });

  /** A stand-in vite: prints its arguments, writes the build's output, fails when asked to. */
  const FAKE_VITE = {
    "node_modules/vite/package.json": JSON.stringify({ name: "vite", version: "8.0.0", bin: { vite: "bin/vite.js" } }),
    "node_modules/vite/bin/vite.js": [
      "const fs = require('node:fs');",
      "console.log('the real vite ran: ' + process.argv.slice(2).join(' ') + ' in ' + process.cwd());",
      "if (fs.existsSync('fail')) { console.error('error during build'); process.exit(2); }",
      "fs.mkdirSync('out', { recursive: true });",
      "fs.writeFileSync('out/index.html', '<h1>built</h1>');",
      "",
    ].join("\n"),
    "node_modules/.bin/vite": '#!/bin/sh\nnode "$(dirname "$0")/../vite/bin/vite.js" "$@"\n',
  };

  it("vite build runs the installed vite with node, typed, in npm run, with npx and through its binary; its exit code and file changes stand", async () => {
    const { runtime, ready, workspace } = await open({
      ...SITE,
      "package.json": manifest({ build: "tsc -b && vite build --outDir out" }),
      "node_modules/.bin/tsc": '#!/bin/sh\necho "tsc ran with $@"\n',
      "sub/readme.txt": "a folder below the project",
      ...FAKE_VITE,
    });
    const build = await runtime.exec("npm run build");
    expect(build.output).toContain("tsc ran with -b\nthe real vite ran: build --outDir out in /workspace\n");
    expect(build.exitCode, build.output).toBe(0);
    expect(workspace.readSync("out/index.html")).toBe("<h1>built</h1>");
    expect((await runtime.exec("npx vite build")).output).toBe("the real vite ran: build in /workspace\n");
    expect((await runtime.exec("cd sub && vite build ..")).output).toBe("the real vite ran: build .. in /workspace/sub\n");
    expect((await runtime.exec("node node_modules/vite/bin/vite.js build")).output).toBe("the real vite ran: build in /workspace\n");
    expect((await runtime.exec("node_modules/.bin/vite build -m x")).output).toBe("the real vite ran: build -m x in /workspace\n");
    expect((await runtime.exec("vite --version")).output).toBe("the real vite ran: --version in /workspace\n");
    expect((await runtime.exec("npx vite -h")).output).toBe("the real vite ran: -h in /workspace\n");
    await workspace.writeFile("fail", "");
    const failed = await runtime.exec("vite build");
    expect(failed.exitCode).toBe(2);
    expect(failed.output).toBe("the real vite ran: build in /workspace\nerror during build\n");
    expect(ready).toEqual([]);
  });

  it("vite build's output is captured where the command's is (a file, a substitution), not shown", async () => {
    const { runtime, workspace } = await open({ ...SITE, ...FAKE_VITE });
    const redirected = await runtime.exec("vite build > log.txt; echo done");
    expect(redirected.output).toBe("done\n");
    expect(workspace.readSync("log.txt")).toBe("the real vite ran: build in /workspace\n");
    expect((await runtime.exec('echo "[$(vite build)]"')).output).toBe("[the real vite ran: build in /workspace]\n");
  });

  it("an installed vite's binary (node_modules/.bin/vite → node …/vite.js) answers as the vite command: dev and preview serve", async () => {
    const { runtime, ready } = await open({
      ...SITE,
      "package.json": manifest({ dev: "vite --port 5199" }),
      ...FAKE_VITE,
    });
    const dev = await runtime.exec("npm run dev");
    expect(dev.exitCode).toBe(0);
    expect(dev.output).toContain("> vite --port 5199\n");
    expect(dev.output).toContain(SERVED);
    expect(dev.output).not.toContain("the real vite ran");
    const preview = await runtime.exec("node node_modules/vite/bin/vite.js preview --port 4173");
    expect(preview.output).toContain("Serving  /workspace/dist\n");
    expect(ready).toEqual([
      [5199, "http://app.test/__preview/s1/"],
      [4173, "http://app.test/__preview/s2/"],
    ]);
  });

  it("rollup runs (its native build replaced by @rollup/wasm-node): npm run build with the real packages writes the bundle", async () => {
    const { runtime, workspace } = await open({
      ...SITE,
      "package.json": manifest({ build: "rollup -c" }),
      "rollup.config.mjs": "export default { input: 'src/main.js', output: { file: 'dist/bundle.js', format: 'cjs' } };\n",
      "src/main.js": "import { twice } from './lib.js';\nconsole.log(twice(21));\n",
      "src/lib.js": "export const twice = (n) => n * 2;\nexport const unused = () => 'tree-shaken';\n",
      "node_modules/.bin/rollup": '#!/bin/sh\nnode "$(dirname "$0")/../rollup/dist/bin/rollup" "$@"\n',
    });
    for (const entry of installedPackages(["rollup", "@rollup/wasm-node"], "w")) await workspace.writeFile(entry.name.slice("w/".length), entry.data ?? "");
    const build = await runtime.exec("npm run build");
    expect(build.output).toMatch(/created .*dist\/bundle\.js/);
    expect(build.exitCode, build.output).toBe(0);
    expect(workspace.readSync("dist/bundle.js")).toBe("'use strict';\n\nconst twice = (n) => n * 2;\n\nconsole.log(twice(21));\n");
    expect((await runtime.exec("rollup -c")).exitCode).toBe(127);
  }, 30_000);

  it("npm test and npm run lint run their commands and keep their exit codes", async () => {
    const { runtime } = await open({ ...SITE, "package.json": manifest({ test: "echo testing; exit 3", lint: "eslint ." }) });
    const test = await runtime.exec("npm test");
    expect(test.output).toContain("testing\n");
    expect(test.exitCode).toBe(3);
    const lint = await runtime.exec("npm run lint");
    expect(lint.exitCode).toBe(127);
    expect(lint.output).toMatch(/eslint: command not found/);
  });
});

describe("an unknown option is an error, as in the real tool", () => {
  const LINES: Array<[string, RegExp]> = [
    ["npm ls --json", /npm error The option --json is not supported by the browser runtime's npm ls/],
    ["npm install --legacy-peer-deps", /npm error The option --legacy-peer-deps is not supported/],
    ["node --no-such-flag x.js", /bad option: --no-such-flag/],
    ["curl --no-such-flag http://example.invalid/", /option --no-such-flag: is unknown/],
    ["git log --no-such-flag", /fatal: unrecognized argument: --no-such-flag/],
    ["git status --ignored", /error: unknown option `ignored'/],
    // just-bash's own commands.
    ["ls --no-such-flag", /ls: unrecognized option '--no-such-flag'|ls: .*--no-such-flag/],
    ["grep --no-such-flag x", /grep: .*--no-such-flag/],
    ["sort --no-such-flag", /sort: .*--no-such-flag/],
  ];
  for (const [line, message] of LINES) {
    it(line, async () => {
      const { runtime } = await open(SITE);
      const result = await runtime.exec(line);
      expect(result.exitCode).not.toBe(0);
      expect(result.output).toMatch(message);
    });
  }

  it("pip uninstall/list/show/freeze refuse options they do not act on", async () => {
    const { workspace } = await open(SITE);
    const { runPip } = await import("../../src/runtime/pip");
    const pip = (args: string[]) => runPip(args, { files: workspace, source: "terminal", cwd: "/workspace", env: new Map(), fetch: () => Promise.reject(new Error("offline")) });
    for (const args of [["list", "--outdated"], ["list", "--format=json"], ["show", "-f", "x"], ["freeze", "--all"], ["uninstall", "--no-such", "x"]]) {
      const result = await pip(args);
      expect(result.exitCode, args.join(" ")).toBe(1);
      expect(result.stderr, args.join(" ")).toMatch(/^ERROR: (no such option|the list format)/);
    }
    expect((await pip(["list", "--format", "freeze"])).exitCode).toBe(0);
  });
});

describe("what the Preview does not do that Vite would is said where it was started", () => {
  it("npm run dev says the project's PostCSS runs (node runs it), and names the Vite plugins it does not run", async () => {
    const { runtime } = await open({
      ...SITE,
      "package.json": JSON.stringify({ name: "app", version: "1.0.0", scripts: { dev: "vite" } }),
      "postcss.config.js": `export default {\n  plugins: {\n    tailwindcss: {},\n    autoprefixer: {},\n  },\n};\n`,
      "tailwind.config.js": `export default { content: ["./index.html"] };\n`,
      "vite.config.ts": `import { defineConfig } from "vite";\nimport react from "@vitejs/plugin-react";\nimport svgr from "vite-plugin-svgr";\nexport default defineConfig({ plugins: [react(), svgr()] });\n`,
    });
    const result = await runtime.exec("npm run dev");
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain("  PostCSS  postcss.config.js (tailwindcss, autoprefixer) runs on every build, with node and the workspace's node_modules\n");
    expect(result.output).not.toContain("Warning  PostCSS");
    expect(result.output).not.toContain("Warning  Tailwind");
    expect(result.output).toContain("Warning  vite.config.ts uses plugins the built-in preview does not run: vite-plugin-svgr; WebContainer runs it.");
  });
});
