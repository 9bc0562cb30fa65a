// Lint: correctness rules for TypeScript and React plus the layer rule (design.md "Layers").
import tseslint from "typescript-eslint";
import layers from "./scripts/lint/layers.js";
import recordVersions from "./scripts/lint/record-versions.js";

const DOM_GLOBALS = ["window", "document", "localStorage", "sessionStorage", "navigator"].map((name) => ({
  name,
  message: `This layer runs in Node too (tests, benchmarks): no "${name}". Take what you need as a parameter.`,
}));

export default tseslint.config(
  { ignores: ["dist/**", "dist-e2e/**", "node_modules/**", "test/fixtures/wasm-builds/node_modules/**", "test-results/**", ".bench/**", "coverage/**"] },
  ...tseslint.configs.recommended,
  {
    plugins: { local: { rules: { ...layers.rules, ...recordVersions.rules } } },
    rules: {
      "local/layers": "error",
      "local/record-versions": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "no-debugger": "error",
      eqeqeq: ["error", "smart"],
    },
  },
  {
    files: ["src/agent/**", "src/storage/**", "src/base/**", "src/providers/**"],
    rules: { "no-restricted-globals": ["error", ...DOM_GLOBALS] },
  },
  {
    // The chat UI talks to the agent through its port (src/ui/chat/agent-port.ts): the agent's types
    // only, so the chat chunk never pulls the agent core in and the facade stays the one way in.
    files: ["src/ui/chat/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/agent", "**/agent/**"],
              allowTypeImports: true,
              message: "src/ui/chat imports only types from the agent; take values through the ChatAgent port.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
