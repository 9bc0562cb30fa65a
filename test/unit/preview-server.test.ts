// The built-in preview's server (src/runtime/preview): pages with everything inlined, modules
// compiled (TS/JSX, import.meta.env, CSS, JSON, assets), node_modules resolved (exports conditions,
// CommonJS wrapped with named exports), and errors with file and line.
import { describe, expect, it } from "vitest";
import { PreviewServer } from "../../src/runtime/preview/preview-server";
import { exportTarget, ModuleResolver } from "../../src/runtime/preview/module-resolution";
import { MapPreviewFiles } from "../support/preview-files";
import { PNG_2X3 } from "../support/preview-sites";

const BASE = "http://app.test/__preview/s1/";

function serve(files: Record<string, string | Uint8Array>, root = "", linked: string[] = []) {
  const fs = new MapPreviewFiles(files, linked);
  return { fs, server: new PreviewServer(fs, { base: BASE, root }) };
}

async function page(server: PreviewServer, path = "/"): Promise<{ status: number; html: string; modules: Record<string, string> }> {
  const response = await server.respond(path);
  const html = String(response.body);
  const map = /<script type="importmap">(.*?)<\/script>/s.exec(html);
  const imports = map ? (JSON.parse(map[1]!) as { imports: Record<string, string> }).imports : {};
  const modules = Object.fromEntries(Object.entries(imports).map(([url, data]) => [url, Buffer.from(data.split(",")[1]!, "base64").toString("utf8")]));
  return { status: response.status, html, modules };
}

function buildError(html: string): { message: string; file?: string; line?: number } | undefined {
  const match = /"buildError":(\{.*?\})\}\);/.exec(html);
  return match ? (JSON.parse(match[1]!) as { message: string; file?: string; line?: number }) : undefined;
}

describe("preview server: static sites", () => {
  it("serves index.html with its stylesheet, images and classic scripts inlined, links left as they are", async () => {
    const { server } = serve({
      "index.html": `<!doctype html><html><head><link rel="stylesheet" href="css/a.css"></head><body><img src="/img/p.png" alt=""><a href="about.html">About</a><script src="js/app.js"></script></body></html>`,
      "css/a.css": `body { background: url(../img/p.png); }`,
      "img/p.png": PNG_2X3,
      "js/app.js": `console.log("hi")`,
    });
    const { status, html } = await page(server);
    expect(status).toBe(200);
    expect(html).toContain(`<img src="data:image/png;base64,${Buffer.from(PNG_2X3).toString("base64")}" alt="">`);
    const css = /href="data:text\/css;base64,([^"]+)"/.exec(html)![1]!;
    expect(Buffer.from(css, "base64").toString()).toBe(`body { background: url("data:image/png;base64,${Buffer.from(PNG_2X3).toString("base64")}"); }`);
    expect(html).toContain(`<script src="data:text/javascript;base64,${Buffer.from('console.log("hi")').toString("base64")}"></script>`);
    expect(html).toContain(`<a href="about.html">About</a>`);
    // The prelude runs before anything of the page.
    expect(html.indexOf("<script>(")).toBeLessThan(html.indexOf("<link"));
  });

  it("answers files with their content type, folders with their index.html, and 404 for what is missing", async () => {
    const { server } = serve({ "index.html": "<p>home</p>", "docs/index.html": "<p>docs</p>", "data.json": "{}", "font.woff2": new Uint8Array([1, 2]) });
    expect((await server.respond("/data.json", "raw")).contentType).toBe("application/json; charset=utf-8");
    expect((await server.respond("/font.woff2", "raw")).contentType).toBe("font/woff2");
    expect(await server.respond("/docs")).toMatchObject({ status: 308, location: "/docs/" });
    expect(String((await server.respond("/docs/")).body)).toContain("<p>docs</p>");
    const missing = await server.respond("/nope.css", "raw");
    expect(missing.status).toBe(404);
    const missingPage = await page(server, "/nope.html");
    expect(missingPage.status).toBe(404);
    expect(buildError(missingPage.html)?.message).toContain("404 Not found: /nope.html");
  });

  it("serves a chosen folder and never a file outside it", async () => {
    const { server } = serve({ "site/index.html": "<p>site</p>", "secret.txt": "key" }, "site");
    expect(String((await server.respond("/")).body)).toContain("<p>site</p>");
    expect((await server.respond("/../secret.txt", "raw")).status).toBe(404);
    expect((await server.respond("/%2e%2e/secret.txt", "raw")).status).toBe(404);
  });

  it("gives a single-page app's routes its index.html and serves public/ at the root, as Vite does", async () => {
    const { server } = serve({ "index.html": "<p>spa</p>", "public/robots.txt": "ok" });
    expect(String((await server.respond("/settings/profile")).body)).toContain("<p>spa</p>");
    expect(new TextDecoder().decode((await server.respond("/robots.txt", "raw")).body as Uint8Array)).toBe("ok");
  });
});

describe("preview server: modules", () => {
  it("compiles TSX with the automatic JSX runtime, keeps lines, and defines import.meta.env", async () => {
    const { server } = serve({
      "index.html": `<script type="module" src="/src/main.tsx"></script>`,
      "src/main.tsx": `import { render } from "./render";\ntype N = number;\nconst n: N = 1;\nrender(<div title={import.meta.env.MODE}>{n}</div>);\n`,
      "src/render.ts": `export function render(x: unknown): void { console.log(x); }\n`,
      "node_modules/react/package.json": JSON.stringify({ name: "react", exports: { "./jsx-runtime": { "react-server": "./nope.js", default: "./jsx-runtime.mjs" } } }),
      "node_modules/react/jsx-runtime.mjs": `export const jsx = () => null;\n`,
    });
    const { html, modules } = await page(server);
    expect(html).toContain(`<script type="module">import "${BASE}src/main.tsx";</script>`);
    const main = modules[`${BASE}src/main.tsx`]!;
    expect(main).toContain(`from "${BASE}node_modules/react/jsx-runtime.mjs"`);
    expect(main).toContain(`from "${BASE}src/render.ts"`);
    expect(main).toContain(`"MODE":"development"`);
    expect(main.split("\n").findIndex((l) => l.includes("render("))).toBe(3);
    expect(main).not.toContain(": N");
    expect(main).toContain(`//# sourceURL=${BASE}src/main.tsx`);
    expect(Object.keys(modules).sort()).toEqual([`${BASE}node_modules/react/jsx-runtime.mjs`, `${BASE}src/main.tsx`, `${BASE}src/render.ts`]);
  });

  it("turns CSS, JSON and asset imports into modules, and compiles inline module scripts", async () => {
    const { server } = serve({
      "index.html": `<script type="module">import "./a.css"; import data from "./d.json"; import logo from "./l.png"; import raw from "./t.txt?raw"; console.log(data, logo, raw);</script>`,
      "a.css": "p { color: red; }",
      "d.json": `{"x": 1}`,
      "l.png": PNG_2X3,
      "t.txt": "text",
    });
    const { modules } = await page(server);
    expect(modules[`${BASE}a.css`]).toContain(`style.textContent = "p { color: red; }"`);
    expect(modules[`${BASE}d.json`]).toMatch(/^export default \{"x":1\};/);
    expect(modules[`${BASE}l.png`]).toContain(`export default "data:image/png;base64,`);
    expect(modules[`${BASE}t.txt?raw`]).toMatch(/^export default "text";/);
  });

  it("wraps CommonJS packages: a lazy factory per file, named exports from the lexer, the other mode's build left out", async () => {
    const { server } = serve({
      "index.html": `<script type="module">import lib, { hello, fromDev } from "lib";</script>`,
      "node_modules/lib/package.json": JSON.stringify({ name: "lib", main: "index.js" }),
      "node_modules/lib/index.js": `if (process.env.NODE_ENV === "production") { module.exports = require("./cjs/lib.production.js"); } else { module.exports = require("./cjs/lib.development.js"); }`,
      "node_modules/lib/cjs/lib.development.js": `const util = require("./util");\nexports.hello = () => util.name;\nexports.fromDev = true;\n`,
      "node_modules/lib/cjs/lib.production.js": `exports.hello = () => "prod";\n`,
      "node_modules/lib/cjs/util.js": `module.exports = { name: "util" };\n`,
    });
    const { modules } = await page(server);
    const facade = modules[`${BASE}node_modules/lib/index.js`]!;
    expect(facade).toContain(`export { __e0 as "hello" }`);
    expect(facade).toContain(`as "fromDev"`);
    const factory = modules[`${BASE}node_modules/lib/index.js?cjs`]!;
    expect(factory).toContain(`"./cjs/lib.development.js": __r0`);
    expect(factory).not.toMatch(/"\.\/cjs\/lib\.production\.js": /);
    expect(Object.keys(modules)).not.toContain(`${BASE}node_modules/lib/cjs/lib.production.js?cjs`);
    expect(modules[`${BASE}node_modules/lib/cjs/lib.development.js?cjs`]).toContain(`"./util": __r0`);
    // The package's own code starts on line 1 of its module (stack traces point at the right line).
    expect(factory.split("\n")[0]).toContain(`if ("development" === "production")`);
  });

  it("runs the React starter's graph: react, react-dom/client and scheduler from node_modules", async () => {
    const { server } = serve(
      {
        "index.html": `<div id="root"></div><script type="module" src="/src/main.tsx"></script>`,
        "src/main.tsx": `import { createRoot } from "react-dom/client";\nimport { useState } from "react";\nfunction App() { const [n] = useState(0); return <p>{n}</p>; }\ncreateRoot(document.getElementById("root")!).render(<App />);\n`,
      },
      "",
      ["react", "react-dom", "scheduler"],
    );
    const { modules } = await page(server);
    expect(modules[`${BASE}node_modules/react/index.js`]).toContain(`as "useState"`);
    expect(modules[`${BASE}node_modules/react-dom/client.js`]).toContain(`as "createRoot"`);
    expect(Object.keys(modules)).toContain(`${BASE}node_modules/scheduler/index.js?cjs`);
    expect(Object.keys(modules).some((url) => url.includes(".production."))).toBe(false);
  });

  it("reports a syntax error and a missing module with file and line instead of a page", async () => {
    const { server, fs } = serve({
      "index.html": `<script type="module" src="src/main.tsx"></script>`,
      "src/main.tsx": `const a = 1;\n\nconst b = (;\n`,
    });
    expect(buildError((await page(server)).html)).toMatchObject({ file: "src/main.tsx", line: 3, message: expect.stringMatching(/^Syntax error/) });
    fs.write("src/main.tsx", `import "./ok";\nimport x from "./missing";\nconsole.log(x);\n`);
    fs.write("src/ok.ts", "export {};");
    server.compiler.forgetResolutions();
    expect(buildError((await page(server)).html)).toMatchObject({ file: "src/main.tsx", line: 2, message: expect.stringContaining(`"./missing" was not found`) });
    fs.write("src/main.tsx", `import React from "react";\nconsole.log(React);\n`);
    expect(buildError((await page(server)).html)?.message).toContain(`the package "react" is not installed`);
  });

  it("recompiles only what changed on a save", async () => {
    const { server, fs } = serve({ "index.html": `<script type="module" src="a.ts"></script>`, "a.ts": `import "./b";\nexport const a: number = 1;`, "b.ts": `export const b = 2;` });
    const first = (await page(server)).modules;
    fs.write("a.ts", `import "./b";\nexport const a: number = 3;`);
    const second = (await page(server)).modules;
    expect(second[`${BASE}a.ts`]).toContain("= 3");
    expect(second[`${BASE}b.ts`]).toBe(first[`${BASE}b.ts`]);
  });
});

describe("module resolution", () => {
  it("follows package exports with the browser and import conditions and subpath patterns", () => {
    const exports = { ".": { node: "./node.js", browser: { import: "./browser.mjs" }, default: "./index.js" }, "./features/*": "./src/features/*.js", "./package.json": "./package.json" };
    expect(exportTarget(exports, ".")).toBe("./browser.mjs");
    expect(exportTarget(exports, "./features/a")).toBe("./src/features/a.js");
    expect(exportTarget(exports, "./private")).toBeUndefined();
    expect(exportTarget("./main.js", ".")).toBe("./main.js");
  });

  it("resolves TypeScript's .js specifiers to .ts files, folders to their index, and walks up to node_modules", async () => {
    const fs = new MapPreviewFiles({
      "src/a.ts": "",
      "src/lib/index.tsx": "",
      "node_modules/pkg/package.json": JSON.stringify({ module: "esm/index.js", main: "cjs/index.js" }),
      "node_modules/pkg/esm/index.js": "",
    });
    const resolver = new ModuleResolver(fs, "");
    expect(await resolver.resolve("./a.js", "src/main.ts")).toBe("src/a.ts");
    expect(await resolver.resolve("./lib", "src/main.ts")).toBe("src/lib/index.tsx");
    expect(await resolver.resolve("/src/a", "index.html")).toBe("src/a.ts");
    expect(await resolver.resolve("pkg", "src/deep/x.ts")).toBe("node_modules/pkg/esm/index.js");
    await expect(resolver.resolve("node:fs", "src/a.ts")).rejects.toThrow(/cannot be imported in the preview/);
  });
});
