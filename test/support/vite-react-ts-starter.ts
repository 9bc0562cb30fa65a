// The Vite React + TypeScript starter as `npm create vite@latest -- --template react-ts` makes it
// (create-vite's template-react-ts, MIT), written out here for the tests and the bench, with its
// dependency ranges set to the versions installed in this repository (the fake registry serves
// those). Left out: its ESLint set-up (eslint.config.js, the `lint` script and the devDependencies
// eslint, @eslint/js, eslint-plugin-react-hooks, eslint-plugin-react-refresh, globals and
// typescript-eslint), which are not installed here, so the fake registry cannot serve them.
// The React logo is a smaller drawing than the template's; everything else is the template's text.
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The packages `npm install` of the starter asks the registry for (besides their dependencies). */
export const STARTER_PACKAGES = ["react", "react-dom", "@types/react", "@types/react-dom", "@types/node", "@vitejs/plugin-react", "typescript", "vite", "lightningcss-wasm"];

const PACKAGE_JSON = {
  name: "vite-react-ts",
  private: true,
  version: "0.0.0",
  type: "module",
  scripts: { dev: "vite", build: "tsc -b && vite build", preview: "vite preview" },
  dependencies: { react: "^19.3.1", "react-dom": "^19.3.1" },
  devDependencies: {
    "@types/node": "^22.20.5",
    "@types/react": "^19.3.0",
    "@types/react-dom": "^19.3.0",
    "@vitejs/plugin-react": "^6.3.0",
    typescript: "~6.0.3",
    vite: "^8.3.8",
  },
};

const COMPILER_CHECKS = {
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  erasableSyntaxOnly: true,
  noFallthroughCasesInSwitch: true,
  noUncheckedSideEffectImports: true,
};

const BUNDLER_MODE = {
  moduleResolution: "bundler",
  allowImportingTsExtensions: true,
  verbatimModuleSyntax: true,
  moduleDetection: "force",
  noEmit: true,
};

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The starter's files: path in the project → text. */
export function viteReactTsStarter(): Record<string, string> {
  return {
    "package.json": json(PACKAGE_JSON),
    ".gitignore": "node_modules\ndist\ndist-ssr\n*.local\n",
    "README.md": "# React + TypeScript + Vite\n\nThis template provides a minimal setup to get React working in Vite with HMR.\n",
    "index.html": `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/vite.svg" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>vite-react-ts</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`,
    "tsconfig.json": json({ files: [], references: [{ path: "./tsconfig.app.json" }, { path: "./tsconfig.node.json" }] }),
    "tsconfig.app.json": json({
      compilerOptions: {
        tsBuildInfoFile: "./node_modules/.tmp/tsconfig.app.tsbuildinfo",
        target: "ES2022",
        useDefineForClassFields: true,
        lib: ["ES2022", "DOM", "DOM.Iterable"],
        module: "ESNext",
        types: ["vite/client"],
        skipLibCheck: true,
        ...BUNDLER_MODE,
        jsx: "react-jsx",
        ...COMPILER_CHECKS,
      },
      include: ["src"],
    }),
    "tsconfig.node.json": json({
      compilerOptions: {
        tsBuildInfoFile: "./node_modules/.tmp/tsconfig.node.tsbuildinfo",
        target: "ES2023",
        lib: ["ES2023"],
        module: "ESNext",
        types: ["node"],
        skipLibCheck: true,
        ...BUNDLER_MODE,
        ...COMPILER_CHECKS,
      },
      include: ["vite.config.ts"],
    }),
    "vite.config.ts": `import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// https://vite.dev/config/
export default defineConfig({
  plugins: [react()],
})
`,
    "public/vite.svg": `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" aria-hidden="true" role="img" class="iconify iconify--logos" width="31.88" height="32" preserveAspectRatio="xMidYMid meet" viewBox="0 0 256 257"><defs><linearGradient id="IconifyId1813088fe1fbc01fb466" x1="-.828%" x2="57.636%" y1="7.652%" y2="78.411%"><stop offset="0%" stop-color="#41D1FF"></stop><stop offset="100%" stop-color="#BD34FE"></stop></linearGradient><linearGradient id="IconifyId1813088fe1fbc01fb467" x1="43.376%" x2="50.316%" y1="2.242%" y2="89.03%"><stop offset="0%" stop-color="#FFEA83"></stop><stop offset="8.333%" stop-color="#FFDD35"></stop><stop offset="100%" stop-color="#FFA800"></stop></linearGradient></defs><path fill="url(#IconifyId1813088fe1fbc01fb466)" d="M255.153 37.938L134.897 252.976c-2.483 4.44-8.862 4.466-11.382.048L.875 37.958c-2.746-4.814 1.371-10.646 6.827-9.67l120.385 21.517a6.537 6.537 0 0 0 2.322-.004l117.867-21.483c5.438-.991 9.574 4.796 6.877 9.62Z"></path><path fill="url(#IconifyId1813088fe1fbc01fb467)" d="M185.432.063L96.44 17.501a3.268 3.268 0 0 0-2.634 3.014l-5.474 92.456a3.268 3.268 0 0 0 3.997 3.378l24.777-5.718c2.318-.535 4.413 1.507 3.936 3.838l-7.361 36.047c-.495 2.426 1.782 4.5 4.151 3.78l15.304-4.649c2.372-.72 4.652 1.36 4.15 3.788l-11.698 56.621c-.732 3.542 3.979 5.473 5.943 2.437l1.313-2.028l72.516-144.72c1.215-2.423-.88-5.186-3.54-4.672l-25.505 4.922c-2.396.462-4.435-1.77-3.759-4.114l16.646-57.705c.677-2.35-1.37-4.583-3.769-4.113Z"></path></svg>
`,
    "src/vite-env.d.ts": `/// <reference types="vite/client" />\n`,
    "src/main.tsx": `import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './index.css'
import App from './App.tsx'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
`,
    "src/App.tsx": `import { useState } from 'react'
import reactLogo from './assets/react.svg'
import viteLogo from '/vite.svg'
import './App.css'

function App() {
  const [count, setCount] = useState(0)

  return (
    <>
      <div>
        <a href="https://vite.dev" target="_blank">
          <img src={viteLogo} className="logo" alt="Vite logo" />
        </a>
        <a href="https://react.dev" target="_blank">
          <img src={reactLogo} className="logo react" alt="React logo" />
        </a>
      </div>
      <h1>Vite + React</h1>
      <div className="card">
        <button onClick={() => setCount((count) => count + 1)}>
          count is {count}
        </button>
        <p>
          Edit <code>src/App.tsx</code> and save to test HMR
        </p>
      </div>
      <p className="read-the-docs">
        Click on the Vite and React logos to learn more
      </p>
    </>
  )
}

export default App
`,
    "src/App.css": `#root {
  max-width: 1280px;
  margin: 0 auto;
  padding: 2rem;
  text-align: center;
}

.logo {
  height: 6em;
  padding: 1.5em;
  will-change: filter;
  transition: filter 300ms;
}
.logo:hover {
  filter: drop-shadow(0 0 2em #646cffaa);
}
.logo.react:hover {
  filter: drop-shadow(0 0 2em #61dafbaa);
}

@keyframes logo-spin {
  from {
    transform: rotate(0deg);
  }
  to {
    transform: rotate(360deg);
  }
}

@media (prefers-reduced-motion: no-preference) {
  a:nth-of-type(2) .logo {
    animation: logo-spin infinite 20s linear;
  }
}

.card {
  padding: 2em;
}

.read-the-docs {
  color: #888;
}
`,
    "src/index.css": `:root {
  font-family: system-ui, Avenir, Helvetica, Arial, sans-serif;
  line-height: 1.5;
  font-weight: 400;

  color-scheme: light dark;
  color: rgba(255, 255, 255, 0.87);
  background-color: #242424;

  font-synthesis: none;
  text-rendering: optimizeLegibility;
  -webkit-font-smoothing: antialiased;
  -moz-osx-font-smoothing: grayscale;
}

a {
  font-weight: 500;
  color: #646cff;
  text-decoration: inherit;
}
a:hover {
  color: #535bf2;
}

body {
  margin: 0;
  display: flex;
  place-items: center;
  min-width: 320px;
  min-height: 100vh;
}

h1 {
  font-size: 3.2em;
  line-height: 1.1;
}

button {
  border-radius: 8px;
  border: 1px solid transparent;
  padding: 0.6em 1.2em;
  font-size: 1em;
  font-weight: 500;
  font-family: inherit;
  background-color: #1a1a1a;
  cursor: pointer;
  transition: border-color 0.25s;
}
button:hover {
  border-color: #646cff;
}
button:focus,
button:focus-visible {
  outline: 4px auto -webkit-focus-ring-color;
}

@media (prefers-color-scheme: light) {
  :root {
    color: #213547;
    background-color: #ffffff;
  }
  a:hover {
    color: #747bff;
  }
  button {
    background-color: #f9f9f9;
  }
}
`,
    "src/assets/react.svg": `<svg xmlns="http://www.w3.org/2000/svg" aria-hidden="true" role="img" class="iconify iconify--logos" width="35.93" height="32" preserveAspectRatio="xMidYMid meet" viewBox="0 0 256 228"><g fill="none" stroke="#00D8FF" stroke-width="12"><ellipse cx="128" cy="114" rx="120" ry="46"></ellipse><ellipse cx="128" cy="114" rx="120" ry="46" transform="rotate(60 128 114)"></ellipse><ellipse cx="128" cy="114" rx="120" ry="46" transform="rotate(120 128 114)"></ellipse></g><circle cx="128" cy="114" r="23" fill="#00D8FF"></circle></svg>
`,
  };
}

/**
 * Writes the starter into `folder` with a node_modules of links to this repository's installed
 * packages (so the machine's Node builds it with the native Rolldown; `npm run build` works there),
 * and a folder of its own for what tsc -b writes there (node_modules/.tmp).
 */
export function writeNativeStarter(folder: string, installed = path.resolve("node_modules")): void {
  for (const [file, text] of Object.entries(viteReactTsStarter())) {
    mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    writeFileSync(path.join(folder, file), text);
  }
  mkdirSync(path.join(folder, "node_modules/.bin"), { recursive: true });
  for (const entry of readdirSync(installed)) {
    if (entry === ".bin" || entry.startsWith(".")) continue;
    symlinkSync(path.join(installed, entry), path.join(folder, "node_modules", entry));
  }
  // npm run finds the binaries here, as npm install links them.
  symlinkSync("../typescript/bin/tsc", path.join(folder, "node_modules/.bin/tsc"));
  symlinkSync("../vite/bin/vite.js", path.join(folder, "node_modules/.bin/vite"));
}

/**
 * The environment of a user's shell for the native build: the test runner's own variables left out
 * (vitest sets NODE_ENV=test, with which Vite bundles React's development build).
 */
export function shellEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && name !== "TEST" && !name.startsWith("VITEST")));
}
