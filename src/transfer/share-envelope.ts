// The share envelope (format "webcode-share", version 1): what a share link or .webcode file
// carries, as zod schemas. Decoding parses strictly against these: every string and list is
// bounded, unknown fields are dropped, and tool parts can only be finished (completed or error).
import { z } from "zod";
import { recordSchemas, type PartType } from "../storage";

export const SHARE_FORMAT = "webcode-share";
export const SHARE_VERSION = 1;
/** Default cap for a link: the whole `#share=v1.…` fragment, in characters. */
export const SHARE_LINK_CAP = 1_500_000;
/** Tool outputs are cut to this many characters in a share. */
export const SHARE_TOOL_OUTPUT_CHARS = 2000;
/** The inflated envelope may not exceed this (checked while inflating). */
export const SHARE_MAX_INFLATED_BYTES = 50 * 1024 * 1024;
/**
 * Caps on what one share may hold, checked before anything else is parsed: past them a share is
 * refused with a message saying so. They keep opening a share quick (the transcript renders in
 * slices, issue 9 point 7); a real session that outgrows them can be compacted or split.
 */
export const SHARE_MAX_MESSAGES = 2_000;
export const SHARE_MAX_PARTS = 20_000;
export const SHARE_MAX_PARTS_PER_MESSAGE = 1_000;
/** A link's data part may not exceed this many characters (checked before decoding anything). */
export const SHARE_MAX_LINK_CHARS = 16_000_000;

const MAX_TIME = 8.64e15;

/** too-large: over the cap (largest left out first); excluded: by the user; secret: a .env file. */
export const OMIT_REASONS = ["too-large", "excluded", "secret"] as const;


// The shapes come from the storage schemas (pick the fields a share carries, extend them with the
// share's limits). Built on first use, like the storage schemas (src/storage/schemas.ts).
function buildShareSchemas() {
  const record = recordSchemas();
  const time = z.number().int().min(0).max(MAX_TIME);
  const count = z.number().min(0).max(1e15);
  const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);
  const agentName = z.string().min(1).max(64).regex(/^[A-Za-z0-9_.-]+$/);
  const modelPart = z.string().min(1).max(200).regex(/^[\w.:/@+-]+$/);

  const model = record.modelRef.extend({ providerId: modelPart, modelId: modelPart });
  const usage = record.tokenUsage.extend({ input: count, output: count, reasoning: count, cacheRead: count, cacheWrite: count });
  const messageError = record.messageError.extend({
    name: z.string().max(200),
    message: z.string().max(10_000),
    action: z.string().max(2000).optional(),
    status: z.number().int().min(0).max(999).optional(),
  });

  const userMessage = record.userMessage
    .pick({ id: true, role: true, createdAt: true, agent: true, model: true, synthetic: true })
    .extend({ id, createdAt: time, agent: agentName, model: model.optional() });
  const assistantMessage = record.assistantMessage
    .pick({ id: true, role: true, createdAt: true, completedAt: true, parentId: true, agent: true, model: true, finish: true, tokens: true, cost: true, error: true, summary: true })
    .extend({
      id,
      createdAt: time,
      completedAt: time.optional(),
      parentId: id,
      agent: agentName,
      model,
      finish: z.string().max(64).optional(),
      tokens: usage,
      cost: count,
      error: messageError.optional(),
    });
  const message = z.discriminatedUnion("role", [userMessage, assistantMessage]);

  /** Tool input / metadata: any JSON, size-checked in the restore step. */
  const json = z.unknown();
  const [pending, running, completed, failed] = record.toolState.options;
  const toolState = z.discriminatedUnion("status", [
    completed
      .pick({ status: true, input: true, output: true, title: true, metadata: true, start: true, end: true })
      .extend({ input: json, output: z.string().max(200_000), title: z.string().max(1000), metadata: z.record(z.string(), json), start: time, end: time }),
    failed.pick({ status: true, input: true, error: true, start: true, end: true }).extend({ input: json, error: z.string().max(20_000), start: time, end: time }),
    // Accepted only to be turned into errors by the restore step: a share never resumes a tool.
    pending.pick({ status: true, input: true }).extend({ input: json }),
    running.pick({ status: true, input: true, start: true }).extend({ input: json, start: time }),
  ]);

  const parts = record.partTypes;
  const base = { id: true, messageId: true, type: true } as const;
  const partBase = { id, messageId: id };
  /**
   * The part types a share carries, each with its limits; null: never shared (patches point at
   * local snapshots; provider tools carry provider metadata). Exhaustive over PartType.
   */
  const partTypes = {
    text: parts.text.pick({ ...base, text: true, synthetic: true }).extend({ ...partBase, text: z.string().max(5_000_000) }),
    reasoning: parts.reasoning.pick({ ...base, text: true }).extend({ ...partBase, text: z.string().max(5_000_000) }),
    file: parts.file.pick({ ...base, mime: true, filename: true, url: true }).extend({
      ...partBase,
      mime: z.string().max(255).regex(/^[\w.+-]+\/[\w.+-]+$/),
      filename: z.string().max(255),
      url: z.string().max(10_000_000),
    }),
    tool: parts.tool.pick({ ...base, callId: true, tool: true, state: true }).extend({
      ...partBase,
      callId: z.string().min(1).max(200),
      tool: z.string().min(1).max(64).regex(/^[\w.-]+$/),
      state: toolState,
    }),
    "step-start": parts["step-start"].pick(base).extend(partBase),
    "step-finish": parts["step-finish"].pick({ ...base, reason: true, tokens: true, cost: true }).extend({ ...partBase, reason: z.string().max(64), tokens: usage, cost: count }),
    compaction: parts.compaction.pick({ ...base, auto: true }).extend(partBase),
    subtask: parts.subtask
      .pick({ ...base, prompt: true, description: true, agent: true })
      .extend({ ...partBase, prompt: z.string().max(1_000_000), description: z.string().max(10_000), agent: agentName }),
    retry: parts.retry
      .pick({ ...base, attempt: true, error: true, at: true, delayMs: true })
      .extend({ ...partBase, attempt: z.number().int().min(0).max(1000), error: messageError, at: time, delayMs: count }),
    // A cited source (older webcode versions drop it as an unknown part type). The viewer links web
    // addresses only.
    source: parts.source.pick({ ...base, sourceType: true, url: true, title: true, mediaType: true, filename: true }).extend({
      ...partBase,
      url: z.string().max(4096).optional(),
      title: z.string().max(1000).optional(),
      mediaType: z.string().max(255).optional(),
      filename: z.string().max(255).optional(),
    }),
    patch: null,
    "provider-tool": null,
  } satisfies Record<PartType, z.ZodType | null>;
  const part = z.discriminatedUnion("type", [
    partTypes.text,
    partTypes.reasoning,
    partTypes.file,
    partTypes.tool,
    partTypes["step-start"],
    partTypes["step-finish"],
    partTypes.compaction,
    partTypes.subtask,
    partTypes.retry,
    partTypes.source,
  ]);

  const file = z.union([
    z.object({ path: z.string().min(1).max(4096), data: z.string().max(SHARE_MAX_INFLATED_BYTES) }),
    z.object({ path: z.string().min(1).max(4096), base64: z.string().max(SHARE_MAX_INFLATED_BYTES).regex(/^[A-Za-z0-9+/]*={0,2}$/) }),
    z.object({ path: z.string().min(1).max(4096), dir: z.literal(true) }),
  ]);
  const omitted = z.object({ path: z.string().max(4096), reason: z.enum(OMIT_REASONS) });

  /** Everything but the parts, which are checked one by one (unknown part types are dropped). */
  const envelope = z.object({
    format: z.literal(SHARE_FORMAT),
    version: z.literal(SHARE_VERSION),
    createdAt: time,
    session: record.session.pick({ title: true, agent: true, model: true }).extend({ title: z.string().max(500), agent: agentName, model: model.optional() }),
    messages: z.array(message).max(20_000),
    parts: z.array(z.unknown()).max(200_000),
    files: z.array(file).max(50_000),
    omitted: z.array(omitted).max(50_000),
  });
  return { model, usage, messageError, message, part, partTypes, file, omitted, envelope };
}

type ShareSchemas = ReturnType<typeof buildShareSchemas>;
let built: ShareSchemas | undefined;

/** The share envelope's schemas, built on first call. */
export function shareSchemas(): ShareSchemas {
  built ??= buildShareSchemas();
  return built;
}

/** The part types a share carries (every other type is dropped when a share is opened). */
export const SHARE_PART_TYPES = ["text", "reasoning", "file", "tool", "step-start", "step-finish", "compaction", "subtask", "retry", "source"] as const;
type SharedTypes = { [K in keyof ShareSchemas["partTypes"]]: ShareSchemas["partTypes"][K] extends null ? never : K }[keyof ShareSchemas["partTypes"]];
// SHARE_PART_TYPES names exactly the types with a schema above (compile-time check).
const sharedTypesMatch: [SharedTypes] extends [(typeof SHARE_PART_TYPES)[number]] ? ([(typeof SHARE_PART_TYPES)[number]] extends [SharedTypes] ? true : false) : false = true;
void sharedTypesMatch;

export type ShareMessage = z.infer<ShareSchemas["message"]>;
/** A part as decoded (tool parts may still claim to be pending or running). */
export type DecodedSharePart = z.infer<ShareSchemas["part"]>;
type FinishedToolState = Extract<Extract<DecodedSharePart, { type: "tool" }>["state"], { status: "completed" | "error" }>;
/** A part as shared: tool parts are always finished. */
export type SharePart = Exclude<DecodedSharePart, { type: "tool" }> | (Omit<Extract<DecodedSharePart, { type: "tool" }>, "state"> & { state: FinishedToolState });
export type ShareFile = z.infer<ShareSchemas["file"]>;
export type OmittedFile = z.infer<ShareSchemas["omitted"]>;
export type OmitReason = (typeof OMIT_REASONS)[number];

export interface ShareEnvelope {
  format: typeof SHARE_FORMAT;
  version: typeof SHARE_VERSION;
  createdAt: number;
  session: { title: string; agent: string; model?: { providerId: string; modelId: string } };
  messages: ShareMessage[];
  parts: SharePart[];
  files: ShareFile[];
  omitted: OmittedFile[];
}

const SAFE_IMAGE_URL = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}$/;

/**
 * What of an attachment's URL may travel in a share: inline images only. The receiver drops every
 * other URL (remote, script, and text `data:` URLs, whose base64 would also hide a key from the
 * scan), so the sender drops it too: nothing is shared that the receiver would throw away.
 */
export function shareableAttachmentUrl(mime: string, url: string): string {
  if (mime.startsWith("image/")) return SAFE_IMAGE_URL.test(url) ? url : "";
  return /^\s*(?:javascript|vbscript|data|https?|file|blob):/i.test(url) ? "" : url;
}
