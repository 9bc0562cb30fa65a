// node:vm as far as one realm allows: a worker has no second realm (no iframe), so a "context" is
// the object itself, and code run in it sees the object's properties as its globals through a
// `with` over a Proxy: reads and assignments of names the realm's globals do not have (and of the
// object's own names) go to the object, `this` and `globalThis` are the object. What differs from
// Node: built-ins (Array, Object, ...) are this realm's, so instanceof works across contexts;
// function declarations at the top of the code stay local to it instead of landing on the object;
// `timeout`, `breakOnSigint` and `microtaskMode` are not applied; measureMemory is refused.
import { NeedsWebContainerError } from "./unsupported";

type Context = Record<PropertyKey, unknown>;
interface RunOptions {
  filename?: string;
}

const CODE = "__webcode_vm_code";
const SCOPE = "__webcode_vm_scope";
const contexts = new WeakMap<object, object>();

function withFilename(code: string, options?: RunOptions | string): string {
  const filename = typeof options === "string" ? options : options?.filename;
  return filename ? `${code}\n//# sourceURL=${filename}` : code;
}

// Sloppy mode on purpose: `with` is what gives the code the object's properties as globals.
const runWith = new Function(SCOPE, CODE, `with (${SCOPE}) { return eval(${CODE}); }`) as (scope: object, code: string) => unknown;

function scopeFor(context: Context): object {
  let scope = contexts.get(context);
  if (scope) return scope;
  const proxy: object = new Proxy(context, {
    has: (target, key) => {
      if (key === CODE || key === SCOPE || key === "eval") return false;
      if (key in target || key === "globalThis") return true;
      // A realm global (Array, Math, ...) is read from the realm; any other name is the context's.
      return !(typeof key === "string" && key in globalThis);
    },
    get: (target, key) => {
      if (key === Symbol.unscopables) return undefined;
      if (key === "globalThis" && !("globalThis" in target)) return proxy;
      return target[key as string];
    },
  });
  scope = proxy;
  contexts.set(context, scope);
  return scope;
}

function checkContext(context: unknown): Context {
  if (context === null || typeof context !== "object" || !contexts.has(context)) {
    throw Object.assign(new TypeError('The "contextifiedObject" argument must be an vm.Context'), { code: "ERR_INVALID_ARG_TYPE" });
  }
  return context as Context;
}

function createContext(context: Context = {}): Context {
  if (context === null || typeof context !== "object") throw Object.assign(new TypeError(`The "contextObject" argument must be of type object. Received ${context === null ? "null" : typeof context}`), { code: "ERR_INVALID_ARG_TYPE" });
  scopeFor(context);
  return context;
}

function runInContext(code: string, context: unknown, options?: RunOptions | string): unknown {
  const target = checkContext(context);
  return runWith.call(target, scopeFor(target), withFilename(String(code), options));
}

function runInThisContext(code: string, options?: RunOptions | string): unknown {
  return (0, eval)(withFilename(String(code), options));
}

class Script {
  private readonly code: string;
  constructor(code: string, options?: RunOptions | string) {
    this.code = withFilename(String(code), options);
    // Compiles now, so a syntax error is thrown by the constructor as in Node.
    new Function(this.code);
  }
  runInThisContext(): unknown {
    return (0, eval)(this.code);
  }
  runInContext(context: unknown): unknown {
    const target = checkContext(context);
    return runWith.call(target, scopeFor(target), this.code);
  }
  runInNewContext(context?: Context): unknown {
    return this.runInContext(createContext(context));
  }
  createCachedData(): Uint8Array {
    return new Uint8Array(0);
  }
}

export function createVm(): Record<string, unknown> {
  return {
    Script,
    createContext,
    createScript: (code: string, options?: RunOptions) => new Script(code, options),
    runInContext,
    runInNewContext: (code: string, context?: Context, options?: RunOptions | string) => runInContext(code, createContext(context), options),
    runInThisContext,
    isContext: (value: unknown) => value !== null && typeof value === "object" && contexts.has(value),
    compileFunction: (code: string, params: string[] = [], options?: { contextExtensions?: object[] }) => {
      if (options?.contextExtensions?.length) throw new NeedsWebContainerError("node:vm compileFunction() with contextExtensions");
      return new Function(...params, code);
    },
    measureMemory: () => Promise.reject(new NeedsWebContainerError("node:vm measureMemory()")),
    constants: { USE_MAIN_CONTEXT_DEFAULT_LOADER: Symbol("vm_dynamic_import_main_context_default"), DONT_CONTEXTIFY: Symbol("vm_context_no_contextify") },
  };
}
