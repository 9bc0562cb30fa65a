// Notices that the program sandbox's frame died. When a program allocates without end, Chromium
// ends the process that runs its worker without any event to the page (where the sandboxed frame
// has a process of its own, the page lives on). The frame's main thread, never busy (programs run
// in workers), beats every BEAT_MS; beats missing for DEAD_AFTER_MS while a program runs mean the
// frame and its workers are gone. Rounds where this page's own timers ran late (a background tab
// is throttled, and so is the frame) are not counted. See docs/architecture.md "Isolated execution host".

export const BEAT_MS = 500;
export const DEAD_AFTER_MS = 3000;

export interface WatchdogClock {
  now(): number;
  every(ms: number, tick: () => void): () => void;
}

const realClock: WatchdogClock = {
  now: () => performance.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  },
};

export class FrameWatchdog {
  private lastBeat: number;
  private lastTick: number;
  private silentFor = 0;
  private watching = 0;
  private stopTimer: (() => void) | undefined;

  constructor(
    private readonly onDead: () => void,
    private readonly clock: WatchdogClock = realClock,
  ) {
    this.lastBeat = clock.now();
    this.lastTick = clock.now();
  }

  /** The frame beat. */
  beat(): void {
    this.lastBeat = this.clock.now();
    this.silentFor = 0;
  }

  /** A program started (the watchdog runs only while one does); returns its end. */
  watch(): () => void {
    this.watching += 1;
    if (this.watching === 1) {
      this.lastBeat = this.lastTick = this.clock.now();
      this.silentFor = 0;
      this.stopTimer = this.clock.every(BEAT_MS, () => this.tick());
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.watching -= 1;
      if (this.watching === 0) this.stop();
    };
  }

  stop(): void {
    this.stopTimer?.();
    this.stopTimer = undefined;
  }

  private tick(): void {
    const now = this.clock.now();
    const late = now - this.lastTick > BEAT_MS * 2;
    this.lastTick = now;
    // A late round: this page was throttled, the frame's beats may be late for the same reason.
    if (late) {
      this.lastBeat = now;
      this.silentFor = 0;
      return;
    }
    this.silentFor = now - this.lastBeat;
    if (this.silentFor >= DEAD_AFTER_MS) {
      this.stop();
      this.watching = 0;
      this.onDead();
    }
  }
}
