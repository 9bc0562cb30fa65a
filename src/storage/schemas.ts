// The records kept in IndexedDB, as zod schemas: one per record kind. The TypeScript types
// (records.ts) are inferred from them, restore.ts parses with them, and the share envelope
// (transfer/share-envelope.ts) derives its schemas from them. See docs/architecture.md "Persistence".
//
// The schemas are built on first use (recordSchemas()), not when this module is evaluated: storage
// is in the first chunk and building them costs start-up time nobody needs before the first read.
import { z } from "zod";

/** Fields the restore step used to default when missing or malformed: they still are. */
const orDefault = <T extends z.ZodType>(schema: T, fallback: () => z.output<T>) => schema.catch(fallback);

function buildSchemas() {
  const version = z.number();
  const bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, "must be bytes");
  const modelRef = z.object({ providerId: z.string(), modelId: z.string() });
  const tokenUsage = z.object({ input: z.number(), output: z.number(), reasoning: z.number(), cacheRead: z.number(), cacheWrite: z.number() });
  const emptyUsage = () => ({ input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 });
  const permissionRule = z.object({ permission: z.string(), pattern: z.string(), action: z.enum(["allow", "ask", "deny"]) });
  const todoItem = z.object({
    content: z.string(),
    status: z.enum(["pending", "in_progress", "completed", "cancelled"]),
    priority: z.enum(["high", "medium", "low"]),
  });
  const messageError = z.object({
    name: z.string(),
    message: z.string(),
    /** What the user can do about it, shown beside the error. */
    action: z.string().optional(),
    status: z.number().optional(),
  });
  const fileAttachment = z.object({
    mime: z.string(),
    filename: z.string(),
    /** A data: URL (images) or the text of the file. */
    url: z.string(),
  });
  const metadata = z.record(z.string(), z.unknown());
  /**
   * What a provider attached to a streamed part (Gemini thought signatures, Anthropic thinking
   * signatures, OpenAI item ids and encrypted reasoning), keyed by provider name. Kept so the part
   * can be sent back exactly as the provider expects; never shared or exported in share links.
   */
  const providerMetadata = z.record(z.string(), metadata);
  const toolState = z.discriminatedUnion("status", [
    z.object({ status: z.literal("pending"), input: z.unknown(), raw: z.string() }),
    z.object({ status: z.literal("running"), input: z.unknown(), start: z.number(), title: z.string().optional(), metadata: metadata.optional() }),
    z.object({
      status: z.literal("completed"),
      input: z.unknown(),
      output: z.string(),
      title: z.string(),
      metadata,
      start: z.number(),
      end: z.number(),
      compactedAt: z.number().optional(),
      attachments: z.array(fileAttachment).optional(),
    }),
    z.object({ status: z.literal("error"), input: z.unknown(), error: z.string(), start: z.number(), end: z.number(), metadata: metadata.optional() }),
  ], { error: "tool state missing or malformed" });
  /** A tool the provider ran itself (web search, web fetch, code execution): never run by webcode. */
  const providerToolState = z.object({
    status: z.enum(["running", "completed", "error"]),
    input: z.unknown(),
    /** The provider's result as sent (JSON), for display and to send back. */
    output: z.unknown().optional(),
    /** Metadata of the result event (may differ from the call's). */
    resultMetadata: providerMetadata.optional(),
  }, { error: "provider tool state missing or malformed" });
  const stepTime = z.object({ start: z.number(), end: z.number().optional() });

  const workspace = z.object({
    v: version,
    id: z.string(),
    name: z.string(),
    createdAt: z.number(),
    updatedAt: z.number(),
    /** Set for workspaces opened from a share link until the user continues them. */
    readOnly: z.boolean().optional(),
    /** The GitHub repository, ref and commit the workspace was opened from (its changes go back as a pull request). */
    upstream: z
      .object({
        kind: z.literal("github"),
        apiUrl: z.string(),
        owner: z.string(),
        repo: z.string(),
        ref: z.string(),
        commit: z.string(),
        path: z.string().optional(),
      })
      .optional(),
  });
  /** A file or an explicit (possibly empty) folder of a workspace. Text as string, binary as bytes. */
  const file = z
    .object({
      v: version,
      workspaceId: z.string(),
      path: z.string(),
      kind: z.enum(["file", "dir"]),
      data: z.union([z.string(), bytes]).optional(),
      /** Since version 2 always set (migrations.ts gives older files 0). */
      mtime: z.number(),
    })
    .refine((f) => f.kind === "dir" || f.data !== undefined, { message: `"data" must be text or bytes`, path: ["data"] });
  const session = z.object({
    v: version,
    id: z.string(),
    workspaceId: z.string(),
    title: z.string(),
    parentId: z.string().optional(),
    createdAt: z.number(),
    updatedAt: z.number(),
    agent: z.string(),
    model: modelRef.optional(),
    permission: orDefault(z.array(permissionRule), () => []),
    tokens: orDefault(tokenUsage, emptyUsage),
    cost: orDefault(z.number(), () => 0),
    todos: orDefault(z.array(todoItem), () => []),
    share: z.object({ openedFrom: z.string(), readOnly: z.boolean() }).optional(),
    archived: z.boolean().optional(),
    /** While reverted: the message the session was reverted to and the snapshot to unrevert to. */
    revert: z.object({ messageId: z.string(), snapshot: z.string() }).optional(),
    /** Files the user changed since the last turn (reported with the next message). */
    userEdits: z.array(z.string()).optional(),
  });
  const userMessage = z.object({
    v: version,
    id: z.string(),
    sessionId: z.string(),
    role: z.literal("user"),
    createdAt: z.number(),
    agent: z.string(),
    model: modelRef.optional(),
    system: z.string().optional(),
    tools: z.record(z.string(), z.boolean()).optional(),
    /** Set on synthetic messages the agent writes itself ("Continue if you have next steps"). */
    synthetic: z.boolean().optional(),
    /** The reasoning level the user chose for this turn (unset: the provider's default). */
    reasoning: z.enum(["off", "low", "medium", "high"]).optional(),
  });
  const assistantMessage = z.object({
    v: version,
    id: z.string(),
    sessionId: z.string(),
    role: z.literal("assistant"),
    createdAt: z.number(),
    completedAt: z.number().optional(),
    parentId: z.string(),
    agent: z.string(),
    model: modelRef,
    finish: z.string().optional(),
    tokens: orDefault(tokenUsage, emptyUsage),
    cost: orDefault(z.number(), () => 0),
    error: messageError.optional(),
    summary: z.boolean().optional(),
  });
  const message = z.discriminatedUnion("role", [userMessage, assistantMessage]);

  const partBase = { v: version, id: z.string(), sessionId: z.string(), messageId: z.string() };
  /** One schema per part type; `satisfies` keeps the list in step with the discriminated union. */
  const partTypes = {
    text: z.object({ ...partBase, type: z.literal("text"), text: z.string(), synthetic: z.boolean().optional(), time: stepTime.optional(), providerMetadata: providerMetadata.optional() }),
    // No timing on reasoning that came from a share link or an older export.
    reasoning: z.object({ ...partBase, type: z.literal("reasoning"), text: z.string(), time: stepTime.optional(), providerMetadata: providerMetadata.optional() }),
    file: z.object({ ...partBase, type: z.literal("file"), ...fileAttachment.shape, source: z.string().optional() }),
    tool: z.object({ ...partBase, type: z.literal("tool"), callId: z.string(), tool: z.string(), state: toolState, providerMetadata: providerMetadata.optional() }),
    "provider-tool": z.object({
      ...partBase,
      type: z.literal("provider-tool"),
      callId: z.string(),
      tool: z.string(),
      state: providerToolState,
      providerMetadata: providerMetadata.optional(),
    }),
    /** A source the answer cites or the provider retrieved (a web page or a document). */
    source: z.object({
      ...partBase,
      type: z.literal("source"),
      sourceType: z.enum(["url", "document"], { error: "unknown source type" }),
      url: z.string().optional(),
      title: z.string().optional(),
      mediaType: z.string().optional(),
      filename: z.string().optional(),
    }),
    "step-start": z.object({ ...partBase, type: z.literal("step-start"), snapshot: z.string().optional() }),
    "step-finish": z.object({ ...partBase, type: z.literal("step-finish"), reason: z.string(), tokens: tokenUsage, cost: z.number(), snapshot: z.string().optional() }),
    patch: z.object({ ...partBase, type: z.literal("patch"), hash: z.string(), files: z.array(z.string()) }),
    compaction: z.object({
      ...partBase,
      type: z.literal("compaction"),
      auto: z.boolean(),
      /** The first message kept verbatim after the summary (the last turns); unset: none kept. */
      tailStartId: z.string().optional(),
    }),
    subtask: z.object({ ...partBase, type: z.literal("subtask"), prompt: z.string(), description: z.string(), agent: z.string() }),
    retry: z.object({ ...partBase, type: z.literal("retry"), attempt: z.number(), error: messageError, at: z.number(), delayMs: z.number() }),
  };
  const part = z.discriminatedUnion("type", [
    partTypes.text,
    partTypes.reasoning,
    partTypes.file,
    partTypes.tool,
    partTypes["provider-tool"],
    partTypes.source,
    partTypes["step-start"],
    partTypes["step-finish"],
    partTypes.patch,
    partTypes.compaction,
    partTypes.subtask,
    partTypes.retry,
  ]);
  /** Content-addressed bytes (snapshots of file contents). */
  const blob = z.object({ hash: z.string(), data: z.union([z.string(), bytes]) });
  /** A snapshot of a workspace: path -> blob hash (files only). */
  const snapshot = z.object({ v: version, id: z.string(), workspaceId: z.string(), createdAt: z.number(), files: z.record(z.string(), z.string()) });
  const setting = z.object({ key: z.string(), value: z.unknown() });

  return {
    modelRef,
    tokenUsage,
    permissionRule,
    todoItem,
    messageError,
    fileAttachment,
    providerMetadata,
    toolState,
    providerToolState,
    workspace,
    file,
    session,
    userMessage,
    assistantMessage,
    message,
    partTypes,
    part,
    blob,
    snapshot,
    setting,
  };
}

export type RecordSchemas = ReturnType<typeof buildSchemas>;

let built: RecordSchemas | undefined;

/** The record schemas, built on first call (see the note at the top). */
export function recordSchemas(): RecordSchemas {
  built ??= buildSchemas();
  return built;
}
