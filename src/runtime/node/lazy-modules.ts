// Packages of the node runtime that only some programs need, loaded on first use instead of when
// the worker starts: a program's first run waits for the worker's start, and evaluating them all
// there (Node's util, assert and url ports with their polyfills, sucrase's tables) was most of it.
// rolldown bundles a require() in an ES module as the package's CommonJS wrapper, run when the
// require() is (Vitest's Node has require() too). What every program needs (buffer, events,
// readable-stream for process.stdout, node-inspect-extracted for console) stays a static import.
/* eslint-disable @typescript-eslint/no-require-imports -- the lazy loading above is the point */
import type assert from "assert/";
import type querystring from "querystring-es3";
import type * as sucraseApi from "sucrase";
import type * as url from "url/";
import type util from "util/";

function once<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: load() }).value;
}

export const assertModule = once(() => require("assert/") as typeof assert);
export const utilModule = once(() => require("util/") as typeof util);
export const urlModule = once(() => require("url/") as typeof url);
export const querystringModule = once(() => require("querystring-es3") as typeof querystring);
/** Node's own punycode is punycode.js 2 (in node_modules through url's dependency on it). */
export const punycodeModule = once(() => require("punycode/") as unknown);
/** util.parseArgs: the pkgjs polyfill, from which Node's own implementation was taken. */
export const parseArgsModule = once(() => require("@pkgjs/parseargs") as { parseArgs: (config: object) => unknown });
/** TypeScript stripping and ES module syntax (transform.ts), and locating syntax errors (syntax-error.ts). */
export const sucrase = once(() => require("sucrase") as typeof sucraseApi);
