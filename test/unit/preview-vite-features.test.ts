// What the built-in preview does the way Vite does (issue 28): import.meta.env from .env files,
// CSS modules, import.meta.glob, and the warnings for what it does not do (PostCSS, Tailwind,
// Vite plugins).
import { describe, expect, it } from "vitest";
import { PreviewServer } from "../../src/runtime/preview/preview-server";
import { compileCssModule, scopedClassName } from "../../src/runtime/preview/css-modules";
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
    const { server } = serve({
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
  });
});
