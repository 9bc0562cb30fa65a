// The terminal as a foreground program's standard input: a tty in cooked mode. What the user types
// is echoed and edited on one line (Backspace, Ctrl-U, Ctrl-W) and handed to the program at Enter,
// with its newline; Ctrl-D hands over what is on the line without one, or, on an empty line, the
// end of input. Ctrl-C stays with the shell (it stops the program). Lines typed before the program
// reads wait for it, as type-ahead does on a tty. See docs/architecture.md "Terminal".
import type { Key } from "./key-reader";
import { textWidth } from "./terminal-text";

/** What a program command reads its terminal through (SandboxRunOptions.stdin). */
export interface TerminalReader {
  /** The next line typed (with its "\n"), what was on the line at Ctrl-D, or null at the end of input. */
  read(): Promise<string | null>;
}

/** A foreground program's hold on the terminal, from its first read until it ends. */
export interface TerminalSession extends TerminalReader {
  /** The program ended: a pending read sees the end; unread lines and the line being typed go back to the shell. */
  close(): void;
}

/** The interactive shell's side: given to the commands of one run (BashHost RunOptions.terminal). */
export interface ProgramTerminal {
  open(): TerminalSession;
}

const END = null;

export class CookedInput implements TerminalReader {
  private line = "";
  private readonly ready: Array<string | null> = [];
  private readonly readers: Array<(text: string | null) => void> = [];
  private closed = false;

  /** `echo` writes to the terminal (already in the terminal's line endings). */
  constructor(private readonly echo: (text: string) => void) {}

  /** Handles one key; false for keys a cooked tty ignores (arrows, Tab …). */
  key(key: Key): boolean {
    if (this.closed) return false;
    if (key.type === "text") {
      // A paste's line breaks arrive as Enter keys; stray control characters are not echoed.
      const text = key.text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
      this.line += text;
      this.echo(text);
      return true;
    }
    switch (key.name) {
      case "enter":
        this.echo("\r\n");
        this.deliver(`${this.line}\n`);
        this.line = "";
        return true;
      case "backspace":
        this.erase([...this.line].slice(-1).join(""));
        return true;
      case "kill-line-start":
        this.erase(this.line);
        return true;
      case "kill-word-back": {
        const match = /\S+\s*$|\s+$/.exec(this.line);
        this.erase(match ? match[0] : "");
        return true;
      }
      case "eof":
        if (this.line === "") this.deliver(END);
        else {
          this.deliver(this.line);
          this.line = "";
        }
        return true;
      default:
        return false;
    }
  }

  read(): Promise<string | null> {
    if (this.ready.length > 0) return Promise.resolve(this.ready.shift()!);
    if (this.closed) return Promise.resolve(END);
    return new Promise((resolve) => this.readers.push(resolve));
  }

  /** Ends the session; returns the lines nobody read and the line being typed (for the shell). */
  close(): { lines: string[]; partial: string } {
    this.closed = true;
    for (const reader of this.readers.splice(0)) reader(END);
    const lines = this.ready.splice(0).filter((text): text is string => text !== null && text.endsWith("\n")).map((text) => text.slice(0, -1));
    const partial = this.line;
    this.line = "";
    return { lines, partial };
  }

  private deliver(text: string | null): void {
    const reader = this.readers.shift();
    if (reader) reader(text);
    else this.ready.push(text);
  }

  private erase(text: string): void {
    if (text === "") return;
    this.line = this.line.slice(0, this.line.length - text.length);
    const cells = textWidth(text);
    this.echo("\b \b".repeat(cells));
  }
}
