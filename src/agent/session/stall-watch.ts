// Notices a model stream that stopped sending: after `noticeMs` of silence it says how long it has
// waited (the chat shows it), after `timeoutMs` it gives up on the attempt, which then counts as a
// dropped connection and is retried. Time spent running tools is not silence.

/** No data for this long counts as a dropped connection (reasoning models may think silently for a minute). */
export const DEFAULT_STALL_TIMEOUT_MS = 90_000;
/** From this much silence on, the chat shows how long it has been waiting. */
export const STALL_NOTICE_MS = 20_000;

/** The stream sent nothing for too long: retried like a dropped connection. */
export class StreamStallError extends Error {
  constructor(readonly seconds: number) {
    super(`No data from the model for ${seconds} s; the connection is treated as dropped`);
    this.name = "StreamStallError";
  }
}

export interface StallWatchOptions {
  timeoutMs: number;
  noticeMs?: number;
  now(): number;
  /** True while a tool runs: the stream is waiting for it, not for the provider. */
  busy(): boolean;
  /** Silence passed `noticeMs`: `since` is when the last data arrived. */
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
  private last: number;
  private silent = false;
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  private done = false;
  stalled = false;

  constructor(private readonly options: StallWatchOptions) {
    this.last = options.now();
    this.arm();
  }

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

  /** Starts whichever timer is not running, each due its interval after the last chunk. */
  private arm(): void {
    if (this.noticeTimer === undefined && !this.silent && this.noticeMs < this.options.timeoutMs) {
      this.noticeTimer = setTimeout(() => this.notice(), this.remaining(this.noticeMs));
    }
    if (this.stallTimer === undefined) this.stallTimer = setTimeout(() => this.expire(), this.remaining(this.options.timeoutMs));
  }

  /** What is left of `ms` of silence since the last chunk (a clock that went back counts as none passed). */
  private remaining(ms: number): number {
    const passed = this.options.now() - this.last;
    return passed < 0 ? ms : Math.max(0, ms - passed);
  }

  private notice(): void {
    this.noticeTimer = undefined;
    if (this.done) return;
    // A chunk came since the timer was set: wait out the rest of the interval.
    if (this.remaining(this.noticeMs) > 0) return this.arm();
    // A tool is running: no notice; the next chunk (or the tool's end) starts the wait again.
    if (this.options.busy()) return;
    this.silent = true;
    this.options.onSilence(this.last);
  }

  private expire(): void {
    this.stallTimer = undefined;
    if (this.done) return;
    if (this.remaining(this.options.timeoutMs) > 0) return this.arm();
    if (this.options.busy()) {
      // A tool is still running: its end counts as data.
      this.data();
      return;
    }
    this.stalled = true;
    this.done = true;
    clearTimeout(this.noticeTimer);
    this.options.onStall(new StreamStallError(Math.round((this.options.now() - this.last) / 1000)));
  }
}
