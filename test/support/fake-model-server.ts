// A scripted model server for tests: speaks OpenAI chat completions, OpenAI Responses, Anthropic
// Messages and Gemini generateContent (streaming and not), lists models, answers CORS preflight, and
// records every request. A turn may also carry raw wire events (recorded-style fixtures).
// Tests point the real AI SDK clients at it, so the loop is exercised over real HTTP and SSE.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One piece of a scripted model turn, streamed in order. */
export type FakeChunk =
  /** `signature`: Gemini's thoughtSignature on the part. */
  | { type: "text"; text: string; signature?: string }
  /** `signature`: Anthropic's thinking signature, OpenAI's encrypted_content, Gemini's thoughtSignature. */
  | { type: "reasoning"; text: string; signature?: string }
  /** `input` is JSON-encoded unless it is a string (then sent as is, e.g. to script broken JSON). */
  | { type: "tool-call"; name: string; input: unknown; id?: string; signature?: string }
  /** Waits before the next chunk. */
  | { type: "delay"; ms: number }
  /** Drops the connection here, mid-stream. */
  | { type: "drop" }
  /** Writes `data: <data>` as is (e.g. a malformed event the client cannot parse). */
  | { type: "raw"; data: string };

export interface FakeUsage {
  /** Input tokens not read from cache. */
  input: number;
  output: number;
  reasoning?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export interface FakeHttpError {
  status: number;
  headers?: Record<string, string>;
  /** JSON body; defaults to the protocol's error shape with `message`. */
  body?: unknown;
  message?: string;
}

export interface FakeTurn {
  chunks?: FakeChunk[];
  usage?: FakeUsage;
  /** Default: "tool-calls" when the turn calls a tool, else "stop". */
  finish?: "stop" | "tool-calls" | "length" | "content-filter";
  /** Delay between streamed events, in ms. */
  chunkDelayMs?: number;
  /** Tool call arguments are streamed in this many pieces (default 3). */
  argumentPieces?: number;
  /** Answer with an HTTP error instead of a stream. */
  error?: FakeHttpError;
  /** Wait this long before answering at all. */
  responseDelayMs?: number;
  /**
   * The usage object as the provider sends it, replacing the one built from `usage` (Anthropic:
   * `{ start, delta }`, the usage of message_start and of message_delta).
   */
  wireUsage?: unknown;
  /**
   * Raw wire events streamed as they are (SSE `event:` name optional, `data` JSON-encoded unless a
   * string) instead of events generated from `chunks`: for provider-specific shapes.
   */
  events?: Array<{ event?: string; data: unknown }>;
}

export type FakeProtocol = "openai-chat" | "openai-responses" | "anthropic" | "google" | "models" | "key" | "preflight" | "other";

export interface RecordedRequest {
  method: string;
  path: string;
  protocol: FakeProtocol;
  /** Lower-cased header names, raw values (keys included): redact before printing. */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  /** Whether the client asked for a stream. */
  stream: boolean;
}

/** A list of turns consumed one per model request, or a function deciding each turn. */
export type FakeScript = FakeTurn[] | ((request: RecordedRequest, index: number) => FakeTurn | Promise<FakeTurn>);

export interface FakeServerOptions {
  /** Model ids listed by GET /models (default ["fake-model"]). */
  models?: string[];
  /** When set, requests without this key (Bearer, x-api-key or x-goog-api-key) get 401. */
  requireKey?: string;
  /** Answer CORS preflight and add CORS headers (default true). */
  cors?: boolean;
}

export interface FakeModelServer {
  /** Base URL with the /v1 prefix, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  requests: RecordedRequest[];
  /** Model requests only (no preflight, no model listing). */
  modelRequests(): RecordedRequest[];
  close(): Promise<void>;
}

const SECRET_HEADERS = new Set(["authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie"]);

/** A copy of headers with credentials replaced, for anything printed or logged. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? "[redacted]" : value;
  return out;
}

function record(init: RecordedRequest): RecordedRequest {
  const printable = () => ({ ...init, headers: redactHeaders(init.headers) });
  // Test failures print recorded requests; make sure keys never show up there.
  Object.defineProperty(init, "toJSON", { value: printable, enumerable: false });
  Object.defineProperty(init, Symbol.for("nodejs.util.inspect.custom"), { value: printable, enumerable: false });
  return init;
}

function protocolOf(method: string, path: string): FakeProtocol {
  if (method === "OPTIONS") return "preflight";
  // Like real servers, only the exact routes answer: a wrong base URL gets a 404.
  const route = path.replace(/^\/(v1|v1beta)(?=\/)/, "").replace(/\/+$/, "");
  if (method === "POST" && route === "/chat/completions") return "openai-chat";
  if (method === "POST" && route === "/responses") return "openai-responses";
  if (method === "POST" && route === "/messages") return "anthropic";
  if (method === "POST" && /^\/models\/[^/]+:(stream)?[gG]enerateContent$/.test(route)) return "google";
  if (method === "GET" && route === "/models") return "models";
  // OpenRouter's "current key" endpoint, which its model list (public) cannot stand in for.
  if (method === "GET" && route === "/key") return "key";
  return "other";
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function presentedKey(headers: Record<string, string>): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? "");
  return bearer?.[1] ?? headers["x-api-key"] ?? headers["x-goog-api-key"] ?? headers["api-key"];
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function splitPieces(text: string, pieces: number): string[] {
  if (text.length === 0) return [""];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function argumentsText(input: unknown): string {
  return typeof input === "string" ? input : JSON.stringify(input ?? {});
}

interface Block {
  kind: "text" | "reasoning" | "tool-call";
  /** The streamed pieces of text, reasoning or tool arguments. */
  pieces: string[];
  name?: string;
  callId?: string;
  /** The scripted signature (the last one of the grouped chunks). */
  signature?: string;
}

/** An event stream the protocol writers emit into; `drop` and `delay` markers are interleaved. */
type Emit = (event: { event?: string; data: unknown } | { drop: true } | { delay: number }) => void;
type Marker = { drop: true } | { delay: number } | { data: string };

/** Groups consecutive text or reasoning chunks into blocks; each tool call is its own block. */
function blocksOf(turn: FakeTurn, ids: () => number): (Block | Marker)[] {
  const out: (Block | Marker)[] = [];
  for (const chunk of turn.chunks ?? []) {
    const last = out[out.length - 1];
    if (chunk.type === "drop") out.push({ drop: true });
    else if (chunk.type === "delay") out.push({ delay: chunk.ms });
    else if (chunk.type === "raw") out.push({ data: chunk.data });
    else if (chunk.type === "tool-call") {
      out.push({
        kind: "tool-call",
        name: chunk.name,
        callId: chunk.id ?? `call_${ids()}`,
        pieces: splitPieces(argumentsText(chunk.input), turn.argumentPieces ?? 3),
        ...(chunk.signature !== undefined && { signature: chunk.signature }),
      });
    } else if (last && "kind" in last && last.kind === chunk.type) {
      last.pieces.push(chunk.text);
      if (chunk.signature !== undefined) last.signature = chunk.signature;
    } else out.push({ kind: chunk.type, pieces: [chunk.text], ...(chunk.signature !== undefined && { signature: chunk.signature }) });
  }
  return out;
}

function finishOf(turn: FakeTurn): NonNullable<FakeTurn["finish"]> {
  return turn.finish ?? ((turn.chunks ?? []).some((c) => c.type === "tool-call") ? "tool-calls" : "stop");
}

function usageOf(turn: FakeTurn): Required<FakeUsage> {
  const u = turn.usage ?? { input: 10, output: 5 };
  return { input: u.input, output: u.output, reasoning: u.reasoning ?? 0, cacheRead: u.cacheRead ?? 0, cacheWrite: u.cacheWrite ?? 0 };
}

// ---- OpenAI chat completions ----

const CHAT_FINISH = { stop: "stop", "tool-calls": "tool_calls", length: "length", "content-filter": "content_filter" } as const;

function chatUsage(u: Required<FakeUsage>) {
  const prompt = u.input + u.cacheRead + u.cacheWrite;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.output,
    total_tokens: prompt + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead },
    completion_tokens_details: { reasoning_tokens: u.reasoning },
  };
}

function chatStream(turn: FakeTurn, body: Record<string, unknown>, emit: Emit, ids: () => number): void {
  const id = `chatcmpl-${ids()}`;
  const base = { id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: String(body.model ?? "fake") };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    emit({ data: { ...base, choices: [{ index: 0, delta, finish_reason: finish }] } });
  chunk({ role: "assistant", content: "" });
  let toolIndex = 0;
  for (const block of blocksOf(turn, ids)) {
    if (!("kind" in block)) {
      emit(block);
      continue;
    }
    if (block.kind === "text") for (const piece of block.pieces) chunk({ content: piece });
    else if (block.kind === "reasoning") for (const piece of block.pieces) chunk({ reasoning_content: piece });
    else {
      const index = toolIndex++;
      chunk({ tool_calls: [{ index, id: block.callId, type: "function", function: { name: block.name, arguments: "" } }] });
      for (const piece of block.pieces) chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  }
  chunk({}, CHAT_FINISH[finishOf(turn)]);
  const options = body.stream_options as { include_usage?: boolean } | undefined;
  // Like OpenAI: the usage chunk is only sent when the client asks for it.
  if (options?.include_usage) emit({ data: { ...base, choices: [], usage: turn.wireUsage ?? chatUsage(usageOf(turn)) } });
  emit({ data: "[DONE]" });
}

function chatResponse(turn: FakeTurn, body: Record<string, unknown>, ids: () => number): unknown {
  const blocks = blocksOf(turn, ids).filter((b): b is Block => "kind" in b);
  const text = blocks.filter((b) => b.kind === "text").map((b) => b.pieces.join("")).join("");
  const reasoning = blocks.filter((b) => b.kind === "reasoning").map((b) => b.pieces.join("")).join("");
  const toolCalls = blocks
    .filter((b) => b.kind === "tool-call")
    .map((b) => ({ id: b.callId, type: "function", function: { name: b.name, arguments: b.pieces.join("") } }));
  return {
    id: `chatcmpl-${ids()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: String(body.model ?? "fake"),
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: text || null,
          ...(reasoning && { reasoning_content: reasoning }),
          ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
        },
        finish_reason: CHAT_FINISH[finishOf(turn)],
      },
    ],
    usage: chatUsage(usageOf(turn)),
  };
}

// ---- OpenAI Responses ----

function responsesUsage(u: Required<FakeUsage>) {
  const input = u.input + u.cacheRead + u.cacheWrite;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: input + u.output,
  };
}

function responsesItem(block: Block, itemId: string, done: boolean): Record<string, unknown> {
  const text = done ? block.pieces.join("") : "";
  if (block.kind === "text") {
    return {
      type: "message",
      id: itemId,
      role: "assistant",
      status: done ? "completed" : "in_progress",
      content: done ? [{ type: "output_text", text, annotations: [] }] : [],
    };
  }
  if (block.kind === "reasoning") {
    return { type: "reasoning", id: itemId, encrypted_content: block.signature ?? null, summary: done ? [{ type: "summary_text", text }] : [] };
  }
  return {
    type: "function_call",
    id: itemId,
    call_id: block.callId,
    name: block.name,
    arguments: text,
    status: done ? "completed" : "in_progress",
  };
}

function responsesEnvelope(turn: FakeTurn, body: Record<string, unknown>, responseId: string, output: unknown[]) {
  const finish = finishOf(turn);
  const incomplete = finish === "length" || finish === "content-filter";
  return {
    id: responseId,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: String(body.model ?? "fake"),
    status: incomplete ? "incomplete" : "completed",
    incomplete_details: incomplete ? { reason: finish === "length" ? "max_output_tokens" : "content_filter" } : null,
    output,
    usage: turn.wireUsage ?? responsesUsage(usageOf(turn)),
  };
}

function responsesStream(turn: FakeTurn, body: Record<string, unknown>, emit: Emit, ids: () => number): void {
  let sequence = 0;
  const send = (data: Record<string, unknown>) => emit({ event: String(data.type), data: { ...data, sequence_number: sequence++ } });
  const responseId = `resp_${ids()}`;
  const created = { id: responseId, object: "response", created_at: Math.floor(Date.now() / 1000), model: String(body.model ?? "fake"), status: "in_progress", output: [] };
  send({ type: "response.created", response: created });
  send({ type: "response.in_progress", response: created });
  const output: unknown[] = [];
  for (const block of blocksOf(turn, ids)) {
    if (!("kind" in block)) {
      emit(block);
      continue;
    }
    const outputIndex = output.length;
    const itemId = `${block.kind === "text" ? "msg" : block.kind === "reasoning" ? "rs" : "fc"}_${ids()}`;
    send({ type: "response.output_item.added", output_index: outputIndex, item: responsesItem(block, itemId, false) });
    const at = { item_id: itemId, output_index: outputIndex };
    if (block.kind === "text") {
      for (const delta of block.pieces) send({ type: "response.output_text.delta", ...at, content_index: 0, delta, logprobs: [] });
    } else if (block.kind === "reasoning") {
      send({ type: "response.reasoning_summary_part.added", ...at, summary_index: 0, part: { type: "summary_text", text: "" } });
      for (const delta of block.pieces) send({ type: "response.reasoning_summary_text.delta", ...at, summary_index: 0, delta });
      send({ type: "response.reasoning_summary_part.done", ...at, summary_index: 0, part: { type: "summary_text", text: block.pieces.join("") } });
    } else {
      for (const delta of block.pieces) send({ type: "response.function_call_arguments.delta", ...at, delta });
      send({ type: "response.function_call_arguments.done", ...at, arguments: block.pieces.join("") });
    }
    const item = responsesItem(block, itemId, true);
    output.push(item);
    send({ type: "response.output_item.done", output_index: outputIndex, item });
  }
  const envelope = responsesEnvelope(turn, body, responseId, output);
  send({ type: envelope.status === "completed" ? "response.completed" : "response.incomplete", response: envelope });
}

function responsesResponse(turn: FakeTurn, body: Record<string, unknown>, ids: () => number): unknown {
  const output = blocksOf(turn, ids)
    .filter((b): b is Block => "kind" in b)
    .map((block) => responsesItem(block, `${block.kind === "text" ? "msg" : block.kind === "reasoning" ? "rs" : "fc"}_${ids()}`, true));
  return responsesEnvelope(turn, body, `resp_${ids()}`, output);
}

// ---- Anthropic Messages ----

const ANTHROPIC_STOP = { stop: "end_turn", "tool-calls": "tool_use", length: "max_tokens", "content-filter": "refusal" } as const;

function anthropicStream(turn: FakeTurn, body: Record<string, unknown>, emit: Emit, ids: () => number): void {
  const send = (data: Record<string, unknown>) => emit({ event: String(data.type), data });
  const u = usageOf(turn);
  send({
    type: "message_start",
    message: {
      id: `msg_${ids()}`,
      type: "message",
      role: "assistant",
      model: String(body.model ?? "fake"),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: (turn.wireUsage as { start?: unknown } | undefined)?.start ?? { input_tokens: u.input, output_tokens: 1, cache_read_input_tokens: u.cacheRead, cache_creation_input_tokens: u.cacheWrite },
    },
  });
  send({ type: "ping" });
  let index = 0;
  for (const block of blocksOf(turn, ids)) {
    if (!("kind" in block)) {
      emit(block);
      continue;
    }
    const at = index++;
    if (block.kind === "text") {
      send({ type: "content_block_start", index: at, content_block: { type: "text", text: "" } });
      for (const text of block.pieces) send({ type: "content_block_delta", index: at, delta: { type: "text_delta", text } });
    } else if (block.kind === "reasoning") {
      send({ type: "content_block_start", index: at, content_block: { type: "thinking", thinking: "" } });
      for (const thinking of block.pieces) send({ type: "content_block_delta", index: at, delta: { type: "thinking_delta", thinking } });
      send({ type: "content_block_delta", index: at, delta: { type: "signature_delta", signature: block.signature ?? `sig_${ids()}` } });
    } else {
      send({ type: "content_block_start", index: at, content_block: { type: "tool_use", id: block.callId, name: block.name, input: {} } });
      for (const partial_json of block.pieces) send({ type: "content_block_delta", index: at, delta: { type: "input_json_delta", partial_json } });
    }
    send({ type: "content_block_stop", index: at });
  }
  send({
    type: "message_delta",
    delta: { stop_reason: ANTHROPIC_STOP[finishOf(turn)], stop_sequence: null },
    usage: (turn.wireUsage as { delta?: unknown } | undefined)?.delta ?? { output_tokens: u.output },
  });
  send({ type: "message_stop" });
}

function anthropicResponse(turn: FakeTurn, body: Record<string, unknown>, ids: () => number): unknown {
  const u = usageOf(turn);
  const content = blocksOf(turn, ids)
    .filter((b): b is Block => "kind" in b)
    .map((block) => {
      const text = block.pieces.join("");
      if (block.kind === "text") return { type: "text", text };
      if (block.kind === "reasoning") return { type: "thinking", thinking: text, signature: block.signature ?? `sig_${ids()}` };
      let input: unknown = {};
      try {
        input = JSON.parse(text);
      } catch {
        input = {};
      }
      return { type: "tool_use", id: block.callId, name: block.name, input };
    });
  return {
    id: `msg_${ids()}`,
    type: "message",
    role: "assistant",
    model: String(body.model ?? "fake"),
    content,
    stop_reason: ANTHROPIC_STOP[finishOf(turn)],
    stop_sequence: null,
    usage: { input_tokens: u.input, output_tokens: u.output, cache_read_input_tokens: u.cacheRead, cache_creation_input_tokens: u.cacheWrite },
  };
}

// ---- Gemini generateContent ----

const GEMINI_FINISH = { stop: "STOP", "tool-calls": "STOP", length: "MAX_TOKENS", "content-filter": "SAFETY" } as const;

function geminiUsage(u: Required<FakeUsage>) {
  const prompt = u.input + u.cacheRead;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: u.output - u.reasoning,
    ...(u.reasoning > 0 && { thoughtsTokenCount: u.reasoning }),
    ...(u.cacheRead > 0 && { cachedContentTokenCount: u.cacheRead }),
    totalTokenCount: prompt + u.output,
  };
}

function geminiPart(block: Block, text: string): Record<string, unknown> {
  const signature = block.signature !== undefined ? { thoughtSignature: block.signature } : {};
  if (block.kind === "text") return { text, ...signature };
  if (block.kind === "reasoning") return { text, thought: true, ...signature };
  let args: unknown = {};
  try {
    args = JSON.parse(text);
  } catch {
    args = {};
  }
  return { functionCall: { name: block.name, args }, ...signature };
}

function geminiStream(turn: FakeTurn, body: Record<string, unknown>, emit: Emit, ids: () => number): void {
  const candidate = (parts: unknown[], finishReason?: string) => ({ content: { parts, role: "model" }, index: 0, ...(finishReason && { finishReason }) });
  const responseId = `gem_${ids()}`;
  for (const block of blocksOf(turn, ids)) {
    if (!("kind" in block)) {
      emit(block);
      continue;
    }
    // Gemini sends a function call whole, in one chunk; text and thoughts piece by piece.
    const pieces = block.kind === "tool-call" ? [block.pieces.join("")] : block.pieces;
    pieces.forEach((piece, i) => {
      const part = geminiPart(i === pieces.length - 1 ? block : { ...block, signature: undefined }, piece);
      emit({ data: { candidates: [candidate([part])], responseId, modelVersion: "fake" } });
    });
  }
  emit({ data: { candidates: [candidate([{ text: "" }], GEMINI_FINISH[finishOf(turn)])], usageMetadata: turn.wireUsage ?? geminiUsage(usageOf(turn)), responseId, modelVersion: String(body.model ?? "fake") } });
}

function geminiResponse(turn: FakeTurn, ids: () => number): unknown {
  const parts = blocksOf(turn, ids)
    .filter((b): b is Block => "kind" in b)
    .map((block) => geminiPart(block, block.pieces.join("")));
  return { candidates: [{ content: { parts, role: "model" }, finishReason: GEMINI_FINISH[finishOf(turn)], index: 0 }], usageMetadata: geminiUsage(usageOf(turn)) };
}

// ---- errors and model lists ----

function errorBody(protocol: FakeProtocol, status: number, message: string): unknown {
  if (protocol === "google") {
    return { error: { code: status, message, status: status === 429 ? "RESOURCE_EXHAUSTED" : status === 401 ? "UNAUTHENTICATED" : "INTERNAL" } };
  }
  if (protocol === "anthropic") {
    const type = status === 401 ? "authentication_error" : status === 429 ? "rate_limit_error" : status === 529 ? "overloaded_error" : "api_error";
    return { type: "error", error: { type, message } };
  }
  const type = status === 401 ? "invalid_request_error" : status === 429 ? "rate_limit_exceeded" : "server_error";
  return { error: { message, type, code: status === 401 ? "invalid_api_key" : null, param: null } };
}

function modelsBody(headers: Record<string, string>, path: string, models: string[]): unknown {
  if (headers["anthropic-version"]) {
    return {
      data: models.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" })),
      has_more: false,
      first_id: models[0] ?? null,
      last_id: models[models.length - 1] ?? null,
    };
  }
  if (headers["x-goog-api-key"] || path.includes("/v1beta/")) {
    return { models: models.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ["generateContent"] })) };
  }
  return { object: "list", data: models.map((id) => ({ id, object: "model", created: 1735689600, owned_by: "fake" })) };
}

/** Starts the server on 127.0.0.1 with a random port. */
export async function startFakeModelServer(script: FakeScript, options: FakeServerOptions = {}): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const cors = options.cors ?? true;
  let turnIndex = 0;
  let nextId = 1;
  const ids = () => nextId++;

  function corsHeaders(req: IncomingMessage): Record<string, string> {
    if (!cors) return {};
    return {
      "access-control-allow-origin": req.headers.origin ?? "*",
      "access-control-allow-methods": "GET, POST, OPTIONS",
      // "*" does not cover Authorization in browsers: echo what the preflight asks for.
      "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
      "access-control-expose-headers": "*",
      "access-control-max-age": "600",
    };
  }

  async function nextTurn(request: RecordedRequest): Promise<FakeTurn> {
    const index = turnIndex++;
    if (typeof script === "function") return script(request, index);
    const turn = script[index];
    if (turn) return turn;
    return { error: { status: 500, message: `fake model server: no scripted turn left (request ${index + 1}, ${script.length} scripted)` } };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0]!;
    const protocol = protocolOf(method, path);
    const text = await readBody(req);
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Keep the raw text: a test may want to see what a broken client sent.
    }
    const headers = headersOf(req);
    const json = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
    const stream = protocol === "google" ? path.includes(":streamGenerateContent") : json.stream === true;
    const request = record({ method, path, protocol, headers, body, stream });
    requests.push(request);
    const baseHeaders = corsHeaders(req);

    if (protocol === "preflight") {
      res.writeHead(cors ? 204 : 405, baseHeaders).end();
      return;
    }
    const sendJson = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
      res.writeHead(status, { ...baseHeaders, "content-type": "application/json", ...extra }).end(JSON.stringify(payload));
    };
    if (options.requireKey !== undefined && presentedKey(headers) !== options.requireKey && protocol !== "other") {
      sendJson(401, errorBody(protocol, 401, "Incorrect API key provided."));
      return;
    }
    if (protocol === "models") {
      sendJson(200, modelsBody(headers, path, options.models ?? ["fake-model"]));
      return;
    }
    if (protocol === "key") {
      sendJson(200, { data: { label: "fake key", limit: null, usage: 0, is_free_tier: false } });
      return;
    }
    if (protocol === "other") {
      sendJson(404, { error: { message: `fake model server: nothing at ${method} ${path}` } });
      return;
    }

    const turn = await nextTurn(request);
    if (turn.responseDelayMs) await sleep(turn.responseDelayMs);
    if (turn.error) {
      const { status, headers: extra = {}, message = `fake error ${status}` } = turn.error;
      sendJson(status, turn.error.body ?? errorBody(protocol, status, message), extra);
      return;
    }
    if (!request.stream) {
      const payload =
        protocol === "openai-chat"
          ? chatResponse(turn, json, ids)
          : protocol === "openai-responses"
            ? responsesResponse(turn, json, ids)
            : protocol === "google"
              ? geminiResponse(turn, ids)
              : anthropicResponse(turn, json, ids);
      sendJson(200, payload);
      return;
    }

    // Collect the events first, then write them with the scripted pacing.
    const events: Parameters<Emit>[0][] = [];
    const emit: Emit = (event) => events.push(event);
    if (turn.events) for (const event of turn.events) emit(event);
    else if (protocol === "openai-chat") chatStream(turn, json, emit, ids);
    else if (protocol === "openai-responses") responsesStream(turn, json, emit, ids);
    else if (protocol === "google") geminiStream(turn, json, emit, ids);
    else anthropicStream(turn, json, emit, ids);

    res.writeHead(200, { ...baseHeaders, "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
    for (const event of events) {
      if ("drop" in event) {
        // Let the bytes written so far reach the client before the connection goes away.
        await sleep(20);
        req.socket.destroy();
        return;
      }
      if ("delay" in event) {
        await sleep(event.delay);
        continue;
      }
      const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
      res.write(`${event.event ? `event: ${event.event}\n` : ""}data: ${data}\n\n`);
      if (turn.chunkDelayMs) await sleep(turn.chunkDelayMs);
    }
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `fake model server failed: ${String(error)}` } }));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    modelRequests: () =>
      requests.filter((r) => r.protocol === "openai-chat" || r.protocol === "openai-responses" || r.protocol === "anthropic" || r.protocol === "google"),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
