// Finds key-like strings and .env files in what is about to be shared or exported (file contents,
// binary ones included, file and folder names, the transcript), so the share and export dialogs can
// show them (masked) and let the user leave them out. A safety net, not a guarantee.
import { basename } from "../base";
import type { FileRecord, MessageError, MessageRecord, PartRecord, SessionRecord } from "../storage";
import { shareableAttachmentUrl } from "./share-envelope";

export type SecretKind =
  | "anthropic-key"
  | "openai-key"
  | "aws-access-key"
  | "github-token"
  | "slack-token"
  | "google-api-key"
  | "groq-key"
  | "xai-key"
  | "huggingface-token"
  | "openrouter-key"
  | "replicate-token"
  | "private-key"
  | "configured-key"
  | "env-file";

export interface SecretScanOptions {
  /**
   * Literal secrets to look for as well, e.g. the API keys configured in Settings (any provider,
   * any format). Used only for matching: they are never copied into findings or shares.
   */
  knownSecrets?: readonly string[];
}

/** Known secrets shorter than this are ignored: placeholder keys ("ollama") would redact ordinary words. */
export const MIN_KNOWN_SECRET_CHARS = 12;

export interface SecretFinding {
  where: "file" | "message";
  /** The file, for where = "file". */
  path?: string;
  /** The message and part, for where = "message" (partId absent for the title or a message error). */
  messageId?: string;
  partId?: string;
  kind: SecretKind;
  /** The start of the match and its length, never the secret itself. */
  preview: string;
  /** The match is in the file's or folder's own name, not in its contents. */
  inName?: true;
}

/** Patterns in priority order: the first that matches a stretch of text names it. */
const PATTERNS: Array<{ kind: Exclude<SecretKind, "env-file" | "configured-key">; regex: RegExp }> = [
  { kind: "private-key", regex: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: "anthropic-key", regex: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: "openrouter-key", regex: /\bsk-or-[A-Za-z0-9_-]{20,}/g },
  { kind: "openai-key", regex: /\bsk-(?!ant-|or-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: "groq-key", regex: /\bgsk_[A-Za-z0-9]{20,}/g },
  { kind: "xai-key", regex: /\bxai-[A-Za-z0-9]{20,}/g },
  { kind: "huggingface-token", regex: /\bhf_[A-Za-z0-9]{20,}/g },
  { kind: "replicate-token", regex: /\br8_[A-Za-z0-9]{20,}/g },
  { kind: "aws-access-key", regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: "github-token", regex: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { kind: "slack-token", regex: /\bxox[bpas]-[A-Za-z0-9-]{10,}/g },
  { kind: "google-api-key", regex: /\bAIza[0-9A-Za-z_-]{35}\b/g },
];

const ENV_TEMPLATES = new Set(["example", "sample", "template", "dist", "defaults"]);

/** `.env`, `.env.local`, `.env.production`, ... but not `.env.example` (and similar templates). */
export function isEnvFile(path: string): boolean {
  const name = basename(path);
  if (name === ".env") return true;
  if (!name.startsWith(".env.")) return false;
  return !ENV_TEMPLATES.has(name.slice(5).toLowerCase());
}

function mask(match: string): string {
  const visible = match.startsWith("-----") ? match.slice(0, 16) : match.slice(0, Math.min(6, Math.floor(match.length / 3)));
  return `${visible}… (${match.length} characters)`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The patterns to apply: the known secrets first (longest first, so one containing another wins), then the built-in ones. */
function patternsFor(options: SecretScanOptions | undefined): Array<{ kind: Exclude<SecretKind, "env-file">; regex: RegExp }> {
  const known = [...new Set((options?.knownSecrets ?? []).map((k) => k.trim()).filter((k) => k.length >= MIN_KNOWN_SECRET_CHARS))];
  if (known.length === 0) return PATTERNS;
  known.sort((a, b) => b.length - a.length);
  return [{ kind: "configured-key", regex: new RegExp(known.map(escapeRegExp).join("|"), "g") }, ...PATTERNS];
}

/** Every secret-looking match in a text (and every occurrence of a known secret). */
export function findSecrets(text: string, options?: SecretScanOptions): Array<{ kind: SecretKind; preview: string }> {
  const found: Array<{ kind: SecretKind; preview: string; start: number; end: number }> = [];
  for (const { kind, regex } of patternsFor(options)) {
    for (const match of text.matchAll(regex)) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      if (found.some((f) => start < f.end && end > f.start)) continue;
      found.push({ kind, preview: mask(match[0]), start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start).map(({ kind, preview }) => ({ kind, preview }));
}

/** Replaces every secret-looking match (and every known secret) with a marker naming its kind. */
export function redactSecrets(text: string, options?: SecretScanOptions): string {
  let out = text;
  for (const { kind, regex } of patternsFor(options)) out = out.replace(regex, `[redacted ${kind}]`);
  return out;
}

/** What a share is built from: records only (no settings, no keys), by construction. */
export interface ShareSource {
  session: SessionRecord;
  messages: MessageRecord[];
  parts: PartRecord[];
  files: FileRecord[];
}

/** The free-text fields of a message error (all of them travel in a share). */
export function errorTexts(error: MessageError | undefined): string[] {
  return error ? [error.name, error.message, error.action ?? ""] : [];
}

/** The texts of a part that end up in a share (the same fields the encoder copies and redacts). */
export function partTexts(part: PartRecord): string[] {
  switch (part.type) {
    case "text":
    case "reasoning":
      return [part.text];
    case "file":
      return [part.filename, shareableAttachmentUrl(part.mime, part.url)];
    case "tool": {
      const state = part.state;
      const texts = [part.callId, safeJson(state.input)];
      if (state.status === "completed") texts.push(state.title, state.output, safeJson(state.metadata));
      if (state.status === "error") texts.push(state.error);
      return texts;
    }
    case "subtask":
      return [part.prompt, part.description];
    case "retry":
      return errorTexts(part.error);
    case "step-finish":
      return [part.reason];
    case "source":
      return [part.url ?? "", part.title ?? "", part.filename ?? ""];
    default:
      return [];
  }
}

export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/** The free texts of a message that travel in a share (an assistant's finish reason and error). */
export function messageTexts(message: MessageRecord): string[] {
  return message.role === "assistant" ? [message.finish ?? "", ...errorTexts(message.error)] : [];
}

/**
 * Bytes as text for scanning: Latin-1 maps every byte to one character, so a key stored inside a
 * binary file (a compiled bundle, an SQLite database, an image's metadata) reads as itself.
 */
const latin1 = new TextDecoder("latin1");

/** A file or folder to scan: its path, and for files the contents as stored. */
export interface ScannedFile {
  path: string;
  kind: "file" | "dir";
  data?: string | Uint8Array;
}

/**
 * Scans files and folders: each one's own name (a folder's name once, not once per file inside),
 * .env files, and the contents of files, binary ones included.
 */
export function scanFilesForSecrets(files: Iterable<ScannedFile>, options?: SecretScanOptions): SecretFinding[] {
  const find = (text: string) => findSecrets(text, options);
  const findings: SecretFinding[] = [];
  for (const file of files) {
    for (const hit of find(basename(file.path))) findings.push({ where: "file", path: file.path, ...hit, inName: true });
    if (file.kind !== "file") continue;
    if (isEnvFile(file.path)) findings.push({ where: "file", path: file.path, kind: "env-file", preview: `${basename(file.path)} (environment file)` });
    if (file.data === undefined) continue;
    const text = typeof file.data === "string" ? file.data : latin1.decode(file.data);
    for (const hit of find(text)) findings.push({ where: "file", path: file.path, ...hit });
  }
  return findings;
}

/**
 * Scans files (see scanFilesForSecrets) and the transcript (title, parts, message errors).
 * `knownSecrets` (the configured API keys) are found wherever they appear, whatever their format.
 */
export function scanForSecrets(source: ShareSource, options?: SecretScanOptions): SecretFinding[] {
  const find = (text: string) => findSecrets(text, options);
  const findings: SecretFinding[] = scanFilesForSecrets(source.files, options);
  for (const hit of find(source.session.title)) findings.push({ where: "message", ...hit });
  for (const message of source.messages) {
    for (const hit of messageTexts(message).flatMap(find)) findings.push({ where: "message", messageId: message.id, ...hit });
  }
  for (const part of source.parts) {
    for (const hit of partTexts(part).flatMap(find)) findings.push({ where: "message", messageId: part.messageId, partId: part.id, ...hit });
  }
  return findings;
}
