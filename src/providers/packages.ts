// The AI SDK's provider packages, each loaded on first use: a chat with one provider configured
// downloads and evaluates only that package (the four together are ~680 KB of the agent's code).
export const providerPackages = {
  openai: () => import("@ai-sdk/openai"),
  anthropic: () => import("@ai-sdk/anthropic"),
  google: () => import("@ai-sdk/google"),
  compatible: () => import("@ai-sdk/openai-compatible"),
};
