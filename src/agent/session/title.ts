// Session titles (docs/agent.md, "Titles"): on the first step of a top-level session, the provider's small model
// names the session in the background; the first non-empty line of its answer, cut to 100 chars.
import { streamText } from "ai";
import type { ModelRef, SessionRecord } from "../../storage";
import type { SessionEnv } from "./env";
import type { AgentInfo } from "./services";

export const DEFAULT_SESSION_TITLE = "New session";
export const TITLE_MAX_CHARS = 100;
export const TITLE_TEMPERATURE = 0.5;

/** The first non-empty line of a model's answer, without reasoning blocks or wrapping quotes. */
export function cleanTitle(text: string): string | undefined {
  const withoutThinking = text.replace(/<think>[\s\S]*?<\/think>/gi, "");
  for (const raw of withoutThinking.split(/\r?\n/)) {
    const line = raw.trim().replace(/^["'`*#\s]+|["'`*\s]+$/g, "").trim();
    if (line !== "") return line.slice(0, TITLE_MAX_CHARS);
  }
  return undefined;
}

export function hasDefaultTitle(session: SessionRecord): boolean {
  return session.title === DEFAULT_SESSION_TITLE || session.title.trim() === "";
}

/** Asks the small model for a title; resolves with it (also saved) or undefined. Never throws. */
export async function generateTitle(
  env: SessionEnv,
  input: { sessionId: string; model: ModelRef; userText: string; agent: AgentInfo | undefined; abort: AbortSignal },
): Promise<string | undefined> {
  try {
    const ref = env.providers.smallModel(input.model);
    const info = env.providers.modelInfo(ref);
    const call = env.providers.callOptions?.(ref, { purpose: "title" });
    const sampling = call?.sampling ?? info?.capabilities.temperature !== false;
    const result = streamText({
      model: env.providers.languageModel(ref),
      instructions: input.agent?.prompt ?? env.services.prompts.title,
      messages: [{ role: "user", content: input.userText }],
      maxRetries: 1,
      abortSignal: input.abort,
      // Never an option the model rejects: no temperature for reasoning models, the least reasoning.
      ...(sampling && { temperature: input.agent?.temperature ?? TITLE_TEMPERATURE }),
      ...(call?.reasoning !== undefined && { reasoning: call.reasoning }),
      ...(call?.providerOptions && { providerOptions: call.providerOptions as Parameters<typeof streamText>[0]["providerOptions"] }),
      onError: () => {},
    });
    const title = cleanTitle(await result.text);
    if (!title) return undefined;
    // The user may have renamed it meanwhile; theirs wins.
    const updated = await env.store.updateSession(input.sessionId, (session) =>
      hasDefaultTitle(session) ? { ...session, title, updatedAt: env.now() } : session,
    );
    if (updated?.title !== title) return undefined;
    await env.store.flush(input.sessionId);
    return title;
  } catch {
    return undefined; // a missing title is cosmetic; the turn goes on
  }
}
