// Projects for the Preview's differential suite against a real `vite build`
// (test/e2e/preview-vite-differential.e2e.ts): each fixture is a small Vite project whose app writes
// what it sees into the DOM, and the facts the test reads off the page, as data. Adding a feature
// (PostCSS/Tailwind, say) is one more fixture in FIXTURES; the harness needs no change.

/** One fact read off the rendered page, the same way on the built site and in the Preview. */
export type Probe =
  /** The element's text (values the app wrote into the DOM). */
  | { fact: string; text: string }
  /** A computed style of the element (the effect of CSS, whatever its class names are). */
  | { fact: string; style: string; property: string }
  /**
   * The element's class names are scoped: how many there are, and that none is one of `source`
   * (the names in the .module.css files). The names themselves differ by design between Vite's
   * build and the Preview, so only this is compared.
   */
  | { fact: string; scopedClasses: string; source: string[] }
  /** The natural width of an image (it loaded, and it is the file that was meant). */
  | { fact: string; imageWidth: string };

export interface DifferentialFixture {
  name: string;
  /** The project's files, by path from its root. */
  files: Record<string, string>;
  /**
   * Packages the project uses from this repository's node_modules (with their dependencies): Vite's
   * build finds them through a link to node_modules, the Preview gets them in the imported zip.
   */
  packages?: string[];
  /** The app sets this attribute on <body> once everything it shows is written (async imports, fetches). */
  doneAttribute: string;
  probes: Probe[];
  /** Some facts as Vite's build must show them: the fixture exercises its features (not both sides failing alike). */
  viteShows: Record<string, unknown>;
  /** Facts known to differ between the Preview and Vite, each with its reason (a bug to fix, named). */
  knownDifferences?: Record<string, string>;
}

const VITE_FEATURES_MAIN = `import styles from "./card.module.css";
import base from "./base.module.css";
import "./global.css";
import notes from "./notes.txt?raw";
import notesUrl from "./notes.txt?url";

const eager = import.meta.glob("./pages/*.ts", { eager: true, import: "default" }) as Record<string, string>;
const lazy = import.meta.glob("./pages/*.ts") as Record<string, () => Promise<{ default: string }>>;
const rawGlob = import.meta.glob("./pages/*.txt", { eager: true, query: "?raw", import: "default" }) as Record<string, string>;

const root = document.querySelector("#app")!;
function show(id: string, value: unknown, className = ""): HTMLElement {
  const element = document.createElement("p");
  element.id = id;
  if (className !== "") element.className = className;
  element.textContent = typeof value === "string" ? value : JSON.stringify(value);
  root.append(element);
  return element;
}

// CSS modules: a scoped class composing another file's, a global rule inside a module, the keys.
show("card", "card", styles.card);
show("plain", "not the module's .card", "card");
show("shout", "shout", "shout");
show("module-keys", { card: Object.keys(styles).sort(), base: Object.keys(base).sort() });
show("composes-base", styles.card.split(" ").includes(base.base));

// .env, .env.local, .env.[mode]: VITE_* only, the later file winning; Vite's own keys.
const env = import.meta.env;
show("env", {
  VITE_SHARED: env.VITE_SHARED,
  VITE_LOCAL: env.VITE_LOCAL,
  VITE_MODE_FILE: env.VITE_MODE_FILE,
  VITE_OVERRIDDEN: env.VITE_OVERRIDDEN,
  DB_PASSWORD: String(env.DB_PASSWORD),
  BASE_URL: env.BASE_URL,
  SSR: env.SSR,
});
show("env-mode", { MODE: env.MODE, DEV: env.DEV, PROD: env.PROD });
show("env-keys", Object.keys(env).sort());

// ?raw and ?url.
show("raw", notes);
const fetched = fetch(notesUrl)
  .then((response) => response.text())
  .then((text) => show("url", text), (error: unknown) => show("url", "failed: " + String(error)));

// public/ at the root: an image and a JSON file.
const logo = document.createElement("img");
logo.id = "logo";
logo.alt = "logo";
const logoLoaded = new Promise((resolve) => {
  logo.addEventListener("load", resolve, { once: true });
  logo.addEventListener("error", resolve, { once: true });
});
logo.src = "/logo.svg";
root.append(logo);
const tagLogo = document.querySelector<HTMLImageElement>("#logo-tag")!;
const tagLogoLoaded = tagLogo.complete
  ? Promise.resolve()
  : new Promise((resolve) => {
      tagLogo.addEventListener("load", resolve, { once: true });
      tagLogo.addEventListener("error", resolve, { once: true });
    });
const publicJson = fetch("/data.json")
  .then((response) => response.json())
  .then((data) => show("public-json", data), (error: unknown) => show("public-json", "failed: " + String(error)));

// import.meta.glob: eager, lazy, and with a query.
show("glob-eager", Object.entries(eager).sort());
show("glob-raw", Object.entries(rawGlob).sort());
const lazyLoaded = Promise.all(Object.entries(lazy).sort().map(async ([key, load]) => [key, (await load()).default])).then((entries) => show("glob-lazy", entries));

Promise.all([fetched, logoLoaded, tagLogoLoaded, publicJson, lazyLoaded]).then(() => document.body.setAttribute("data-done", "true"));
`;

/** What a starter leans on that the built-in Preview claims to do as Vite does (issue 28 point 2). */
const viteFeatures: DifferentialFixture = {
  name: "Vite features (CSS modules, .env files, public/, ?raw/?url, import.meta.glob)",
  files: {
    "package.json": JSON.stringify({ name: "app", private: true, type: "module", scripts: { dev: "vite", build: "vite build" } }, null, 2),
    "index.html": `<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <title>Differential</title>\n  </head>\n  <body>\n    <div id="app"></div>\n    <img id="logo-tag" src="/logo.svg" alt="logo" />\n    <script type="module" src="/src/main.ts"></script>\n  </body>\n</html>\n`,
    "src/main.ts": VITE_FEATURES_MAIN,
    "src/vite-env.d.ts": `/// <reference types="vite/client" />\n`,
    "src/card.module.css": `.card { composes: base from "./base.module.css"; color: rgb(0, 128, 0); }\n:global(.shout) { text-transform: uppercase; }\n.unused { color: rgb(1, 2, 3); }\n`,
    "src/base.module.css": `.base { font-style: italic; letter-spacing: 2px; }\n`,
    "src/global.css": `#plain { font-weight: 700; }\n`,
    "src/notes.txt": "raw text, 'quoted' and `ticked`\nsecond line\n",
    "src/pages/a.ts": `export default "A";\n`,
    "src/pages/b.ts": `export default "B";\n`,
    "src/pages/c.txt": "C as text\n",
    ".env": "VITE_SHARED=from .env\nVITE_OVERRIDDEN=from .env\nDB_PASSWORD=hunter2\n",
    ".env.local": "VITE_LOCAL=from .env.local\nVITE_OVERRIDDEN=from .env.local\n",
    ".env.development": "VITE_MODE_FILE=from .env.development\n",
    ".env.production": "VITE_MODE_FILE=from .env.production\n",
    "public/logo.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="5"></svg>`,
    "public/data.json": `{ "from": "public/" }\n`,
  },
  doneAttribute: "data-done",
  probes: [
    { fact: "card: color (the module's rule)", style: "#card", property: "color" },
    { fact: "card: font-style (composed from base.module.css)", style: "#card", property: "font-style" },
    { fact: "card: letter-spacing (composed from base.module.css)", style: "#card", property: "letter-spacing" },
    { fact: "card: its class names are scoped", scopedClasses: "#card", source: ["card", "base", "unused"] },
    { fact: "plain .card: untouched by the module's .card", style: "#plain", property: "color" },
    { fact: "plain: a global stylesheet's rule", style: "#plain", property: "font-weight" },
    { fact: ":global(.shout) in a module", style: "#shout", property: "text-transform" },
    { fact: "CSS module keys", text: "#module-keys" },
    { fact: "composes names the other module's scoped class", text: "#composes-base" },
    { fact: "import.meta.env (VITE_*, BASE_URL, SSR)", text: "#env" },
    { fact: "import.meta.env MODE/DEV/PROD (a development build: the dev server's values)", text: "#env-mode" },
    { fact: "import.meta.env keys", text: "#env-keys" },
    { fact: "?raw", text: "#raw" },
    { fact: "?url (the file it points at)", text: "#url" },
    { fact: "public/ image at the root", imageWidth: "#logo" },
    { fact: "public/ image at the root, in the page's tags", imageWidth: "#logo-tag" },
    { fact: "public/ JSON at the root", text: "#public-json" },
    { fact: "import.meta.glob eager", text: "#glob-eager" },
    { fact: "import.meta.glob with ?raw", text: "#glob-raw" },
    { fact: "import.meta.glob lazy", text: "#glob-lazy" },
  ],
  viteShows: {
    "card: color (the module's rule)": "rgb(0, 128, 0)",
    "card: font-style (composed from base.module.css)": "italic",
    "card: its class names are scoped": { count: 2, scoped: true },
    ":global(.shout) in a module": "uppercase",
    "import.meta.env (VITE_*, BASE_URL, SSR)":
      '{"VITE_SHARED":"from .env","VITE_LOCAL":"from .env.local","VITE_MODE_FILE":"from .env.development","VITE_OVERRIDDEN":"from .env.local","DB_PASSWORD":"undefined","BASE_URL":"/","SSR":false}',
    "?url (the file it points at)": "raw text, 'quoted' and `ticked`\nsecond line\n",
    "public/ image at the root": 4,
    "public/ image at the root, in the page's tags": 4,
    "public/ JSON at the root": '{"from":"public/"}',
    "import.meta.glob lazy": '[["./pages/a.ts","A"],["./pages/b.ts","B"]]',
  },
};

const TAILWIND_MAIN = `import "./index.css";

const root = document.querySelector("#app")!;
// A class that only a script names: Tailwind finds it by scanning src/ (its content globs).
const badge = document.createElement("span");
badge.id = "badge";
badge.className = "rounded-lg border-4 border-blue-600 px-3";
badge.textContent = "badge";
root.append(badge);
document.body.setAttribute("data-done", "true");
`;

/** PostCSS with the project's config: Tailwind v3 and autoprefixer, as bolt.new's starter has them. */
const tailwind: DifferentialFixture = {
  name: "PostCSS with Tailwind v3 and autoprefixer (postcss.config.js)",
  packages: ["tailwindcss", "autoprefixer", "postcss"],
  files: {
    "package.json": JSON.stringify(
      {
        name: "tailwind-app",
        private: true,
        type: "module",
        scripts: { dev: "vite", build: "vite build" },
        devDependencies: { autoprefixer: "^10.4.18", postcss: "^8.4.35", tailwindcss: "^3.4.1" },
      },
      null,
      2,
    ),
    "index.html": `<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <title>Tailwind</title>\n  </head>\n  <body>\n    <div id="app">\n      <h1 id="title" class="bg-red-500 p-4 text-white text-2xl font-bold">Title</h1>\n      <p id="applied" class="note">applied</p>\n      <button id="button" class="hover:bg-blue-700">button</button>\n    </div>\n    <script type="module" src="/src/main.ts"></script>\n  </body>\n</html>\n`,
    "src/main.ts": TAILWIND_MAIN,
    "src/index.css": `@tailwind base;\n@tailwind components;\n@tailwind utilities;\n\n.note {\n  @apply italic text-green-700 tracking-wide;\n}\n`,
    // `relative: true`: the globs are the config file's, wherever the build runs from.
    "tailwind.config.js": `/** @type {import('tailwindcss').Config} */\nexport default {\n  content: { relative: true, files: ["./index.html", "./src/**/*.{js,ts}"] },\n  theme: { extend: {} },\n  plugins: [],\n};\n`,
    "postcss.config.js": `export default {\n  plugins: {\n    tailwindcss: {},\n    autoprefixer: {},\n  },\n};\n`,
  },
  doneAttribute: "data-done",
  probes: [
    { fact: "bg-red-500", style: "#title", property: "background-color" },
    { fact: "p-4", style: "#title", property: "padding-top" },
    { fact: "text-white", style: "#title", property: "color" },
    { fact: "text-2xl", style: "#title", property: "font-size" },
    { fact: "font-bold", style: "#title", property: "font-weight" },
    { fact: "Preflight: h1 margin", style: "#title", property: "margin-top" },
    { fact: "Preflight: body margin", style: "body", property: "margin-top" },
    { fact: "Preflight: button background", style: "#button", property: "background-color" },
    { fact: "@apply italic", style: "#applied", property: "font-style" },
    { fact: "@apply text-green-700", style: "#applied", property: "color" },
    { fact: "@apply tracking-wide", style: "#applied", property: "letter-spacing" },
    { fact: "a class only a script names: rounded-lg", style: "#badge", property: "border-top-left-radius" },
    { fact: "a class only a script names: border-blue-600", style: "#badge", property: "border-top-color" },
    { fact: "a class only a script names: border-4", style: "#badge", property: "border-top-width" },
  ],
  viteShows: {
    "bg-red-500": "rgb(239, 68, 68)",
    "p-4": "16px",
    "Preflight: body margin": "0px",
    "@apply italic": "italic",
    "a class only a script names: rounded-lg": "8px",
  },
};

export const FIXTURES: DifferentialFixture[] = [viteFeatures, tailwind];

/**
 * Reads every probe's fact off the page: a browser-side function, kept as source text so that the
 * test's compiler adds nothing to it (helpers it injects do not exist in the page).
 */
export const READ_FACTS = `(body, probes) => {
  const facts = {};
  for (const probe of probes) {
    const selector = probe.text ?? probe.style ?? probe.scopedClasses ?? probe.imageWidth;
    const element = body.ownerDocument.querySelector(selector);
    if (!element) { facts[probe.fact] = "(no element " + selector + ")"; continue; }
    if (probe.text !== undefined) facts[probe.fact] = element.textContent;
    else if (probe.style !== undefined) facts[probe.fact] = getComputedStyle(element).getPropertyValue(probe.property);
    else if (probe.imageWidth !== undefined) facts[probe.fact] = element.naturalWidth;
    else {
      const names = [...element.classList];
      facts[probe.fact] = { count: names.length, scoped: names.length > 0 && names.every((name) => !probe.source.includes(name)) };
    }
  }
  return facts;
}`;
