// Vite: the app build, the dev server (with the cross-origin isolation headers WebContainer needs)
// and Vitest's three projects: unit (Node), e2e (Playwright + Chromium on the built app), bench.
import "./scripts/node20-polyfills";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
// The same isolation and security headers as scripts/serve.mjs, for the dev and preview servers:
// per path by the middleware below, and the ones alike on every path in server/preview.headers.
import { SHARED_HEADERS, responseHeadersFor } from "./scripts/response-headers.mjs";
import { serviceWorkerPlugin } from "./scripts/service-worker-plugin";
import { pythonStdlibPlugin } from "./scripts/python-stdlib-plugin";
import { webcontainerOutputDecoding } from "./scripts/webcontainer-output-decoding";
import { gzippedBase64Plugin } from "./scripts/gzipped-base64-plugin";

/**
 * The dev server only: the Content-Security-Policy in index.html allows no inline script, but the
 * React plugin's HMR preamble is one. The built app keeps the policy as written.
 */
const devCsp: Plugin = {
  name: "webcode:dev-csp",
  apply: "serve",
  transformIndexHtml: (html) => html.replace("script-src 'self' 'wasm-unsafe-eval'", "script-src 'self' 'wasm-unsafe-eval' 'unsafe-inline'"),
};

/**
 * Vite's `server.headers` reach only the responses of some of its middlewares (its answer to a
 * malformed path went out without them); this one runs first, so every response carries them, and
 * answers a path that cannot be decoded with 400 like scripts/serve.mjs.
 */
const headersOnEveryResponse: Plugin = {
  name: "webcode:response-headers",
  configureServer: (server) => addHeaders(server.middlewares),
  configurePreviewServer: (server) => addHeaders(server.middlewares),
};

function addHeaders(middlewares: { use(fn: (req: IncomingMessage, res: ServerResponse, next: () => void) => void): unknown }): void {
  middlewares.use((req, res, next) => {
    const urlPath = (req.url ?? "/").split(/[?#]/, 1)[0] ?? "/";
    for (const [name, value] of Object.entries(responseHeadersFor(urlPath))) res.setHeader(name, value);
    try {
      decodeURIComponent((req.url ?? "/").split(/[?#]/, 1)[0] ?? "/");
    } catch {
      res.statusCode = 400;
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      res.end("Bad Request");
      return;
    }
    next();
  });
}

/**
 * python3's worker runs as a classic script in the sandbox (docs/architecture.md "Isolated execution
 * host"), where `import.meta` is a syntax error. Pyodide's Emscripten module uses it only to find
 * its own files, which the worker hands it from memory (src/runtime/python/worker.ts).
 */
const pyodideWithoutImportMeta: Plugin = {
  name: "webcode:pyodide-without-import-meta",
  enforce: "pre",
  transform(code, id) {
    if (!/node_modules\/pyodide\/pyodide(\.asm)?\.mjs$/.test(id)) return undefined;
    return { code: code.replaceAll("import.meta.url", JSON.stringify("https://webcode.invalid/pyodide/pyodide.asm.mjs")), map: null };
  },
};

/**
 * `vite build --mode e2e` (npm run build:e2e) is the app the browser tests drive: identical except
 * that "@webcontainer/api", which boots from StackBlitz's servers, is a fake whose boot a test can
 * make hang, fail or succeed (test/support/fake-webcontainer-api.ts). It goes to dist-e2e/, so
 * dist/ is always the real app.
 */
const E2E_MODE = "e2e";

/**
 * Worker builds only: the npm "process" package (used by the stream port readable-stream) is
 * replaced by the node runtime's shim, whose nextTick is the running program's (src/runtime/node).
 */
const processShim: Plugin = {
  name: "webcode:worker-process-shim",
  enforce: "pre",
  resolveId: (id) => (id === "process/" || id === "process" ? fileURLToPath(new URL("./src/runtime/node/process-shim.ts", import.meta.url)) : undefined),
};

export default defineConfig(({ mode }) => ({
  plugins: [react(), devCsp, headersOnEveryResponse, webcontainerOutputDecoding(), serviceWorkerPlugin(), pythonStdlibPlugin(fileURLToPath(new URL(".", import.meta.url))), gzippedBase64Plugin()],
  resolve: {
    alias: [
      // y-monaco imports "monaco-editor/esm/vs/editor/editor.api.js", a path monaco-editor's package
      // exports no longer map (its "./*.js" adds esm/vs/ itself): point it at the same module.
      { find: /^monaco-editor\/esm\/vs\/(.*)$/, replacement: "monaco-editor/$1" },
      // brotli-wasm exports only its entry; node:zlib's Brotli loads its Node glue and wasm as files
      // (src/runtime/node/builtins/brotli-codec.ts).
      { find: /^brotli-wasm\/pkg\.node\/(.*)$/, replacement: `${path.dirname(createRequire(import.meta.url).resolve("brotli-wasm"))}/pkg.node/$1` },
      ...(mode === E2E_MODE ? [{ find: "@webcontainer/api", replacement: fileURLToPath(new URL("./test/support/fake-webcontainer-api.ts", import.meta.url)) }] : []),
    ],
  },
  // Not pre-bundled in the dev server: pre-bundling skips plugins' transforms, and
  // webcontainerOutputDecoding must patch the module there too.
  optimizeDeps: { exclude: ["@webcontainer/api"] },
  // Not RESPONSE_HEADERS: Vite sets these after the middleware, and the sandbox page's framing
  // headers must stay as responseHeadersFor gave them.
  server: { headers: SHARED_HEADERS },
  preview: { headers: SHARED_HEADERS },
  // Workers are one file each: the sandbox starts them as classic scripts from text (no chunks to
  // import). Their classes and functions keep their names through minification: a program's
  // uncaught error prints its class as Node does ("SandboxFsError", never "ih [Error]").
  worker: { format: "es", plugins: () => [processShim, pyodideWithoutImportMeta, gzippedBase64Plugin()], rolldownOptions: { output: { codeSplitting: false, keepNames: true } } },
  build: {
    outDir: mode === E2E_MODE ? "dist-e2e" : "dist",
    target: "es2022",
    manifest: true,
    chunkSizeWarningLimit: 8000,
  },
  test: {
    // Through Vite's plugins, not Node's own import: the node runtime's Brotli imports brotli-wasm's
    // wasm with a query of ours (scripts/gzipped-base64-plugin.ts).
    server: { deps: { inline: [/brotli-wasm/] } },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts", "test/unit/**/*.test.tsx"],
          environment: "node",
          testTimeout: 20000,
          // expect.poll waits on work in flight; its 1 s default is too short for a loaded CI machine.
          expect: { poll: { timeout: 10_000 } },
          setupFiles: ["test/support/setup-unit.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.e2e.ts"],
          environment: "node",
          testTimeout: 90000,
          hookTimeout: 120000,
          fileParallelism: false,
          globalSetup: ["test/e2e/global-setup.ts"],
          // expect.poll's 1 s default fails a wait on the UI when the machine is busy (two cores shared
          // with a build): conditions get 10 s unless a test states its own limit (a "within a second" claim).
          expect: { poll: { timeout: 10_000 } },
          // A failure's first line shows the page errors in full (`npm test` lists first lines).
          chaiConfig: { truncateThreshold: 1000 },
        },
      },
      {
        extends: true,
        test: {
          name: "bench",
          include: ["test/bench/**/*.measure.ts"],
          environment: "node",
          testTimeout: 600000,
          hookTimeout: 300000,
          fileParallelism: false,
          setupFiles: ["test/support/setup-unit.ts"],
        },
      },
    ],
  },
}));
