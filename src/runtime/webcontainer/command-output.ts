// What a command printed, as the model should read it: the terminal's escape sequences (colours,
// cursor moves, OSC titles and links) removed, lines that were redrawn in place (spinners,
// progress bars) reduced to their last state, spinner-only lines dropped, and only the end kept
// when the output is huge. The terminal panel gets the raw bytes; this is for the agent's tools.
//
// Written by hand: strip-ansi and friends only remove sequences; redrawn lines need a small model
// of the cursor (carriage return, erase line, cursor up), which none of them keep.

/** Text kept per command (the end of it); the bash tool then cuts it to what the model sees. */
export const MAX_COMMAND_OUTPUT_CHARS = 1024 * 1024;

/** A complete escape sequence at the start of the text: CSI, OSC, DCS/SOS/PM/APC strings, or a two/three-byte escape. */
const ESCAPE_SOURCE = String.raw`\x1b(?:\[([0-9;?<>=!]*)[ -/]*([@-~])|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[()*+\-./#%][ -~]|[ -/]*[0-9:-OQ-WYZ\\\x60-~])`;
const ESCAPE_AT_START = new RegExp(`^${ESCAPE_SOURCE}`);
/** The same, matched where `lastIndex` points. */
const ESCAPE_HERE = new RegExp(ESCAPE_SOURCE, "y");
/** Lines that are nothing but spinner frames. */
const SPINNER_ONLY = /^\s*[\u2800-\u28ff\u25d0-\u25d3\u25f0-\u25f7\u2596-\u259f\u25b0\u25b1]+[\s\u2800-\u28ff\u25d0-\u25d3\u25f0-\u25f7\u2596-\u259f\u25b0\u25b1]*$/u;
/** Control characters other than tab, newline and carriage return (handled on their own). */
const CONTROL = /[\x00-\x07\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;

export class CommandOutput {
  private lines: string[] = [];
  private keptChars = 0;
  private dropped = false;
  /** The line being written (not yet ended by a newline). */
  private current = "";
  /** After a carriage return: the next text replaces the current line. */
  private atLineStart = false;
  /** An escape sequence or "\r" cut by the end of the previous chunk. */
  private carry = "";
  /** Lines handed out by `push` so far. */
  private emitted = 0;

  constructor(private readonly maxChars = MAX_COMMAND_OUTPUT_CHARS) {}

  /** Takes raw terminal output; returns the clean text of the lines it completed. */
  push(chunk: string): string {
    let text = this.carry + chunk;
    this.carry = "";
    const cut = this.incompleteTail(text);
    if (cut < text.length) {
      this.carry = text.slice(cut);
      text = text.slice(0, cut);
    }
    this.feed(text);
    return this.takeCompleted();
  }

  /** The unfinished last line, clean (a prompt waiting for an answer shows here). */
  get pendingLine(): string {
    return this.current;
  }

  /** Ends the output; returns the clean text of the last, unfinished line (if any). */
  finish(): string {
    if (this.carry !== "") {
      this.feed(this.carry.replace(/\x1b[^]*$/, ""));
      this.carry = "";
    }
    const completed = this.takeCompleted();
    const last = this.pendingLine;
    return completed + (SPINNER_ONLY.test(last) ? "" : last);
  }

  /** Everything so far (the end of it past the cap), clean. */
  get text(): string {
    const last = SPINNER_ONLY.test(this.pendingLine) ? "" : this.pendingLine;
    const body = this.lines.join("\n") + (this.lines.length > 0 ? "\n" : "") + last;
    return this.dropped ? `(earlier output dropped: only the last ${Math.round(this.maxChars / 1024)} KB were kept)\n${body}` : body;
  }

  private takeCompleted(): string {
    // Lines dropped by the cap or erased by a cursor move are not handed out again.
    if (this.emitted > this.lines.length) this.emitted = this.lines.length;
    const fresh = this.lines.slice(this.emitted);
    this.emitted = this.lines.length;
    return fresh.map((line) => line + "\n").join("");
  }

  /** Where an escape sequence (or a lone "\r") cut off at the end of `text` starts. */
  private incompleteTail(text: string): number {
    if (text.endsWith("\r")) return text.length - 1;
    const escape = text.lastIndexOf("\x1b");
    if (escape < 0 || text.length - escape > 512) return text.length;
    return ESCAPE_AT_START.test(text.slice(escape)) ? text.length : escape;
  }

  private feed(text: string): void {
    let i = 0;
    while (i < text.length) {
      const char = text[i]!;
      if (char === "\x1b") {
        ESCAPE_HERE.lastIndex = i;
        const match = ESCAPE_HERE.exec(text);
        if (!match) {
          i++; // a stray escape: dropped
          continue;
        }
        this.control(match[2], match[1] ?? "");
        i += match[0].length;
        continue;
      }
      if (char === "\n") {
        this.endLine();
        i++;
        continue;
      }
      if (char === "\r") {
        if (text[i + 1] === "\n") {
          this.endLine();
          i += 2;
        } else {
          this.atLineStart = true;
          i++;
        }
        continue;
      }
      if (char === "\b") {
        this.current = this.current.slice(0, -1);
        i++;
        continue;
      }
      let end = i;
      while (end < text.length && !"\x1b\n\r\b".includes(text[end]!)) end++;
      this.write(text.slice(i, end).replace(CONTROL, ""));
      i = end;
    }
  }

  /** A CSI sequence's effect on the text: erase line, cursor to column 1, cursor up; others are dropped. */
  private control(final: string | undefined, params: string): void {
    if (final === "K") {
      if (this.atLineStart || params === "2") this.current = "";
    } else if (final === "G" && (params === "" || params === "0" || params === "1")) {
      this.atLineStart = true;
    } else if (final === "A" || final === "F") {
      // Cursor up n lines (log-update, multi-line progress): what follows redraws them.
      const n = Math.max(1, Number.parseInt(params || "1", 10) || 1);
      const removed = this.lines.splice(Math.max(0, this.lines.length - n));
      for (const line of removed) this.keptChars -= line.length + 1;
      this.current = "";
      this.atLineStart = false;
    } else if (final === "J" && (params === "2" || params === "3")) {
      this.current = "";
    }
  }

  private write(text: string): void {
    if (text === "") return;
    if (this.atLineStart) {
      this.current = "";
      this.atLineStart = false;
    }
    this.current += text;
  }

  private endLine(): void {
    const line = this.current;
    this.current = "";
    this.atLineStart = false;
    if (SPINNER_ONLY.test(line)) return;
    const trimmed = line.replace(/\s+$/, "");
    this.lines.push(trimmed);
    this.keptChars += trimmed.length + 1;
    while (this.keptChars > this.maxChars && this.lines.length > 1) {
      this.keptChars -= this.lines.shift()!.length + 1;
      if (this.emitted > 0) this.emitted--;
      this.dropped = true;
    }
  }
}
