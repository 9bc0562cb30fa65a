// A small, strict parser for the YAML-ish frontmatter of agent files: nested maps by indentation,
// quoted and plain strings, numbers, booleans, null and | / > block text. No anchors, tags, lists,
// or evaluation of any kind; anything else is an error with its line number.

export type FrontmatterValue = string | number | boolean | null | FrontmatterMap;
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

interface Line {
  indent: number;
  text: string;
  number: number;
}

function stripComment(text: string): string {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) return text.slice(0, i).trimEnd();
  }
  return text.trimEnd();
}

function parseQuoted(text: string, line: number): { value: string; rest: string } {
  const quote = text[0]!;
  let value = "";
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'" && c === "'") {
      if (text[i + 1] === "'") {
        value += "'";
        i++;
        continue;
      }
      return { value, rest: text.slice(i + 1) };
    }
    if (quote === '"' && c === "\\") {
      const next = text[++i];
      const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", "/": "/", "0": "\0" };
      if (next === undefined || !(next in escapes)) throw new FrontmatterError(`unknown escape "\\${next ?? ""}" in a quoted string`, line);
      value += escapes[next];
      continue;
    }
    if (quote === '"' && c === '"') return { value, rest: text.slice(i + 1) };
    value += c;
  }
  throw new FrontmatterError("a quoted string is not closed on its line", line);
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function parseScalar(raw: string, line: number): FrontmatterValue {
  const text = raw.trim();
  if (text.startsWith('"') || text.startsWith("'")) {
    const { value, rest } = parseQuoted(text, line);
    if (rest.trim()) throw new FrontmatterError(`unexpected text after a quoted string: "${rest.trim()}"`, line);
    return value;
  }
  if (text === "true" || text === "false") return text === "true";
  if (text === "null" || text === "~" || text === "") return null;
  if (NUMBER.test(text)) return Number(text);
  if (/^[[{&*!|>@`%]/.test(text) || text.startsWith("- ")) {
    throw new FrontmatterError(`"${text}" uses YAML syntax this parser does not support (lists, flow maps, anchors, tags); write a plain or quoted value`, line);
  }
  return text;
}

function parseKey(text: string, line: number): { key: string; rest: string } {
  if (text.startsWith('"') || text.startsWith("'")) {
    const { value, rest } = parseQuoted(text, line);
    const trimmed = rest.trimStart();
    if (!trimmed.startsWith(":")) throw new FrontmatterError(`expected ":" after the key "${value}"`, line);
    return { key: value, rest: trimmed.slice(1) };
  }
  const match = /^([^:]*?[^\s:])\s*:(?=\s|$)/.exec(text);
  if (!match) throw new FrontmatterError(`expected "key: value", got "${text}"`, line);
  return { key: match[1]!, rest: text.slice(match[0].length) };
}

/** Parses frontmatter text into a map. Throws FrontmatterError with the line number. */
export function parseFrontmatter(text: string, firstLine = 1): FrontmatterMap {
  const lines: Line[] = [];
  text.split("\n").forEach((raw, index) => {
    if (/^\s*\t/.test(raw)) throw new FrontmatterError("indent with spaces, not tabs", firstLine + index);
    const content = stripComment(raw);
    if (content.trim() === "") {
      lines.push({ indent: -1, text: "", number: firstLine + index });
      return;
    }
    lines.push({ indent: content.length - content.trimStart().length, text: content.trim(), number: firstLine + index });
  });
  let position = 0;

  function parseMap(indent: number): FrontmatterMap {
    const map: FrontmatterMap = {};
    while (position < lines.length) {
      const line = lines[position]!;
      if (line.indent === -1) {
        position++;
        continue;
      }
      if (line.indent < indent) break;
      if (line.indent > indent) throw new FrontmatterError("unexpected indentation", line.number);
      if (line.text === "-" || line.text.startsWith("- ")) {
        throw new FrontmatterError("lists are YAML syntax this parser does not support; write a map (name: value) instead", line.number);
      }
      const { key, rest } = parseKey(line.text, line.number);
      if (Object.prototype.hasOwnProperty.call(map, key)) throw new FrontmatterError(`the key "${key}" appears twice`, line.number);
      if (key === "__proto__" || key === "constructor" || key === "prototype") throw new FrontmatterError(`"${key}" is not allowed as a key`, line.number);
      position++;
      const value = rest.trim();
      if (value === "|" || value === ">" || value === "|-" || value === ">-") {
        map[key] = parseBlock(indent, value.startsWith(">"), line.number);
      } else if (value === "") {
        const next = nextContentLine();
        map[key] = next && next.indent > indent ? parseMap(next.indent) : null;
      } else {
        map[key] = parseScalar(value, line.number);
      }
    }
    return map;
  }

  function nextContentLine(): Line | undefined {
    for (let i = position; i < lines.length; i++) if (lines[i]!.indent !== -1) return lines[i];
    return undefined;
  }

  function parseBlock(parentIndent: number, folded: boolean, lineNumber: number): string {
    const collected: string[] = [];
    let blockIndent: number | undefined;
    while (position < lines.length) {
      const line = lines[position]!;
      if (line.indent !== -1 && line.indent <= parentIndent) break;
      if (line.indent !== -1) blockIndent ??= line.indent;
      // Block text is taken raw (comments included), re-read from the original line.
      const original = text.split("\n")[line.number - firstLine] ?? "";
      collected.push(line.indent === -1 ? "" : original.slice(Math.min(blockIndent ?? line.indent, line.indent)));
      position++;
    }
    while (collected.length && collected[collected.length - 1] === "") collected.pop();
    if (blockIndent === undefined) throw new FrontmatterError("a | or > block needs indented lines below it", lineNumber);
    return folded ? collected.join("\n").replace(/([^\n])\n(?=[^\n])/g, "$1 ") : collected.join("\n");
  }

  const result = parseMap(0);
  if (position < lines.length) throw new FrontmatterError("unexpected indentation", lines[position]!.number);
  return result;
}
