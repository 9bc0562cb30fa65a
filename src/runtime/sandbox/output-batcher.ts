// A program's output on its way out of the sandboxed worker: one message per write cost the page a
// task each (100,000 console.log lines were 100,000 messages, each through the shell's output path
// and an xterm write), so a program that writes fast has its writes joined. A program that writes a
// little at a time is not held back: its writes go out one by one, at once, as a tty shows them.
// See docs/architecture.md "Isolated execution host", Standard streams.

export type OutputStream = "stdout" | "stderr";

export interface OutputBatcherOptions {
  /** Sends one piece of output (consecutive writes of one stream, joined). */
  send(stream: OutputStream, text: string): void;
  /** Runs `flush` soon, once the program lets the worker's event loop turn (a timer in the worker). */
  schedule(flush: () => void): void;
  now(): number;
}

/** How many pieces go out at once in one window; a program writing more than this is a flood. */
export const IMMEDIATE_SENDS = 8;
/** The window, and the longest a write waits while the program keeps writing: about one frame of the terminal. */
export const WINDOW_MS = 16;
/** Characters held at most: more goes out at once, so one piece stays a reasonable write for xterm. */
export const MAX_HELD_CHARS = 64 * 1024;

/**
 * Joins a flood of writes: the first IMMEDIATE_SENDS writes of each WINDOW_MS go out as they come;
 * after that, writes of one stream are held and go out together when the window ends (checked at
 * the next write, and by a scheduled flush for when the program stops writing), when MAX_HELD_CHARS
 * are held, when the other stream is written (stdout and stderr stay in the order written), and
 * before anything else the worker says (`flush()`: an exit, a file change, a read of the terminal).
 *
 * What a program holding the worker's thread in a synchronous loop right after such a flood wrote
 * last (at most one window's writes) goes out when that loop ends: a worker cannot send while it
 * runs. A program writing at a terminal's pace is never held.
 */
export class OutputBatcher {
  private held: string[] = [];
  private heldStream: OutputStream = "stdout";
  private heldChars = 0;
  private windowStart = Number.NEGATIVE_INFINITY;
  private sentInWindow = 0;
  private scheduled = false;

  constructor(private readonly options: OutputBatcherOptions) {}

  write(stream: OutputStream, text: string): void {
    if (text === "") return;
    const now = this.options.now();
    if (now - this.windowStart >= WINDOW_MS) {
      // A flood that goes on into the next window stays joined; a write after a pause goes out at once.
      const flooding = (this.held.length > 0 || this.sentInWindow > IMMEDIATE_SENDS) && now - this.windowStart < 2 * WINDOW_MS;
      this.flush();
      this.windowStart = now;
      this.sentInWindow = flooding ? IMMEDIATE_SENDS : 0;
    }
    if (this.held.length > 0 && stream !== this.heldStream) this.flush();
    if (this.held.length === 0 && this.sentInWindow < IMMEDIATE_SENDS) {
      this.sentInWindow++;
      this.options.send(stream, text);
      return;
    }
    this.heldStream = stream;
    this.held.push(text);
    this.heldChars += text.length;
    if (this.heldChars >= MAX_HELD_CHARS) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      this.options.schedule(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  /** Sends what is held now. */
  flush(): void {
    if (this.held.length === 0) return;
    const text = this.held.length === 1 ? this.held[0]! : this.held.join("");
    this.held = [];
    this.heldChars = 0;
    this.sentInWindow++;
    this.options.send(this.heldStream, text);
  }
}
