// The editable input line of the interactive shell, as data: characters (whole code points), a
// cursor, and history navigation. Rendering lives in interactive-shell.ts.

export const MAX_HISTORY = 1000;

export class LineEditor {
  private chars: string[] = [];
  private cursorIndex = 0;
  private readonly history: string[] = [];
  /** The number of the oldest entry kept (bash keeps numbering when old entries fall off). */
  private historyBase = 1;
  private historyIndex = 0;
  private draft = "";

  get text(): string {
    return this.chars.join("");
  }

  get cursor(): number {
    return this.cursorIndex;
  }

  /** Text before the cursor. */
  get beforeCursor(): string {
    return this.chars.slice(0, this.cursorIndex).join("");
  }

  get entries(): readonly string[] {
    return this.history;
  }

  /** The history with bash's numbers (1 for the first line of the session, or since `history -c`). */
  numberedEntries(): Array<{ number: number; line: string }> {
    return this.history.map((line, index) => ({ number: this.historyBase + index, line }));
  }

  clearHistory(): void {
    this.history.length = 0;
    this.historyBase = 1;
    this.historyIndex = 0;
    this.draft = "";
  }

  /** Deletes the entry with bash's number `number`; false when there is none. */
  deleteHistoryEntry(number: number): boolean {
    const index = number - this.historyBase;
    if (!Number.isInteger(index) || index < 0 || index >= this.history.length) return false;
    this.history.splice(index, 1);
    this.historyIndex = this.history.length;
    return true;
  }

  set(text: string, cursor = Array.from(text).length): void {
    this.chars = Array.from(text);
    this.cursorIndex = Math.max(0, Math.min(cursor, this.chars.length));
  }

  insert(text: string): void {
    const added = Array.from(text);
    this.chars.splice(this.cursorIndex, 0, ...added);
    this.cursorIndex += added.length;
  }

  backspace(): boolean {
    if (this.cursorIndex === 0) return false;
    this.chars.splice(--this.cursorIndex, 1);
    return true;
  }

  deleteForward(): boolean {
    if (this.cursorIndex >= this.chars.length) return false;
    this.chars.splice(this.cursorIndex, 1);
    return true;
  }

  left(): boolean {
    if (this.cursorIndex === 0) return false;
    this.cursorIndex--;
    return true;
  }

  right(): boolean {
    if (this.cursorIndex >= this.chars.length) return false;
    this.cursorIndex++;
    return true;
  }

  home(): void {
    this.cursorIndex = 0;
  }

  end(): void {
    this.cursorIndex = this.chars.length;
  }

  wordLeft(): void {
    let i = this.cursorIndex;
    while (i > 0 && this.chars[i - 1] === " ") i--;
    while (i > 0 && this.chars[i - 1] !== " ") i--;
    this.cursorIndex = i;
  }

  wordRight(): void {
    let i = this.cursorIndex;
    while (i < this.chars.length && this.chars[i] === " ") i++;
    while (i < this.chars.length && this.chars[i] !== " ") i++;
    this.cursorIndex = i;
  }

  /** Ctrl-U: delete from the start of the line to the cursor. */
  killToStart(): void {
    this.chars.splice(0, this.cursorIndex);
    this.cursorIndex = 0;
  }

  /** Ctrl-K: delete from the cursor to the end of the line. */
  killToEnd(): void {
    this.chars.length = this.cursorIndex;
  }

  /** Ctrl-W: delete the word before the cursor (and the spaces after it). */
  killWordBack(): void {
    let i = this.cursorIndex;
    while (i > 0 && this.chars[i - 1] === " ") i--;
    while (i > 0 && this.chars[i - 1] !== " ") i--;
    this.chars.splice(i, this.cursorIndex - i);
    this.cursorIndex = i;
  }

  /** Enter: returns the line, records it in history (no blanks, no immediate repeats), clears. */
  accept(): string {
    const line = this.text;
    if (line.trim() !== "" && this.history[this.history.length - 1] !== line) {
      this.history.push(line);
      if (this.history.length > MAX_HISTORY) {
        this.history.shift();
        this.historyBase++;
      }
    }
    this.historyIndex = this.history.length;
    this.draft = "";
    this.set("");
    return line;
  }

  /** Ctrl-C at the prompt: drop the line without recording it. */
  discard(): void {
    this.historyIndex = this.history.length;
    this.draft = "";
    this.set("");
  }

  historyUp(): boolean {
    if (this.historyIndex === 0) return false;
    if (this.historyIndex === this.history.length) this.draft = this.text;
    this.historyIndex--;
    this.set(this.history[this.historyIndex]!);
    return true;
  }

  historyDown(): boolean {
    if (this.historyIndex >= this.history.length) return false;
    this.historyIndex++;
    this.set(this.historyIndex === this.history.length ? this.draft : this.history[this.historyIndex]!);
    return true;
  }
}
