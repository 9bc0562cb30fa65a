// The runtime's worker bundle as the sandbox starts it: a classic script (Chromium starts no module
// worker from an opaque origin's blob URL), whose top-level declarations would be the worker's
// globals. A program's code is evaluated at global scope (indirect eval, as Node's module wrapper
// runs at the top), so the bundle's minified top-level names (`it`, `r`, `et` …) shadowed or
// clobbered the program's globals: mocha's `it`, set on the global object, was the bundle's
// `const it` in every test file ("it is not a function"). Wrapped in a function, they are local.
// Named as Node names its own code: a stack a program prints itself (mocha's failures) shows the
// runtime's frames as `node:internal/…`, as Node's show its internals, not as a blob: URL.
export const RUNTIME_SOURCE_URL = "node:internal/webcode-runtime";

/** `source` in a function scope of its own (sloppy, as the classic script it was). */
export function scopedScript(source: string): string {
  // The source's last line may be a line comment (a sourceMappingURL), hence the newline.
  return `(function () {\n${source}\n})();\n//# sourceURL=${RUNTIME_SOURCE_URL}\n`;
}
