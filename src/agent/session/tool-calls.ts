// The tool calls of one model call: builds the AI SDK tool set whose execute runs each call through
// the permission checks, the doom-loop guard and the shared tool wrapper, and moves each tool part
// pending → running → completed | error with live updates.
import { newPart } from "../../storage";
import { jsonSchema, zodSchema, type JSONSchema7, type Tool, type ToolSet } from "ai";
import { errorMessage, isAbortError } from "../../base";
import { isStorageFailure } from "../../runtime";
import type { AssistantMessageRecord, PartRecord, ProviderMetadata, SessionRecord, ToolState } from "../../storage";
import type { Rule } from "../permission";
import {
  PermissionDeniedError,
  PermissionRejectedError,
  type PermissionRequest,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
} from "../tools/tool";
import type { SessionEnv } from "./env";
import { QuestionRejectedError } from "./questions";
import { SessionStorageError } from "./store";
import type { AgentInfo, SubagentSummary } from "./services";

type ToolPart = Extract<PartRecord, { type: "tool" }>;

/** The doom-loop guard: this many identical calls in a row make the next one ask first. */
export const DOOM_LOOP_THRESHOLD = 3;

export interface ToolScope {
  session: SessionRecord;
  assistant: AssistantMessageRecord;
  agent: AgentInfo;
  supportsImages: boolean;
  /** Rules the asks of this step are evaluated against (defaults, user, agent, session overrides). */
  rules: Rule[];
  /** Workspace rules that may only tighten `rules` (decide()). */
  limits: Rule[];
  abort: AbortSignal;
  /** Tool calls made earlier in this turn, oldest first (for the doom-loop guard). */
  earlierCalls(): Array<{ tool: string; input: unknown }>;
  subagents: SubagentSummary[];
}

function isFinal(state: ToolState): boolean {
  return state.status === "completed" || state.status === "error";
}

function startOf(state: ToolState, now: number): number {
  return state.status === "running" || state.status === "completed" || state.status === "error" ? state.start : now;
}

export class ToolCalls {
  private readonly parts = new Map<string, ToolPart>();
  /** Set when the user rejected a call without a message: the turn stops after this model call. */
  blocked = false;
  /**
   * Set when browser storage refused a call's change (full, or broken): the turn stops after this
   * model call with that reason, and later calls of it are refused rather than failing one by one.
   */
  storageFailure: Error | undefined;

  constructor(
    private readonly env: SessionEnv,
    private readonly scope: ToolScope,
  ) {}

  get all(): ToolPart[] {
    return [...this.parts.values()];
  }

  // ---- stream events -------------------------------------------------------------------------

  inputStart(callId: string, toolName: string): void {
    this.ensure(callId, toolName);
  }

  inputDelta(callId: string, delta: string): void {
    const part = this.parts.get(callId);
    if (!part || part.state.status !== "pending") return;
    this.put({ ...part, state: { ...part.state, raw: part.state.raw + delta } });
  }

  /** The complete call (parsed input). Never downgrades a call that already started running. */
  called(callId: string, toolName: string, input: unknown, providerMetadata?: ProviderMetadata): void {
    let part = this.ensure(callId, toolName);
    // Kept whatever the state: a Gemini thought signature must go back with the call it came with.
    if (providerMetadata && Object.keys(providerMetadata).length > 0) part = this.put({ ...part, providerMetadata: { ...part.providerMetadata, ...providerMetadata } });
    if (part.state.status !== "pending") return;
    const raw = part.state.raw || safeStringify(input);
    this.put({ ...part, tool: toolName, state: { status: "pending", input, raw } });
  }

  /** A result event for a call execute did not finish itself (provider-executed or unusual paths). */
  resultEvent(callId: string, toolName: string, input: unknown, output: unknown): void {
    const part = this.ensure(callId, toolName);
    if (isFinal(part.state)) return;
    const now = this.env.now();
    const result = output as Partial<ToolResult> | string;
    const text = typeof result === "string" ? result : (result.output ?? safeStringify(output));
    this.put({
      ...part,
      state: {
        status: "completed",
        input,
        output: text,
        title: typeof result === "string" ? "" : (result.title ?? ""),
        metadata: typeof result === "string" ? {} : (result.metadata ?? {}),
        start: startOf(part.state, now),
        end: now,
      },
    });
  }

  /** An error event: invalid input or unknown tool (execute never ran), or execute failed. */
  errorEvent(callId: string, toolName: string, input: unknown, error: unknown): void {
    const part = this.ensure(callId, toolName);
    if (isFinal(part.state)) return;
    const now = this.env.now();
    this.put({ ...part, state: { status: "error", input, error: errorMessage(error), start: startOf(part.state, now), end: now } });
  }

  /** Drops a call that never ran (its input was still streaming when the attempt failed). */
  forget(callId: string): void {
    this.parts.delete(callId);
  }

  /** Ends every call that has not finished (abort, failed stream): error with this reason. */
  finishUnfinished(reason: string): void {
    const now = this.env.now();
    for (const part of this.parts.values()) {
      if (isFinal(part.state)) continue;
      this.put({
        ...part,
        state: { status: "error", input: part.state.input, error: reason, start: startOf(part.state, now), end: now },
      });
    }
  }

  // ---- the tool set --------------------------------------------------------------------------

  /**
   * The AI SDK tools. The JSON schema has no validator on purpose: the shared wrapper validates
   * with zod and words the error for the model ("...Rewrite the input...").
   */
  toolSet(tools: ToolDefinition[]): ToolSet {
    const set: ToolSet = {};
    for (const tool of tools) {
      const given = tool.inputJsonSchema;
      const entry: Tool = {
        description: tool.description,
        inputSchema: jsonSchema(() => (given ?? jsonSchemaOf(tool.parameters)) as JSONSchema7),
        execute: (input: unknown, options: { toolCallId: string }) => this.execute(tool, input, options.toolCallId),
      };
      set[tool.id] = entry;
    }
    return set;
  }

  /** Tool calls executing now (the stream waits for them; that is not a stall). */
  running = 0;

  private async execute(tool: ToolDefinition, input: unknown, callId: string): Promise<string> {
    this.running++;
    try {
      return await this.executeCall(tool, input, callId);
    } finally {
      this.running--;
    }
  }

  private async executeCall(tool: ToolDefinition, input: unknown, callId: string): Promise<string> {
    let part = this.ensure(callId, tool.id);
    const start = this.env.now();
    part = this.put({ ...part, tool: tool.id, state: { status: "running", input, start } });
    try {
      if (this.blocked) throw new PermissionRejectedError(tool.id, "another call of this turn was rejected");
      if (this.storageFailure) throw new Error(`Not run: browser storage refused an earlier change of this turn (${this.storageFailure.message})`);
      // The call is stored before it runs: after any failure the record shows every change the
      // tool may have made (as interrupted at worst), and a call that cannot be recorded never runs.
      await this.env.store.flush(this.scope.session.id);
      const unsaved = this.env.store.persistFailure(this.scope.session.id);
      if (unsaved) {
        this.storageFailure ??= unsaved;
        throw unsaved;
      }
      await this.guardDoomLoop(tool.id, input, callId);
      const result = await this.env.services.runTool(tool, input, this.context(tool, callId));
      const current = this.parts.get(callId) ?? part;
      const end = this.env.now();
      const completed = await this.settle({
        ...current,
        state: {
          status: "completed",
          input,
          output: result.output,
          title: result.title,
          metadata: result.metadata,
          start,
          end,
          ...(result.attachments && result.attachments.length > 0 && { attachments: result.attachments }),
        },
      });
      // The result the model gets is the one stored (a call whose record could not be kept is an error).
      if (completed.state.status === "error") throw new RecordedError(new Error(completed.state.error));
      return result.output;
    } catch (error) {
      if (error instanceof RecordedError) throw error.error;
      const current = this.parts.get(callId) ?? part;
      // A turn stopped because its records cannot be stored was not stopped by the user: say why.
      const storageStop = storageStopOf(this.scope.abort);
      const aborted = storageStop ? false : this.scope.abort.aborted || isAbortError(error);
      // A bare reject (or a dismissed question) stops the turn; a reject with a message reaches the
      // model as this call's result and the turn goes on with it.
      if ((error instanceof PermissionRejectedError && error.stopsTurn) || error instanceof QuestionRejectedError) {
        this.blocked = true;
        this.env.permissions.rejectAll(this.scope.session.id);
        this.env.questions.rejectAll(this.scope.session.id);
      }
      if (!aborted && isStorageFailure(error)) this.storageFailure ??= error;
      const message = aborted ? "aborted" : storageStop && isAbortError(error) ? storageStop.message : errorMessage(error);
      const metadata = current.state.status === "running" ? current.state.metadata : undefined;
      await this.settle({
        ...current,
        state: { status: "error", input, error: message, start, end: this.env.now(), ...(metadata && { metadata }) },
      });
      throw error instanceof Error ? error : new Error(message);
    }
  }

  /**
   * Records how a call ended and waits until storage has it, so the card and the model never say
   * more than a reload will show. When storage refuses the record (full: a write's record holds its
   * content, its diff holds it again), a smaller one is tried: the same outcome with the bulky
   * input strings and metadata left out; then, as a last resort, an error that says the call ran
   * but its result could not be kept. Resolves with the record that was kept (or last tried).
   */
  private async settle(part: ToolPart): Promise<ToolPart> {
    const sessionId = this.scope.session.id;
    const attempts = [part, compactToolPart(part), unrecordedToolPart(part)];
    let tried = part;
    for (const attempt of attempts) {
      tried = this.put(attempt);
      await this.env.store.flush(sessionId);
      if (!this.env.store.persistFailure(sessionId)) return tried;
    }
    return tried;
  }

  /** The same tool with the same input DOOM_LOOP_THRESHOLD times in a row: ask before the next. */
  private async guardDoomLoop(toolId: string, input: unknown, callId: string): Promise<void> {
    const calls = [
      ...this.scope.earlierCalls(),
      ...this.all.filter((p) => p.callId !== callId && p.state.status !== "pending").map((p) => ({ tool: p.tool, input: p.state.input })),
    ];
    const last = calls.slice(-DOOM_LOOP_THRESHOLD);
    if (last.length < DOOM_LOOP_THRESHOLD) return;
    const key = safeStringify(input);
    if (!last.every((c) => c.tool === toolId && safeStringify(c.input) === key)) return;
    await this.ask(
      {
        permission: "doom_loop",
        patterns: [toolId],
        always: [toolId],
        metadata: { tool: toolId, input, repeated: DOOM_LOOP_THRESHOLD },
      },
      callId,
    );
  }

  private ask(request: PermissionRequest, callId: string): Promise<void> {
    return this.env.permissions.ask({
      sessionId: this.scope.session.id,
      request,
      rules: this.scope.rules,
      limits: this.scope.limits,
      callId,
      messageId: this.scope.assistant.id,
      signal: this.scope.abort,
    });
  }

  private context(tool: ToolDefinition, callId: string): ToolContext {
    const { session, assistant, agent, abort } = this.scope;
    return {
      sessionId: session.id,
      messageId: assistant.id,
      callId,
      agent: agent.name,
      model: { ...assistant.model, supportsImages: this.scope.supportsImages },
      runtime: this.env.runtime,
      ...(this.env.code && { code: this.env.code }),
      abort,
      fileTimes: this.env.fileTimes(session.id),
      instructionsLoaded: this.env.instructionsLoaded(session.id),
      subagents: this.scope.subagents,
      ask: (request) => this.ask(request, callId),
      permissionFor: (permission, pattern) => this.env.permissions.check(session.id, permission, pattern, this.scope.rules, this.scope.limits),
      update: (update) => this.update(callId, update),
      askQuestions: (questions) =>
        this.env.questions.ask({ sessionId: session.id, questions, callId, messageId: assistant.id, signal: abort }),
      runSubagent: (request) =>
        this.env.runSubagent(
          {
            sessionId: session.id,
            messageId: assistant.id,
            callId,
            agent,
            rules: this.scope.rules,
            limits: this.scope.limits,
            abort,
            update: (update) => this.update(callId, update),
          },
          request,
        ),
      setTodos: async (todos) => {
        await this.env.store.requireSession(session.id);
        await this.env.store.updateSession(session.id, (current) => ({ ...current, todos, updatedAt: this.env.now() }));
      },
    };
  }

  private update(callId: string, update: { title?: string; metadata?: Record<string, unknown> }): void {
    const part = this.parts.get(callId);
    if (!part || part.state.status !== "running") return;
    this.put({
      ...part,
      state: {
        ...part.state,
        ...(update.title !== undefined && { title: update.title }),
        ...(update.metadata && { metadata: { ...part.state.metadata, ...update.metadata } }),
      },
    });
  }

  private ensure(callId: string, toolName: string): ToolPart {
    const existing = this.parts.get(callId);
    if (existing) return existing;
    const part: ToolPart = newPart(
      { sessionId: this.scope.session.id, messageId: this.scope.assistant.id },
      { type: "tool", callId, tool: toolName, state: { status: "pending", input: {}, raw: "" } },
      this.env.now(),
    );
    return this.put(part);
  }

  private put(part: ToolPart): ToolPart {
    this.parts.set(part.callId, part);
    this.env.store.updatePart(part);
    return part;
  }
}

/** The storage failure a turn was stopped for (the session store aborts with it), if that is why. */
export function storageStopOf(abort: AbortSignal): SessionStorageError | undefined {
  return abort.aborted && abort.reason instanceof SessionStorageError ? abort.reason : undefined;
}

/** Marks an error already recorded on the part (settle turned a result into it): rethrown as its cause. */
class RecordedError extends Error {
  constructor(readonly error: Error) {
    super(error.message);
  }
}

/** Input strings longer than this are left out of a record that storage refused at full size. */
export const COMPACT_STRING_CHARS = 2000;

/** The input with long strings replaced by a note of their size (the content is in the files, or lost anyway). */
function compactValue(value: unknown): unknown {
  if (typeof value === "string") {
    return value.length > COMPACT_STRING_CHARS ? `${value.slice(0, 200)}… (${value.length} characters, not kept: browser storage was full)` : value;
  }
  if (Array.isArray(value)) return value.map(compactValue);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compactValue(v)]));
  return value;
}

/** Metadata that is small and says what happened (file path, counts, exit code); diffs and full outputs go. */
function compactMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (typeof value === "number" || typeof value === "boolean" || (typeof value === "string" && value.length <= COMPACT_STRING_CHARS)) kept[key] = value;
  }
  return kept;
}

/** The same outcome in fewer bytes: long input strings, long metadata and attachments left out. */
export function compactToolPart(part: ToolPart): ToolPart {
  const state = part.state;
  const input = compactValue(state.input);
  if (state.status === "completed") {
    const { attachments: _attachments, ...rest } = state;
    const output = compactValue(state.output) as string;
    return { ...part, state: { ...rest, input, output, metadata: compactMetadata(state.metadata) } };
  }
  if (state.status === "error") {
    const { metadata, ...rest } = state;
    return { ...part, state: { ...rest, input, error: compactValue(state.error) as string, ...(metadata && { metadata: compactMetadata(metadata) }) } };
  }
  return part;
}

/** The last resort: an error that says the call ran (its changes stand) but what it returned could not be kept. */
export function unrecordedToolPart(part: ToolPart): ToolPart {
  const state = part.state;
  const start = "start" in state ? state.start : 0;
  const end = "end" in state ? state.end : start;
  const outcome = state.status === "error" ? `failed (${compactValue(state.error) as string})` : "ran";
  return {
    ...part,
    state: {
      status: "error",
      input: {},
      error: `The call ${outcome}, but its record could not be saved: browser storage is full. Files it changed are as the file tree shows. Free space (Settings → Storage), then continue.`,
      start,
      end,
    },
  };
}

/** Denied outright by a rule: the model gets the reason and may try something else (turn goes on). */
export function isDenied(error: unknown): boolean {
  return error instanceof PermissionDeniedError;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

/**
 * A JSON schema without what tells a model nothing and is sent with every request: the "$schema"
 * dialect line, the bounds zod gives every integer (±Number.MAX_SAFE_INTEGER) and
 * `additionalProperties: false` on every object (the input is checked with zod, which drops unknown
 * keys, and no request asks for strict schemas).
 */
export function leanJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(leanJsonSchema);
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema" || (key === "additionalProperties" && value === false)) continue;
    if ((key === "maximum" && value === Number.MAX_SAFE_INTEGER) || (key === "minimum" && value === Number.MIN_SAFE_INTEGER)) continue;
    out[key] = leanJsonSchema(value);
  }
  return out;
}

/**
 * A zod schema's JSON schema, converted once per schema: the tool set is built for every step and
 * the conversion (a few ms for the full tool set) would otherwise be paid on each model request.
 */
const jsonSchemas = new WeakMap<ToolDefinition["parameters"], unknown>();
function jsonSchemaOf(parameters: ToolDefinition["parameters"]): unknown {
  let schema = jsonSchemas.get(parameters);
  if (schema === undefined) {
    schema = leanJsonSchema(zodSchema(parameters).jsonSchema);
    jsonSchemas.set(parameters, schema);
  }
  return schema;
}
