// A small, fast syntax highlighter for code blocks in chat: one linear scan per block, output is
// escaped HTML with `<span class="tok-*">` runs. Deliberately approximate; it must never be slow.
import { LANGUAGES, resolveLanguage, type LanguageSpec } from "./highlight-languages";

/** Blocks longer than this are shown plain: colouring them would cost more than it helps. */
export const MAX_HIGHLIGHT_CHARS = 200_000;

export type TokenKind =
  | "comment"
  | "string"
  | "number"
  | "keyword"
  | "literal"
  | "type"
  | "function"
  | "variable"
  | "property"
  | "tag"
  | "attr"
  | "meta"
  | "inserted"
  | "deleted";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Collects output: plain text is escaped in runs, tokens are wrapped in spans. */
class Output {
  private parts: string[] = [];
  private plain = "";

  text(value: string): void {
    this.plain += value;
  }

  token(kind: TokenKind, value: string): void {
    if (!value) return;
    this.flush();
    this.parts.push(`<span class="tok-${kind}">${escapeHtml(value)}</span>`);
  }

  private flush(): void {
    if (this.plain) this.parts.push(escapeHtml(this.plain));
    this.plain = "";
  }

  toString(): string {
    this.flush();
    return this.parts.join("");
  }
}

/** Highlights `code` for the fence info string `info`; unknown languages come back escaped only. */
export function highlightCode(code: string, info?: string): string {
  const language = resolveLanguage(info);
  if (!language || code.length > MAX_HIGHLIGHT_CHARS) return escapeHtml(code);
  if (language === "diff") return highlightDiff(code);
  if (language === "markup") return highlightMarkup(code);
  if (language === "json") return highlightJson(code);
  const spec = LANGUAGES[language];
  return spec ? highlightGeneric(code, spec) : escapeHtml(code);
}

const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= "0" && ch <= "9";

// Character classes by char code: the scanner runs per character, so no regex per test.
function isIdentStartCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c >= 0xc0;
}
function isIdentCode(c: number, dash: boolean): boolean {
  return isIdentStartCode(c) || (c >= 48 && c <= 57) || (dash && c === 45);
}
const isIdentStart = (ch: string | undefined): boolean => ch !== undefined && isIdentStartCode(ch.charCodeAt(0));
const NUMBER = /^(?:0[xX][0-9a-fA-F_]+n?|0[bB][01_]+n?|0[oO][0-7_]+n?|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?[a-zA-Z%]*)/;

function highlightGeneric(code: string, spec: LanguageSpec): string {
  const out = new Output();
  const dash = spec.dashInIdentifiers === true;
  const identPattern = { test: (ch: string) => isIdentCode(ch.charCodeAt(0), dash) };
  // First characters that can start something other than plain text, for the fast path below.
  const starters = new Set<string>([...spec.lineComments.map((o) => o[0]!), ...spec.blockComments.map(([o]) => o[0]!), ...spec.quotes]);
  if (spec.dollarVariables) starters.add("$");
  if (spec.atWords) starters.add("@");
  let i = 0;
  const n = code.length;
  outer: while (i < n) {
    const ch = code[i]!;
    const code0 = code.charCodeAt(i);
    // Fast path: punctuation and spaces that start nothing go straight to the output.
    if (!starters.has(ch) && !isIdentStartCode(code0) && !(code0 >= 48 && code0 <= 57)) {
      let j = i + 1;
      while (j < n) {
        const c = code.charCodeAt(j);
        if (starters.has(code[j]!) || isIdentStartCode(c) || (c >= 48 && c <= 57)) break;
        j++;
      }
      out.text(code.slice(i, j));
      i = j;
      continue;
    }
    for (const opener of spec.lineComments) {
      if (code.startsWith(opener, i)) {
        const end = code.indexOf("\n", i);
        const stop = end === -1 ? n : end;
        out.token("comment", code.slice(i, stop));
        i = stop;
        continue outer;
      }
    }
    for (const [open, close] of spec.blockComments) {
      if (code.startsWith(open, i)) {
        const end = code.indexOf(close, i + open.length);
        const stop = end === -1 ? n : end + close.length;
        out.token("comment", code.slice(i, stop));
        i = stop;
        continue outer;
      }
    }
    if (spec.tripleQuotes && (code.startsWith('"""', i) || code.startsWith("'''", i))) {
      const delimiter = code.slice(i, i + 3);
      const end = code.indexOf(delimiter, i + 3);
      const stop = end === -1 ? n : end + 3;
      out.token("string", code.slice(i, stop));
      i = stop;
      continue;
    }
    if (spec.quotes.includes(ch)) {
      const stop = scanString(code, i, ch);
      out.token("string", code.slice(i, stop));
      i = stop;
      continue;
    }
    if (spec.dollarVariables && ch === "$") {
      const match = /^\$(?:\{[^}\n]*\}?|[A-Za-z_][\w]*|[0-9@#?*!$-])/.exec(code.slice(i, i + 200));
      if (match) {
        out.token("variable", match[0]);
        i += match[0].length;
        continue;
      }
    }
    if (spec.atWords && ch === "@" && isIdentStart(code[i + 1])) {
      let j = i + 1;
      while (j < n && identPattern.test(code[j]!)) j++;
      out.token("meta", code.slice(i, j));
      i = j;
      continue;
    }
    if (isDigit(ch) && !(i > 0 && identPattern.test(code[i - 1]!))) {
      const match = NUMBER.exec(code.slice(i, i + 64));
      if (match) {
        out.token("number", match[0]);
        i += match[0].length;
        continue;
      }
    }
    if (isIdentStart(ch)) {
      let j = i + 1;
      while (j < n && isIdentCode(code.charCodeAt(j), dash)) j++;
      const word = code.slice(i, j);
      const kind = classifyWord(word, code, j, spec);
      if (kind) out.token(kind, word);
      else out.text(word);
      i = j;
      continue;
    }
    out.text(ch);
    i++;
  }
  return out.toString();
}

function classifyWord(word: string, code: string, end: number, spec: LanguageSpec): TokenKind | undefined {
  if (spec.keywords.has(word)) return "keyword";
  if (spec.literals.has(word)) return "literal";
  let next = end;
  while (code[next] === " ") next++;
  if (code[next] === "(") return "function";
  if (spec.capitalTypes && /^[A-Z][a-z0-9]/.test(word)) return "type";
  if (spec.dashInIdentifiers && code[next] === ":" && !spec.dollarVariables) return "property";
  return undefined;
}

/** Index just past the string starting at `start` with `quote`; unclosed strings end at the line. */
function scanString(code: string, start: number, quote: string): number {
  const multiline = quote === "`";
  let i = start + 1;
  while (i < code.length) {
    const ch = code[i];
    if (ch === "\\") {
      i += 2;
      continue;
    }
    if (ch === quote) return i + 1;
    if (ch === "\n" && !multiline) return i;
    i++;
  }
  return code.length;
}

function highlightDiff(code: string): string {
  const out = new Output();
  const lines = code.split("\n");
  lines.forEach((line, index) => {
    if (index > 0) out.text("\n");
    if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("@@")) out.token("meta", line);
    else if (line.startsWith("+")) out.token("inserted", line);
    else if (line.startsWith("-")) out.token("deleted", line);
    else out.text(line);
  });
  return out.toString();
}

function highlightJson(code: string): string {
  const out = new Output();
  let i = 0;
  while (i < code.length) {
    const ch = code[i]!;
    if (ch === '"') {
      const stop = scanString(code, i, '"');
      let next = stop;
      while (code[next] === " " || code[next] === "\t") next++;
      out.token(code[next] === ":" ? "property" : "string", code.slice(i, stop));
      i = stop;
      continue;
    }
    if (code.startsWith("//", i)) {
      const end = code.indexOf("\n", i);
      const stop = end === -1 ? code.length : end;
      out.token("comment", code.slice(i, stop));
      i = stop;
      continue;
    }
    const literal = /^(?:true|false|null)\b/.exec(code.slice(i, i + 6));
    if (literal) {
      out.token("literal", literal[0]);
      i += literal[0].length;
      continue;
    }
    const number = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(code.slice(i, i + 64));
    if (number && (ch === "-" || isDigit(ch))) {
      out.token("number", number[0]);
      i += number[0].length;
      continue;
    }
    out.text(ch);
    i++;
  }
  return out.toString();
}

function highlightMarkup(code: string): string {
  const out = new Output();
  let i = 0;
  while (i < code.length) {
    if (code.startsWith("<!--", i)) {
      const end = code.indexOf("-->", i + 4);
      const stop = end === -1 ? code.length : end + 3;
      out.token("comment", code.slice(i, stop));
      i = stop;
      continue;
    }
    const tag = /^<\/?[A-Za-z][\w:.-]*/.exec(code.slice(i, i + 100));
    if (tag) {
      out.token("tag", tag[0]);
      i += tag[0].length;
      // Attributes until the tag closes.
      while (i < code.length && code[i] !== ">") {
        const ch = code[i]!;
        if (ch === '"' || ch === "'") {
          const end = code.indexOf(ch, i + 1);
          const stop = end === -1 ? code.length : end + 1;
          out.token("string", code.slice(i, stop));
          i = stop;
        } else if (/[A-Za-z_:@]/.test(ch)) {
          const attr = /^[\w:@.-]+/.exec(code.slice(i, i + 100))![0];
          out.token("attr", attr);
          i += attr.length;
        } else if (code.startsWith("/>", i)) {
          break;
        } else {
          out.text(ch);
          i++;
        }
      }
      const close = code.startsWith("/>", i) ? "/>" : code[i] === ">" ? ">" : "";
      out.token("tag", close);
      i += close.length;
      continue;
    }
    out.text(code[i]!);
    i++;
  }
  return out.toString();
}
