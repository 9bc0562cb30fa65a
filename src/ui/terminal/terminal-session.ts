// Connects one xterm instance to one runtime shell: keystrokes in, output out, size kept in step
// with the panel. Everything it creates is disposed together.
import { DisposableStore, toDisposable, type Disposable } from "../../base";
import type { Runtime, Shell } from "../../runtime";

/** The parts of xterm this needs (an interface, so the wiring can be tested without a DOM). */
export interface TerminalView extends Disposable {
  readonly cols: number;
  readonly rows: number;
  /** `parsed` runs once xterm has processed `data` (xterm's write callback). */
  write(data: string, parsed?: () => void): void;
  onData(listener: (data: string) => void): Disposable;
  onResize(listener: (size: { cols: number; rows: number }) => void): Disposable;
}

/**
 * Characters handed to xterm and not yet processed, at most. xterm queues whatever it is given, so
 * a program flooding output faster than xterm draws would leave seconds of output to show after
 * Ctrl-C; more than this waits here instead, and Ctrl-C drops what waits, as a tty's line
 * discipline flushes its output queue on an interrupt. A few milliseconds of xterm's parsing.
 */
export const XTERM_HIGH_WATER = 128 * 1024;
/** What waits goes to xterm in pieces of about this size. */
const PIECE = 64 * 1024;
const INTERRUPT = "\x03";

export class TerminalSession implements Disposable {
  private readonly disposables = new DisposableStore();
  readonly shell: Shell;
  private waiting: string[] = [];
  private inXterm = 0;
  private disposed = false;

  constructor(
    runtime: Pick<Runtime, "openShell">,
    private readonly view: TerminalView,
  ) {
    this.shell = runtime.openShell({ cols: view.cols, rows: view.rows });
    this.disposables.add(this.shell);
    this.disposables.add(
      view.onData((data) => {
        // Before the shell hears it: what the shell writes after the interrupt ("^C", the prompt) is kept.
        if (data.includes(INTERRUPT)) this.waiting = [];
        this.shell.write(data);
      }),
    );
    this.disposables.add(this.shell.onData((data) => this.output(data)));
    this.disposables.add(view.onResize((size) => this.shell.resize(size)));
    this.disposables.add(
      toDisposable(() => {
        this.disposed = true;
        this.waiting = [];
        view.dispose();
      }),
    );
  }

  private output(data: string): void {
    if (this.waiting.length === 0 && this.inXterm < XTERM_HIGH_WATER) this.toXterm(data);
    else this.waiting.push(data);
  }

  private toXterm(data: string): void {
    this.inXterm += data.length;
    this.view.write(data, () => {
      this.inXterm -= data.length;
      this.drain();
    });
  }

  private drain(): void {
    while (!this.disposed && this.waiting.length > 0 && this.inXterm < XTERM_HIGH_WATER) {
      let piece = "";
      while (this.waiting.length > 0 && piece.length < PIECE) piece += this.waiting.shift()!;
      this.toXterm(piece);
    }
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
