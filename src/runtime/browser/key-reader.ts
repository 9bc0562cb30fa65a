// Turns raw terminal input (what xterm sends for keystrokes and pastes) into keys for the line
// editor. Escape sequences split across chunks are held until complete; a bracketed paste becomes
// text and Enter keys, so a pasted multi-line script runs line by line.

export type KeyName =
  | "enter"
  | "backspace"
  | "delete"
  | "left"
  | "right"
  | "up"
  | "down"
  | "home"
  | "end"
  | "word-left"
  | "word-right"
  | "kill-line-start"
  | "kill-line-end"
  | "kill-word-back"
  | "tab"
  | "interrupt"
  | "clear-screen"
  | "eof";

export type Key = { type: "text"; text: string } | { type: "key"; name: KeyName };

const CONTROL_KEYS: Record<string, KeyName> = {
  "\r": "enter",
  "\n": "enter",
  "\x7f": "backspace",
  "\b": "backspace",
  "\t": "tab",
  "\x01": "home",
  "\x05": "end",
  "\x02": "left",
  "\x06": "right",
  "\x10": "up",
  "\x0e": "down",
  "\x15": "kill-line-start",
  "\x0b": "kill-line-end",
  "\x17": "kill-word-back",
  "\x03": "interrupt",
  "\x0c": "clear-screen",
  "\x04": "eof",
};

const CSI_FINAL: Record<string, KeyName> = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end" };
const CSI_TILDE: Record<string, KeyName> = { "1": "home", "7": "home", "4": "end", "8": "end", "3": "delete" };

const PASTE_END = "\x1b[201~";

export class KeyReader {
  private pending = "";
  private paste: string | undefined;

  /** Keys in `data` (plus any sequence left incomplete by the previous chunk). */
  read(data: string): Key[] {
    let input = this.pending + data;
    this.pending = "";
    const keys: Key[] = [];
    let text = "";
    const flushText = () => {
      if (text) keys.push({ type: "text", text });
      text = "";
    };
    while (input.length > 0) {
      if (this.paste !== undefined) {
        const end = input.indexOf(PASTE_END);
        if (end < 0) {
          // Keep a possible partial end marker for the next chunk.
          const keep = partialSuffix(input, PASTE_END);
          this.paste += input.slice(0, input.length - keep);
          this.pending = input.slice(input.length - keep);
          return keys;
        }
        this.paste += input.slice(0, end);
        input = input.slice(end + PASTE_END.length);
        keys.push(...pasteKeys(this.paste));
        this.paste = undefined;
        continue;
      }
      const char = input[0]!;
      if (char === "\x1b") {
        const parsed = parseEscape(input);
        if (parsed === "incomplete") {
          flushText();
          this.pending = input;
          return keys;
        }
        flushText();
        input = input.slice(parsed.length);
        if (parsed.paste) this.paste = "";
        else if (parsed.key) keys.push({ type: "key", name: parsed.key });
        continue;
      }
      if (char === "\r" && input[1] === "\n") input = input.slice(1);
      const control = CONTROL_KEYS[char];
      if (control) {
        flushText();
        keys.push({ type: "key", name: control });
        input = input.slice(1);
        continue;
      }
      const code = char.charCodeAt(0);
      if (code < 0x20) {
        input = input.slice(1); // other control characters are ignored
        continue;
      }
      // Keep surrogate pairs together (emoji, rare CJK) so the editor sees whole characters.
      const point = String.fromCodePoint(input.codePointAt(0)!);
      text += point;
      input = input.slice(point.length);
    }
    flushText();
    return keys;
  }
}

interface Escape {
  length: number;
  key?: KeyName;
  paste?: boolean;
}

function parseEscape(input: string): Escape | "incomplete" {
  if (input.length === 1) return "incomplete";
  const second = input[1]!;
  if (second === "[") {
    let i = 2;
    while (i < input.length && /[0-9;?]/.test(input[i]!)) i++;
    if (i >= input.length) return "incomplete";
    const params = input.slice(2, i);
    const final = input[i]!;
    const length = i + 1;
    if (final === "~") {
      if (params === "200") return { length, paste: true };
      return { length, key: CSI_TILDE[params.split(";")[0]!] };
    }
    const base = CSI_FINAL[final];
    // "1;5C" / "1;3C": Ctrl or Alt with an arrow moves by word.
    if (base && params.includes(";") && (final === "C" || final === "D")) {
      return { length, key: final === "C" ? "word-right" : "word-left" };
    }
    return { length, key: base };
  }
  if (second === "O") {
    if (input.length < 3) return "incomplete";
    return { length: 3, key: CSI_FINAL[input[2]!] };
  }
  if (second === "b") return { length: 2, key: "word-left" };
  if (second === "f") return { length: 2, key: "word-right" };
  if (second === "\x7f") return { length: 2, key: "kill-word-back" };
  return { length: 1 };
}

/** Length of the longest suffix of `input` that is a prefix of `marker`. */
function partialSuffix(input: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, input.length); n > 0; n--) {
    if (input.endsWith(marker.slice(0, n))) return n;
  }
  return 0;
}

/** Pasted text: each line becomes text + Enter; tabs become spaces; other controls are dropped. */
function pasteKeys(pasted: string): Key[] {
  const keys: Key[] = [];
  const lines = pasted.replace(/\r\n?/g, "\n").replace(/\t/g, "    ").replace(/[\x00-\x09\x0b-\x1f\x7f]/g, "").split("\n");
  lines.forEach((line, index) => {
    if (line) keys.push({ type: "text", text: line });
    if (index < lines.length - 1) keys.push({ type: "key", name: "enter" });
  });
  return keys;
}
