// What AsyncLocalStorage stores travel with: a frame (one value per storage). A browser has no hook
// into `await` (no AsyncContext yet), so the frame follows Node's "current execution" as closely as
// the event loop can: each callback the loop runs (timers, immediates, nextTick) enters the frame
// that was current when it was scheduled and leaves it entered for the promise reactions that
// callback causes (they run right after it, before the next callback); run() enters its frame for
// its function and, through a microtask queued before the function starts, for the `await`
// continuations the function queued. Known limit (docs/architecture.md): two chains that await
// while interleaved in the same turn can see the store of the one entered last.
type Frame = ReadonlyMap<object, unknown>;
const EMPTY: Frame = new Map();

export class AsyncContext {
  current: Frame = EMPTY;
  /** Set once a storage exists: until then callbacks are scheduled as they are (no wrapper). */
  used = false;

  /** For the loop's callbacks: enters the scheduling frame and leaves it entered for the microtasks that follow. */
  bindCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    if (!this.used) return fn;
    const frame = this.current;
    const enter = () => (this.current = frame);
    return function (this: unknown, ...args: A): R {
      enter();
      return fn.apply(this, args);
    };
  }

  /** For a function called synchronously later (AsyncLocalStorage.bind/snapshot): the frame only while it runs. */
  bind<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    const frame = this.current;
    const run = (thisArg: unknown, args: A): R => this.runSync(frame, () => fn.apply(thisArg, args));
    return function (this: unknown, ...args: A): R {
      return run(this, args);
    };
  }

  runSync<R>(frame: Frame, fn: () => R): R {
    const previous = this.current;
    this.current = frame;
    try {
      return fn();
    } finally {
      this.current = previous;
    }
  }

  /** Runs fn with frame entered, and its await continuations too (see the top of this file). */
  runIn<R>(frame: Frame, fn: () => R): R {
    const previous = this.current;
    // Queued before fn runs, so it comes before the continuations fn's awaits queue; it acts only
    // when fn turned out to be asynchronous.
    let pending = false;
    queueMicrotask(() => {
      if (pending) this.current = frame;
    });
    const result = this.runSync(frame, fn);
    if (result instanceof Promise) {
      pending = true;
      const leave = () => {
        if (this.current === frame) this.current = previous;
      };
      result.then(leave, leave);
    }
    return result;
  }
}
