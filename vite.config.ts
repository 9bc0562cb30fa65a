// Vite: the app build, the dev server (with the cross-origin isolation headers WebContainer needs)
// and Vitest's three projects: unit (Node), e2e (Playwright + Chromium on the built app), bench.
import "./scripts/node20-polyfills";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

export const ISOLATION_HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  // credentialless, not require-corp: cross-origin no-cors requests still load (without cookies), so
  // "Test connection" can probe a provider that refuses CORS and report it as such instead of "down".
  "Cross-Origin-Embedder-Policy": "credentialless",
  // Nothing of the app is meant to be embedded by other sites.
  "Cross-Origin-Resource-Policy": "same-origin",
};

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
 * `vite build --mode e2e` (npm run build:e2e) is the app the browser tests drive: identical except
 * that "@webcontainer/api", which boots from StackBlitz's servers, is a fake whose boot a test can
 * make hang, fail or succeed (test/support/fake-webcontainer-api.ts). It goes to dist-e2e/, so
 * dist/ is always the real app.
 */
const E2E_MODE = "e2e";

export default defineConfig(({ mode }) => ({
  plugins: [react(), devCsp],
  resolve:
    mode === E2E_MODE
      ? { alias: { "@webcontainer/api": fileURLToPath(new URL("./test/support/fake-webcontainer-api.ts", import.meta.url)) } }
      : undefined,
  server: { headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
  worker: { format: "es" },
  build: {
    outDir: mode === E2E_MODE ? "dist-e2e" : "dist",
    target: "es2022",
    manifest: true,
    chunkSizeWarningLimit: 8000,
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts", "test/unit/**/*.test.tsx"],
          environment: "node",
          testTimeout: 20000,
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
