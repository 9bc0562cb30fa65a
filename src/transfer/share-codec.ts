// The share codec: session + workspace records -> versioned envelope -> JSON -> deflate-raw ->
// base64url in `#share=v1.<data>` (or, with a magic header, a .webcode file); and back again
// through strict, bounded decoding and the restore step (share-restore.ts).
import { Inflate, deflateSync } from "fflate";
import { findTransferFragment } from "./transfer-fragment";
import { concatBytes, crc32, encodeText, isInside, normalizePath } from "../base";
import type { MessageError, MessageRecord, PartRecord } from "../storage";
import { base64Encode, base64UrlDecode, base64UrlEncode } from "./base64";
import { finishEntries, type ImportEntry } from "./import-entries";
import { isEnvFile, redactSecrets, type ShareSource } from "./secret-scan";
import {
  SHARE_FORMAT,
  SHARE_LINK_CAP,
  SHARE_MAX_INFLATED_BYTES,
  SHARE_MAX_LINK_CHARS,
  SHARE_MAX_MESSAGES,
  SHARE_MAX_PARTS,
  SHARE_TOOL_OUTPUT_CHARS,
  SHARE_VERSION,
  type OmitReason,
  type OmittedFile,
  type ShareEnvelope,
  type ShareFile,
  type ShareMessage,
  type SharePart,
  shareableAttachmentUrl,
} from "./share-envelope";
import { ShareError, boundedJson, damagedShare, newerVersionError, restoreShareEnvelope, truncateOutput, type RestoredShare } from "./share-restore";

export interface ShareEncodeOptions {
  /** Cap for a link: the whole `#share=v1.…` fragment, in characters (default 1.5 MB). */
  cap?: number;
  /** Files or folders to leave out (chosen by the user, e.g. from secret findings). */
  excludePaths?: string[];
  /** Replace key-like strings with a marker and leave out .env files. */
  redactFindings?: boolean;
  /**
   * With redactFindings: literal secrets to replace as well (the API keys configured in Settings).
   * Only matched against; never written into the share.
   */
  knownSecrets?: readonly string[];
  /** Tool outputs are cut to this many characters (default 2000). */
  toolOutputChars?: number;
  now?: number;
}

export interface ShareLinkResult {
  /** `#share=v1.<data>`, or undefined when even the transcript alone is over the cap. */
  fragment?: string;
  /** Length of the fragment (or of what it would be, when it does not fit). */
  length: number;
  fits: boolean;
  envelope: ShareEnvelope;
  /** Files left out, with why (also inside the envelope). */
  omitted: OmittedFile[];
}

export interface ShareFileResult {
  bytes: Uint8Array;
  envelope: ShareEnvelope;
  omitted: OmittedFile[];
}

const CHECKSUM_BYTES = 4;
const LINK_PREFIX = `#share=v${SHARE_VERSION}.`;
const FILE_MAGIC = `webcode-share v${SHARE_VERSION}\n`;
const FILE_MAGIC_PREFIX = "webcode-share v";
/** The .webcode file keeps its inflated JSON under this, leaving room below the decode limit. */
const FILE_JSON_BUDGET = SHARE_MAX_INFLATED_BYTES - 1024 * 1024;
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const UNFINISHED_TOOL = "The tool had not finished when this session was shared.";
const DEFLATE_LEVEL = 9;

// ---- building the envelope -------------------------------------------------------------------

type Redact = (text: string) => string;

/** Redacts every string of a JSON value, object keys included (a key can hold a secret too). */
function redactDeep(value: unknown, redact: Redact): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactDeep(v, redact)]));
  return value;
}

/** A redaction marker can be longer than what it replaced: keep bounded fields within their bounds. */
const fit = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max));

/** Every free-text field of an error, redacted (name, message and the suggested action). */
function shareError(error: MessageError, redact: Redact): MessageError {
  return {
    ...error,
    name: fit(redact(error.name), 200),
    message: fit(redact(error.message), 10_000),
    ...(error.action !== undefined ? { action: fit(redact(error.action), 2000) } : {}),
  };
}

const boundJson = (value: unknown, max: number): unknown => boundedJson(value, max).value;

function shareMessage(m: MessageRecord, id: string, parentId: string | undefined, redact: Redact): ShareMessage | undefined {
  if (m.role === "user") {
    return { id, role: "user", createdAt: m.createdAt, agent: m.agent, ...(m.model ? { model: m.model } : {}), ...(m.synthetic ? { synthetic: true } : {}) };
  }
  if (parentId === undefined) return undefined;
  return {
    id,
    role: "assistant",
    createdAt: m.createdAt,
    ...(m.completedAt !== undefined ? { completedAt: m.completedAt } : {}),
    parentId,
    agent: m.agent,
    model: m.model,
    ...(m.finish !== undefined ? { finish: fit(redact(m.finish), 64) } : {}),
    tokens: m.tokens,
    cost: m.cost,
    ...(m.error ? { error: shareError(m.error, redact) } : {}),
    ...(m.summary ? { summary: true } : {}),
  };
}

function sharePart(p: PartRecord, id: string, messageId: string, redact: Redact, outputChars: number): SharePart | undefined {
  const base = { id, messageId };
  switch (p.type) {
    case "text":
      return { ...base, type: "text", text: redact(p.text), ...(p.synthetic ? { synthetic: true } : {}) };
    case "reasoning":
      return { ...base, type: "reasoning", text: redact(p.text) };
    case "file":
      // The receiver keeps inline images only; anything it would drop (a text data: URL, whose base64
      // the scan cannot read) is not sent at all.
      return { ...base, type: "file", mime: p.mime, filename: fit(redact(p.filename), 255), url: redact(shareableAttachmentUrl(p.mime, p.url)) };
    case "tool": {
      const s = p.state;
      const input = boundJson(redactDeep(s.input, redact), 100_000);
      const state: Extract<SharePart, { type: "tool" }>["state"] =
        s.status === "completed"
          ? { status: "completed", input, output: truncateOutput(redact(s.output), outputChars), title: redact(s.title), metadata: boundJson(redactDeep(s.metadata, redact), 20_000) as Record<string, unknown>, start: s.start, end: s.end }
          : s.status === "error"
            ? { status: "error", input, error: truncateOutput(redact(s.error), outputChars), start: s.start, end: s.end }
            : { status: "error", input, error: UNFINISHED_TOOL, start: s.status === "running" ? s.start : 0, end: s.status === "running" ? s.start : 0 };
      return { ...base, type: "tool", callId: fit(redact(p.callId), 200), tool: p.tool, state };
    }
    case "step-start":
      return { ...base, type: "step-start" };
    case "step-finish":
      return { ...base, type: "step-finish", reason: fit(redact(p.reason), 64), tokens: p.tokens, cost: p.cost };
    case "compaction":
      return { ...base, type: "compaction", auto: p.auto };
    case "subtask":
      return { ...base, type: "subtask", prompt: redact(p.prompt), description: redact(p.description), agent: p.agent };
    case "retry":
      return { ...base, type: "retry", attempt: p.attempt, error: shareError(p.error, redact), at: p.at, delayMs: p.delayMs };
    case "source":
      return {
        ...base,
        type: "source",
        sourceType: p.sourceType,
        ...(p.url !== undefined && { url: fit(redact(p.url), 4096) }),
        ...(p.title !== undefined && { title: fit(redact(p.title), 1000) }),
        ...(p.mediaType !== undefined && { mediaType: fit(p.mediaType, 255) }),
        ...(p.filename !== undefined && { filename: fit(redact(p.filename), 255) }),
      };
    // Patch parts point at snapshots that are not shared; provider tools carry provider metadata.
    case "patch":
    case "provider-tool":
      return undefined;
    default:
      // A part type added to the records without a decision here fails the type check.
      return ((unhandled: never) => unhandled)(p);
  }
}

interface Candidate {
  file: ShareFile;
  path: string;
  size: number;
}

/** The transcript part of the envelope (short ids "m0", "p0": nothing about the sharer's ids). */
function buildTranscript(source: ShareSource, options: ShareEncodeOptions): Omit<ShareEnvelope, "files" | "omitted"> {
  const known = { knownSecrets: options.knownSecrets ?? [] };
  const redact: Redact = options.redactFindings ? (t) => redactSecrets(t, known) : (t) => t;
  const outputChars = options.toolOutputChars ?? SHARE_TOOL_OUTPUT_CHARS;
  const ids = new Map<string, string>();
  const messages: ShareMessage[] = [];
  for (const m of source.messages) {
    const id = `m${messages.length}`;
    const message = shareMessage(m, id, m.role === "assistant" ? ids.get(m.parentId) : undefined, redact);
    if (!message) continue;
    ids.set(m.id, id);
    messages.push(message);
  }
  const parts: SharePart[] = [];
  for (const p of source.parts) {
    const messageId = ids.get(p.messageId);
    if (messageId === undefined) continue;
    const part = sharePart(p, `p${parts.length}`, messageId, redact, outputChars);
    if (part) parts.push(part);
  }
  // The opener refuses shares past these caps: say so here, before a link is sent that cannot open.
  if (messages.length > SHARE_MAX_MESSAGES || parts.length > SHARE_MAX_PARTS) {
    throw new ShareError(
      "too-large",
      `This session has ${messages.length.toLocaleString("en")} messages and ${parts.length.toLocaleString("en")} parts; a share holds at most ${SHARE_MAX_MESSAGES.toLocaleString("en")} messages and ${SHARE_MAX_PARTS.toLocaleString("en")} parts. Share a shorter session (start a new one or compact this one).`,
    );
  }
  const s = source.session;
  return {
    format: SHARE_FORMAT,
    version: SHARE_VERSION,
    createdAt: options.now ?? Date.now(),
    session: { title: redact(s.title).slice(0, 500), agent: s.agent, ...(s.model ? { model: s.model } : {}) },
    messages,
    parts,
  };
}

function buildCandidates(source: ShareSource, options: ShareEncodeOptions, omitted: OmittedFile[]): Candidate[] {
  const excluded = (options.excludePaths ?? []).map((p) => normalizePath(p));
  const entries: ImportEntry[] = source.files.map((f) =>
    f.kind === "dir" ? { kind: "dir", path: f.path } : { kind: "file", path: f.path, data: f.data ?? "" },
  );
  const out: Candidate[] = [];
  for (const entry of finishEntries(entries, { allowConfusable: true }).sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const omit = (reason: OmitReason) => omitted.push({ path: entry.path, reason });
    if (excluded.some((folder) => isInside(entry.path, folder) && folder !== "")) {
      omit("excluded");
      continue;
    }
    if (entry.kind === "dir") {
      out.push({ file: { path: entry.path, dir: true }, path: entry.path, size: 0 });
      continue;
    }
    if (options.redactFindings && isEnvFile(entry.path)) {
      omit("secret");
      continue;
    }
    if (typeof entry.data === "string") {
      const data = options.redactFindings ? redactSecrets(entry.data, { knownSecrets: options.knownSecrets ?? [] }) : entry.data;
      out.push({ file: { path: entry.path, data }, path: entry.path, size: data.length });
    } else {
      out.push({ file: { path: entry.path, base64: base64Encode(entry.data) }, path: entry.path, size: entry.data.length });
    }
  }
  return out;
}

/**
 * Keeps as many files as fit under `limit` by `measure`, leaving out the largest first. `estimate`
 * guesses one file's share of the measure so that few real measurements are needed.
 */
function fitFiles(
  transcript: Omit<ShareEnvelope, "files" | "omitted">,
  candidates: Candidate[],
  omitted: OmittedFile[],
  limit: number,
  measure: (envelope: ShareEnvelope) => number,
  estimate: (candidate: Candidate) => number,
): { envelope: ShareEnvelope; size: number; fits: boolean } {
  const bySize = [...candidates].sort((a, b) => b.size - a.size || (a.path < b.path ? -1 : 1));
  const dropped = new Set<Candidate>();
  const make = () => {
    const files = candidates.filter((c) => !dropped.has(c)).map((c) => c.file);
    // Empty folders cost next to nothing and are not worth listing as left out.
    const left = bySize.filter((c) => dropped.has(c) && !("dir" in c.file)).map((c) => ({ path: c.path, reason: "too-large" as const }));
    return { ...transcript, files, omitted: [...omitted, ...left] } as ShareEnvelope;
  };
  const empty = measure({ ...transcript, files: [], omitted } as ShareEnvelope);
  if (empty > limit) {
    for (const c of bySize) dropped.add(c);
    return { envelope: make(), size: empty, fits: false };
  }
  const costs = new Map(bySize.map((c) => [c, estimate(c)]));
  let guess = empty + bySize.reduce((n, c) => n + costs.get(c)!, 0);
  let next = 0;
  while (guess > limit * 0.92 && next < bySize.length) {
    guess -= costs.get(bySize[next]!)!;
    dropped.add(bySize[next++]!);
  }
  for (;;) {
    const envelope = make();
    const size = measure(envelope);
    if (size <= limit) return refill(envelope, size);
    // Still over: drop (largest first) until the estimates cover the excess, then measure again.
    let excess = (size - limit) * 1.1;
    while (excess > 0 && next < bySize.length) {
      excess -= costs.get(bySize[next]!)!;
      dropped.add(bySize[next++]!);
    }
    if (next >= bySize.length) {
      // Every file is out; only the list of omitted paths can still be over.
      const last = make();
      const lastSize = measure(last);
      return { envelope: last, size: lastSize, fits: lastSize <= limit };
    }
  }

  /**
   * Estimates are per file and pessimistic (files compress better together), so a fitting result
   * may leave much of the cap unused: calibrate on the real size and take back the smallest of the
   * files left out while they are predicted to fit. One more measurement; kept only if it fits.
   */
  function refill(envelope: ShareEnvelope, size: number): { envelope: ShareEnvelope; size: number; fits: boolean } {
    if (next === 0 || size >= limit * 0.95) return { envelope, size, fits: true };
    const keptCost = bySize.slice(next).reduce((n, c) => n + costs.get(c)!, 0);
    const ratio = keptCost > 0 ? Math.min(1, Math.max(0.05, (size - empty) / keptCost)) : 1;
    let predicted = size;
    let back = next;
    while (back > 0 && predicted + ratio * costs.get(bySize[back - 1]!)! <= limit * 0.97) {
      predicted += ratio * costs.get(bySize[back - 1]!)!;
      dropped.delete(bySize[--back]!);
    }
    if (back === next) return { envelope, size, fits: true };
    const bigger = make();
    const biggerSize = measure(bigger);
    if (biggerSize <= limit) return { envelope: bigger, size: biggerSize, fits: true };
    return { envelope, size, fits: true };
  }
}

/**
 * deflate-raw(JSON) followed by the CRC-32 of the JSON (4 bytes, big-endian). deflate-raw has no
 * checksum of its own, so without it a changed character can still inflate to a different session.
 */
function envelopeBytes(envelope: ShareEnvelope): Uint8Array {
  const json = encodeText(JSON.stringify(envelope));
  const deflated = deflateSync(json, { level: DEFLATE_LEVEL });
  const out = new Uint8Array(deflated.length + CHECKSUM_BYTES);
  out.set(deflated);
  new DataView(out.buffer).setUint32(deflated.length, crc32(json));
  return out;
}

function fileBytes(file: ShareFile): Uint8Array {
  if ("data" in file) return encodeText(file.data);
  if ("base64" in file) return encodeText(file.base64);
  return new Uint8Array(0);
}

/** Builds a share link within the cap. Files are left out largest-first when over (see `omitted`). */
export function encodeShareLink(source: ShareSource, options: ShareEncodeOptions = {}): ShareLinkResult {
  const cap = options.cap ?? SHARE_LINK_CAP;
  const omitted: OmittedFile[] = [];
  const transcript = buildTranscript(source, options);
  const candidates = buildCandidates(source, options, omitted);
  // The bytes of each measured envelope are kept, so the chosen one is not compressed twice.
  const measured = new Map<ShareEnvelope, Uint8Array>();
  const linkLength = (envelope: ShareEnvelope) => {
    const bytes = envelopeBytes(envelope);
    measured.set(envelope, bytes);
    return LINK_PREFIX.length + Math.ceil((bytes.length * 4) / 3);
  };
  const estimate = (c: Candidate) => {
    // Files far over the cap are not worth compressing to find out.
    if (c.size > cap * 40) return c.size;
    return Math.ceil((deflateSync(fileBytes(c.file), { level: 6 }).length * 4) / 3) + c.path.length + 16;
  };
  const { envelope, size, fits } = fitFiles(transcript, candidates, omitted, cap, linkLength, estimate);
  if (!fits) return { length: size, fits: false, envelope, omitted: envelope.omitted };
  const fragment = LINK_PREFIX + base64UrlEncode(measured.get(envelope) ?? envelopeBytes(envelope));
  return { fragment, length: fragment.length, fits: true, envelope, omitted: envelope.omitted };
}

/** Builds a .webcode file: the same envelope, for sessions too large for a link (up to ~50 MB). */
export function encodeShareFile(source: ShareSource, options: ShareEncodeOptions = {}): ShareFileResult {
  const omitted: OmittedFile[] = [];
  const transcript = buildTranscript(source, options);
  const candidates = buildCandidates(source, options, omitted);
  const jsonLength = (envelope: ShareEnvelope) => encodeText(JSON.stringify(envelope)).length;
  const { envelope, fits } = fitFiles(transcript, candidates, omitted, FILE_JSON_BUDGET, jsonLength, (c) => fileBytes(c.file).length + c.path.length + 16);
  if (!fits) {
    throw new ShareError("too-large", "This session's transcript alone is larger than 50 MB, too large to share. Share a shorter session (start a new one or compact this one).");
  }
  const body = envelopeBytes(envelope);
  const magic = encodeText(FILE_MAGIC);
  const bytes = new Uint8Array(magic.length + body.length);
  bytes.set(magic);
  bytes.set(body, magic.length);
  return { bytes, envelope, omitted: envelope.omitted };
}

// ---- decoding ----------------------------------------------------------------------------------

/**
 * The `v1.<data>` of a URL, fragment or pasted text whose fragment asks for a share (a whole
 * `share` key, and no `import` key before it: see findTransferFragment), if any.
 */
export function findShareFragment(input: string): string | undefined {
  const found = findTransferFragment(input);
  return found?.kind === "share" ? found.data : undefined;
}

/** Inflates with a running byte count: refuses past the limit instead of filling memory. */
function boundedInflate(bytes: Uint8Array): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflater = new Inflate((chunk) => {
    total += chunk.length;
    if (total > SHARE_MAX_INFLATED_BYTES) {
      throw new ShareError("too-large", "This share unpacks to more than 50 MB, more than webcode opens. It may have been crafted to exhaust memory.");
    }
    chunks.push(chunk);
  });
  try {
    const step = 64 * 1024;
    if (bytes.length === 0) throw new Error("empty");
    for (let i = 0; i < bytes.length; i += step) inflater.push(bytes.subarray(i, i + step), i + step >= bytes.length);
  } catch (error) {
    if (error instanceof ShareError) throw error;
    throw damagedShare("its data cannot be unpacked", error);
  }
  return concatBytes(chunks);
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function parseEnvelopeBytes(body: Uint8Array, version: number): RestoredShare {
  if (body.length <= CHECKSUM_BYTES) throw damagedShare("it is cut short");
  const deflated = body.subarray(0, body.length - CHECKSUM_BYTES);
  const expected = new DataView(body.buffer, body.byteOffset, body.length).getUint32(body.length - CHECKSUM_BYTES);
  const inflated = boundedInflate(deflated);
  if (crc32(inflated) !== expected) throw damagedShare("it was changed or cut short after it was made");
  let raw: unknown;
  try {
    raw = JSON.parse(strictUtf8.decode(inflated));
  } catch (error) {
    throw damagedShare("its contents are not valid", error);
  }
  const restored = restoreShareEnvelope(raw);
  if (restored.envelope.version !== version) throw damagedShare("its version label does not match its contents");
  return restored;
}

/** Decodes and validates a share link (a URL, `#share=v1.…`, or the `v1.…` part). Throws ShareError. */
export function decodeShareLink(input: string): RestoredShare {
  const value = findShareFragment(input) ?? input.trim();
  const match = /^v(\d{1,6})\.(.*)$/s.exec(value);
  if (!match) throw new ShareError("invalid", "This is not a webcode share link (it has no share data). Check that you copied the whole link.");
  const version = Number(match[1]);
  if (version > SHARE_VERSION) throw newerVersionError(version);
  if (version < 1) throw new ShareError("invalid", "This share link has an unknown format version. Ask for the link again.");
  const data = match[2]!;
  if (data.length > SHARE_MAX_LINK_CHARS) throw new ShareError("too-large", "This share link is too large to open. Ask the sender for a .webcode file instead.");
  const deflated = base64UrlDecode(data);
  if (!deflated || deflated.length === 0) throw damagedShare("it contains characters a share link never has");
  return parseEnvelopeBytes(deflated, version);
}

/** Is this a .webcode file (by its magic header)? */
export function isShareFile(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, FILE_MAGIC_PREFIX.length));
  return head === FILE_MAGIC_PREFIX;
}

/** Decodes and validates a .webcode file. Throws ShareError. */
export function decodeShareFile(bytes: Uint8Array): RestoredShare {
  if (!isShareFile(bytes)) throw new ShareError("not-a-share", "This is not a .webcode file. Choose a file saved with webcode's Share → Save file.");
  if (bytes.length > MAX_FILE_BYTES) throw new ShareError("too-large", "This .webcode file is too large to open (over 64 MB).");
  const headerEnd = bytes.indexOf(0x0a);
  const match = headerEnd > 0 && headerEnd < 32 ? /^webcode-share v(\d{1,6})$/.exec(new TextDecoder().decode(bytes.subarray(0, headerEnd))) : null;
  if (!match) throw damagedShare("its header is malformed");
  const version = Number(match[1]);
  if (version > SHARE_VERSION) throw newerVersionError(version);
  if (version < 1) throw damagedShare("its version is unknown");
  return parseEnvelopeBytes(bytes.subarray(headerEnd + 1), version);
}
