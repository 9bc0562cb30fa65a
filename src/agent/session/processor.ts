// One model call of the loop (docs/agent.md, "The loop", steps 6-7): streams it with the AI SDK, turns every stream
// event into parts, retries what is retryable, records usage, cost and the step's file changes,
// and says what the loop does next: continue (tools were called), stop, or compact.
import { newPartHeader } from "../../storage";
import { NoSuchToolError, streamText, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import { errorMessage } from "../../base";
import type { CallOptions, ModelInfo } from "../../providers";
import type { AssistantMessageRecord, MessageError, PartRecord, SessionRecord, TokenUsage } from "../../storage";
import type { Rule } from "../permission";
import type { ToolDefinition } from "../tools/tool";
import type { SessionEnv } from "./env";
import { RETRY_MAX_ATTEMPTS, classifyFailure, failureToMessageError, retryDelay, sleep } from "./retry";
import type { AgentInfo, SubagentSummary } from "./services";
import { ToolCalls, storageStopOf } from "./tool-calls";
import { DEFAULT_STALL_BUDGET_MS, DEFAULT_STALL_TIMEOUT_MS, StallWatch } from "./stall-watch";
import { ProviderParts } from "./provider-parts";
import { withCacheBreakpoints } from "./cache-breakpoints";
import { addUsage } from "./usage";
import { PAUSED_FINISH, stepEnd, type StepOutcome } from "./step-end";
import { applyChunk, closeAllText, forgetAttempt, newStepState, stepFacts, type StepSinks } from "./step-state";

export { PAUSED_FINISH, type StepOutcome };

export interface StepInput {
  session: SessionRecord;
  assistant: AssistantMessageRecord;
  agent: AgentInfo;
  /** The subagents the task tool may start (empty for tool-less calls). */
  subagents?: SubagentSummary[];
  model: LanguageModel;
  modelInfo: ModelInfo | undefined;
  /** The system prompt: the part that stays the same across the steps of a session. */
  system: string;
  /** System text that may change from step to step (reminders), sent after `system`. */
  systemTail?: string;
  messages: ModelMessage[];
  tools: ToolDefinition[];
  /** Tools the provider runs itself (its web search), added to the request as they are. */
  providerTools?: ToolSet;
  rules: Rule[];
  /** Workspace rules that may only tighten `rules`. */
  limits?: Rule[];
  abort: AbortSignal;
  /** Record workspace snapshots and a patch part (off for compaction and other tool-less calls). */
  snapshots: boolean;
  /** Tool calls made earlier in this turn (doom-loop guard). */
  earlierCalls(): Array<{ tool: string; input: unknown }>;
  temperature?: number;
  topP?: number;
  /** No data for this long counts as a dropped connection (default: the model's, else 90 s). */
  stallTimeoutMs?: number;
  /** The most the step waits on silence from its last data, retries included (default: the model's, else 180 s). */
  stallBudgetMs?: number;
  /** The AI SDK reasoning setting (each provider maps it to its own form). */
  reasoning?: CallOptions["reasoning"];
  /** Provider options of this call (OpenAI store: false, Gemini includeThoughts), from the registry. */
  providerOptions?: Record<string, Record<string, unknown>>;
  /** Provider options that mark a prompt-cache breakpoint (cache-breakpoints.ts); unset: none are marked. */
  cacheBreakpoint?: Record<string, Record<string, unknown>>;
}

export interface StepResult {
  outcome: StepOutcome;
  assistant: AssistantMessageRecord;
  /** Set when the step failed for good (shown on the message). */
  error?: MessageError;
  /** Browser storage refused a tool's change (full or broken): the turn stops with this reason. */
  storageFailure?: Error;
}

export async function processStep(env: SessionEnv, input: StepInput): Promise<StepResult> {
  const { session, agent, abort } = input;
  const assistant = input.assistant;
  const calls = new ToolCalls(env, {
    session,
    assistant,
    agent,
    supportsImages: input.modelInfo?.capabilities.images ?? false,
    rules: input.rules,
    limits: input.limits ?? [],
    abort,
    earlierCalls: input.earlierCalls,
    subagents: input.subagents ?? [],
  });
  const newPart = () => newPartHeader({ sessionId: session.id, messageId: assistant.id }, env.now());

  const startSnapshot = input.snapshots ? await takeSnapshot(env, { reuseIfQuiet: true }) : undefined;
  env.store.updatePart({ ...newPart(), type: "step-start", ...(startSnapshot && { snapshot: startSnapshot }) });

  const state = newStepState();
  const provided = new ProviderParts(env, newPart);
  const sinks: StepSinks = { env, newPart, calls, provided };

  const toolSet = calls.toolSet(input.tools);
  const stallTimeoutMs = input.stallTimeoutMs ?? input.modelInfo?.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  // Unset, the budget is never shorter than one attempt's timeout (a model given 5 min gets them).
  const stallBudgetMs = input.stallBudgetMs ?? input.modelInfo?.stallBudgetMs ?? Math.max(DEFAULT_STALL_BUDGET_MS, stallTimeoutMs);
  // Silence spent by this step's attempts that stalled, and the waits before their retries.
  let silentMs = 0;
  const prompt = withCacheBreakpoints({ stable: input.system, tail: input.systemTail }, input.messages, input.cacheBreakpoint);
  for (let attempt = 1; ; attempt++) {
    const attemptParts: PartRecord[] = [];
    let streamError: unknown;
    // One attempt's own signal: the turn's abort stops it, and so does a stream that stalls.
    const attemptAbort = new AbortController();
    const forwardAbort = () => attemptAbort.abort(abort.reason);
    if (abort.aborted) forwardAbort();
    else abort.addEventListener("abort", forwardAbort, { once: true });
    const watch = new StallWatch({
      timeoutMs: stallTimeoutMs,
      budgetMs: stallBudgetMs,
      silentBeforeMs: silentMs,
      now: env.now,
      busy: () => calls.running > 0,
      onSilence: (since) => env.setStatus(session.id, { type: "busy", waitingSince: since }),
      onResume: () => env.setStatus(session.id, { type: "busy" }),
      onStall: (error) => attemptAbort.abort(error),
    });
    try {
      const result = streamText({
        model: input.model,
        instructions: prompt.instructions,
        messages: prompt.messages,
        tools: input.providerTools ? { ...toolSet, ...input.providerTools } : toolSet,
        maxRetries: 0,
        abortSignal: attemptAbort.signal,
        ...(input.temperature !== undefined && { temperature: input.temperature }),
        ...(input.topP !== undefined && { topP: input.topP }),
        ...(input.reasoning !== undefined && { reasoning: input.reasoning }),
        ...(input.providerOptions && { providerOptions: input.providerOptions as Parameters<typeof streamText>[0]["providerOptions"] }),
        repairToolCall: async ({ toolCall, tools, error }) => {
          // Models sometimes capitalise tool names ("Read"); try the lower-cased name once.
          const lower = toolCall.toolName.toLowerCase();
          if (NoSuchToolError.isInstance(error) && lower !== toolCall.toolName && lower in tools) {
            return { ...toolCall, toolName: lower };
          }
          return null;
        },
        // Errors arrive as stream parts and are handled below; the default handler would log them.
        onError: () => {},
      });
      for await (const chunk of result.stream) {
        watch.data();
        if (chunk.type === "error") {
          streamError = chunk.error;
          break;
        }
        if (chunk.type === "abort" && watch.stalled) break;
        applyChunk(state, sinks, chunk, attemptParts);
      }
    } catch (error) {
      streamError = error;
    } finally {
      watch.dispose();
      abort.removeEventListener("abort", forwardAbort);
    }
    if (abort.aborted) state.aborted = true;
    // The attempt was given up for silence: a dropped connection, retried below.
    else if (watch.stalled) streamError = attemptAbort.signal.reason;
    if (state.aborted || streamError === undefined) break;

    // An error response is the provider answering, not silence: the count starts again.
    silentMs = watch.stalled ? silentMs + watch.stalledAfterMs : 0;
    const classified = classifyFailure(streamError);
    if (classified.kind === "aborted") {
      state.aborted = true;
      break;
    }
    const retryable = classified.kind === "retryable" && attempt < RETRY_MAX_ATTEMPTS && !calls.blocked;
    const delayMs = retryable ? retryDelay(attempt, classified.headers, env.now(), classified.retryAfterMs) : 0;
    // A silent provider gets the step's budget in all, not a new timeout per attempt: no retry
    // that would start after it is spent.
    if (watch.stalled && silentMs + delayMs >= stallBudgetMs) {
      const seconds = Math.round(silentMs / 1000);
      state.failure = { kind: "stalled", message: `no data for ${seconds} s in all, over ${attempt} attempt${attempt === 1 ? "" : "s"}` };
      break;
    }
    if (watch.stalled) silentMs += delayMs;
    if (retryable) {
      // Drop what the failed attempt streamed (the retry streams it again); finished tool calls stay.
      forgetAttempt(state, attemptParts);
      for (const part of attemptParts) {
        if (part.type === "source") provided.forgetSource(part);
        await env.store.removePart(part);
      }
      // The provider runs its own tools again on the retry.
      for (const part of provided.all) {
        provided.forget(part.callId);
        await env.store.removePart(part);
      }
      for (const part of calls.all) {
        if (part.state.status !== "pending") continue;
        calls.forget(part.callId);
        await env.store.removePart(part);
      }
      const at = env.now();
      const error = failureToMessageError(classified, env.providers.providerName(assistant.model.providerId));
      env.store.updatePart({ ...newPart(), type: "retry", attempt, error: { ...error, message: classified.message }, at, delayMs });
      env.setStatus(session.id, { type: "retry", attempt, message: classified.message, nextAt: at + delayMs });
      try {
        await sleep(delayMs, abort);
      } catch {
        state.aborted = true;
        break;
      }
      env.setStatus(session.id, { type: "busy" });
      continue;
    }
    state.failure = classified;
    break;
  }

  // ---- the step is over: close everything, persist, decide ---------------------------------------
  closeAllText(state, env);
  const storageStop = storageStopOf(abort);
  calls.finishUnfinished(
    storageStop ? storageStop.message : state.aborted ? "aborted" : state.failure ? `interrupted: ${state.failure.message}` : "interrupted",
  );
  provided.finishUnfinished();

  const end = stepEnd(stepFacts(state, calls));
  const tokens = state.tokens;
  const cost = tokens && input.modelInfo ? env.services.calculateCost(input.modelInfo, tokens) : 0;
  const endSnapshot = startSnapshot ? await takeSnapshot(env) : undefined;
  if (startSnapshot && endSnapshot) {
    const files = await env.snapshots.changes(startSnapshot, endSnapshot).catch(() => []);
    if (files.length > 0) env.store.updatePart({ ...newPart(), type: "patch", hash: endSnapshot, files });
  }
  if (tokens) {
    env.store.updatePart({
      ...newPart(),
      type: "step-finish",
      reason: end.finishReason ?? "unknown",
      tokens,
      cost,
      ...(endSnapshot && { snapshot: endSnapshot }),
    });
  }

  const providerName = env.providers.providerName(assistant.model.providerId);
  const error: MessageError | undefined = end.error && failureToMessageError(end.error, providerName);
  const completed: AssistantMessageRecord = {
    ...assistant,
    completedAt: env.now(),
    finish: end.finish,
    tokens: tokens ? addUsage(assistant.tokens, tokens) : assistant.tokens,
    cost: assistant.cost + cost,
    ...(error && { error }),
  };
  env.store.updateMessage(completed);
  if (tokens) await addToSessionTotals(env, session.id, tokens, cost);
  await env.store.flush(session.id);

  // Stopped because records could not be stored (even if a smaller one was stored since): not the user.
  const storageFailure = calls.storageFailure ?? storageStop;
  return { outcome: end.outcome, assistant: completed, ...(error && { error }), ...(storageFailure && { storageFailure }) };
}

async function takeSnapshot(env: SessionEnv, options: { reuseIfQuiet?: boolean } = {}): Promise<string | undefined> {
  try {
    return await env.snapshots.take(options);
  } catch (error) {
    // A snapshot failure must not stop the agent; revert just has less to work with.
    console.warn(`webcode: workspace snapshot failed: ${errorMessage(error)}`);
    return undefined;
  }
}

/** Session totals include the costs of its subagents (docs/agent.md, "Subagents"): child steps add to the parent too. */
async function addToSessionTotals(env: SessionEnv, sessionId: string, tokens: TokenUsage, cost: number): Promise<void> {
  let id: string | undefined = sessionId;
  while (id) {
    const session = await env.store.updateSession(id, (current) => ({
      ...current,
      tokens: addUsage(current.tokens, tokens),
      cost: current.cost + cost,
      updatedAt: env.now(),
    }));
    id = session?.parentId;
  }
}
