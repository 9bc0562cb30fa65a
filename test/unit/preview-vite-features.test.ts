// What the built-in preview does the way Vite does (issue 28): import.meta.env from .env files,
// CSS modules, import.meta.glob, and the warnings for what it does not do (PostCSS, Tailwind,
// Vite plugins).
import { describe, expect, it } from "vitest";
import { PreviewServer } from "../../src/runtime/preview/preview-server";
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
