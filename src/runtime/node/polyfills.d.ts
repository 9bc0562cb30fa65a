// Types for the Node built-in polyfills that ship none: they are the npm copies of Node's own modules.
declare module "path-browserify" {
  import path from "path";
  export = path;
}
declare module "readable-stream" {
  import stream from "stream";
  export = stream;
}
declare module "querystring-es3" {
  import querystring from "querystring";
  export = querystring;
}
// The trailing slash picks the npm package over Node's own module (in tests run under Node too).
declare module "buffer/" {
  export * from "buffer";
}
declare module "events/" {
  import events from "events";
  export = events;
}
declare module "util/" {
  import util from "util";
  export = util;
}
declare module "assert/" {
  import assert from "assert";
  export = assert;
}
declare module "url/" {
  export * from "url";
}
// scripts/gzipped-base64-plugin.ts: a file's bytes, gzipped, as base64.
declare module "*?gzip-base64" {
  const base64: string;
  export default base64;
}
