// Compaction (docs/agent.md, "Context"): the hidden compaction agent summarises everything before the last turns
// into one assistant message marked `summary: true`; loading skips what it summarised. After an
// automatic compaction a synthetic "continue" message resumes the turn.
import { newAssistantMessage, newPart, newUserMessage } from "../../storage";
import { type AssistantMessageRecord, type ModelRef, type SessionRecord, type UserMessageRecord } from "../../storage";
import type { SessionEnv } from "./env";
import { compactionPart, isTurnStart, lastAssistant } from "./history";
import { toModelMessages } from "./model-messages";
import { processStep } from "./processor";
import type { AgentInfo } from "./services";
import type { MessageWithParts } from "./store";
import { contextTokens, usableContext } from "./usage";

/** Turns kept verbatim after the summary (fewer when they alone would crowd the context). */
export const COMPACTION_KEEP_TURNS = 2;
/** Tool outputs in the summarised part are cut to this many characters for the summary request. */
export const COMPACTION_TOOL_OUTPUT_CHARS = 2000;
/** The kept turns may use at most this share of the usable context. */
export const COMPACTION_TAIL_SHARE = 0.3;
/** What the summary request asks after the transcript (the system prompt holds the format). */
export const COMPACTION_REQUEST = "Summarise the conversation above now, in the format your instructions describe.";

/** chars / 4: the token estimate of docs/agent.md, "Context". */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function messageTokens(message: MessageWithParts): number {
  let chars = 0;
  for (const part of message.parts) {
    if (part.type === "text" || part.type === "reasoning") chars += part.text.length;
    else if (part.type === "tool") {
      chars += JSON.stringify(part.state.input ?? {}).length;
      if (part.state.status === "completed" && part.state.compactedAt === undefined) chars += part.state.output.length;
      if (part.state.status === "error") chars += part.state.error.length;
    } else if (part.type === "provider-tool") {
      // Sent back whole (search results, code output): it fills the context too.
      chars += JSON.stringify(part.state.input ?? {}).length + JSON.stringify(part.state.output ?? null).length;
    }
  }
  return Math.ceil(chars / 4);
}

/** Tokens of what a finished call produced after the provider counted it: its tool results. */
function toolResultTokens(message: MessageWithParts): number {
  let chars = 0;
  for (const part of message.parts) {
    if (part.type !== "tool") continue;
    if (part.state.status === "completed" && part.state.compactedAt === undefined) chars += part.state.output.length;
    if (part.state.status === "error") chars += part.state.error.length;
  }
  return Math.ceil(chars / 4);
}

/**
 * The context the next request will fill, estimated before it is sent (docs/agent.md, "Context"): the last call's
 * context as the provider counted it (which includes the system prompt and tool schemas), plus the
 * tool results and messages added after it. Without such a call (first request, after a summary, a
 * provider that reports no usage) the estimate of the messages plus `overhead`, the system prompt and
 * tool schemas every request carries.
 */
export function nextRequestTokens(history: MessageWithParts[], overhead: number): number {
  const last = lastAssistant(history, true);
  // A summary's usage counts the transcript it summarised, not what the next request carries.
  if (last && last.info.role === "assistant" && !last.info.summary) {
    const counted = contextTokens(last.info.tokens);
    if (counted > 0) {
      let added = toolResultTokens(last);
      for (const later of history) if (later.info.id > last.info.id) added += messageTokens(later);
      return counted + added;
    }
  }
  return overhead + history.reduce((sum, message) => sum + messageTokens(message), 0);
}

/** Adds a compaction request to the session; the loop runs it on its next pass. */
export async function queueCompaction(
  env: SessionEnv,
  session: SessionRecord,
  input: { auto: boolean; agent: string; model: ModelRef },
): Promise<UserMessageRecord> {
  const message: UserMessageRecord = newUserMessage({ sessionId: session.id, agent: input.agent, model: input.model, synthetic: true }, env.now());
  env.store.updateMessage(message);
  env.store.updatePart(newPart({ sessionId: session.id, messageId: message.id }, { type: "compaction", auto: input.auto }, env.now()));
  await env.store.flush(session.id);
  return message;
}

/** Splits what precedes the request into the part to summarise and the turns kept verbatim. */
export function splitForCompaction(before: MessageWithParts[], tailBudget: number): { summarise: MessageWithParts[]; tail: MessageWithParts[] } {
  const starts = before.map((m, i) => (isTurnStart(m) ? i : -1)).filter((i) => i >= 0);
  for (let keep = Math.min(COMPACTION_KEEP_TURNS, starts.length); keep > 0; keep--) {
    const index = starts[starts.length - keep]!;
    const tail = before.slice(index);
    if (index === 0) continue; // nothing would be left to summarise
    if (tail.reduce((sum, m) => sum + messageTokens(m), 0) > tailBudget) continue;
    return { summarise: before.slice(0, index), tail };
  }
  return { summarise: before, tail: [] };
}

export type CompactionResult = "done" | "failed" | "aborted" | "empty";

export async function runCompaction(
  env: SessionEnv,
  input: {
    session: SessionRecord;
    request: MessageWithParts & { info: UserMessageRecord };
    /** The visible history, the request included. */
    history: MessageWithParts[];
    agent: AgentInfo;
    abort: AbortSignal;
  },
): Promise<CompactionResult> {
  const { session, request, agent, abort } = input;
  const part = compactionPart(request);
  const index = input.history.findIndex((m) => m.info.id === request.info.id);
  const before = input.history.slice(0, index < 0 ? input.history.length : index);
  if (!part || before.length === 0) {
    await env.store.removeMessages(session.id, [request.info.id]);
    return "empty";
  }

  const modelRef = agent.model ?? request.info.model ?? session.model;
  if (!modelRef) throw new Error("No model is selected for this session; choose one in the model picker, then try again.");
  const modelInfo = env.providers.modelInfo(modelRef);
  const budget = modelInfo ? usableContext(modelInfo) * COMPACTION_TAIL_SHARE : Number.POSITIVE_INFINITY;
  const { summarise, tail } = splitForCompaction(before, budget);
  env.store.updatePart({ ...part, ...(tail[0] && { tailStartId: tail[0].info.id }) });

  const summary: AssistantMessageRecord = newAssistantMessage(
    { sessionId: session.id, parentId: request.info.id, agent: agent.name, model: modelRef, summary: true },
    env.now(),
  );
  env.store.updateMessage(summary);
  const supportsImages = modelInfo?.capabilities.images ?? false;
  const messages = toModelMessages(summarise, { supportsImages, maxToolOutputChars: COMPACTION_TOOL_OUTPUT_CHARS, toolsAsText: true });
  const call = env.providers.callOptions?.(modelRef, { purpose: "summary" });
  const sampling = call?.sampling ?? modelInfo?.capabilities.temperature !== false;
  messages.push({ role: "user", content: COMPACTION_REQUEST });
  const result = await processStep(env, {
    session,
    assistant: summary,
    agent,
    model: env.providers.languageModel(modelRef),
    modelInfo,
    system: agent.prompt ?? env.services.prompts.compaction,
    messages,
    tools: [],
    rules: agent.permission,
    abort,
    snapshots: false,
    earlierCalls: () => [],
    ...(sampling && agent.temperature !== undefined && { temperature: agent.temperature }),
    ...(call?.reasoning !== undefined && { reasoning: call.reasoning }),
    ...(call?.providerOptions && { providerOptions: call.providerOptions }),
  });
  if (abort.aborted || result.assistant.finish === "aborted") return "aborted";
  if (result.error || result.outcome === "compact") return "failed";

  if (part.auto) {
    const resume: UserMessageRecord = newUserMessage(
      { sessionId: session.id, agent: request.info.agent, ...(request.info.model && { model: request.info.model }), synthetic: true },
      env.now(),
    );
    env.store.updateMessage(resume);
    env.store.updatePart(
      newPart({ sessionId: session.id, messageId: resume.id }, { type: "text", text: env.services.prompts.continueAfterCompaction, synthetic: true }, env.now()),
    );
  }
  await env.store.flush(session.id);
  return "done";
}
