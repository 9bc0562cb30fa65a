// Native packages and the WebAssembly builds that stand in for them in the browser runtime, as
// WebContainer does: the runtime runs no native code (.node files, platform binaries), so when a
// package asks for its native build for a platform, the module resolver gives it the published
// wasm build instead, and npm installs that build in place of the platform packages it skips.
// A table, not a library: which wasm package matches which native one is each project's choice.

const PLATFORMS = "(?:linux|darwin|win32|freebsd|android|openharmony|sunos|aix|netbsd|openbsd)";

/** One native family: the platform packages' names, and the wasm build (a package name, or a file inside one) that replaces them. */
interface Substitution {
  /** Matches the platform package's name (e.g. "@rolldown/binding-linux-x64-gnu"). */
  native: RegExp;
  /** The package that replaces it (installed by npm at the platform package's version). */
  wasmPackage(match: RegExpMatchArray): string;
  /** What require() of the platform package resolves to instead (defaults to the wasm package). */
  wasmSpecifier?(match: RegExpMatchArray): string;
  /** npm adds the wasm package itself (it is not among the native package's optional dependencies). */
  added?: boolean;
}

const SUBSTITUTIONS: Substitution[] = [
  // Lightning CSS: lightningcss-<platform> → lightningcss-wasm (the same API, synchronous, over napi-wasm).
  { native: new RegExp(`^lightningcss-${PLATFORMS}-[a-z0-9-]+$`), wasmPackage: () => "lightningcss-wasm", added: true },
  // Rollup 4: @rollup/rollup-<platform> → @rollup/wasm-node's own native.js (the same exports: parse, parseAsync, xxhash*).
  {
    native: new RegExp(`^@rollup/rollup-${PLATFORMS}-[a-z0-9-]+$`),
    wasmPackage: () => "@rollup/wasm-node",
    wasmSpecifier: () => "@rollup/wasm-node/dist/native.js",
    added: true,
  },
  // napi-rs packages (Rolldown's binding, Tailwind's oxide, ...): <name>-<platform> → <name>-wasm32-wasi.
  { native: new RegExp(`^((?:@[a-z0-9._-]+/)?[a-z0-9._-]+)-${PLATFORMS}-[a-z0-9-]+$`), wasmPackage: (match) => `${match[1]}-wasm32-wasi` },
];

export interface NativeSubstitute {
  /** The wasm package to install. */
  wasmPackage: string;
  /** The specifier to resolve in place of the native one. */
  specifier: string;
  /** npm must add the wasm package (napi-rs packages list theirs among their optional dependencies). */
  added: boolean;
}

/** The wasm build that stands in for a native platform package, or undefined when the name is not one. */
export function wasmSubstituteFor(packageName: string): NativeSubstitute | undefined {
  for (const substitution of SUBSTITUTIONS) {
    const match = packageName.match(substitution.native);
    if (!match) continue;
    const wasmPackage = substitution.wasmPackage(match);
    return { wasmPackage, specifier: substitution.wasmSpecifier?.(match) ?? wasmPackage, added: substitution.added ?? false };
  }
  return undefined;
}

/** The package a file in node_modules belongs to ("/w/node_modules/@a/b/x.node" → "@a/b"), or undefined. */
export function packageOfFile(path: string): string | undefined {
  const index = path.lastIndexOf("/node_modules/");
  if (index < 0) return undefined;
  const parts = path.slice(index + "/node_modules/".length).split("/");
  return parts[0]?.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * The one-line error for a native module (a .node file) the browser runtime cannot load. Node's
 * code for a failed dlopen, so a package's loader that tries other builds goes on to them.
 */
export function nativeModuleError(filename: string): Error & { code: string } {
  const owner = packageOfFile(filename);
  const name = filename.slice(filename.lastIndexOf("/") + 1);
  const what = owner ? `${owner} needs its native module ${name}` : `${filename} is a native module`;
  const error = new Error(`${what}, and the browser runtime runs no native code; run this project with WebContainer.`) as Error & { code: string };
  error.code = "ERR_DLOPEN_FAILED";
  return error;
}
