// Hot updates of the built-in preview (src/runtime/preview/hot-update.ts): after a save, which
// modules the frame evaluates again under fresh URLs, and when it must reload instead.
import { describe, expect, it } from "vitest";
import { PreviewServer } from "../../src/runtime/preview/preview-server";
import type { HotUpdate } from "../../src/runtime/preview";
import { MapPreviewFiles } from "../support/preview-files";

const BASE = "http://app.test/__preview/s1/";

const STARTER = {
  "index.html": `<!doctype html><html><head><link rel="stylesheet" href="/page.css"></head><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>`,
  "page.css": "body { margin: 0; }",
  "src/main.tsx": `import { createRoot } from "react-dom/client";\nimport "./index.css";\nimport App from "./App";\ncreateRoot(document.getElementById("root")!).render(<App />);\n`,
  "src/App.tsx": `import { useState } from "react";\nimport { label } from "./label";\nexport default function App() { const [n] = useState(0); return <p>{label} {n}</p>; }\n`,
  "src/label.ts": `export const label = "count is";\n`,
  "src/index.css": "p { color: red; }",
  "src/data.json": `{"a": 1}`,
};

async function open(files: Record<string, string> = STARTER) {
  const fs = new MapPreviewFiles(files, ["react", "react-dom", "scheduler"]);
  const server = new PreviewServer(fs, { base: BASE, root: "" });
  const html = String((await server.respond("/")).body);
  const build = /"build":"([^"]+)"/.exec(html)?.[1];
  return { fs, server, build: build! };
}

type Hot = Extract<HotUpdate, { kind: "hot" }>;

function hot(update: HotUpdate): Hot {
  if (update.kind !== "hot") throw new Error(`expected a hot update, got a reload: ${update.reason}`);
  return update;
}

function code(update: Hot, url: string): string {
  const data = update.imports[url];
  if (!data) throw new Error(`${url} is not in the update: ${Object.keys(update.imports).join(", ")}`);
  return Buffer.from(data.split(",")[1]!, "base64").toString("utf8");
}

/** The fresh URL the update gives the module at `path` ("src/App.tsx"). */
function freshUrl(update: Hot, path: string): string {
  const url = Object.keys(update.imports).find((u) => u.startsWith(`${BASE}${path}?hmr=`));
  if (!url) throw new Error(`no fresh URL for ${path}`);
  return url;
}

describe("preview hot updates", () => {
  it("re-imports what changed and its importers up to the entry under fresh URLs; packages keep theirs", async () => {
    const { fs, server, build } = await open();
    fs.write("src/label.ts", `export const label = "clicks:";\n`);
    const first = hot(await server.hotUpdate(build));
    expect([...first.modules].sort()).toEqual(["src/App.tsx", "src/label.ts", "src/main.tsx"]);
    expect(first.entries).toEqual([freshUrl(first, "src/main.tsx")]);
    expect(Object.keys(first.imports).some((url) => url.includes("node_modules"))).toBe(false);
    const main = code(first, freshUrl(first, "src/main.tsx"));
    expect(main).toContain(`from "${freshUrl(first, "src/App.tsx")}"`);
    expect(main).toContain(`from "${BASE}node_modules/react-dom/client.js"`);
    // The unchanged CSS module stays evaluated (its style stays): its URL is the first load's.
    expect(main).toContain(`"${BASE}src/index.css"`);
    expect(first.removeStyles).toEqual([]);
    expect(code(first, freshUrl(first, "src/label.ts"))).toContain(`"clicks:"`);
    // Errors still name the workspace file: the sourceURL is the module's plain URL.
    expect(main).toContain(`//# sourceURL=${BASE}src/main.tsx\n`.trimEnd());
    expect(first.shell).toContain(`<div id="root"></div>`);

    // Next save, to App.tsx only: label.ts is not evaluated again, and App imports the version the frame has.
    fs.write("src/App.tsx", STARTER["src/App.tsx"].replace("<p>", "<p title='x'>"));
    const second = hot(await server.hotUpdate(build));
    expect([...second.modules].sort()).toEqual(["src/App.tsx", "src/main.tsx"]);
    expect(freshUrl(second, "src/App.tsx")).not.toBe(freshUrl(first, "src/App.tsx"));
    expect(code(second, freshUrl(second, "src/App.tsx"))).toContain(`from "${freshUrl(first, "src/label.ts")}"`);
    expect(code(second, freshUrl(second, "src/main.tsx"))).toContain(`from "${freshUrl(second, "src/App.tsx")}"`);
  });

  it("replaces the styles of a changed CSS module, and of one no longer imported", async () => {
    const { fs, server, build } = await open();
    fs.write("src/index.css", "p { color: green; }");
    const changed = hot(await server.hotUpdate(build));
    expect(changed.removeStyles).toEqual(["src/index.css"]);
    expect(code(changed, freshUrl(changed, "src/index.css"))).toContain("color: green");
    fs.write("src/main.tsx", STARTER["src/main.tsx"].replace(`import "./index.css";\n`, "\n"));
    const dropped = hot(await server.hotUpdate(build));
    expect(dropped.removeStyles).toEqual(["src/index.css"]);
    expect(dropped.modules).toEqual(["src/main.tsx"]);
  });

  it("reloads when the page's HTML or a stylesheet it links changes, a module has an error, or nothing it imports changed", async () => {
    const html = await open();
    html.fs.write("index.html", STARTER["index.html"].replace("<body>", "<body><h1>Hi</h1>"));
    expect(await html.server.hotUpdate(html.build)).toMatchObject({ kind: "reload" });

    const linked = await open();
    linked.fs.write("page.css", "body { margin: 1px; }");
    expect(await linked.server.hotUpdate(linked.build)).toMatchObject({ kind: "reload" });

    const broken = await open();
    broken.fs.write("src/App.tsx", "export default function App() { return (<p>; }\n");
    expect(await broken.server.hotUpdate(broken.build)).toMatchObject({ kind: "reload", reason: expect.stringMatching(/^Syntax error/) });

    const fetched = await open();
    fetched.fs.write("src/data.json", `{"a": 2}`);
    expect(await fetched.server.hotUpdate(fetched.build)).toMatchObject({ kind: "reload" });

    const unknown = await open();
    expect(await unknown.server.hotUpdate("not-a-build")).toMatchObject({ kind: "reload" });
    // A page served with an error shows the overlay: it has no build to update.
    broken.fs.write("src/App.tsx", "export default function App() { return (<p>; }\n");
    expect(String((await broken.server.respond("/")).body)).not.toContain(`"build":`);
  });

  it("reloads when a package file or a CommonJS module would have to be evaluated again", async () => {
    const { fs, server, build } = await open({
      "index.html": `<script type="module" src="/main.js"></script>`,
      "main.js": `import lib from "lib";\nconsole.log(lib);\n`,
      "node_modules/lib/package.json": JSON.stringify({ name: "lib", module: "index.mjs" }),
      "node_modules/lib/index.mjs": `export default 1;\n`,
    });
    fs.write("node_modules/lib/index.mjs", `export default 2;\n`);
    expect(await server.hotUpdate(build)).toMatchObject({ kind: "reload", reason: expect.stringContaining("package") });

    const cjs = await open({
      "index.html": `<script type="module" src="/main.js"></script>`,
      "main.js": `import helper from "./helper.cjs";\nconsole.log(helper);\n`,
      "helper.cjs": `module.exports = 1;\n`,
    });
    cjs.fs.write("helper.cjs", `module.exports = 2;\n`);
    expect(await cjs.server.hotUpdate(cjs.build)).toMatchObject({ kind: "reload", reason: expect.stringContaining("CommonJS") });
  });
});
