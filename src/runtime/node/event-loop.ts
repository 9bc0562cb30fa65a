// What keeps a node program alive, as Node counts it: referenced timers, immediates, stdin being
// read, fs watchers. When nothing is left, the program ends (after 'beforeExit'). Also Node's timer
// objects (ref/unref/refresh, usable as numbers) over the worker's own timers. A worker has no
// notion of "nothing left to do", hence this count.

import { AsyncContext } from "./async-context";

export const realSetTimeout = globalThis.setTimeout.bind(globalThis);
const realClearTimeout = globalThis.clearTimeout.bind(globalThis);
/** The platform's channel: the program's global MessageChannel is Node's (worker_threads'), built on this one. */
const PlatformMessageChannel = globalThis.MessageChannel;

export class EventLoop {
  private refs = 0;
  private idleScheduled = false;
  private stopped = false;
  /** AsyncLocalStorage's frames, carried into the callbacks scheduled here. */
  readonly asyncContext = new AsyncContext();

  constructor(
    private readonly onIdle: () => void,
    private readonly onError: (error: unknown) => void,
  ) {
    this.tickTask.port1.onmessage = () => this.runTicks();
    this.immediateTask.port1.onmessage = () => this.runImmediate();
    // Node's MessagePort (in-process tests) would keep the process alive; the program's refs decide that.
    (this.tickTask.port1 as { unref?: () => void }).unref?.();
    (this.immediateTask.port1 as { unref?: () => void }).unref?.();
  }

  /**
   * setImmediate's queue, each immediate in a task of its own (a message to ourselves), so promise
   * callbacks run between two immediates as in Node. A zero-delay timer is no substitute: browsers
   * clamp a timer scheduled from a timer's callback to 4 ms after five levels, and mocha runs every
   * hook and test through setImmediate, so a 200-test suite waited seconds on the clamp (6.1 s
   * against Node's 0.3 s in Chromium).
   */
  private readonly immediates: Array<() => void> = [];
  private readonly immediateTask = new PlatformMessageChannel();

  queueImmediate(run: () => void): void {
    this.immediates.push(run);
    this.immediateTask.port2.postMessage(null);
  }

  private runImmediate(): void {
    const run = this.immediates.shift();
    if (run && !this.stopped) run();
  }

  /** Grows with every ref(): tells whether work was scheduled since a moment (beforeExit). */
  generation = 0;

  ref(): void {
    this.refs += 1;
    this.generation += 1;
  }

  unref(): void {
    this.refs -= 1;
    if (this.refs <= 0) this.checkIdle();
  }

  get active(): number {
    return this.refs;
  }

  private readonly ticks: Array<() => void> = [];
  private ticksScheduled = false;
  private depth = 0;
  /** A task of its own (a message, not a clamped timer) that runs ticks queued outside any callback. */
  private readonly tickTask = new PlatformMessageChannel();

  /** Runs a callback the program scheduled; a throw is an uncaught exception. Then, as Node does after each callback, the nextTick queue. */
  guard<A extends unknown[]>(fn: (...args: A) => unknown, ...args: A): void {
    if (this.stopped) return;
    // Ticks a promise callback queued run before any other callback, as in Node (their task may come later).
    if (this.depth === 0 && this.ticks.length > 0) this.runTicks();
    this.depth += 1;
    try {
      fn(...args);
    } catch (error) {
      this.onError(error);
    } finally {
      this.depth -= 1;
    }
    if (this.depth === 0) this.runTicks();
  }

  /**
   * process.nextTick: Node runs these when the current callback (or the CommonJS main script)
   * returns, before promise callbacks: here at the end of guard() and of the main script (runTicks).
   * Ticks queued elsewhere (a promise callback, an ES module's body) Node runs once the whole
   * microtask queue has drained, including the promise callbacks queued meanwhile; a browser has no
   * hook there, but the next task comes exactly then: a message posted to ourselves, or the next
   * callback's guard() if that task comes first.
   */
  nextTick(fn: () => void): void {
    this.ticks.push(this.asyncContext.bindCallback(fn));
    this.ref();
    if (this.ticksScheduled) return;
    this.ticksScheduled = true;
    this.tickTask.port2.postMessage(null);
  }

  runTicks(): void {
    this.ticksScheduled = false;
    while (this.ticks.length > 0 && !this.stopped) {
      const tick = this.ticks.shift()!;
      this.depth += 1;
      try {
        tick();
      } catch (error) {
        this.onError(error);
      } finally {
        this.depth -= 1;
        this.unref();
      }
    }
  }

  /** Checks after pending microtasks whether anything keeps the program alive. */
  checkIdle(): void {
    if (this.idleScheduled || this.stopped) return;
    this.idleScheduled = true;
    // Two turns: the browser reports a promise rejection nobody handled in a task of its own,
    // queued after the current one; it must reach the program before the program ends.
    realSetTimeout(() => {
      if (this.refs > 0 || this.stopped) {
        this.idleScheduled = false;
        return;
      }
      realSetTimeout(() => {
        this.idleScheduled = false;
        if (this.refs <= 0 && !this.stopped) this.onIdle();
      }, 0);
    }, 0);
  }

  stop(): void {
    this.stopped = true;
    this.tickTask.port1.close();
    this.immediateTask.port1.close();
  }

  get isStopped(): boolean {
    return this.stopped;
  }
}

let nextTimerId = 1;

export class Timeout {
  private handle: ReturnType<typeof setTimeout> | undefined;
  private referenced = true;
  private active = false;
  readonly id = nextTimerId++;

  constructor(
    private readonly loop: EventLoop,
    private readonly callback: (...args: unknown[]) => unknown,
    private readonly ms: number,
    private readonly args: unknown[],
    private readonly repeat: boolean,
    private readonly registry: Map<number, Timeout>,
  ) {
    this.start();
  }

  private start(): void {
    this.active = true;
    this.registry.set(this.id, this);
    if (this.referenced) this.loop.ref();
    this.handle = realSetTimeout(() => this.fire(), this.ms);
  }

  private fire(): void {
    if (!this.repeat) this.release();
    this.loop.guard(this.callback, ...this.args);
    if (this.repeat && this.active) this.handle = realSetTimeout(() => this.fire(), this.ms);
  }

  private release(): void {
    if (!this.active) return;
    this.active = false;
    this.registry.delete(this.id);
    if (this.referenced) this.loop.unref();
  }

  close(): this {
    if (this.handle !== undefined) realClearTimeout(this.handle);
    this.release();
    return this;
  }

  ref(): this {
    if (!this.referenced && this.active) this.loop.ref();
    this.referenced = true;
    return this;
  }

  unref(): this {
    if (this.referenced && this.active) this.loop.unref();
    this.referenced = false;
    return this;
  }

  hasRef(): boolean {
    return this.referenced;
  }

  refresh(): this {
    if (this.active) {
      if (this.handle !== undefined) realClearTimeout(this.handle);
      this.handle = realSetTimeout(() => this.fire(), this.ms);
    }
    return this;
  }

  [Symbol.toPrimitive](): number {
    return this.id;
  }
}

/** Node's Immediate: queued on the loop's immediate task; ref/unref/hasRef as a Timeout's. */
export class Immediate {
  private referenced = true;
  private pending = true;

  constructor(
    private readonly loop: EventLoop,
    private readonly callback: (...args: unknown[]) => unknown,
    private readonly args: unknown[],
  ) {
    loop.ref();
    loop.queueImmediate(() => {
      if (!this.pending) return;
      this.release();
      loop.guard(this.callback, ...this.args);
    });
  }

  private release(): void {
    if (!this.pending) return;
    this.pending = false;
    if (this.referenced) this.loop.unref();
  }

  close(): void {
    this.release();
  }

  ref(): this {
    if (!this.referenced && this.pending) this.loop.ref();
    this.referenced = true;
    return this;
  }

  unref(): this {
    if (this.referenced && this.pending) this.loop.unref();
    this.referenced = false;
    return this;
  }

  hasRef(): boolean {
    return this.referenced;
  }
}

export interface NodeTimers {
  setTimeout(callback: (...args: unknown[]) => unknown, ms?: number, ...args: unknown[]): Timeout;
  setInterval(callback: (...args: unknown[]) => unknown, ms?: number, ...args: unknown[]): Timeout;
  setImmediate(callback: (...args: unknown[]) => unknown, ...args: unknown[]): Immediate;
  clearTimeout(timer: unknown): void;
  clearInterval(timer: unknown): void;
  clearImmediate(timer: unknown): void;
}

export function nodeTimers(loop: EventLoop): NodeTimers {
  const registry = new Map<number, Timeout>();
  const delay = (ms: unknown) => {
    const n = Number(ms);
    return Number.isFinite(n) && n >= 1 ? Math.min(n, 2_147_483_647) : 1;
  };
  const check = (callback: unknown) => {
    if (typeof callback !== "function") {
      const error = new TypeError(`The "callback" argument must be of type function. Received ${typeof callback}`);
      (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_TYPE";
      throw error;
    }
  };
  const clear = (timer: unknown) => {
    if (timer instanceof Timeout || timer instanceof Immediate) timer.close();
    else if (typeof timer === "number" || typeof timer === "string") registry.get(Number(timer))?.close();
  };
  return {
    setTimeout(callback, ms, ...args) {
      check(callback);
      return new Timeout(loop, loop.asyncContext.bindCallback(callback), delay(ms), args, false, registry);
    },
    setInterval(callback, ms, ...args) {
      check(callback);
      return new Timeout(loop, loop.asyncContext.bindCallback(callback), delay(ms), args, true, registry);
    },
    setImmediate(callback, ...args) {
      check(callback);
      return new Immediate(loop, loop.asyncContext.bindCallback(callback), args);
    },
    clearTimeout: clear,
    clearInterval: clear,
    clearImmediate: clear,
  };
}
