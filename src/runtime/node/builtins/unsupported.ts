// What a built-in the browser runtime cannot run gives a program: a module that loads (libraries
// that require it and never use the missing part work) and whose functions and classes throw one
// line naming WebContainer when called.

export class NeedsWebContainerError extends Error {
  readonly code = "ERR_WEBCODE_NEEDS_WEBCONTAINER";
  constructor(what: string) {
    super(`${what} is not available in the browser runtime: it needs Node.js, which the WebContainer runtime runs.`);
  }
}
// Printed as Node prints its own errors ("Error: …" with the code below), not under our class name.
NeedsWebContainerError.prototype.name = "Error";

/** A function that throws the one line for `module.name` when called. */
export function unsupportedFunction(module: string, name: string): (...args: unknown[]) => never {
  const fn = () => {
    throw new NeedsWebContainerError(`node:${module} ${name}()`);
  };
  Object.defineProperty(fn, "name", { value: name });
  return fn;
}

/** A class whose constructor throws the one line (its prototype exists, for instanceof and subclassing checks). */
export function unsupportedClass(module: string, name: string): new (...args: unknown[]) => object {
  const cls = {
    [name]: class {
      constructor() {
        throw new NeedsWebContainerError(`node:${module} ${name}`);
      }
    },
  }[name]!;
  return cls;
}

/** A module object with the given functions and classes unsupported, plus the values that work anyway. */
export function unsupportedModule(module: string, names: { functions?: string[]; classes?: string[] }, values: Record<string, unknown> = {}): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const name of names.functions ?? []) result[name] = unsupportedFunction(module, name);
  for (const name of names.classes ?? []) result[name] = unsupportedClass(module, name);
  return Object.assign(result, values);
}
