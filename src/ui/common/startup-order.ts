// The order in which a starting page spends its one main thread: the terminal's prompt and the
// chat go first, the editor's megabytes (Monaco: about 300 ms of evaluation and set-up on a small
// machine) after them. Without an order, Monaco's evaluation lands between the steps of the
// terminal's start and every user waits for all of it (docs/architecture.md, "Start-up").

/** What holds the heavy work back until it is done, has failed or is no longer coming. */
export type StartupHold = "terminal" | "chat";

/** A key or click; or a command the user started (Enter), whose result they now wait for. */
export type StartupInput = "key" | "command";

export class StartupOrder {
  private readonly holds = new Set<StartupHold>();
  private clear = false;
  private readonly waiters: Array<() => void> = [];
  private cap: ReturnType<typeof setTimeout> | undefined;
  private capAt = Number.POSITIVE_INFINITY;
  private quiet: ReturnType<typeof setTimeout> | undefined;
  /** When the heavy work may go, as far as the user's input says. */
  private quietUntil = Number.NEGATIVE_INFINITY;

  /**
   * @param capMs the longest the heavy work waits after the first hold, whatever is still held or
   * typed (a terminal that never starts must not keep the editor away for good).
   * @param quietMs how long after the last release, and after the user's last key or click, the
   * heavy work starts: a command typed into a terminal that has just started is not held up by
   * Monaco's evaluation.
   * @param commandMs how long the heavy work waits after the user started a command (Enter), also
   * past the cap: the first program's start (its worker, its runtime's code) is what they wait for
   * then, and Monaco's evaluation on the same two cores used to double it.
   * @param typingCapMs once nothing holds the heavy work back, the longest it waits for a pause in
   * the user's typing (from the last release). The cap guards against a terminal that never
   * starts; once it has started, a user typing into its first prompt would otherwise get Monaco's
   * evaluation in the middle of the line whenever the prompt came late.
   */
  constructor(
    private readonly capMs = 1500,
    private readonly quietMs = 200,
    private readonly now: () => number = () => performance.now(),
    private readonly commandMs = 1000,
    private readonly typingCapMs = 3000,
  ) {}

  /** Holds the heavy work back until `release(what)`. */
  hold(what: StartupHold): void {
    if (this.clear) return;
    this.holds.add(what);
    if (this.cap === undefined) this.capAfter(this.capMs);
  }

  /** `what` is ready, failed or not coming (idempotent; nothing happens for what was never held). */
  release(what: StartupHold): void {
    if (!this.holds.delete(what)) return;
    mark(`webcode:startup-release:${what}`);
    // What was released is now in the user's hands: the heavy work starts once they have not
    // typed or clicked for `quietMs` (they may be about to, as soon as the prompt shows).
    if (this.holds.size === 0) {
      this.quietUntil = Math.max(this.quietUntil, this.now() + this.quietMs);
      if (this.cap !== undefined) this.capAfter(Math.max(this.typingCapMs, this.capAt - this.now()));
      this.openWhenQuiet();
    }
  }

  /** The user typed or clicked (the page reports every key and pointer press while it starts). */
  input(kind: StartupInput = "key"): void {
    if (this.clear) return;
    const wait = kind === "command" ? this.commandMs : this.quietMs;
    this.quietUntil = Math.max(this.quietUntil, this.now() + wait);
    if (kind === "command" && this.cap !== undefined && this.now() + wait > this.capAt) this.capAfter(wait);
    if (this.quiet !== undefined) this.openWhenQuiet();
  }

  /** Resolves when nothing holds the heavy work back any more (at once when nothing ever did). */
  whenClear(): Promise<void> {
    if (this.clear || this.holds.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The user asked for the heavy part (e.g. opened a file), or nothing is coming: it goes now. */
  expedite(): void {
    this.open();
  }

  private openWhenQuiet(): void {
    if (this.clear || this.holds.size > 0) return;
    clearTimeout(this.quiet);
    const wait = this.quietUntil - this.now();
    if (wait <= 0) this.open();
    else this.quiet = setTimeout(() => this.openWhenQuiet(), wait);
  }

  private capAfter(ms: number): void {
    clearTimeout(this.cap);
    this.capAt = this.now() + ms;
    this.cap = setTimeout(() => this.open(), ms);
  }

  private open(): void {
    if (this.clear) return;
    this.clear = true;
    mark("webcode:startup-clear");
    clearTimeout(this.cap);
    clearTimeout(this.quiet);
    this.holds.clear();
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}

/** User-timing marks of the start-up's steps, for the benchmarks and the browser's profiler. */
function mark(name: string): void {
  globalThis.performance?.mark?.(name);
}

/** The page's order (one page, one main thread). */
export const startupOrder = new StartupOrder();
