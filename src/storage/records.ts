// The records kept in IndexedDB. Every record carries `v` (its schema version) and is read back
// through a restore step (restore.ts) that parses it and migrates older versions. The types are
// inferred from the zod schemas in schemas.ts: one definition per record kind.
import type { z } from "zod";
import type { RecordSchemas } from "./schemas";

/** The version of the record format (its history and the steps from older ones: migrations.ts). */
export const RECORD_VERSION = 2;

type Infer<K extends keyof RecordSchemas> = z.output<RecordSchemas[K]>;

export type WorkspaceRecord = Infer<"workspace">;
/** A file or an explicit (possibly empty) folder of a workspace. Text as string, binary as bytes. */
export type FileRecord = Infer<"file">;
export type ModelRef = Infer<"modelRef">;
export type TokenUsage = Infer<"tokenUsage">;
export type PermissionRule = Infer<"permissionRule">;
export type TodoItem = Infer<"todoItem">;
export type SessionRecord = Infer<"session">;
export type MessageError = Infer<"messageError">;
export type UserMessageRecord = Infer<"userMessage">;
export type AssistantMessageRecord = Infer<"assistantMessage">;
export type MessageRecord = UserMessageRecord | AssistantMessageRecord;
export type ToolState = Infer<"toolState">;
export type FileAttachment = Infer<"fileAttachment">;
/** What a provider attached to a streamed part, keyed by provider name (see schemas.ts). */
export type ProviderMetadata = Infer<"providerMetadata">;
/** A tool the provider ran itself (web search, web fetch, code execution): never run by webcode. */
export type ProviderToolState = Infer<"providerToolState">;
export type PartRecord = Infer<"part">;
export type PartType = PartRecord["type"];
/** The part of one type. */
export type PartOf<T extends PartType> = Extract<PartRecord, { type: T }>;
/** Content-addressed bytes (snapshots of file contents). */
export type BlobRecord = Infer<"blob">;
/** A snapshot of a workspace: path -> blob hash (files only). */
export type SnapshotRecord = Infer<"snapshot">;
export type SettingRecord = Infer<"setting">;

// The per-type schemas and the union must name the same part types (compile-time check).
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const partTypesMatch: SameKeys<keyof RecordSchemas["partTypes"], PartType> = true;
void partTypesMatch;

export function emptyUsage(): TokenUsage {
  return { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
}
