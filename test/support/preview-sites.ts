// Sites for the built-in preview's tests and benchmark: a static site, a Vite React + TypeScript
// starter whose react, react-dom and scheduler are copied from this repository's node_modules (as
// `npm install` would put them), and small pages that misbehave. Each is a list of zip entries.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { buildZip, type BuildEntry } from "./zip-builder";
import { resolveIn, walkPackage } from "./installed-packages";

/** A 2×3 red PNG. */
export const PNG_2X3 = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEklEQVR4nGP4z8DAwMDAxAADABcwAv+Y3lU0AAAAAElFTkSuQmCC", "base64"),
);

export function staticSite(): BuildEntry[] {
  return [
    { name: "site/index.html", data: `<!doctype html>\n<html><head><meta charset="utf-8"><title>Home</title><link rel="stylesheet" href="css/style.css"></head>\n<body><h1>Home page</h1><img id="logo" src="img/logo.png" alt="logo"><a id="about" href="about.html">About</a><p id="data">loading</p>\n<script src="js/app.js"></script></body></html>\n` },
    { name: "site/about.html", data: `<!doctype html><html><head><link rel="stylesheet" href="/css/style.css"></head><body><h1>About us</h1><a href="./">Home</a></body></html>\n` },
    { name: "site/css/style.css", data: `h1 { color: rgb(10, 20, 30); }\nbody { background: url("../img/logo.png"); }\n` },
    { name: "site/js/app.js", data: `fetch("data/info.json").then((r) => r.json()).then((d) => { document.getElementById("data").textContent = d.message; });\n` },
    { name: "site/data/info.json", data: `{ "message": "hello from json" }\n` },
    { name: "site/img/logo.png", data: PNG_2X3 },
  ];
}

function packageFiles(name: string, files: string[]): BuildEntry[] {
  return files.map((file) => ({ name: `app/node_modules/${name}/${file}`, data: readFileSync(`node_modules/${name}/${file}`) }));
}

/** `npm create vite` (react-ts), trimmed, with its packages installed. */
export function reactStarter(app = DEFAULT_APP): BuildEntry[] {
  return [
    {
      name: "app/package.json",
      data: JSON.stringify({ name: "app", private: true, type: "module", scripts: { dev: "vite", build: "tsc -b && vite build" }, dependencies: { react: "^19", "react-dom": "^19" } }, null, 2),
    },
    { name: "app/index.html", data: `<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <title>Vite + React + TS</title>\n  </head>\n  <body>\n    <div id="root"></div>\n    <script type="module" src="/src/main.tsx"></script>\n  </body>\n</html>\n` },
    { name: "app/src/main.tsx", data: `import { StrictMode } from "react";\nimport { createRoot } from "react-dom/client";\nimport "./index.css";\nimport App from "./App.tsx";\n\ncreateRoot(document.getElementById("root")!).render(\n  <StrictMode>\n    <App />\n  </StrictMode>,\n);\n` },
    { name: "app/src/App.tsx", data: app },
    { name: "app/src/index.css", data: `#root { font-family: sans-serif; }\nbutton { color: rgb(200, 0, 0); }\n` },
    { name: "app/src/config.json", data: `{ "title": "Vite + React" }\n` },
    { name: "app/src/vite-env.d.ts", data: `/// <reference types="vite/client" />\n` },
    ...packageFiles("react", ["package.json", "index.js", "jsx-runtime.js", "jsx-dev-runtime.js", "cjs/react.development.js", "cjs/react.production.js", "cjs/react-jsx-runtime.development.js", "cjs/react-jsx-runtime.production.js"]),
    ...packageFiles("react-dom", ["package.json", "index.js", "client.js", "cjs/react-dom.development.js", "cjs/react-dom.production.js", "cjs/react-dom-client.development.js", "cjs/react-dom-client.production.js"]),
    ...packageFiles("scheduler", ["package.json", "index.js", "cjs/scheduler.development.js", "cjs/scheduler.production.js"]),
  ];
}

export const DEFAULT_APP = `import { useState } from "react";
import config from "./config.json";

interface Props {
  start?: number;
}

function App({ start = 0 }: Props) {
  const [count, setCount] = useState<number>(start);
  return (
    <>
      <h1>{config.title}</h1>
      <p id="mode">{import.meta.env.MODE} {String(import.meta.env.DEV)}</p>
      <button onClick={() => setCount((c) => c + 1)}>count is {count}</button>
    </>
  );
}

export default App;
`;

export async function importZip(page: Page, name: string, entries: BuildEntry[]): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Import zip" }).click()]);
  await chooser.setFiles({ name, mimeType: "application/zip", buffer: Buffer.from(buildZip(entries)) });
  const dialog = page.getByRole("dialog", { name: "Import" });
  await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(1);
  const keep = dialog.getByRole("checkbox", { name: "Keep node_modules" });
  // The dialog offers the checkbox once it has read the zip: a zip with packages waits for it (else
  // the import would drop them, and the packages' absence would be what the test sees).
  if (entries.some((entry) => entry.name.includes("node_modules/"))) await keep.waitFor({ timeout: 10_000 });
  if ((await keep.count()) > 0 && !(await keep.isChecked())) await keep.check();
  await dialog.getByRole("button", { name: "Import" }).click();
  await expect.poll(() => dialog.count(), { timeout: 30_000 }).toBe(0);
}

/** A page that probes what it can reach of webcode, and buttons that try to take over or hang. */
export function hostileSite(): BuildEntry[] {
  const probe = `const results = { origin: self.origin };
try { indexedDB.open("webcode"); results.indexedDB = "opened"; } catch (e) { results.indexedDB = e.name; }
try { results.parentDocument = String(parent.document.title); } catch (e) { results.parentDocument = e.name; }
try { localStorage.setItem("x", "1"); results.localStorage = "ok"; } catch (e) { results.localStorage = e.name; }
try { results.cookie = document.cookie; } catch (e) { results.cookie = e.name; }
document.getElementById("out").textContent = JSON.stringify(results);
document.getElementById("top").onclick = () => {
  try { top.location.href = "https://example.invalid/"; document.getElementById("nav").textContent = "navigated"; }
  catch (e) { document.getElementById("nav").textContent = e.name; }
};
document.getElementById("hang").onclick = () => { setTimeout(() => { for (;;) {} }, 50); document.getElementById("nav").textContent = "hanging"; };
`;
  return [
    { name: "evil/index.html", data: `<!doctype html><html><body><pre id="out"></pre><p id="nav"></p><button id="top">Take over</button><button id="hang">Hang</button><script src="probe.js"></script></body></html>` },
    { name: "evil/probe.js", data: probe },
  ];
}

/** The starter with `App.tsx` replaced (errors at known lines). */
export function brokenApp(app: string): BuildEntry[] {
  return reactStarter(app);
}

/**
 * The React starter with what Vite does besides compiling (issue 28): a CSS module composing from
 * another, .env, public/, ?raw, import.meta.glob, and a Tailwind + PostCSS config the preview does
 * not run (bolt.new's default template has one).
 */
export function viteFeaturesStarter(): BuildEntry[] {
  const app = `import styles from "./App.module.css";
import notes from "./notes.txt?raw";
import logo from "/vite.svg";

const pages = import.meta.glob("./pages/*.ts", { eager: true, import: "default" });

function App() {
  return (
    <>
      <h1 className={styles.title}>Vite + React</h1>
      <p id="env">{import.meta.env.VITE_API_URL} {String(import.meta.env.DB_PASSWORD)} {import.meta.env.MODE}</p>
      <p id="raw">{notes}</p>
      <p id="glob">{Object.entries(pages).map(([k, v]) => k + "=" + v).join(",")}</p>
      <img id="logo" src={logo} alt="logo" />
      <p className="title" id="global">global</p>
    </>
  );
}

export default App;
`;
  return [
    ...reactStarter(app).map((entry) =>
      entry.name === "app/src/index.css" ? { name: entry.name, data: `@tailwind base;\n@tailwind utilities;\n${String(entry.data)}` } : entry,
    ),
    { name: "app/src/App.module.css", data: `.title { composes: base from "./shared.module.css"; color: rgb(0, 128, 0); }\n` },
    { name: "app/src/shared.module.css", data: `.base { font-style: italic; }\n` },
    { name: "app/src/notes.txt", data: `raw text` },
    { name: "app/src/pages/a.ts", data: `export default "A";\n` },
    { name: "app/src/pages/b.ts", data: `export default "B";\n` },
    { name: "app/.env", data: `VITE_API_URL=https://api.example.test\nDB_PASSWORD=hunter2\n` },
    { name: "app/public/vite.svg", data: `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="5"></svg>` },
    { name: "app/postcss.config.js", data: `export default {\n  plugins: {\n    tailwindcss: {},\n    autoprefixer: {},\n  },\n};\n` },
    { name: "app/tailwind.config.js", data: `export default { content: ["./index.html", "./src/**/*.{ts,tsx}"], theme: { extend: {} }, plugins: [] };\n` },
  ];
}

/**
 * Packages as `npm install` leaves them in `folder/node_modules`: `names` and every package they
 * depend on, copied from this repository's node_modules (found as Node finds them: nested first,
 * then up). Docs, maps and type declarations are left out.
 */
export function installedPackages(names: string[], folder: string): BuildEntry[] {
  const entries: BuildEntry[] = [];
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    const dir = resolveIn(process.cwd(), name, from);
    if (!dir || seen.has(dir)) return;
    seen.add(dir);
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    const keep = (file: string) => !/\.(md|map|d\.ts|d\.mts|d\.cts|flow)$|^(LICENSE|CHANGELOG|license)/i.test(path.basename(file));
    for (const [file, data] of Object.entries(walkPackage(dir, keep, (at) => readFileSync(at)))) entries.push({ name: `${folder}/${dir}/${file}`, data: data as Uint8Array });
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, dir);
  };
  for (const name of names) visit(name, ".");
  return entries;
}

/** bolt.new's default template's CSS set-up: Tailwind v3 through postcss.config.js (tailwindcss, autoprefixer). */
export const TAILWIND_POSTCSS_CONFIG = `export default {\n  plugins: {\n    tailwindcss: {},\n    autoprefixer: {},\n  },\n};\n`;
export const TAILWIND_CONFIG = `/** @type {import('tailwindcss').Config} */\nexport default {\n  content: ['./index.html', './src/**/*.{js,ts,jsx,tsx}'],\n  theme: {\n    extend: {},\n  },\n  plugins: [],\n};\n`;
export const TAILWIND_APP = `function App() {
  return (
    <main className="min-h-screen bg-gray-100">
      <h1 id="title" className="bg-red-500 p-4 text-white">Vite + React + Tailwind</h1>
      <p id="plain" className="select-none">plain</p>
    </main>
  );
}

export default App;
`;

/**
 * A Vite + React + TypeScript starter styled by Tailwind v3 with postcss.config.js (tailwindcss,
 * autoprefixer), as bolt.new makes one, with react, tailwindcss, autoprefixer and postcss installed
 * from this repository's node_modules. `src/index.css` has the three @tailwind directives and one
 * rule autoprefixer adds a prefix to.
 */
export function tailwindStarter(app = TAILWIND_APP): BuildEntry[] {
  return [
    ...reactStarter(app).map((entry) => {
      if (entry.name === "app/src/index.css") return { name: entry.name, data: `@tailwind base;\n@tailwind components;\n@tailwind utilities;\n\n.select-none-plain {\n  user-select: none;\n}\n` };
      if (entry.name !== "app/package.json") return entry;
      const manifest = JSON.parse(String(entry.data)) as Record<string, unknown>;
      return { name: entry.name, data: JSON.stringify({ ...manifest, devDependencies: { autoprefixer: "^10.4.18", postcss: "^8.4.35", tailwindcss: "^3.4.1" } }, null, 2) };
    }),
    { name: "app/postcss.config.js", data: TAILWIND_POSTCSS_CONFIG },
    { name: "app/tailwind.config.js", data: TAILWIND_CONFIG },
    ...installedPackages(["tailwindcss", "autoprefixer", "postcss"], "app"),
  ];
}

/**
 * A full-stack starter: the React starter with `app` as App.tsx, a vite.config whose server.proxy
 * sends /api to localhost:3001, `server` as server.mjs, and Express from this repository's node_modules.
 */
export function fullStackStarter(app: string, server: string): BuildEntry[] {
  return [
    ...reactStarter(app),
    { name: "app/vite.config.js", data: `import { defineConfig } from "vite";\nimport react from "@vitejs/plugin-react";\nexport default defineConfig({ plugins: [react()], server: { proxy: { "/api": "http://localhost:3001" } } });\n` },
    { name: "app/server.mjs", data: server },
    ...installedPackages(["express"], "app"),
  ];
}
