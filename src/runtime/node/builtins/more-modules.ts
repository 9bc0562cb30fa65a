// Built-ins written here because the platform or npm has no port that fits a sandboxed worker:
// async_hooks (over the event loop's AsyncContext), diagnostics_channel (Node's API in plain
// JavaScript: the npm polyfill is years behind Node 20's), perf_hooks' histograms, dns (lookups
// refused, localhost aside), tty, and domain (its error routing: the old API some packages load).
import events from "events/";
import type { AsyncContext } from "../async-context";

// ---- async_hooks ---------------------------------------------------------------------------

export function createAsyncHooks(context: AsyncContext): Record<string, unknown> {
  class AsyncLocalStorage<T> {
    private enabled = true;
    constructor() {
      context.used = true;
    }
    static bind<F extends (...args: unknown[]) => unknown>(fn: F): F {
      context.used = true;
      return context.bind(fn) as F;
    }
    static snapshot() {
      context.used = true;
      return context.bind(<R>(fn: (...args: unknown[]) => R, ...args: unknown[]) => fn(...args));
    }
    getStore(): T | undefined {
      return this.enabled ? (context.current.get(this) as T | undefined) : undefined;
    }
    run<R>(store: T, fn: (...args: unknown[]) => R, ...args: unknown[]): R {
      this.enabled = true;
      const frame = new Map(context.current);
      frame.set(this, store);
      return context.runIn(frame, () => fn(...args));
    }
    exit<R>(fn: (...args: unknown[]) => R, ...args: unknown[]): R {
      const frame = new Map(context.current);
      frame.delete(this);
      return context.runIn(frame, () => fn(...args));
    }
    enterWith(store: T): void {
      this.enabled = true;
      const frame = new Map(context.current);
      frame.set(this, store);
      context.current = frame;
    }
    disable(): void {
      this.enabled = false;
      const frame = new Map(context.current);
      frame.delete(this);
      context.current = frame;
    }
  }
  let nextId = 2;
  class AsyncResource {
    private readonly frame = context.current;
    private readonly id = nextId++;
    constructor(readonly type: string, private readonly options: { triggerAsyncId?: number } | number = {}) {
      context.used = true;
    }
    static bind<F extends (...args: unknown[]) => unknown>(fn: F, type = "bound-anonymous-fn", thisArg?: unknown): F {
      return new AsyncResource(type).bind(fn, thisArg);
    }
    runInAsyncScope<R>(fn: (...args: unknown[]) => R, thisArg?: unknown, ...args: unknown[]): R {
      return context.runSync(this.frame, () => fn.apply(thisArg, args));
    }
    bind<F extends (...args: unknown[]) => unknown>(fn: F, thisArg?: unknown): F {
      const run = (thisValue: unknown, args: unknown[]) => this.runInAsyncScope(fn, thisArg === undefined ? thisValue : thisArg, ...args);
      const bound = function (this: unknown, ...args: unknown[]) {
        return run(this, args);
      };
      return Object.defineProperties(bound, { length: { value: fn.length }, asyncResource: { value: this, enumerable: true, writable: true } }) as unknown as F;
    }
    emitDestroy(): this {
      return this;
    }
    asyncId(): number {
      return this.id;
    }
    triggerAsyncId(): number {
      return typeof this.options === "number" ? this.options : (this.options.triggerAsyncId ?? 1);
    }
  }
  // No async ids are tracked: hooks are accepted, enabled and disabled, and never called.
  const createHook = (callbacks: object) => {
    if (callbacks === null || typeof callbacks !== "object") throw Object.assign(new TypeError('The "callbacks" argument must be of type object.'), { code: "ERR_INVALID_ARG_TYPE" });
    const hook = { enable: () => hook, disable: () => hook };
    return hook;
  };
  return {
    AsyncLocalStorage,
    AsyncResource,
    createHook,
    executionAsyncId: () => 1,
    triggerAsyncId: () => 0,
    executionAsyncResource: () => ({}),
    asyncWrapProviders: Object.freeze({ NONE: 0, DIRHANDLE: 1, DNSCHANNEL: 2, FSEVENTWRAP: 7, FSREQCALLBACK: 8, PROMISE: 29, TIMERWRAP: 43, TTYWRAP: 44 }),
  };
}

// ---- diagnostics_channel -------------------------------------------------------------------

type Subscriber = (message: unknown, name: string | symbol) => void;

class Channel {
  private subscribers: Subscriber[] = [];
  private stores = new Map<{ run: (store: unknown, fn: () => unknown) => unknown }, ((message: unknown) => unknown) | undefined>();
  constructor(readonly name: string | symbol) {}
  get hasSubscribers(): boolean {
    return this.subscribers.length > 0 || this.stores.size > 0;
  }
  subscribe(subscription: Subscriber): void {
    this.subscribers = [...this.subscribers, subscription];
  }
  unsubscribe(subscription: Subscriber): boolean {
    const index = this.subscribers.indexOf(subscription);
    if (index === -1) return false;
    this.subscribers = this.subscribers.filter((_, i) => i !== index);
    return true;
  }
  bindStore(store: { run: (store: unknown, fn: () => unknown) => unknown }, transform?: (message: unknown) => unknown): void {
    this.stores.set(store, transform);
  }
  unbindStore(store: { run: (store: unknown, fn: () => unknown) => unknown }): boolean {
    return this.stores.delete(store);
  }
  publish(message: unknown): void {
    for (const subscriber of this.subscribers) {
      try {
        subscriber(message, this.name);
      } catch (error) {
        // As in Node: a subscriber's throw does not stop the publisher; it surfaces as uncaught later.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
  runStores<R>(message: unknown, fn: (...args: unknown[]) => R, thisArg?: unknown, ...args: unknown[]): R {
    let run = () => {
      this.publish(message);
      return fn.apply(thisArg, args);
    };
    for (const [store, transform] of this.stores) {
      const inner = run;
      run = () => store.run(transform ? transform(message) : message, inner) as R;
    }
    return run();
  }
}

interface AsyncResourceLike {
  runInAsyncScope<R>(fn: () => R): R;
  emitDestroy(): unknown;
  asyncId(): number;
  triggerAsyncId(): number;
}

/**
 * events.EventEmitterAsyncResource (Node 17.4+; piscina's and tinypool's pools extend it), which
 * the npm port of events lacks: an EventEmitter whose listeners run in the async scope it was made in.
 */
export function createEventEmitterAsyncResource(AsyncResource: new (type: string, options?: object) => AsyncResourceLike) {
  const EventEmitter = events as unknown as { new (options?: object): NodeJS.EventEmitter };
  return class EventEmitterAsyncResource extends EventEmitter {
    readonly #resource: AsyncResourceLike;
    constructor(options: { name?: string; triggerAsyncId?: number; requireManualDestroy?: boolean; captureRejections?: boolean } = {}) {
      super(options);
      this.#resource = new AsyncResource(options.name ?? new.target.name, options);
      Object.defineProperty(this.#resource, "eventEmitter", { value: this });
    }
    override emit(event: string | symbol, ...args: unknown[]): boolean {
      return this.#resource.runInAsyncScope(() => super.emit(event, ...args));
    }
    emitDestroy(): void {
      this.#resource.emitDestroy();
    }
    get asyncId(): number {
      return this.#resource.asyncId();
    }
    get triggerAsyncId(): number {
      return this.#resource.triggerAsyncId();
    }
    get asyncResource(): AsyncResourceLike {
      return this.#resource;
    }
  };
}

export function createDiagnosticsChannel(): Record<string, unknown> {
  const channels = new Map<string | symbol, Channel>();
  const channel = (name: string | symbol) => {
    if (typeof name !== "string" && typeof name !== "symbol") throw Object.assign(new TypeError(`The "channel" argument must be one of type string or symbol. Received ${typeof name}`), { code: "ERR_INVALID_ARG_TYPE" });
    let found = channels.get(name);
    if (!found) channels.set(name, (found = new Channel(name)));
    return found;
  };
  const tracingChannel = (nameOrChannels: string | Record<string, Channel>) => {
    const names = ["start", "end", "asyncStart", "asyncEnd", "error"] as const;
    const parts = Object.fromEntries(names.map((part) => [part, typeof nameOrChannels === "string" ? channel(`tracing:${nameOrChannels}:${part}`) : nameOrChannels[part]!])) as Record<(typeof names)[number], Channel>;
    return {
      ...parts,
      get hasSubscribers() {
        return names.some((part) => parts[part].hasSubscribers);
      },
      subscribe: (handlers: Partial<Record<(typeof names)[number], Subscriber>>) => {
        for (const part of names) if (handlers[part]) parts[part].subscribe(handlers[part]);
      },
      unsubscribe: (handlers: Partial<Record<(typeof names)[number], Subscriber>>) => names.every((part) => !handlers[part] || parts[part].unsubscribe(handlers[part])),
      traceSync<R>(fn: (...args: unknown[]) => R, message: Record<string, unknown> = {}, thisArg?: unknown, ...args: unknown[]): R {
        return parts.start.runStores(message, () => {
          try {
            const result = fn.apply(thisArg, args);
            message.result = result;
            return result;
          } catch (error) {
            message.error = error;
            parts.error.publish(message);
            throw error;
          } finally {
            parts.end.publish(message);
          }
        });
      },
      tracePromise<R>(fn: (...args: unknown[]) => Promise<R>, message: Record<string, unknown> = {}, thisArg?: unknown, ...args: unknown[]): Promise<R> {
        return parts.start.runStores(message, () => {
          try {
            return Promise.resolve(fn.apply(thisArg, args)).then(
              (result) => {
                message.result = result;
                parts.asyncStart.publish(message);
                parts.asyncEnd.publish(message);
                return result;
              },
              (error: unknown) => {
                message.error = error;
                parts.error.publish(message);
                parts.asyncStart.publish(message);
                parts.asyncEnd.publish(message);
                throw error;
              },
            );
          } finally {
            parts.end.publish(message);
          }
        });
      },
      traceCallback(fn: (...args: unknown[]) => unknown, position = -1, message: Record<string, unknown> = {}, thisArg?: unknown, ...args: unknown[]) {
        const at = position < 0 ? args.length + position : position;
        const callback = args[at] as (...values: unknown[]) => unknown;
        args[at] = function (this: unknown, error: unknown, result: unknown) {
          if (error) {
            message.error = error;
            parts.error.publish(message);
          } else message.result = result;
          parts.asyncStart.publish(message);
          try {
            return callback.apply(this, [error, result]);
          } finally {
            parts.asyncEnd.publish(message);
          }
        };
        return parts.start.runStores(message, () => {
          try {
            return fn.apply(thisArg, args);
          } finally {
            parts.end.publish(message);
          }
        });
      },
    };
  };
  return {
    channel,
    hasSubscribers: (name: string | symbol) => channels.get(name)?.hasSubscribers ?? false,
    subscribe: (name: string | symbol, subscription: Subscriber) => channel(name).subscribe(subscription),
    unsubscribe: (name: string | symbol, subscription: Subscriber) => channel(name).unsubscribe(subscription),
    tracingChannel,
    Channel,
  };
}

// ---- perf_hooks ----------------------------------------------------------------------------

class RecordableHistogram {
  private values: number[] = [];
  private lastDelta: number | undefined;
  exceeds = 0;
  get count(): number {
    return this.values.length;
  }
  get min(): number {
    return this.values.length ? Math.min(...this.values) : 9223372036854776000;
  }
  get max(): number {
    return this.values.length ? Math.max(...this.values) : 0;
  }
  get mean(): number {
    return this.values.length ? this.values.reduce((a, b) => a + b, 0) / this.values.length : NaN;
  }
  get stddev(): number {
    if (!this.values.length) return NaN;
    const mean = this.mean;
    return Math.sqrt(this.values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / this.values.length);
  }
  get countBigInt(): bigint { return BigInt(this.count); }
  get minBigInt(): bigint { return BigInt(Math.round(this.min)); }
  get maxBigInt(): bigint { return BigInt(Math.round(this.max)); }
  get exceedsBigInt(): bigint { return BigInt(this.exceeds); }
  percentile(p: number): number {
    if (!this.values.length) return 0;
    const sorted = [...this.values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  }
  percentileBigInt(p: number): bigint { return BigInt(Math.round(this.percentile(p))); }
  get percentiles(): Map<number, number> {
    if (!this.values.length) return new Map([[100, 0]]);
    return new Map([0, 50, 75, 87.5, 93.75, 100].map((p) => [p, this.percentile(p)]));
  }
  get percentilesBigInt(): Map<number, bigint> {
    return new Map([...this.percentiles].map(([p, v]) => [p, BigInt(Math.round(v))]));
  }
  record(value: number | bigint): void {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 1) throw Object.assign(new RangeError(`The value of "val" is out of range. It must be >= 1 && <= 9007199254740991. Received ${n}`), { code: "ERR_OUT_OF_RANGE" });
    this.values.push(n);
  }
  recordDelta(): void {
    const now = performance.now();
    if (this.lastDelta !== undefined) this.values.push(Math.max(1, Math.round((now - this.lastDelta) * 1e6)));
    this.lastDelta = now;
  }
  reset(): void {
    this.values = [];
    this.exceeds = 0;
  }
  toJSON() {
    return { count: this.count, min: this.min, max: this.max, mean: this.mean, exceeds: this.exceeds, stddev: this.stddev, percentiles: Object.fromEntries(this.percentiles) };
  }
}

/** The event loop's delay, sampled every `resolution` ms in nanoseconds as Node records it; the sampler never keeps the program running. */
class IntervalHistogram extends RecordableHistogram {
  private timer: ReturnType<typeof setInterval> | undefined;
  constructor(private readonly resolution: number) {
    super();
  }
  enable(): boolean {
    if (this.timer) return false;
    let expected = performance.now() + this.resolution;
    this.timer = setInterval(() => {
      const now = performance.now();
      this.record(Math.max(1, Math.round((now - expected + this.resolution) * 1e6)));
      expected = now + this.resolution;
    }, this.resolution);
    (this.timer as { unref?: () => void }).unref?.();
    return true;
  }
  disable(): boolean {
    if (!this.timer) return false;
    clearInterval(this.timer);
    this.timer = undefined;
    return true;
  }
}

export function createPerfHooks(): Record<string, unknown> {
  const timerify = <F extends (...args: unknown[]) => unknown>(fn: F): F => {
    const timed = function (this: unknown, ...args: unknown[]) {
      const start = performance.now();
      const result = new.target ? Reflect.construct(fn, args, new.target) : fn.apply(this, args);
      performance.measure?.(`timerify ${fn.name || "anonymous"}`, { start, end: performance.now() });
      return result;
    };
    Object.defineProperties(timed, { name: { value: `timerified ${fn.name}` }, length: { value: fn.length } });
    return timed as unknown as F;
  };
  return {
    performance: Object.assign(globalThis.performance, { timerify, eventLoopUtilization: () => ({ idle: 0, active: 0, utilization: 0 }) }),
    Performance: globalThis.Performance,
    PerformanceEntry: globalThis.PerformanceEntry,
    PerformanceMark: globalThis.PerformanceMark,
    PerformanceMeasure: globalThis.PerformanceMeasure,
    PerformanceObserver: globalThis.PerformanceObserver,
    PerformanceObserverEntryList: globalThis.PerformanceObserverEntryList,
    PerformanceResourceTiming: globalThis.PerformanceResourceTiming,
    monitorEventLoopDelay: (options: { resolution?: number } = {}) => new IntervalHistogram(Math.max(1, options.resolution ?? 10)),
    createHistogram: () => new RecordableHistogram(),
    constants: { NODE_PERFORMANCE_GC_MAJOR: 4, NODE_PERFORMANCE_GC_MINOR: 1, NODE_PERFORMANCE_GC_INCREMENTAL: 8, NODE_PERFORMANCE_GC_WEAKCB: 16, NODE_PERFORMANCE_GC_FLAGS_NO: 0, NODE_PERFORMANCE_GC_FLAGS_CONSTRUCT_RETAINED: 2, NODE_PERFORMANCE_GC_FLAGS_FORCED: 4, NODE_PERFORMANCE_GC_FLAGS_SYNCHRONOUS_PHANTOM_PROCESSING: 8, NODE_PERFORMANCE_GC_FLAGS_ALL_AVAILABLE_GARBAGE: 16, NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY: 32, NODE_PERFORMANCE_GC_FLAGS_SCHEDULE_IDLE: 64 },
  };
}

// ---- dns -----------------------------------------------------------------------------------

const DNS_CODES = ["NODATA", "FORMERR", "SERVFAIL", "NOTFOUND", "NOTIMP", "REFUSED", "BADQUERY", "BADNAME", "BADFAMILY", "BADRESP", "CONNREFUSED", "TIMEOUT", "EOF", "FILE", "NOMEM", "DESTRUCTION", "BADSTR", "BADFLAGS", "NONAME", "BADHINTS", "NOTINITIALIZED", "LOADIPHLPAPI", "ADDRGETNETWORKPARAMS", "CANCELLED"];
const RESOLVERS = ["resolve", "resolve4", "resolve6", "resolveAny", "resolveCaa", "resolveCname", "resolveMx", "resolveNaptr", "resolveNs", "resolvePtr", "resolveSoa", "resolveSrv", "resolveTxt", "reverse"];

function dnsError(syscall: string, hostname: string): Error {
  return Object.assign(new Error(`${syscall} ENOTFOUND ${hostname}: the browser runtime has no DNS (only localhost resolves); WebContainer runs programs that look up hosts.`), { errno: -3008, code: "ENOTFOUND", syscall, hostname });
}

type LookupOptions = { family?: number | string; all?: boolean } | number;
type LookupResult = { address: string; family: number };

function lookupResult(hostname: string, options: LookupOptions | undefined): LookupResult[] {
  const family = typeof options === "number" ? options : Number(String(options?.family ?? 0).replace("IPv", ""));
  if (hostname === "localhost" || /\.localhost$/.test(hostname)) return family === 6 ? [{ address: "::1", family: 6 }] : [{ address: "127.0.0.1", family: 4 }];
  if (/^(?:\d{1,3}\.){3}\d{1,3}$/.test(hostname)) return [{ address: hostname, family: 4 }];
  if (hostname.includes(":")) return [{ address: hostname, family: 6 }];
  throw dnsError("getaddrinfo", hostname);
}

export function createDns(schedule: (callback: () => void) => void): Record<string, unknown> {
  const codes = Object.fromEntries(DNS_CODES.map((code) => [code, `E${code}`]));
  const promises: Record<string, unknown> = {
    lookup: (hostname: string, options?: LookupOptions) => {
      try {
        const results = lookupResult(hostname, options);
        return Promise.resolve(typeof options === "object" && options.all ? results : results[0]);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    lookupService: (address: string) => Promise.reject(dnsError("getnameinfo", address)),
    getDefaultResultOrder: () => "verbatim",
    setDefaultResultOrder: () => undefined,
    setServers: () => undefined,
    getServers: () => [],
    ...codes,
  };
  for (const name of RESOLVERS) promises[name] = (hostname: string) => Promise.reject(dnsError(name === "reverse" ? "getHostByAddr" : "query", hostname));
  class Resolver {
    cancel(): void {}
    setLocalAddress(): void {}
    getServers = () => [];
    setServers = () => undefined;
  }
  const callbacks: Record<string, unknown> = {
    lookup: (hostname: string, options: LookupOptions | ((...args: unknown[]) => void), maybeCallback?: (...args: unknown[]) => void) => {
      const callback = (typeof options === "function" ? options : maybeCallback)!;
      const opts = typeof options === "function" ? undefined : options;
      let results: LookupResult[];
      try {
        results = lookupResult(hostname, opts);
      } catch (error) {
        schedule(() => callback(error));
        return {};
      }
      schedule(() => (typeof opts === "object" && opts.all ? callback(null, results) : callback(null, results[0]!.address, results[0]!.family)));
      return {};
    },
    lookupService: (address: string, _port: number, callback: (error: Error) => void) => schedule(() => callback(dnsError("getnameinfo", address))),
    getDefaultResultOrder: () => "verbatim",
    setDefaultResultOrder: () => undefined,
    setServers: () => undefined,
    getServers: () => [],
    ADDRCONFIG: 1024,
    ALL: 256,
    V4MAPPED: 2048,
    ...codes,
  };
  for (const name of RESOLVERS) {
    callbacks[name] = (hostname: string, ...rest: unknown[]) => {
      const callback = rest[rest.length - 1] as (error: Error) => void;
      schedule(() => callback(dnsError(name === "reverse" ? "getHostByAddr" : "query", hostname)));
    };
    Object.assign(Resolver.prototype, { [name]: callbacks[name] });
  }
  const PromisesResolver = class extends Resolver {};
  for (const name of RESOLVERS) Object.assign(PromisesResolver.prototype, { [name]: promises[name] });
  promises.Resolver = PromisesResolver;
  callbacks.Resolver = Resolver;
  callbacks.promises = promises;
  return callbacks;
}

// ---- tty -----------------------------------------------------------------------------------

export function createTty(isTerminal: (fd: number) => boolean): Record<string, unknown> {
  const notATerminal = () => Object.assign(new Error("The browser runtime's tty streams are process.stdin/stdout/stderr: a new tty stream needs Node.js, which the WebContainer runtime runs."), { code: "ERR_WEBCODE_NEEDS_WEBCONTAINER" });
  class ReadStream {
    constructor() {
      throw notATerminal();
    }
  }
  class WriteStream {
    constructor() {
      throw notATerminal();
    }
  }
  return { isatty: (fd: unknown) => Number.isInteger(fd) && isTerminal(fd as number), ReadStream, WriteStream };
}

// ---- domain --------------------------------------------------------------------------------

export function createDomain(): Record<string, unknown> {
  const stack: Domain[] = [];
  class Domain extends events {
    members: unknown[] = [];
    enter(): void {
      stack.push(this);
      domainModule.active = this;
    }
    exit(): void {
      const index = stack.lastIndexOf(this);
      if (index !== -1) stack.splice(index);
      domainModule.active = stack[stack.length - 1];
    }
    add(member: unknown): void {
      this.members.push(member);
    }
    remove(member: unknown): void {
      this.members = this.members.filter((item) => item !== member);
    }
    run<R>(fn: (...args: unknown[]) => R, ...args: unknown[]): R | undefined {
      this.enter();
      try {
        return fn.apply(this, args);
      } catch (error) {
        if (this.listenerCount("error") === 0) throw error;
        this.emit("error", Object.assign(error as object, { domain: this, domainThrown: true }));
        return undefined;
      } finally {
        this.exit();
      }
    }
    bind<F extends (...args: unknown[]) => unknown>(fn: F): F {
      const run = (thisValue: unknown, args: unknown[]) => this.run(() => fn.apply(thisValue, args));
      return function (this: unknown, ...args: unknown[]) {
        return run(this, args);
      } as F;
    }
    intercept<F extends (...args: unknown[]) => unknown>(fn: F): (...args: unknown[]) => unknown {
      const run = (thisValue: unknown, error: unknown, args: unknown[]) => {
        if (error) {
          this.emit("error", error);
          return undefined;
        }
        return this.run(() => fn.apply(thisValue, args));
      };
      return function (this: unknown, error: unknown, ...args: unknown[]) {
        return run(this, error, args);
      };
    }
    dispose(): void {
      this.exit();
    }
  }
  const domainModule: Record<string, unknown> = { _stack: stack, Domain, create: () => new Domain(), createDomain: () => new Domain(), active: undefined };
  return domainModule;
}
