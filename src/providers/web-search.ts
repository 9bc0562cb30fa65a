// Web search run by the model's provider itself (OpenAI Responses' web_search, Anthropic's
// web_search, Gemini's Google Search grounding): no CORS and no extra key from a browser tab, but
// each search is billed by the provider, so it is offered only where the user turned it on for that
// provider in Settings. The tools are the provider packages' own (provider-executed: the provider
// runs the searches inside the request and streams the results and citations back).
import type { ToolSet } from "ai";
import { providerPackages } from "./packages";
import type { ProviderConfig } from "./types";

/** Searches Anthropic may run in one request (its web search bills per search). */
export const ANTHROPIC_MAX_SEARCHES = 5;

/** What the request carries when web search is on: the provider's tool under the name it must have. */
export interface WebSearchOffer {
  tools: ToolSet;
  /** The provider's display name, for the permission card. */
  provider: string;
}

/** Whether the provider has a search tool of its own (OpenAI only over the Responses API). */
export function supportsWebSearch(config: Pick<ProviderConfig, "kind" | "api">): boolean {
  return (config.kind === "openai" && config.api !== "chat") || config.kind === "anthropic" || config.kind === "google";
}

/**
 * Gemini takes Google Search beside function tools only from Gemini 3 on; for older models the AI
 * SDK would send the search alone and drop every webcode tool, so they are not offered it. (The
 * same split as @ai-sdk/google's own: any "gemini-" model that is not 1.x, 2.x or "gemini-pro".)
 */
export function geminiMixesSearchWithTools(modelId: string): boolean {
  return /(^|[/.])gemini-/i.test(modelId) && !/(^|[/.])gemini-[12](?:[.-]|$)/i.test(modelId) && !/(^|[/.])gemini-pro(?:-vision)?$/i.test(modelId);
}

/**
 * The provider's search tool for `modelId` when the user turned it on for this provider; undefined
 * otherwise. Async: the tool comes from the provider's package, which loads on first use.
 */
export async function webSearchOffer(config: ProviderConfig, modelId: string): Promise<WebSearchOffer | undefined> {
  if (!config.webSearch || !supportsWebSearch(config)) return undefined;
  switch (config.kind) {
    case "openai": {
      const { openai } = await providerPackages.openai();
      return { provider: config.name, tools: { web_search: openai.tools.webSearch({}) } };
    }
    case "anthropic": {
      const { anthropic } = await providerPackages.anthropic();
      return { provider: config.name, tools: { web_search: anthropic.tools.webSearch_20250305({ maxUses: ANTHROPIC_MAX_SEARCHES }) } };
    }
    case "google": {
      if (!geminiMixesSearchWithTools(modelId)) return undefined;
      const { google } = await providerPackages.google();
      // The name Gemini requires for it.
      return { provider: config.name, tools: { google_search: google.tools.googleSearch({}) } };
    }
    default:
      return undefined;
  }
}
