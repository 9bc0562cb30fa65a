// Notices a model stream that stopped sending: after `noticeMs` of silence it says how long it has
// waited (the chat shows it), after `timeoutMs` it gives up on the attempt, which then counts as a
// dropped connection and is retried. The silence of the step's earlier attempts that stalled (and
// the waits before their retries) carries over: the notice shows the whole wait, and once it
// reaches `budgetMs` the step gives up for good. A stalled attempt's chunks do not reset it (the
// retry streams them again; they were no progress), so a provider that sends a few chunks and then
// nothing, every time, would otherwise cost eight attempts of `timeoutMs` each (about 14 minutes).
// Time spent running tools is not silence.

/** No data for this long counts as a dropped connection (reasoning models may think silently for a minute). */
export const DEFAULT_STALL_TIMEOUT_MS = 90_000;
/**
 * The most a step waits on a silent model from its last data, retries included, before the final
 * error (the model's own setting overrides it). Two attempts' worth of the default timeout.
 */
export const DEFAULT_STALL_BUDGET_MS = 180_000;
/** From this much silence on, the chat shows how long it has been waiting. */
export const STALL_NOTICE_MS = 20_000;
/**
 * On a retry after that much silence, the notice comes back after this short a pause (not on the
 * very first: streamText's own start events and the re-streamed chunks would make it flicker).
 */
export const STALL_RENOTICE_MS = 1_000;

/** The stream sent nothing for too long: retried like a dropped connection. */
export class StreamStallError extends Error {
  constructor(
    readonly seconds: number,
    /** The step's whole budget of silence is spent: not retried. */
    readonly budgetSpent = false,
  ) {
    super(
      budgetSpent
        ? `No data from the model for ${seconds} s, retries included`
        : `No data from the model for ${seconds} s; the connection is treated as dropped`,
    );
    this.name = "StreamStallError";
  }
}

export interface StallWatchOptions {
  /** Silence that gives up on this attempt (it is retried). */
  timeoutMs: number;
  /** Silence in all (with `silentBeforeMs`) that gives up on the step (default: none). */
  budgetMs?: number;
  /** Silence already spent by the step's earlier attempts that stalled, and the waits before their retries. */
  silentBeforeMs?: number;
  noticeMs?: number;
  now(): number;
  /** True while a tool runs: the stream is waiting for it, not for the provider. */
  busy(): boolean;
  /** Silence passed `noticeMs`: `now() - since` is the whole silence, earlier attempts' included. */
  onSilence(since: number): void;
  /** Data arrived again after onSilence. */
  onResume(): void;
  onStall(error: StreamStallError): void;
}

/**
 * The two timers stay armed while chunks arrive: a chunk only notes the time, and a timer that
 * fires measures the silence since then and waits out the rest. (Re-arming both on every chunk
 * cost two clearTimeout and two setTimeout calls per delta, tens of thousands in a long answer.)
 */
export class StallWatch {
  /** The last chunk of this attempt, or its start. */
  private last: number;
  private readonly before: number;
  private silent = false;
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  private done = false;
  stalled = false;

  constructor(private readonly options: StallWatchOptions) {
    this.last = options.now();
    this.before = Math.max(0, options.silentBeforeMs ?? 0);
    this.arm();
  }

  /** How long this attempt had been silent when it stalled (0 if it did not). */
  stalledAfterMs = 0;

  /** A chunk arrived. */
  data(): void {
    if (this.done) return;
    this.last = this.options.now();
    if (this.silent) {
      this.silent = false;
      this.options.onResume();
    }
    this.arm();
  }

  dispose(): void {
    this.done = true;
    clearTimeout(this.noticeTimer);
    clearTimeout(this.stallTimer);
    if (this.silent) {
      this.silent = false;
      this.options.onResume();
    }
  }

  private get noticeMs(): number {
    return this.options.noticeMs ?? STALL_NOTICE_MS;
  }

  /** This attempt's silence that shows the notice: less when earlier attempts' silence counts. */
  private get noticeAfterMs(): number {
    return Math.max(Math.min(STALL_RENOTICE_MS, this.noticeMs), this.noticeMs - this.before);
  }

  /** Starts whichever timer is not running: the notice after the step's silence, the stall after this attempt's or the budget. */
  private arm(): void {
    if (this.noticeTimer === undefined && !this.silent && this.noticeAfterMs < this.options.timeoutMs) {
      this.noticeTimer = setTimeout(() => this.notice(), this.remaining(this.noticeAfterMs));
    }
    if (this.stallTimer === undefined) this.stallTimer = setTimeout(() => this.expire(), this.untilStall());
  }

  /** What is left of `ms` of silence since this attempt's last chunk (a clock that went back counts as none passed). */
  private remaining(ms: number): number {
    const passed = this.options.now() - this.last;
    return Math.max(0, passed < 0 ? ms : ms - passed);
  }

  /** Until this attempt's timeout or the step's budget, whichever comes first. */
  private untilStall(): number {
    const attempt = this.remaining(this.options.timeoutMs);
    return this.options.budgetMs === undefined ? attempt : Math.min(attempt, this.remaining(this.options.budgetMs - this.before));
  }

  private notice(): void {
    this.noticeTimer = undefined;
    if (this.done) return;
    // A chunk came since the timer was set: wait out the rest of the interval.
    if (this.remaining(this.noticeAfterMs) > 0) return this.arm();
    // A tool is running: no notice; the next chunk (or the tool's end) starts the wait again.
    if (this.options.busy()) return;
    this.silent = true;
    this.options.onSilence(this.last - this.before);
  }

  private expire(): void {
    this.stallTimer = undefined;
    if (this.done) return;
    if (this.untilStall() > 0) return this.arm();
    if (this.options.busy()) {
      // A tool is still running: its end counts as data.
      this.data();
      return;
    }
    this.stalled = true;
    this.done = true;
    clearTimeout(this.noticeTimer);
    this.stalledAfterMs = Math.max(0, this.options.now() - this.last);
    const budgetSpent = this.options.budgetMs !== undefined && this.remaining(this.options.budgetMs - this.before) === 0;
    this.options.onStall(new StreamStallError(Math.round((this.stalledAfterMs + this.before) / 1000), budgetSpent));
  }
}
