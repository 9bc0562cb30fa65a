// Base64 (files inside an envelope) and base64url (the link fragment), strict on decode.

const STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function lookup(alphabet: string): Int16Array {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}
const STANDARD_LOOKUP = lookup(STANDARD);
const URL_LOOKUP = lookup(URL_SAFE);

function encode(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  const parts: string[] = [];
  let chunk = "";
  const n = bytes.length - (bytes.length % 3);
  for (let i = 0; i < n; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    chunk += alphabet[v >>> 18]! + alphabet[(v >>> 12) & 63]! + alphabet[(v >>> 6) & 63]! + alphabet[v & 63]!;
    if (chunk.length >= 65536) {
      parts.push(chunk);
      chunk = "";
    }
  }
  const rest = bytes.length - n;
  if (rest === 1) {
    const v = bytes[n]! << 16;
    chunk += alphabet[v >>> 18]! + alphabet[(v >>> 12) & 63]! + (pad ? "==" : "");
  } else if (rest === 2) {
    const v = (bytes[n]! << 16) | (bytes[n + 1]! << 8);
    chunk += alphabet[v >>> 18]! + alphabet[(v >>> 12) & 63]! + alphabet[(v >>> 6) & 63]! + (pad ? "=" : "");
  }
  parts.push(chunk);
  return parts.join("");
}

/** Decodes or returns undefined for any character outside the alphabet or an impossible length. */
function decode(text: string, table: Int16Array, padded: boolean): Uint8Array | undefined {
  let body = text;
  if (padded) {
    if (text.length % 4 !== 0) return undefined;
    if (body.endsWith("==")) body = body.slice(0, -2);
    else if (body.endsWith("=")) body = body.slice(0, -1);
  }
  if (body.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((body.length * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    const v = c < 128 ? table[c]! : -1;
    if (v < 0) return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 0xff;
    }
  }
  // Leftover bits must be zero, or the text was not produced by an encoder (tampered).
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

export const base64Encode = (bytes: Uint8Array): string => encode(bytes, STANDARD, true);
export const base64Decode = (text: string): Uint8Array | undefined => decode(text, STANDARD_LOOKUP, true);
export const base64UrlEncode = (bytes: Uint8Array): string => encode(bytes, URL_SAFE, false);
export const base64UrlDecode = (text: string): Uint8Array | undefined => decode(text, URL_LOOKUP, false);
