// The streaming state of one step (processor.ts; docs/agent.md "The loop"): what the model call has
// streamed so far, as one object made by newStepState and changed only by the small functions here.
// How the step ends is decided from it by stepEnd (step-end.ts), a pure function of its facts.
import type { TextStreamPart, ToolSet } from "ai";
import type { PartHeader, PartRecord, TokenUsage } from "../../storage";
import type { SessionEnv } from "./env";
import { mergeMetadata, type ProviderParts } from "./provider-parts";
import type { Failure } from "./retry";
import { PAUSED_FINISH, type StepFacts } from "./step-end";
import type { ToolCalls } from "./tool-calls";
import { addUsage, toTokenUsage } from "./usage";

export type TextLike = Extract<PartRecord, { type: "text" } | { type: "reasoning" }>;
type Metadata = Parameters<typeof mergeMetadata>[1];

export interface StepState {
  /** Usage of the step, summed over the provider's own steps (unset: none reported). */
  tokens: TokenUsage | undefined;
  finishReason: string | undefined;
  /** Why the model call failed for good (after retries). */
  failure: Failure | undefined;
  aborted: boolean;
  /** Text and reasoning parts still streaming, by `${type}:${block id}`. */
  readonly open: Map<string, TextLike>;
  /**
   * The text part that ended last, while nothing but sources followed it: a text block that starts
   * now continues it (Anthropic streams every citation as its own text block of one answer).
   */
  lastText: TextLike | undefined;
}

export function newStepState(): StepState {
  return { tokens: undefined, finishReason: undefined, failure: undefined, aborted: false, open: new Map(), lastText: undefined };
}

/** What the stream's events are written to: the store, the step's tool calls and provider tools. */
export interface StepSinks {
  env: SessionEnv;
  /** Version, id, session and message of a new part of this step. */
  newPart(): PartHeader;
  calls: ToolCalls;
  provided: ProviderParts;
}

/** A text or reasoning block starts: a new part, or the text part it continues. Returns the new part. */
function openText(state: StepState, sinks: StepSinks, type: TextLike["type"], blockId: string, metadata: Metadata): TextLike | undefined {
  const { env } = sinks;
  const providerMetadata = mergeMetadata(undefined, metadata);
  const continued = type === "text" ? state.lastText : undefined;
  state.lastText = undefined;
  if (continued) {
    const merged = providerMetadata && { providerMetadata: mergeMetadata(continued.providerMetadata, providerMetadata) };
    state.open.set(`text:${blockId}`, { ...continued, time: { start: continued.time?.start ?? env.now() }, ...merged } as TextLike);
    return undefined;
  }
  const part = { ...sinks.newPart(), type, text: "", time: { start: env.now() }, ...(providerMetadata && { providerMetadata }) } as TextLike;
  state.open.set(`${type}:${blockId}`, part);
  env.store.updatePart(part);
  return part;
}

function appendText(state: StepState, env: SessionEnv, key: string, delta: string, metadata?: Metadata): void {
  const part = state.open.get(key);
  if (!part) return;
  const providerMetadata = mergeMetadata(part.providerMetadata, metadata);
  const next = { ...part, text: part.text + delta, ...(providerMetadata && { providerMetadata }) };
  state.open.set(key, next);
  env.store.updatePart(next, delta);
}

export function closeText(state: StepState, env: SessionEnv, key: string, metadata?: Metadata): void {
  const part = state.open.get(key);
  if (!part) return;
  state.open.delete(key);
  const providerMetadata = mergeMetadata(part.providerMetadata, metadata);
  const closed = { ...part, time: { ...(part.time ?? { start: env.now() }), end: env.now() }, ...(providerMetadata && { providerMetadata }) } as TextLike;
  env.store.updatePart(closed);
  state.lastText = closed.type === "text" ? closed : undefined;
}

/** Closes every block still streaming (the step is over). */
export function closeAllText(state: StepState, env: SessionEnv): void {
  for (const key of [...state.open.keys()]) closeText(state, env, key);
}

/** A failed attempt's parts are dropped (the retry streams them again): none streams, none is continued. */
export function forgetAttempt(state: StepState, attemptParts: readonly PartRecord[]): void {
  const dropped = new Set(attemptParts.map((part) => part.id));
  state.open.forEach((value, key) => dropped.has(value.id) && state.open.delete(key));
  state.lastText = undefined;
}

/** One stream event applied to the state; parts this attempt created are added to `attemptParts`. */
export function applyChunk(state: StepState, sinks: StepSinks, chunk: TextStreamPart<ToolSet>, attemptParts: PartRecord[]): void {
  const { env, calls, provided } = sinks;
  if (chunk.type !== "source" && chunk.type !== "text-start" && chunk.type !== "start-step" && chunk.type !== "finish-step") state.lastText = undefined;
  const addSource = (source: PartRecord | undefined) => source && attemptParts.push(source);
  switch (chunk.type) {
    case "text-start":
    case "reasoning-start": {
      const part = openText(state, sinks, chunk.type === "text-start" ? "text" : "reasoning", chunk.id, chunk.providerMetadata);
      if (part) attemptParts.push(part);
      break;
    }
    case "text-delta":
      appendText(state, env, `text:${chunk.id}`, chunk.text, chunk.providerMetadata);
      break;
    case "reasoning-delta":
      appendText(state, env, `reasoning:${chunk.id}`, chunk.text, chunk.providerMetadata);
      break;
    case "text-end":
      for (const citation of chunk.citations ?? []) addSource(provided.source(citation.source));
      closeText(state, env, `text:${chunk.id}`, chunk.providerMetadata);
      break;
    case "reasoning-end":
      closeText(state, env, `reasoning:${chunk.id}`, chunk.providerMetadata);
      break;
    case "source":
      addSource(provided.source(chunk));
      break;
    case "tool-input-start":
      if (chunk.providerExecuted) provided.called(chunk.id, chunk.toolName, undefined, chunk.providerMetadata);
      else calls.inputStart(chunk.id, chunk.toolName);
      break;
    case "tool-input-delta":
      if (!provided.has(chunk.id)) calls.inputDelta(chunk.id, chunk.delta);
      break;
    case "tool-call":
      if (chunk.providerExecuted) provided.called(chunk.toolCallId, chunk.toolName, chunk.input, chunk.providerMetadata);
      else calls.called(chunk.toolCallId, chunk.toolName, chunk.input, chunk.providerMetadata);
      break;
    case "tool-result":
      if (chunk.providerExecuted || provided.has(chunk.toolCallId)) provided.result(chunk.toolCallId, chunk.toolName, chunk.input, chunk.output, chunk.providerMetadata);
      else calls.resultEvent(chunk.toolCallId, chunk.toolName, chunk.input, chunk.output);
      break;
    case "tool-error":
      if (chunk.providerExecuted || provided.has(chunk.toolCallId)) provided.error(chunk.toolCallId, chunk.toolName, chunk.input, chunk.error);
      else calls.errorEvent(chunk.toolCallId, chunk.toolName, chunk.input, chunk.error);
      break;
    case "finish-step":
      state.tokens = addUsage(state.tokens ?? toTokenUsage(undefined), toTokenUsage(chunk.usage));
      // Anthropic pauses a long turn of its own tools (web search): sent back as is, it goes on.
      state.finishReason = chunk.rawFinishReason === "pause_turn" ? PAUSED_FINISH : chunk.finishReason;
      break;
    case "finish":
      state.finishReason ??= chunk.finishReason;
      break;
    case "abort":
      state.aborted = true;
      break;
    default:
      break;
  }
}

/** The facts stepEnd decides from. Tools the provider ran itself are not among the calls. */
export function stepFacts(state: StepState, calls: Pick<ToolCalls, "all" | "blocked">): StepFacts {
  return { aborted: state.aborted, failure: state.failure, finishReason: state.finishReason, toolCalls: calls.all.length, blocked: calls.blocked };
}
