// The built-in preview runs the project's PostCSS (issue 28 point 2): bolt.new's Tailwind v3 +
// autoprefixer starter, with this repository's real postcss, tailwindcss and autoprefixer installed
// in the workspace, run by the browser runtime's node (in this process) as the page's sandbox runs
// it. A class used in a .tsx file gets its utility; a save of that file changes the CSS; what cannot
// run (a plugin not installed, Tailwind v4's native modules) is named, never silently skipped.
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { BuiltinPreview, nodeProgramRunner } from "../../src/runtime/browser/builtin-preview";
import { PreviewHub, ProjectPostcss, type NodeProgramRunner } from "../../src/runtime/preview";
import { SandboxHost } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";
import { MapPreviewFiles } from "../support/preview-files";
import { tailwindStarter, TAILWIND_POSTCSS_CONFIG } from "../support/preview-sites";
import type { BuildEntry } from "../support/zip-builder";

const ORIGIN = "http://app.test";
const disposables: Array<{ dispose(): void }> = [];
afterEach(() => {
  for (const d of disposables.splice(0)) d.dispose();
});

async function workspace(entries: BuildEntry[]): Promise<WorkspaceFiles> {
  const storage = await openStorage({ name: `preview-postcss-${Date.now()}-${Math.random()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  for (const entry of entries) files.writeSync(entry.name, entry.data ?? "");
  await files.flush();
  return files;
}

function settled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The preview of app/ with node in this process; `runs` counts PostCSS's node runs. */
function previewOf(files: WorkspaceFiles) {
  const host = new SandboxHost(inProcessNodeEndpoint, { keepSpare: false });
  const hub = new PreviewHub(ORIGIN, () => "s1");
  const preview = new BuiltinPreview(files, hub, host);
  disposables.push(preview, host);
  return { hub, preview };
}

/** The page's compiled modules by path, decoded. */
async function modules(hub: PreviewHub, path = ""): Promise<{ html: string; modules: Record<string, string> }> {
  const answer = await hub.handle(`${ORIGIN}/__preview/s1/${path}`);
  const html = String(answer!.body);
  const map = /<script type="importmap">(.*?)<\/script>/s.exec(html);
  const imports = map ? (JSON.parse(map[1]!) as { imports: Record<string, string> }).imports : {};
  const prefix = `${ORIGIN}/__preview/s1/`;
  return { html, modules: Object.fromEntries(Object.entries(imports).map(([url, data]) => [url.slice(prefix.length), Buffer.from(data.split(",")[1]!, "base64").toString("utf8")])) };
}

/** The CSS a compiled CSS module adds to the page. */
function cssOf(code: string | undefined): string {
  const match = /style\.textContent = (".*?");\n/s.exec(code ?? "");
  return match ? (JSON.parse(match[1]!) as string) : "";
}

/** The notices the prelude shows on the page. */
function noticesOf(html: string): string[] {
  const match = /"notices":(\[.*?\])/.exec(html);
  return match ? (JSON.parse(match[1]!) as string[]) : [];
}

describe("the preview runs the project's PostCSS (Tailwind v3, autoprefixer)", () => {
  it("generates the utilities the .tsx files use, prefixes with autoprefixer, and runs again after a save", async () => {
    const files = await workspace(tailwindStarter());
    const { hub, preview } = previewOf(files);
    const started = await preview.start({ root: "app" });
    expect(started.postcssRuns).toBe(true);

    let at = Date.now();
    const first = await modules(hub);
    console.log(`first build with Tailwind v3 + autoprefixer (in-process node): ${Date.now() - at} ms`);
    const css = cssOf(first.modules["src/index.css"]);
    expect(css).not.toContain("@tailwind");
    // Preflight (@tailwind base) and the utilities of App.tsx's classes, as Tailwind v3 writes them.
    expect(css).toContain("box-sizing: border-box");
    expect(css).toMatch(/\.bg-red-500 \{\n\s+--tw-bg-opacity: 1;\n\s+background-color: rgb\(239 68 68 \/ var\(--tw-bg-opacity(, 1)?\)\);?\n\s*\}/);
    expect(css).toMatch(/\.p-4 \{\n\s+padding: 1rem;?\n\s*\}/);
    // A class no file uses is not generated; autoprefixer prefixes the file's own rule.
    expect(css).not.toContain(".text-center");
    expect(css).toMatch(/\.select-none-plain \{\n\s+-webkit-user-select: none;\n\s+-moz-user-select: none;\n\s+user-select: none;?\n\s*\}/);
    // PostCSS ran, so nothing says it was not applied.
    expect(noticesOf(first.html).filter((n) => /PostCSS|Tailwind|@tailwind/.test(n))).toEqual([]);

    // A page reload with no change reuses the answer; a save of App.tsx with a new class runs PostCSS again.
    at = Date.now();
    expect(cssOf((await modules(hub)).modules["src/index.css"])).toBe(css);
    console.log(`second build, no change (cached): ${Date.now() - at} ms`);
    const build = /"build":"([^"]+)"/.exec(first.html)![1]!;
    await files.writeFile("app/src/App.tsx", String(files.readSync("app/src/App.tsx")).replace("select-none", "select-none text-center"));
    const update = await preview.update(`${ORIGIN}/__preview/s1/`, build);
    expect(update.kind).toBe("hot");
    const updated = update.kind === "hot" ? Object.entries(update.imports).find(([url]) => url.includes("src/index.css?hmr=")) : undefined;
    expect(updated, "the hot update re-runs index.css").toBeDefined();
    const updatedCss = cssOf(Buffer.from(updated![1].split(",")[1]!, "base64").toString("utf8"));
    expect(updatedCss).toMatch(/\.text-center \{\n\s+text-align: center;?\n\s*\}/);
  }, 60_000);

  it("processes CSS modules before their names are scoped, and stylesheets linked from index.html", async () => {
    const entries = tailwindStarter(`import styles from "./Card.module.css";\nexport default function App() { return <div className={styles.card}>card</div>; }\n`).map((e) =>
      e.name === "app/index.html" ? { ...e, data: String(e.data).replace("</head>", `<link rel="stylesheet" href="/src/linked.css" />\n  </head>`) } : e,
    );
    entries.push({ name: "app/src/Card.module.css", data: `.card {\n  @apply p-4 bg-red-500;\n}\n` });
    entries.push({ name: "app/src/linked.css", data: `.linked {\n  @apply text-center;\n}\n` });
    const files = await workspace(entries);
    const { hub, preview } = previewOf(files);
    await preview.start({ root: "app" });
    const page = await modules(hub);
    const card = page.modules["src/Card.module.css"]!;
    expect(cssOf(card)).toMatch(/\._card_\w+ \{\n\s+--tw-bg-opacity: 1;\n\s+background-color: rgb\(239 68 68 \/ var\(--tw-bg-opacity, 1\)\);\n\s+padding: 1rem\n\}/);
    expect(card).toMatch(/const __names = \{"card":"_card_\w+"\}/);
    const linked = /<link rel="stylesheet" href="data:text\/css;base64,([^"]+)"/.exec(page.html)![1]!;
    expect(Buffer.from(linked, "base64").toString("utf8")).toMatch(/\.linked \{\n\s+text-align: center;?\n\s*\}/);
  }, 60_000);

  it("reads a config as postcss-load-config does: .postcssrc.json with an object, a CommonJS function returning an array", async () => {
    for (const [name, config] of [
      [".postcssrc.json", `{ "plugins": { "autoprefixer": { "overrideBrowserslist": ["firefox 60"] } } }`],
      ["postcss.config.cjs", `module.exports = (ctx) => ({ plugins: [require("autoprefixer")({ overrideBrowserslist: [ctx.env === "development" ? "firefox 60" : "chrome 120"] })] });\n`],
    ]) {
      const files = await workspace([
        ...tailwindStarter().filter((e) => !/tailwind\.config|postcss\.config|src\/index\.css/.test(e.name)),
        { name: `app/${name}`, data: config },
        { name: "app/src/index.css", data: `.a {\n  user-select: none;\n}\n` },
      ]);
      const { hub, preview } = previewOf(files);
      await preview.start({ root: "app" });
      expect(cssOf((await modules(hub)).modules["src/index.css"]), name).toBe(`.a {\n  -moz-user-select: none;\n       user-select: none;\n}\n`);
      for (const d of disposables.splice(0)) d.dispose();
    }
  }, 60_000);

  it("shows an error in the CSS in the overlay with its file and line", async () => {
    const files = await workspace(tailwindStarter().map((e) => (e.name === "app/src/index.css" ? { ...e, data: `@tailwind base;\n\n.a {\n  @apply no-such-class;\n}\n` } : e)));
    const { hub, preview } = previewOf(files);
    await preview.start({ root: "app" });
    const { html } = await modules(hub);
    const error = JSON.parse(/"buildError":(\{.*?\})/.exec(html)![1]!) as { message: string; file: string; line: number };
    expect(error.message).toContain("The `no-such-class` class does not exist");
    expect(error.file).toBe("app/src/index.css");
    expect(error.line).toBe(4);
  }, 60_000);

  it("names what failed when the config's plugins are not installed, and uses the CSS as written", async () => {
    const files = await workspace([
      { name: "app/package.json", data: `{"name":"app","type":"module"}` },
      { name: "app/index.html", data: `<script type="module" src="/src/main.ts"></script>` },
      { name: "app/src/main.ts", data: `import "./index.css";\n` },
      { name: "app/src/index.css", data: `@tailwind utilities;\n` },
      { name: "app/postcss.config.js", data: TAILWIND_POSTCSS_CONFIG },
    ]);
    const { hub, preview } = previewOf(files);
    await preview.start({ root: "app" });
    const page = await modules(hub);
    expect(cssOf(page.modules["src/index.css"])).toBe("@tailwind utilities;\n");
    expect(noticesOf(page.html)).toContain(
      "PostCSS (postcss.config.js) was not applied by the built-in preview: postcss is not installed in the workspace (postcss not found; run npm install); WebContainer runs it.",
    );
    // With postcss installed but not the plugin, the plugin is named.
    files.writeSync("app/node_modules/postcss/package.json", `{"name":"postcss","main":"index.js"}`);
    files.writeSync("app/node_modules/postcss/index.js", `module.exports = () => ({ process: async (css) => ({ css, warnings: () => [] }) });\n`);
    await settled(); // the workspace reports changes a task later; the preview hears of them then
    expect(noticesOf((await modules(hub)).html)).toContain(
      "PostCSS (postcss.config.js) was not applied by the built-in preview: The PostCSS plugin tailwindcss (postcss.config.js) is not installed in the workspace (tailwindcss not found; run npm install); WebContainer runs it.",
    );
  }, 60_000);

  it("says that Tailwind v4's PostCSS plugin needs native modules the browser runtime cannot load", async () => {
    const files = await workspace([
      ...tailwindStarter().filter((e) => !/tailwind\.config|postcss\.config/.test(e.name)),
      { name: "app/postcss.config.mjs", data: `export default { plugins: { "@tailwindcss/postcss": {} } };\n` },
      // As @tailwindcss/postcss 4 loads: its native scanner first (here without a build for this platform).
      { name: "app/node_modules/@tailwindcss/postcss/package.json", data: `{"name":"@tailwindcss/postcss","version":"4.3.5","main":"index.js"}` },
      { name: "app/node_modules/@tailwindcss/postcss/index.js", data: `require("@tailwindcss/oxide");\n` },
      { name: "app/node_modules/@tailwindcss/oxide/package.json", data: `{"name":"@tailwindcss/oxide","version":"4.3.5","main":"index.js"}` },
      { name: "app/node_modules/@tailwindcss/oxide/index.js", data: `throw new Error("Cannot find native binding. npm has a bug related to optional dependencies");\n` },
    ]);
    const { hub, preview } = previewOf(files);
    await preview.start({ root: "app" });
    const notices = noticesOf((await modules(hub)).html);
    expect(notices).toContain(
      "PostCSS (postcss.config.mjs) was not applied by the built-in preview: Tailwind v4's PostCSS plugin (@tailwindcss/postcss) needs native modules (@tailwindcss/oxide, lightningcss); the WebAssembly build of @tailwindcss/oxide needs node:wasi and worker_threads sharing WebAssembly memory, and it did not load here (Cannot find native binding. npm has a bug related to optional dependencies); WebContainer runs it.",
    );
    expect(notices).toContain("app/src/index.css uses @tailwind, which needs PostCSS/Tailwind: the built-in preview does not apply it (the CSS is used as written); WebContainer runs it.");
  }, 60_000);

  it("npm run dev says the PostCSS config runs, instead of warning that it does not", async () => {
    const files = await workspace(tailwindStarter().filter((e) => !e.name.includes("/node_modules/")));
    const runtime = createBrowserRuntime(files, { node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false }), preview: new PreviewHub(ORIGIN, () => "s1") });
    disposables.push(runtime);
    const result = await runtime.exec("cd app && npm run dev");
    expect(result.output).toContain("  PostCSS  postcss.config.js (tailwindcss, autoprefixer) runs on every build, with node and the workspace's node_modules\n");
    expect(result.output).not.toContain("Warning");
  }, 60_000);
});

describe("one node run per build step, kept until a file changes", () => {
  function fakeRun(answer: (request: { config: string; files: Array<{ path: string; css: string }> }) => unknown) {
    const requests: Array<{ config: string; files: Array<{ path: string; css: string }>; cwd: string }> = [];
    const run: NodeProgramRunner = async ({ stdin, cwd }) => {
      const request = JSON.parse(stdin) as { config: string; files: Array<{ path: string; css: string }> };
      requests.push({ ...request, cwd });
      return { exitCode: 0, stdout: `a plugin's log line\n\u0000webcode-postcss\u0000${JSON.stringify(answer(request))}\n`, stderr: "" };
    };
    return { run, requests };
  }

  it("batches the files asked for together into one run, answers again from memory, and runs again after changed()", async () => {
    const fs = new MapPreviewFiles({ "app/postcss.config.cjs": "module.exports = {}" });
    const { run, requests } = fakeRun((r) => ({ results: r.files.map((f) => ({ css: `/* ${f.path} */` })) }));
    const postcss = new ProjectPostcss(fs, "app", run);
    const [a, b] = await Promise.all([postcss.process("app/a.css", "a{}"), postcss.process("app/b.css", "b{}")]);
    expect(a).toEqual({ kind: "css", css: "/* /workspace/app/a.css */", warnings: [] });
    expect(b).toEqual({ kind: "css", css: "/* /workspace/app/b.css */", warnings: [] });
    expect(requests).toEqual([{ config: "postcss.config.cjs", cwd: "app", files: [{ path: "/workspace/app/a.css", css: "a{}" }, { path: "/workspace/app/b.css", css: "b{}" }] }]);
    await postcss.process("app/a.css", "a{}");
    expect(requests).toHaveLength(1);
    postcss.changed();
    await postcss.process("app/a.css", "a{}");
    expect(requests).toHaveLength(2);
  });

  it("runs nothing for a project without a PostCSS config, and finds package.json's \"postcss\"", async () => {
    const { run, requests } = fakeRun(() => ({ results: [] }));
    const fs = new MapPreviewFiles({ "package.json": `{"name":"x"}` });
    expect(await new ProjectPostcss(fs, "", run).process("a.css", "a{}")).toBeUndefined();
    expect(requests).toEqual([]);
    const withField = new MapPreviewFiles({ "package.json": `{"name":"x","postcss":{"plugins":{}}}` });
    expect(await new ProjectPostcss(withField, "", run).config()).toBe("package.json");
  });

  it("turns a run that printed no answer into a notice with its last line of errors", async () => {
    const fs = new MapPreviewFiles({ "postcss.config.js": "export default {}" });
    const postcss = new ProjectPostcss(fs, "", async () => ({ exitCode: 134, stdout: "", stderr: "node: out of memory (the program ran out of memory and was stopped)\n" }));
    expect(await postcss.process("a.css", "a{}")).toEqual({
      kind: "not-run",
      notice: "PostCSS (postcss.config.js) was not applied by the built-in preview: PostCSS ended with exit code 134: node: out of memory (the program ran out of memory and was stopped); WebContainer runs it.",
    });
  });
});

describe("a failure before the run", () => {
  it("answers with a notice, never leaves the build waiting", async () => {
    const files = new MapPreviewFiles({});
    files.stat = () => Promise.reject(new Error("storage closed"));
    const postcss = new ProjectPostcss(files, "", async () => ({ exitCode: 0, stdout: "", stderr: "" }));
    expect(await postcss.process("a.css", "a{}")).toEqual({
      kind: "not-run",
      notice: "PostCSS (its config) was not applied by the built-in preview: PostCSS could not be run: storage closed; WebContainer runs it.",
    });
  });
});

// The runner the page uses, over a real sandbox host: the program's writes stay in its sandbox.
describe("nodeProgramRunner", () => {
  it("runs a program in the served folder with standard input, and replays none of its file changes", async () => {
    const files = await workspace([{ name: "app/x.txt", data: "x" }]);
    const host = new SandboxHost(inProcessNodeEndpoint, { keepSpare: false });
    disposables.push(host);
    const run = nodeProgramRunner(host, files);
    const source = `let t = "";\nprocess.stdin.on("data", (d) => (t += d));\nprocess.stdin.on("end", () => {\n  require("fs").writeFileSync("out.txt", t);\n  console.log(process.cwd(), process.env.NODE_ENV, t, require("fs").readFileSync("x.txt", "utf8"));\n});\n`;
    expect(await run({ name: "p.cjs", source, stdin: "in", cwd: "app" })).toEqual({ exitCode: 0, stdout: "/workspace/app development in x\n", stderr: "" });
    expect(await files.stat("app/out.txt")).toBeUndefined();
  });
});
