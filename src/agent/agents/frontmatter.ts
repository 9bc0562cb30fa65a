// Frontmatter of agent (and skill) files: split off the body by hand (a line of ---), then parsed
// as YAML by the `yaml` package (lists, flow maps and block text included, as OpenCode reads them),
// as plain data: the core schema, no custom tags, aliases capped. Errors carry the line number.
import { parseDocument } from "yaml";

export type FrontmatterValue = string | number | boolean | null | FrontmatterValue[] | FrontmatterMap;
export interface FrontmatterMap {
  [key: string]: FrontmatterValue;
}

export class FrontmatterError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "FrontmatterError";
  }
}

export interface SplitDocument {
  /** The raw frontmatter text, or undefined when the file has none. */
  frontmatter?: string;
  /** Line number (1-based) of the first frontmatter line, for error messages. */
  firstLine: number;
  body: string;
}

/** Splits "---\n...\n---\nbody" into frontmatter and body. */
export function splitFrontmatter(text: string): SplitDocument {
  const source = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (!source.startsWith("---\n") && source !== "---") return { body: source, firstLine: 1 };
  const end = source.indexOf("\n---", 3);
  if (end < 0) throw new FrontmatterError("the frontmatter starting with --- is never closed by another ---", 1);
  const after = source.slice(end + 4);
  if (after !== "" && !after.startsWith("\n")) throw new FrontmatterError("the closing --- must be on its own line", source.slice(0, end + 1).split("\n").length);
  return { frontmatter: source.slice(4, end + 1), firstLine: 2, body: after.replace(/^\n/, "") };
}

/** Keys that would reach an object's prototype in code that copies the map. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** The plain data YAML gave, checked: no forbidden keys, only strings, numbers, booleans, null, lists and maps. */
function plain(value: unknown, line: number): FrontmatterValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new FrontmatterError(`${value} is not a number this file can use`, line);
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => plain(item, line));
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const map: FrontmatterMap = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (FORBIDDEN_KEYS.has(key)) throw new FrontmatterError(`"${key}" is not allowed as a key`, line);
      map[key] = plain(item, line);
    }
    return map;
  }
  throw new FrontmatterError(`a value of type ${typeof value} is not allowed (dates, binary and other tagged values are not)`, line);
}

function parseYaml(text: string) {
  return parseDocument(text, { schema: "core", uniqueKeys: true, merge: false, prettyErrors: false, strict: true });
}

/** Top-level `key: value` lines whose plain value holds ": ", with the value quoted. */
function quoteColonValues(text: string): string {
  return text.replace(/^([A-Za-z_][\w.-]*):[ ]+([^\s"'[{|>&*!#-][^\n]*?: [^\n]*?)[ ]*$/gm, (_line, key: string, value: string) => `${key}: ${JSON.stringify(value)}`);
}

/** Parses frontmatter text into a map. Throws FrontmatterError with the line number. */
export function parseFrontmatter(text: string, firstLine = 1): FrontmatterMap {
  const lineOf = (offset: number | undefined) => firstLine + (offset === undefined ? 0 : text.slice(0, offset).split("\n").length - 1);
  const tab = /^[ ]*\t/m.exec(text);
  if (tab) throw new FrontmatterError("indent with spaces, not tabs", lineOf(tab.index));
  let document = parseYaml(text);
  // The mistake agent and skill files make most: a plain one-line value with ": " in it
  // ("description: Release: bump and tag"), which YAML reads as a nested map. Such lines are read
  // as the text they obviously are; any other error stands.
  if (document.errors.length > 0) {
    const lenient = quoteColonValues(text);
    if (lenient !== text) {
      const retry = parseYaml(lenient);
      if (retry.errors.length === 0) document = retry;
    }
  }
  const problem = document.errors[0];
  if (problem) {
    const message = problem.code === "DUPLICATE_KEY" ? `${problem.message.replace(/\.$/, "")} (a key appears twice)` : problem.message.split("\n")[0]!;
    throw new FrontmatterError(message, lineOf(problem.pos[0]));
  }
  let data: unknown;
  try {
    // maxAliasCount keeps a hostile file from expanding aliases without end.
    data = document.toJS({ maxAliasCount: 50 });
  } catch (error) {
    throw new FrontmatterError(error instanceof Error ? error.message : String(error), firstLine);
  }
  if (data === null || data === undefined) return {};
  const value = plain(data, firstLine);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new FrontmatterError('the frontmatter must be a map of "key: value" lines', firstLine);
  }
  return value;
}
