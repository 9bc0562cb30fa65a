// Node's "base64url" encoding on the npm Buffer port (buffer@6 knows base64 but not its URL-safe
// form, which Node has had since 15: Vite's config makes its token with it). Its base64 decoder
// already reads "-" and "_", so decoding is base64's; encoding is base64 made URL-safe and unpadded.
// Patched once, on the port's class, which only the node runtime uses.
import { Buffer } from "buffer/";

const patched = Symbol.for("webcode.base64url");
const port = Buffer as unknown as { [patched]?: true; from: (...args: unknown[]) => Buffer; isEncoding(name: string): boolean; byteLength(value: unknown, encoding?: string): number };

if (!port[patched]) {
  port[patched] = true;
  const isUrl = (encoding: unknown) => typeof encoding === "string" && encoding.toLowerCase() === "base64url";
  const from = port.from;
  port.from = function (value: unknown, encoding?: unknown, length?: unknown) {
    return from.call(this, value, isUrl(encoding) ? "base64" : encoding, length);
  };
  const isEncoding = port.isEncoding;
  port.isEncoding = (name: string) => isUrl(name) || isEncoding(name);
  const byteLength = port.byteLength;
  port.byteLength = (value: unknown, encoding?: string) => byteLength(value, isUrl(encoding) ? "base64" : encoding);
  const prototype = Buffer.prototype as unknown as { toString(encoding?: string, start?: number, end?: number): string };
  const toString = prototype.toString;
  prototype.toString = function (this: Buffer, encoding?: string, start?: number, end?: number) {
    if (!isUrl(encoding)) return toString.call(this, encoding, start, end);
    return toString.call(this, "base64", start, end).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
}
