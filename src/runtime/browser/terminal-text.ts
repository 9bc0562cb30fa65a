// Terminal text helpers for the interactive shell: column widths of characters (wide East Asian
// characters and emoji take two cells, combining marks none), ANSI stripping and CRLF output.

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

const WIDE_RANGES: Array<[number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

const ZERO_RANGES: Array<[number, number]> = [
  [0x0300, 0x036f],
  [0x0483, 0x0489],
  [0x0591, 0x05bd],
  [0x0610, 0x061a],
  [0x064b, 0x065f],
  [0x200b, 0x200f],
  [0x20d0, 0x20ff],
  [0xfe00, 0xfe0f],
  [0xfe20, 0xfe2f],
];

function inRanges(code: number, ranges: Array<[number, number]>): boolean {
  for (const [from, to] of ranges) if (code >= from && code <= to) return true;
  return false;
}

/** Terminal cells taken by one code point. */
export function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  if (inRanges(code, ZERO_RANGES)) return 0;
  return inRanges(code, WIDE_RANGES) ? 2 : 1;
}

/** Terminal cells taken by a string (escape sequences take none). */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of stripAnsi(text)) width += charWidth(char);
  return width;
}

/** Terminal output needs CRLF: a bare LF only moves down a line. */
export function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

export const COLORS = {
  reset: "\x1b[0m",
  bold: "\x1b[1m",
  dim: "\x1b[2m",
  red: "\x1b[31m",
  green: "\x1b[32m",
  yellow: "\x1b[33m",
  blue: "\x1b[34m",
  cyan: "\x1b[36m",
};

/** Lays names out in columns that fit `cols`, like bash's completion listing. */
export function columns(names: string[], cols: number): string[] {
  if (names.length === 0) return [];
  const widest = Math.max(...names.map(textWidth)) + 2;
  const perRow = Math.max(1, Math.floor(cols / widest));
  const rows = Math.ceil(names.length / perRow);
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    let line = "";
    for (let c = 0; c < perRow; c++) {
      const name = names[c * rows + r];
      if (name === undefined) continue;
      const isLast = c === perRow - 1 || names[(c + 1) * rows + r] === undefined;
      line += isLast ? name : name + " ".repeat(widest - textWidth(name));
    }
    lines.push(line);
  }
  return lines;
}
