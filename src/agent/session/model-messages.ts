// Stored messages → AI SDK model messages for the next call. Tool outputs pruned earlier are sent
// as a short placeholder; an interrupted tool call is answered with an error so the history stays
// valid. Provider metadata (Gemini thought signatures, OpenAI item ids) goes back with the part it
// came with, to the model that wrote it; reasoning goes back only where the provider requires it
// (signed or encrypted reasoning of the same model), tools the provider ran as provider-executed
// calls with their results in the assistant message.
import { fromBase64 } from "../../base";
import type { AssistantContent, ModelMessage, ToolContent, UserContent } from "ai";
import type { FileAttachment, ModelRef, PartOf, PartRecord, PartType, ProviderMetadata } from "../../storage";
import type { MessageWithParts } from "./store";

/** What the model sees in place of a tool output that pruning cleared. */
export const CLEARED_TOOL_OUTPUT = "[Old tool result content cleared]";
/** The user side of a compaction: the summary that follows answers it. */
export const COMPACTION_QUESTION = "What did we do so far?";

export interface ConvertOptions {
  supportsImages: boolean;
  /** Cut every tool output to this many characters (the compaction request uses 2000). */
  maxToolOutputChars?: number;
  /**
   * Write tool calls and results as plain text: for calls made without tools (compaction), since
   * some providers (Anthropic) refuse tool blocks in a request that defines no tools.
   */
  toolsAsText?: boolean;
  /**
   * The model the messages go to. Provider metadata and reasoning are sent back only on replies of
   * this same model (signatures are per model); unset: none is sent.
   */
  model?: ModelRef;
  /**
   * Whether results of tools the provider ran may go back as provider blocks (default true). OpenAI
   * Responses with `store: false` takes none: they go as text.
   */
  providerToolResults?: boolean;
}

/** Fields by which a provider marks reasoning it needs back: Anthropic, OpenAI (store: false), Gemini. */
const REASONING_REPLAY_FIELDS = ["signature", "redactedData", "reasoningEncryptedContent", "thoughtSignature"];

/** Whether a reasoning part carries what its provider needs to accept it back (else it is dropped). */
export function reasoningNeedsReplay(metadata: ProviderMetadata | undefined): boolean {
  if (!metadata) return false;
  return Object.values(metadata).some((values) => REASONING_REPLAY_FIELDS.some((field) => values[field] !== undefined && values[field] !== null && values[field] !== ""));
}

type ProviderOptions = NonNullable<Extract<Exclude<AssistantContent, string>[number], { type: "text" }>["providerOptions"]>;

function optionsOf(metadata: ProviderMetadata | undefined): { providerOptions?: ProviderOptions } {
  return metadata && Object.keys(metadata).length > 0 ? { providerOptions: metadata as ProviderOptions } : {};
}

function toolAsText(part: ToolPart, options: ConvertOptions): string {
  const result = toolResult(part, options);
  const output = result.type === "tool-result" ? result.output : undefined;
  const text =
    output?.type === "text" || output?.type === "error-text"
      ? output.value
      : output?.type === "content"
        ? output.value.map((v) => (v.type === "text" ? v.text : "[image]")).join("\n")
        : "";
  const input = cut(JSON.stringify(part.state.input ?? {}), options.maxToolOutputChars);
  return `[Called the ${part.tool} tool with ${input}]\n[${output?.type === "error-text" ? "Error" : "Result"}: ${text}]`;
}

type ProviderToolPart = PartOf<"provider-tool">;

function providerToolAsText(part: ProviderToolPart, options: ConvertOptions): string {
  const input = cut(JSON.stringify(part.state.input ?? {}), options.maxToolOutputChars);
  const output = cut(JSON.stringify(part.state.output ?? null), options.maxToolOutputChars);
  return `[The provider ran its ${part.tool} tool with ${input}]\n[Result: ${output}]`;
}

type UserPart = Exclude<UserContent, string>[number];

function parseDataUrl(url: string): { mime: string; base64: string } | undefined {
  const match = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(url);
  if (!match || !match[2]) return undefined;
  return { mime: match[1]!, base64: match[3]! };
}

function isImage(file: FileAttachment): boolean {
  return file.mime.startsWith("image/");
}

function attachmentToUser(file: FileAttachment, options: ConvertOptions): UserPart {
  if (isImage(file)) {
    const data = parseDataUrl(file.url);
    if (options.supportsImages && data) {
      return { type: "file", mediaType: file.mime, filename: file.filename, data: { type: "data", data: data.base64 } };
    }
    return { type: "text", text: `[Image ${file.filename} attached; this model cannot see images.]` };
  }
  const data = parseDataUrl(file.url);
  const text = data ? new TextDecoder().decode(fromBase64(data.base64)) : file.url;
  return { type: "text", text: `Attached file ${file.filename}:\n${text}` };
}

function cut(text: string, max: number | undefined): string {
  if (max === undefined || text.length <= max) return text;
  return `${text.slice(0, max)}\n[... ${text.length - max} more characters cut]`;
}

function toolInput(input: unknown): unknown {
  return typeof input === "object" && input !== null && !Array.isArray(input) ? input : {};
}

type ToolPart = PartOf<"tool">;

function toolResult(part: ToolPart, options: ConvertOptions): ToolContent[number] {
  const state = part.state;
  const base = { type: "tool-result" as const, toolCallId: part.callId, toolName: part.tool };
  if (state.status === "completed") {
    if (state.compactedAt !== undefined) return { ...base, output: { type: "text", value: CLEARED_TOOL_OUTPUT } };
    const text = cut(state.output, options.maxToolOutputChars);
    const images = (state.attachments ?? []).filter((a) => isImage(a) && options.supportsImages);
    if (images.length === 0) return { ...base, output: { type: "text", value: text } };
    const value: Array<{ type: "text"; text: string } | { type: "file"; data: { type: "data"; data: string }; mediaType: string }> = [
      { type: "text", text },
    ];
    for (const image of images) {
      const data = parseDataUrl(image.url);
      if (data) value.push({ type: "file", data: { type: "data", data: data.base64 }, mediaType: image.mime });
    }
    return { ...base, output: { type: "content", value } };
  }
  if (state.status === "error") return { ...base, output: { type: "error-text", value: cut(state.error, options.maxToolOutputChars) } };
  return { ...base, output: { type: "error-text", value: "The tool call was interrupted before it finished." } };
}

type AssistantPart = Exclude<AssistantContent, string>[number];

/** The assistant message being converted: what the current step has said and the results it got. */
interface AssistantStep {
  readonly options: ConvertOptions;
  /** Whether the message was written by the model the messages go to (metadata goes back then). */
  readonly sameModel: boolean;
  readonly content: AssistantPart[];
  readonly results: ToolContent;
  /** The part's provider metadata as provider options (only for the same model). */
  meta(metadata: ProviderMetadata | undefined): { providerOptions?: ProviderOptions };
  /** Ends the step: its assistant message and tool results are written out. */
  flush(): void;
}

/** How one part type becomes model content, on either side of the conversation. */
interface PartConversion<T extends PartType> {
  /** What the part adds to a user message (undefined: nothing). */
  user(part: PartOf<T>, options: ConvertOptions): UserPart | undefined;
  /** What the part adds to the assistant step being built. */
  assistant(part: PartOf<T>, step: AssistantStep): void;
}

const nothing = (): undefined => undefined;
/** Parts that are the app's own bookkeeping: the model never sees them. */
const notSent = { user: nothing, assistant: nothing };

/**
 * The conversion of every part type: keyed by PartType, so a new part type does not compile until
 * it says what the model sees of it (docs/architecture.md "Persistence").
 */
const PART_CONVERSIONS = {
  text: {
    user: (part) => (part.text.trim() !== "" ? { type: "text", text: part.text } : undefined),
    assistant(part, step) {
      if (part.text !== "" || (step.sameModel && part.providerMetadata)) step.content.push({ type: "text", text: part.text, ...step.meta(part.providerMetadata) });
    },
  },
  reasoning: {
    user: nothing,
    assistant(part, step) {
      if (step.sameModel && !step.options.toolsAsText && reasoningNeedsReplay(part.providerMetadata)) {
        step.content.push({ type: "reasoning", text: part.text, ...step.meta(part.providerMetadata) });
      }
    },
  },
  file: { user: (part, options) => attachmentToUser(part, options), assistant: nothing },
  tool: {
    user: nothing,
    assistant(part, step) {
      if (step.options.toolsAsText) {
        step.content.push({ type: "text", text: toolAsText(part, step.options) });
        return;
      }
      step.content.push({ type: "tool-call", toolCallId: part.callId, toolName: part.tool, input: toolInput(part.state.input), ...step.meta(part.providerMetadata) });
      step.results.push(toolResult(part, step.options));
    },
  },
  "provider-tool": {
    user: nothing,
    assistant(part, step) {
      // A call still running when the reply ended has no result to show.
      if (part.state.status === "running") return;
      if (step.options.toolsAsText || !step.sameModel || step.options.providerToolResults === false) {
        // Another model cannot take this provider's tool blocks: what it found goes as text.
        step.content.push({ type: "text", text: providerToolAsText(part, step.options) });
        return;
      }
      // Provider-executed: call and result both belong to the assistant message; nothing answers them.
      step.content.push({ type: "tool-call", toolCallId: part.callId, toolName: part.tool, input: part.state.input ?? {}, providerExecuted: true, ...step.meta(part.providerMetadata) });
      const value = (part.state.output ?? null) as Parameters<typeof JSON.stringify>[0];
      step.content.push({
        type: "tool-result",
        toolCallId: part.callId,
        toolName: part.tool,
        output: part.state.status === "error" ? { type: "error-json", value } : { type: "json", value },
        ...step.meta(part.state.resultMetadata),
      } as AssistantPart);
    },
  },
  source: notSent,
  "step-start": { user: nothing, assistant: (_part, step) => step.flush() },
  "step-finish": notSent,
  patch: notSent,
  compaction: { user: () => ({ type: "text", text: COMPACTION_QUESTION }), assistant: nothing },
  subtask: { user: (part) => ({ type: "text", text: `The user ran the ${part.agent} subagent: ${part.description}` }), assistant: nothing },
  retry: notSent,
} satisfies { [T in PartType]: PartConversion<T> };

function conversionOf(part: PartRecord): PartConversion<PartType> {
  // The table is keyed by the part's own type; methods take their own part type (bivariant).
  return PART_CONVERSIONS[part.type] as PartConversion<PartType>;
}

function userMessage(message: MessageWithParts, options: ConvertOptions): ModelMessage | undefined {
  const content: UserPart[] = [];
  for (const part of message.parts) {
    const converted = conversionOf(part).user(part, options);
    if (converted) content.push(converted);
  }
  return content.length > 0 ? { role: "user", content } : undefined;
}

/** One assistant message becomes one (assistant, tool) pair per step. */
function assistantMessages(message: MessageWithParts, options: ConvertOptions): ModelMessage[] {
  const info = message.info;
  const sameModel =
    info.role === "assistant" && options.model !== undefined && info.model.providerId === options.model.providerId && info.model.modelId === options.model.modelId;
  const out: ModelMessage[] = [];
  const step: AssistantStep = {
    options,
    sameModel,
    content: [],
    results: [],
    meta: (metadata) => (sameModel ? optionsOf(metadata) : {}),
    flush() {
      if (step.content.length > 0) out.push({ role: "assistant", content: step.content.splice(0) });
      if (step.results.length > 0) out.push({ role: "tool", content: step.results.splice(0) });
    },
  };
  for (const part of message.parts) conversionOf(part).assistant(part, step);
  step.flush();
  return out;
}

export function toModelMessages(messages: MessageWithParts[], options: ConvertOptions): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.info.role === "user") {
      const converted = userMessage(message, options);
      if (converted) out.push(converted);
    } else {
      out.push(...assistantMessages(message, options));
    }
  }
  return out;
}
