// The share envelope (format "webcode-share", version 1): what a share link or .webcode file
// carries, as zod schemas. Decoding parses strictly against these: every string and list is
// bounded, unknown fields are dropped, and tool parts can only be finished (completed or error).
import { z } from "zod";

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
const time = z.number().int().min(0).max(MAX_TIME);
const count = z.number().min(0).max(1e15);
const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);
const agentName = z.string().min(1).max(64).regex(/^[A-Za-z0-9_.-]+$/);
const modelPart = z.string().min(1).max(200).regex(/^[\w.:/@+-]+$/);

export const modelSchema = z.object({ providerId: modelPart, modelId: modelPart });
export const usageSchema = z.object({ input: count, output: count, reasoning: count, cacheRead: count, cacheWrite: count });
export const messageErrorSchema = z.object({
  name: z.string().max(200),
  message: z.string().max(10_000),
  action: z.string().max(2000).optional(),
  status: z.number().int().min(0).max(999).optional(),
});

const userMessage = z.object({
  id,
  role: z.literal("user"),
  createdAt: time,
  agent: agentName,
  model: modelSchema.optional(),
  synthetic: z.boolean().optional(),
});
const assistantMessage = z.object({
  id,
  role: z.literal("assistant"),
  createdAt: time,
  completedAt: time.optional(),
  parentId: id,
  agent: agentName,
  model: modelSchema,
  finish: z.string().max(64).optional(),
  tokens: usageSchema,
  cost: count,
  error: messageErrorSchema.optional(),
  summary: z.boolean().optional(),
});
export const shareMessageSchema = z.discriminatedUnion("role", [userMessage, assistantMessage]);

/** Tool input / metadata: any JSON, size-checked in the restore step. */
const json = z.unknown();
const toolState = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("completed"),
    input: json,
    output: z.string().max(200_000),
    title: z.string().max(1000),
    metadata: z.record(z.string(), json),
    start: time,
    end: time,
  }),
  z.object({ status: z.literal("error"), input: json, error: z.string().max(20_000), start: time, end: time }),
  // Accepted only to be turned into errors by the restore step: a share never resumes a tool.
  z.object({ status: z.literal("pending"), input: json }),
  z.object({ status: z.literal("running"), input: json, start: time }),
]);

const partBase = { id, messageId: id };
export const SHARE_PART_TYPES = ["text", "reasoning", "file", "tool", "step-start", "step-finish", "compaction", "subtask", "retry", "source"] as const;
export const sharePartSchema = z.discriminatedUnion("type", [
  z.object({ ...partBase, type: z.literal("text"), text: z.string().max(5_000_000), synthetic: z.boolean().optional() }),
  z.object({ ...partBase, type: z.literal("reasoning"), text: z.string().max(5_000_000) }),
  z.object({
    ...partBase,
    type: z.literal("file"),
    mime: z.string().max(255).regex(/^[\w.+-]+\/[\w.+-]+$/),
    filename: z.string().max(255),
    url: z.string().max(10_000_000),
  }),
  z.object({ ...partBase, type: z.literal("tool"), callId: z.string().min(1).max(200), tool: z.string().min(1).max(64).regex(/^[\w.-]+$/), state: toolState }),
  z.object({ ...partBase, type: z.literal("step-start") }),
  z.object({ ...partBase, type: z.literal("step-finish"), reason: z.string().max(64), tokens: usageSchema, cost: count }),
  z.object({ ...partBase, type: z.literal("compaction"), auto: z.boolean() }),
  z.object({ ...partBase, type: z.literal("subtask"), prompt: z.string().max(1_000_000), description: z.string().max(10_000), agent: agentName }),
  z.object({ ...partBase, type: z.literal("retry"), attempt: z.number().int().min(0).max(1000), error: messageErrorSchema, at: time, delayMs: count }),
  // A cited source (older webcode versions drop it as an unknown part type). The viewer links web
  // addresses only.
  z.object({
    ...partBase,
    type: z.literal("source"),
    sourceType: z.enum(["url", "document"]),
    url: z.string().max(4096).optional(),
    title: z.string().max(1000).optional(),
    mediaType: z.string().max(255).optional(),
    filename: z.string().max(255).optional(),
  }),
]);

export const shareFileSchema = z.union([
  z.object({ path: z.string().min(1).max(4096), data: z.string().max(SHARE_MAX_INFLATED_BYTES) }),
  z.object({ path: z.string().min(1).max(4096), base64: z.string().max(SHARE_MAX_INFLATED_BYTES).regex(/^[A-Za-z0-9+/]*={0,2}$/) }),
  z.object({ path: z.string().min(1).max(4096), dir: z.literal(true) }),
]);

/** too-large: over the cap (largest left out first); excluded: by the user; secret: a .env file. */
export const OMIT_REASONS = ["too-large", "excluded", "secret"] as const;
export const omittedSchema = z.object({ path: z.string().max(4096), reason: z.enum(OMIT_REASONS) });

/** Everything but the parts, which are checked one by one (unknown part types are dropped). */
export const envelopeSchema = z.object({
  format: z.literal(SHARE_FORMAT),
  version: z.literal(SHARE_VERSION),
  createdAt: time,
  session: z.object({ title: z.string().max(500), agent: agentName, model: modelSchema.optional() }),
  messages: z.array(shareMessageSchema).max(20_000),
  parts: z.array(z.unknown()).max(200_000),
  files: z.array(shareFileSchema).max(50_000),
  omitted: z.array(omittedSchema).max(50_000),
});

export type ShareMessage = z.infer<typeof shareMessageSchema>;
/** A part as decoded (tool parts may still claim to be pending or running). */
export type DecodedSharePart = z.infer<typeof sharePartSchema>;
type FinishedToolState = Extract<Extract<DecodedSharePart, { type: "tool" }>["state"], { status: "completed" | "error" }>;
/** A part as shared: tool parts are always finished. */
export type SharePart = Exclude<DecodedSharePart, { type: "tool" }> | (Omit<Extract<DecodedSharePart, { type: "tool" }>, "state"> & { state: FinishedToolState });
export type ShareFile = z.infer<typeof shareFileSchema>;
export type OmittedFile = z.infer<typeof omittedSchema>;
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
