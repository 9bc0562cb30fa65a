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
declare module "string_decoder/" {
  export { StringDecoder } from "string_decoder";
}
