// The parts of a model call that webcode does not run: tools the provider executed itself (web
// search, web fetch, code execution) and the sources an answer cites. Kept as their own part kinds
// so they are shown, shared and sent back, but never executed, answered or counted as tool calls.
import type { ProviderMetadata as SdkProviderMetadata } from "ai";
import type { PartRecord, ProviderMetadata } from "../../storage";
import type { SessionEnv } from "./env";

type ProviderToolPart = Extract<PartRecord, { type: "provider-tool" }>;
type SourcePart = Extract<PartRecord, { type: "source" }>;

/** A source as the AI SDK streams it (url or document). */
export interface StreamSource {
  sourceType: "url" | "document";
  url?: string;
  title?: string;
  mediaType?: string;
  filename?: string;
}

/** Provider metadata merged field by field per provider (later events add to earlier ones). */
export function mergeMetadata(a: ProviderMetadata | undefined, b: SdkProviderMetadata | ProviderMetadata | undefined): ProviderMetadata | undefined {
  if (!b || Object.keys(b).length === 0) return a;
  const out: ProviderMetadata = { ...a };
  for (const [provider, values] of Object.entries(b)) {
    if (values && typeof values === "object") out[provider] = { ...out[provider], ...(values as Record<string, unknown>) };
  }
  return out;
}

export class ProviderParts {
  private readonly tools = new Map<string, ProviderToolPart>();
  private readonly sources = new Set<string>();

  constructor(
    private readonly env: SessionEnv,
    private readonly base: () => { v: number; id: string; sessionId: string; messageId: string },
    /** Sources already stored on this message by earlier attempts or steps (not added twice). */
    existing: readonly PartRecord[] = [],
  ) {
    for (const part of existing) if (part.type === "source") this.sources.add(sourceKey(part));
  }

  get all(): ProviderToolPart[] {
    return [...this.tools.values()];
  }

  has(callId: string): boolean {
    return this.tools.has(callId);
  }

  /** The call as the provider announced or completed it (input known once `input` is set). */
  called(callId: string, tool: string, input: unknown, metadata: SdkProviderMetadata | undefined): ProviderToolPart {
    const existing = this.tools.get(callId);
    const part: ProviderToolPart = existing
      ? { ...existing, tool, state: { ...existing.state, input }, ...withMetadata(mergeMetadata(existing.providerMetadata, metadata)) }
      : { ...this.base(), type: "provider-tool", callId, tool, state: { status: "running", input }, ...withMetadata(mergeMetadata(undefined, metadata)) };
    return this.put(part);
  }

  /** The provider's result; it wins over an earlier error (a call the SDK could not match to a tool). */
  result(callId: string, tool: string, input: unknown, output: unknown, metadata: SdkProviderMetadata | undefined, isError = false): void {
    const part = this.tools.get(callId) ?? this.called(callId, tool, input, undefined);
    const resultMetadata = mergeMetadata(undefined, metadata);
    this.put({
      ...part,
      state: { status: isError ? "error" : "completed", input: part.state.input ?? input, output: toJson(output), ...(resultMetadata && { resultMetadata }) },
    });
  }

  /** An error event for a provider-executed call: kept only until the provider's own result arrives. */
  error(callId: string, tool: string, input: unknown, error: unknown): void {
    const part = this.tools.get(callId) ?? this.called(callId, tool, input, undefined);
    if (part.state.status !== "running") return;
    this.put({ ...part, state: { ...part.state, status: "error", output: error instanceof Error ? error.message : toJson(error) } });
  }

  /** A call the provider never finished (the stream ended or failed first). */
  finishUnfinished(): void {
    for (const part of this.tools.values()) {
      if (part.state.status === "running") this.put({ ...part, state: { ...part.state, status: "error", output: "The provider did not finish this call." } });
    }
  }

  forget(callId: string): void {
    this.tools.delete(callId);
  }

  forgetSource(part: SourcePart): void {
    this.sources.delete(sourceKey(part));
  }

  /** A cited or retrieved source; the same URL (or document) is stored once per message. */
  source(source: StreamSource): SourcePart | undefined {
    const part: SourcePart = {
      ...this.base(),
      type: "source",
      sourceType: source.sourceType,
      ...(source.url !== undefined && { url: source.url }),
      ...(source.title !== undefined && { title: source.title }),
      ...(source.mediaType !== undefined && { mediaType: source.mediaType }),
      ...(source.filename !== undefined && { filename: source.filename }),
    };
    const key = sourceKey(part);
    if (this.sources.has(key)) return undefined;
    this.sources.add(key);
    this.env.store.updatePart(part);
    return part;
  }

  private put(part: ProviderToolPart): ProviderToolPart {
    this.tools.set(part.callId, part);
    this.env.store.updatePart(part);
    return part;
  }
}

function sourceKey(part: SourcePart): string {
  return part.sourceType === "url" ? `url:${part.url ?? ""}` : `doc:${part.title ?? ""}:${part.filename ?? ""}`;
}

function withMetadata(metadata: ProviderMetadata | undefined): { providerMetadata?: ProviderMetadata } {
  return metadata ? { providerMetadata: metadata } : {};
}

/** Provider results are JSON on the wire; anything else (an Error, undefined) is stored as text. */
function toJson(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return String(value);
  }
}
