// What the built-in preview does the way Vite does (issue 28): import.meta.env from .env files,
// CSS modules, import.meta.glob, and the warnings for what it does not do (PostCSS, Tailwind,
// Vite plugins).
import { describe, expect, it } from "vitest";
import { PreviewServer } from "../../src/runtime/preview/preview-server";
import { compileCssModule, scopedClassName } from "../../src/runtime/preview/css-modules";
import { configNotices, postcssPluginsOf, postcssSyntaxOf, vitePluginsOf } from "../../src/runtime/preview/unsupported";
import { findGlobCalls, globToRegExp, relativeSpecifier } from "../../src/runtime/preview/import-glob";
import { parseDotenv, viteEnv } from "../../src/runtime/preview/vite-env";
import { MapPreviewFiles } from "../support/preview-files";

const BASE = "http://app.test/__preview/s1/";

function serve(files: Record<string, string | Uint8Array>, root = "") {
  const fs = new MapPreviewFiles(files);
  return { fs, server: new PreviewServer(fs, { base: BASE, root }) };
}

async function modules(server: PreviewServer, path = "/"): Promise<Record<string, string>> {
  const html = String((await server.respond(path)).body);
  const map = /<script type="importmap">(.*?)<\/script>/s.exec(html);
  const imports = map ? (JSON.parse(map[1]!) as { imports: Record<string, string> }).imports : {};
  return Object.fromEntries(Object.entries(imports).map(([url, data]) => [url.slice(BASE.length), Buffer.from(data.split(",")[1]!, "base64").toString("utf8")]));
}

/** Runs a compiled module's `import.meta.env` expression: what the page would see. */
function envOf(code: string): Record<string, unknown> {
  const match = /const env = \(\((\{.*?\})\)\);/.exec(code);
  return JSON.parse(match![1]!) as Record<string, unknown>;
}

describe("import.meta.env from .env files", () => {
  it("parses KEY=VALUE lines with export, quotes and comments", () => {
    expect(parseDotenv(`# c\nexport A=1\nB = "two words" # note\nC='x#y'\nD=plain value # comment\nE="l1\\nl2"\n\nbad line\n`)).toEqual({
      A: "1",
      B: "two words",
      C: "x#y",
      D: "plain value",
      E: "l1\nl2",
    });
  });

  it("applies .env, .env.local, .env.[mode], .env.[mode].local in order and exposes only VITE_*", () => {
    const env = viteEnv([`VITE_A=env\nVITE_B=env\nSECRET=s`, `VITE_B=local`, `VITE_C=mode`, undefined], "development");
    expect(env).toEqual({ VITE_A: "env", VITE_B: "local", VITE_C: "mode", BASE_URL: "/", MODE: "development", DEV: true, PROD: false, SSR: false });
  });

  it("defines the served folder's VITE_ variables in the compiled modules, and reads them again after a save", async () => {
    const { fs, server } = serve({
      "app/index.html": `<script type="module" src="/src/main.ts"></script>`,
      "app/src/main.ts": `const env = (import.meta.env);\nconsole.log(import.meta.env.VITE_API_URL);\n`,
      "app/.env": `VITE_API_URL=https://api.example.test\nDB_PASSWORD=hunter2\n`,
      "app/.env.development.local": `VITE_FLAG=on\n`,
      ".env": `VITE_OUTSIDE=no\n`,
    }, "app");
    let main = (await modules(server))["src/main.ts"]!;
    expect(envOf(main)).toEqual({ VITE_API_URL: "https://api.example.test", VITE_FLAG: "on", BASE_URL: "/", MODE: "development", DEV: true, PROD: false, SSR: false });
    expect(main).not.toContain("hunter2");
    fs.write("app/.env", `VITE_API_URL=http://changed.test\n`);
    main = (await modules(server))["src/main.ts"]!;
    expect(envOf(main).VITE_API_URL).toBe("http://changed.test");
  });
});

describe("CSS modules", () => {
  it("scopes class names, maps them in the exports, keeps :global, and applies composes within the file", () => {
    const css = `.base { color: red; }\n/* .comment */\n.box { composes: base; padding: 1px; }\n:global(.page) .box:hover, .title { color: blue; }\n@media (min-width: 1px) { .box { margin: 0; } }\n.ext { composes: shared from "./shared.module.css"; composes: g from global; }\n`;
    const result = compileCssModule(css, "src/App.module.css");
    const s = (name: string) => scopedClassName(name, "src/App.module.css");
    expect(result.exports).toEqual({ base: s("base"), box: `${s("box")} ${s("base")}`, title: s("title"), ext: `${s("ext")} g` });
    expect(result.css).toBe(
      `.${s("base")} { color: red; }\n/* .comment */\n.${s("box")} { padding: 1px; }\n.page .${s("box")}:hover, .${s("title")} { color: blue; }\n@media (min-width: 1px) { .${s("box")} { margin: 0; } }\n.${s("ext")} { }\n`,
    );
    expect(result.imports).toEqual([{ from: "./shared.module.css", names: ["shared"], into: "ext" }]);
    expect(s("box")).toMatch(/^_box_[a-z0-9]{1,5}$/);
    expect(scopedClassName("box", "src/Other.module.css")).not.toBe(s("box"));
  });

  it("compiles `import styles from './App.module.css'` to scoped CSS in the page and the names as exports, composes from another file included", async () => {
    const { fs, server } = serve({
      "index.html": `<script type="module" src="/src/main.ts"></script>`,
      "src/main.ts": `import styles, { box } from "./App.module.css";\nconsole.log(styles.box, box);\n`,
      "src/App.module.css": `.box { composes: shared from "./shared.module.css"; color: red; }\n`,
      "src/shared.module.css": `.shared { margin: 0; }\n`,
    });
    const all = await modules(server);
    const app = all["src/App.module.css"]!;
    const box = scopedClassName("box", "src/App.module.css");
    const shared = scopedClassName("shared", "src/shared.module.css");
    expect(app).toContain(`import "${BASE}src/shared.module.css";`);
    expect(app).toContain(`const __names = {"box":"${box} ${shared}"};`);
    expect(app).toContain(`export default __names;`);
    expect(app).toContain(`export { __n0 as "box" };`);
    expect(app).toContain(JSON.stringify(`.${box} { color: red; }\n`));
    expect(all["src/shared.module.css"]).toContain(JSON.stringify(`.${shared} { margin: 0; }\n`));
    // Plain CSS files stay global.
    expect(app).not.toContain(`.box {`);
    // A class renamed in the file composed from: the importer is compiled again, and says what is missing.
    fs.write("src/shared.module.css", `.common { margin: 0; }\n`);
    expect(String((await server.respond("/")).body)).toContain(`composes: class \\"shared\\" is not in src/shared.module.css`);
  });
});

describe("what the preview does not do is said, never silent", () => {
  it("names the plugins of PostCSS configs and of vite.config, and the PostCSS syntax of a CSS file", () => {
    expect(postcssPluginsOf(`export default {\n  plugins: {\n    tailwindcss: {},\n    autoprefixer: {},\n  },\n}\n`)).toEqual(["tailwindcss", "autoprefixer"]);
    expect(postcssPluginsOf(`module.exports = { plugins: [require("tailwindcss"), require("autoprefixer")] };`)).toEqual(["tailwindcss", "autoprefixer"]);
    expect(postcssPluginsOf(`export default { plugins: { "@tailwindcss/postcss": {} } };`)).toEqual(["@tailwindcss/postcss"]);
    expect(vitePluginsOf(`import { defineConfig } from 'vite'\nimport react from '@vitejs/plugin-react'\nimport path from "node:path";\nimport vue from "@vitejs/plugin-vue";\nimport tw from "@tailwindcss/vite";`)).toEqual(["@vitejs/plugin-vue", "@tailwindcss/vite"]);
    expect(vitePluginsOf(`import { defineConfig } from 'vite'\nimport react from '@vitejs/plugin-react-swc'`)).toEqual([]);
    expect(postcssSyntaxOf(`@tailwind base;\n@tailwind components;`)).toBe("@tailwind");
    expect(postcssSyntaxOf(`@import "tailwindcss";`)).toBe(`@import "tailwindcss"`);
    expect(postcssSyntaxOf(`.a { @apply p-4; }`)).toBe("@apply");
    expect(postcssSyntaxOf(`/* @tailwind base; */ .a { color: red }`)).toBeUndefined();
  });

  it("gives no notice for a plain Vite + React project", async () => {
    const files: Record<string, string> = { "vite.config.ts": `import { defineConfig } from "vite";\nimport react from "@vitejs/plugin-react";\nexport default defineConfig({ plugins: [react()] });\n` };
    expect(await configNotices(async (name) => files[name])).toEqual([]);
  });

  it("puts the notices in the page (PostCSS config, Tailwind config, @tailwind in an imported CSS file), and in the error page", async () => {
    const { fs, server } = serve({
      "index.html": `<head><link rel="stylesheet" href="/base.css"></head><script type="module" src="/src/main.ts"></script>`,
      "base.css": `@apply x;`,
      "src/main.ts": `import "./index.css";\n`,
      "src/index.css": `@tailwind base;\n@tailwind utilities;\n`,
      "postcss.config.js": `export default { plugins: { tailwindcss: {}, autoprefixer: {} } };\n`,
      "tailwind.config.js": `export default {};\n`,
    });
    const html = String((await server.respond("/")).body);
    const notices = (JSON.parse(/"notices":(\[.*?\])[,}]/.exec(html)![1]!) as string[]);
    expect(notices).toEqual([
      "PostCSS (postcss.config.js: tailwindcss, autoprefixer) is not applied by the built-in preview; WebContainer runs it.",
      "Tailwind (tailwind.config.js) is not applied by the built-in preview: its utility classes have no effect here; WebContainer runs it.",
      "base.css uses @apply, which needs PostCSS/Tailwind: the built-in preview does not apply it (the CSS is used as written); WebContainer runs it.",
      "src/index.css uses @tailwind, which needs PostCSS/Tailwind: the built-in preview does not apply it (the CSS is used as written); WebContainer runs it.",
    ]);
    // The prelude shows them: a visible notice on the page and a section of the error overlay.
    expect(html).toContain("webcode-preview-notice");
    expect(html).toContain("The built-in preview differs from Vite here");
    fs.write("src/main.ts", `import "./missing";\n`);
    const error = String((await server.respond("/")).body);
    expect(error).toContain(`"buildError":`);
    expect(error).toContain("PostCSS (postcss.config.js: tailwindcss, autoprefixer) is not applied");
  });
});

describe("import.meta.glob", () => {
  it("matches *, ** and {a,b} and reads the call's literal options", () => {
    expect(globToRegExp("src/pages/*.tsx").test("src/pages/a.tsx")).toBe(true);
    expect(globToRegExp("src/pages/*.tsx").test("src/pages/x/a.tsx")).toBe(false);
    expect(globToRegExp("src/**/*.md").test("src/a.md")).toBe(true);
    expect(globToRegExp("src/**/*.md").test("src/x/y/a.md")).toBe(true);
    expect(globToRegExp("src/*.{ts,tsx}").test("src/a.tsx")).toBe(true);
    expect(relativeSpecifier("src/pages", "src/lib/a.ts")).toBe("../lib/a.ts");
    expect(relativeSpecifier("src", "src/pages/a.ts")).toBe("./pages/a.ts");
    const source = `const m = import.meta.glob(["./a/*.ts", "!./a/skip.ts"], { eager: true, import: 'default', query: '?raw' });`;
    expect(findGlobCalls(source)).toEqual([
      { start: 10, end: source.length - 1, patterns: ["./a/*.ts", "!./a/skip.ts"], eager: true, importName: "default", query: "?raw" },
    ]);
  });

  it("compiles lazy and eager globs, import: 'default' and query: '?raw', against the workspace's files", async () => {
    const { fs, server } = serve({
      "index.html": `<script type="module" src="/src/main.ts"></script>`,
      "src/main.ts": [
        `const lazy = import.meta.glob("./pages/*.ts");`,
        `const eager = import.meta.glob("./pages/*.ts", { eager: true, import: "default" });`,
        `const texts = import.meta.glob("/content/**/*.md", { eager: true, query: "?raw", import: "default" });`,
        `console.log(lazy, eager, texts);`,
      ].join("\n"),
      "src/pages/a.ts": `export default "A";\n`,
      "src/pages/b.ts": `export default "B";\n`,
      "src/pages/nested/c.ts": `export default "C";\n`,
      "content/x.md": `# X\n`,
      "content/deep/y.md": `# Y\n`,
    });
    const all = await modules(server);
    const main = all["src/main.ts"]!;
    const lines = main.split("\n");
    expect(lines[0]).toContain(`import { default as __glob_1_0 } from "${BASE}src/pages/a.ts";`);
    expect(lines[0]).toContain(`import { default as __glob_2_2 } from "${BASE}content/deep/y.md?raw";`);
    expect(lines[0]).toContain(`const lazy = ({"./pages/a.ts": () => import("${BASE}src/pages/a.ts"), "./pages/b.ts": () => import("${BASE}src/pages/b.ts")});`);
    expect(lines[1]).toBe(`const eager = ({"./pages/a.ts": __glob_1_0, "./pages/b.ts": __glob_1_1});`);
    expect(lines[2]).toBe(`const texts = ({"/content/deep/y.md": __glob_2_2, "/content/x.md": __glob_2_3});`);
    expect(all["content/x.md?raw"]).toContain(`export default "# X\\n";`);
    // A file added later is matched by the next build.
    fs.write("src/pages/d.ts", `export default "D";\n`);
    server.compiler.forgetResolutions();
    expect((await modules(server))["src/main.ts"]).toContain(`"./pages/d.ts": __glob_1_`);
  });
});

describe("public/ at the root of the site", () => {
  it("serves /vite.svg from public/ to the page's tags, its CSS url()s and its imports; ?raw and ?url imports", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"/>`;
    const { server } = serve({
      "app/index.html": `<head><link rel="icon" href="/vite.svg"></head><img src="/vite.svg"><script type="module" src="/src/main.ts"></script>`,
      "app/public/vite.svg": svg,
      "app/src/main.ts": `import logo from "/vite.svg";\nimport text from "./notes.txt?raw";\nimport href from "./notes.txt?url";\nimport "./a.css";\nconsole.log(logo, text, href);\n`,
      "app/src/notes.txt": `hello`,
      "app/src/a.css": `body { background: url(/vite.svg); }`,
    }, "app");
    const html = String((await server.respond("/")).body);
    const data = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
    expect(html).toContain(`<link rel="icon" href="${data}">`);
    expect(html).toContain(`<img src="${data}">`);
    const all = await modules(server);
    expect(all["src/main.ts"]).toContain(`import logo from "${BASE}public/vite.svg";`);
    expect(all["public/vite.svg"]).toContain(`export default ${JSON.stringify(data)};`);
    expect(all["src/notes.txt?raw"]).toContain(`export default "hello";`);
    expect(all["src/notes.txt?url"]).toContain(`export default "data:text/plain;base64,`);
    expect(all["src/a.css"]).toContain(`url(\\"${data}\\")`);
  });
});
