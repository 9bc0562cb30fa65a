// OpenCode's project configuration (opencode.json / opencode.jsonc at the workspace root), read for
// what webcode shares with OpenCode: `permission` (only tightens, like workspace agent files),
// `agent` definitions, `instructions` (extra instruction files for the system prompt) and `model`
// (a hint). Any other key is ignored. A file that does not parse is a problem with its file, line
// and column, never an exception.
import { errorMessage } from "../../base";
import type { WorkspaceFs } from "../../runtime";
import type { ModelRef } from "../../storage";

/** Read in this order; a key in a later file replaces the same key of an earlier one. */
export const OPENCODE_CONFIG_FILES = ["opencode.json", "opencode.jsonc"] as const;
/** Larger config files are refused (they are read on every agent reload). */
export const MAX_CONFIG_BYTES = 256_000;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface ConfigProblem {
  path: string;
  message: string;
}

export interface OpencodeConfig {
  permission?: JsonValue;
  agent?: Record<string, JsonValue>;
  instructions?: string[];
  model?: ModelRef;
  /** The last config file read (for problems about its contents). */
  source?: string;
}

export class JsoncError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = "JsoncError";
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - (before.lastIndexOf("\n") + 1) + 1 };
}

/**
 * JSON with comments and trailing commas (what opencode.jsonc allows). Written by hand: comments
 * and trailing commas are blanked with spaces (offsets and lines stay put) and the rest goes to
 * JSON.parse, so the one dependency-free piece is the tokenizer for strings and comments.
 */
export function parseJsonc(text: string): JsonValue {
  const out = text.split("");
  let i = 0;
  let lastSignificant = -1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      if (i >= text.length) {
        const at = lineAndColumn(text, start);
        throw new JsoncError("a string is not closed", at.line, at.column);
      }
      lastSignificant = i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") out[i++] = " ";
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const start = i;
      const end = text.indexOf("*/", i + 2);
      if (end === -1) {
        const at = lineAndColumn(text, start);
        throw new JsoncError("a /* comment */ is not closed", at.line, at.column);
      }
      for (; i < end + 2; i++) if (text[i] !== "\n") out[i] = " ";
      continue;
    }
    if ((c === "}" || c === "]") && lastSignificant >= 0 && text[lastSignificant] === ",") out[lastSignificant] = " ";
    if (!/\s/.test(c)) lastSignificant = i;
    i++;
  }
  const cleaned = out.join("");
  try {
    return JSON.parse(cleaned) as JsonValue;
  } catch (error) {
    const message = errorMessage(error);
    const position = /position (\d+)/.exec(message);
    const lineCol = /line (\d+) column (\d+)/.exec(message);
    const at = lineCol ? { line: Number(lineCol[1]), column: Number(lineCol[2]) } : position ? lineAndColumn(cleaned, Number(position[1])) : lineAndColumn(cleaned, cleaned.trimEnd().length);
    throw new JsoncError(message.replace(/\s*(in JSON )?at position \d+.*$/, "").replace(/^JSON\.parse: /, ""), at.line, at.column);
  }
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Reads and checks the workspace's OpenCode config files; what is wrong becomes a problem. */
export async function loadOpencodeConfig(fs: WorkspaceFs): Promise<{ config: OpencodeConfig; problems: ConfigProblem[] }> {
  const config: OpencodeConfig = {};
  const problems: ConfigProblem[] = [];
  for (const path of OPENCODE_CONFIG_FILES) {
    const stat = await fs.stat(path).catch(() => undefined);
    if (stat?.kind !== "file") continue;
    if (stat.size > MAX_CONFIG_BYTES) {
      problems.push({ path, message: `This config file was skipped: it is larger than ${MAX_CONFIG_BYTES / 1000} KB.` });
      continue;
    }
    let data: JsonValue;
    try {
      data = parseJsonc(await fs.readText(path));
    } catch (error) {
      if (error instanceof JsoncError) {
        problems.push({ path: `${path}:${error.line}:${error.column}`, message: `This config file was skipped: ${error.message}.` });
      } else problems.push({ path, message: `This config file could not be read: ${errorMessage(error)}` });
      continue;
    }
    if (!isObject(data)) {
      problems.push({ path, message: "This config file was skipped: it must hold a JSON object." });
      continue;
    }
    config.source = path;
    if (data.permission !== undefined) config.permission = data.permission;
    if (data.agent !== undefined) {
      if (isObject(data.agent)) config.agent = { ...config.agent, ...data.agent };
      else problems.push({ path, message: `"agent" must be an object of agent names to settings; it was ignored.` });
    }
    if (data.instructions !== undefined) {
      if (Array.isArray(data.instructions) && data.instructions.every((entry) => typeof entry === "string")) config.instructions = data.instructions as string[];
      else problems.push({ path, message: `"instructions" must be a list of file paths or globs; it was ignored.` });
    }
    if (data.model !== undefined) {
      const model = typeof data.model === "string" ? data.model.trim() : "";
      const slash = model.indexOf("/");
      if (slash > 0 && slash < model.length - 1) config.model = { providerId: model.slice(0, slash), modelId: model.slice(slash + 1) };
      else problems.push({ path, message: `"model" must look like "provider/model"; it was ignored.` });
    }
  }
  return { config, problems };
}
