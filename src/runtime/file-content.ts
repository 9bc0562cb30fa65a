// What the workspace file service stores for a file: text as a string, other bytes as bytes, and
// how it compares and measures them.
import { bytesEqual, tryDecodeText } from "../base";

const BOM = [0xef, 0xbb, 0xbf];

/** Text stays a string; bytes become text when they are valid UTF-8 without NUL, else stay bytes. */
export function toStoredContent(data: string | Uint8Array): string | Uint8Array {
  if (typeof data === "string") return data;
  if (data.includes(0)) return data.slice();
  const text = tryDecodeText(data);
  if (text === undefined) return data.slice();
  // The decoder drops a leading byte-order mark; keep it so the bytes round-trip exactly.
  const bom = data.length >= 3 && data[0] === BOM[0] && data[1] === BOM[1] && data[2] === BOM[2];
  return bom ? "\uFEFF" + text : text;
}

export function sameContent(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  return bytesEqual(a, b);
}

/** UTF-8 byte length of a string without encoding it. */
export function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 4;
        i++;
      } else length += 3;
    } else length += 3;
  }
  return length;
}
