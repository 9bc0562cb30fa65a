// Notices that the program sandbox's frame died. When a program allocates without end, Chromium
// ends the process that runs its worker without any event to the page (where the sandboxed frame
// has a process of its own, the page lives on). The frame's main thread, never busy (programs run
// in workers), beats every BEAT_MS; so does every event a program of the frame sends (its worker
// lives in the same process). A frame is taken for dead only after a silence no live frame shows:
//   - a loaded machine starves the frame's process (a hidden cross-origin frame's process gets
//     less CPU than the page's): its beats come late, seconds late while a worker starts. 3 s of
//     silence was read as death, and `node -e "console.log(1)"` ended "out of memory" in 4 of 8
//     runs beside busy processes. The silence allowed is DEAD_AFTER_MS at least, and grows with
//     the slowest gap between beats the frame has shown (GAP_FACTOR times it, up to MAX_SILENCE_MS);
//   - rounds where this page's own timers ran late (a background tab is throttled, and so is the
//     frame) are not counted.
// A real runaway allocation still ends with exit 134: its frame stays silent for good.
// See docs/architecture.md "Isolated execution host"; `npm run stress:watchdog` measures it.

export const BEAT_MS = 500;
export const DEAD_AFTER_MS = 8000;
/** How many times the slowest gap between beats seen so far a silence must last to mean death. */
export const GAP_FACTOR = 3;
export const MAX_SILENCE_MS = 30_000;

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
  /** The longest gap between two beats seen while a program ran (how starved the frame gets). */
  private slowestGap = 0;
  private watching = 0;
  private stopTimer: (() => void) | undefined;

  constructor(
    private readonly onDead: () => void,
    private readonly clock: WatchdogClock = realClock,
  ) {
    this.lastBeat = clock.now();
    this.lastTick = clock.now();
  }

  /** The frame beat, or one of its programs said something. */
  beat(): void {
    const now = this.clock.now();
    if (this.watching > 0) this.slowestGap = Math.max(this.slowestGap, now - this.lastBeat);
    this.lastBeat = now;
    this.silentFor = 0;
  }

  /** How long a silence means the frame is gone. */
  allowedSilence(): number {
    return Math.min(MAX_SILENCE_MS, Math.max(DEAD_AFTER_MS, GAP_FACTOR * this.slowestGap));
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
    if (this.silentFor >= this.allowedSilence()) {
      this.stop();
      this.watching = 0;
      this.onDead();
    }
  }
}
