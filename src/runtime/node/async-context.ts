// What AsyncLocalStorage stores travel with: the frame (one value per storage) current when a
// callback is scheduled is restored when it runs. The event loop binds timers, immediates and
// nextTick callbacks; a run() whose function returns a promise keeps its frame entered until the
// promise settles, which carries the store across `await` in that chain. A browser has no hook into
// `await` (no AsyncContext yet), so two chains that await while interleaved can see the store of
// the one entered last: the limit docs/architecture.md names.
type Frame = ReadonlyMap<object, unknown>;
const EMPTY: Frame = new Map();

export class AsyncContext {
  current: Frame = EMPTY;
  /** Set once a storage exists: until then callbacks are scheduled as they are (no wrapper). */
  used = false;

  bind<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    if (!this.used) return fn;
    const frame = this.current;
    const run = (thisArg: unknown, args: A): R => {
      const previous = this.current;
      this.current = frame;
      try {
        return fn.apply(thisArg, args);
      } finally {
        this.current = previous;
      }
    };
    return function (this: unknown, ...args: A): R {
      return run(this, args);
    };
  }

  /** Runs fn with frame entered; a returned promise keeps it entered until it settles. */
  runIn<R>(frame: Frame, fn: () => R): R {
    const previous = this.current;
    this.current = frame;
    let result: R;
    try {
      result = fn();
    } catch (error) {
      this.current = previous;
      throw error;
    }
    if (result instanceof Promise) {
      const leave = () => {
        if (this.current === frame) this.current = previous;
      };
      result.then(leave, leave);
    } else {
      this.current = previous;
    }
    return result;
  }
}
