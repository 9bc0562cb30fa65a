// Vite: the app build, the dev server (with the cross-origin isolation headers WebContainer needs)
// and the Vitest unit-test configuration.
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

export const ISOLATION_HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
};

export default defineConfig({
  plugins: [react()],
  server: { headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
  worker: { format: "es" },
  build: {
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 8000,
  },
  test: {
    include: ["test/unit/**/*.test.ts", "test/unit/**/*.test.tsx"],
    environment: "node",
    testTimeout: 20000,
    pool: "threads",
    setupFiles: ["test/support/setup-unit.ts"],
  },
});
