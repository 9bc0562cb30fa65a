// `npm run bench`: measurement scripts (bench/*.measure.ts) run in Node by Vitest, one at a time.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["bench/**/*.measure.ts"],
    environment: "node",
    testTimeout: 600000,
    hookTimeout: 300000,
    fileParallelism: false,
    setupFiles: ["test/support/setup-unit.ts"],
  },
});
