// Browser tests: Vitest drives Playwright (playwright-core + Debian's Chromium) against the built app.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/e2e/**/*.e2e.ts"],
    environment: "node",
    testTimeout: 90000,
    hookTimeout: 120000,
    fileParallelism: false,
    globalSetup: ["test/e2e/global-setup.ts"],
  },
});
