// A tiny zip writer for tests: writes well-formed archives and, on request, hostile or broken ones
// (lying sizes and CRCs, symlinks, absolute and ../ names, overlapping entries, wrong counts).
import { deflateSync } from "fflate";
import { crc32 } from "../../src/base/crc32";

export interface BuildEntry {
  name: string;
  data?: Uint8Array | string;
  /** 0 = stored, 8 = deflate (default 8 when there is data). */
  method?: number;
  /** Raw bytes stored as the entry's data (instead of compressing `data`). */
  rawData?: Uint8Array;
  crc?: number;
  declaredSize?: number;
  declaredCompressedSize?: number;
  /** Unix mode for the high 16 bits of the external attributes (e.g. 0o120777 for a symlink). */
  unixMode?: number;
  /** Host system in "version made by" (3 = Unix, default; 0 = MS-DOS). */
  host?: number;
  flags?: number;
  /** Point this central entry at the local header of entry `n` (overlapping entries). */
  shareLocalWith?: number;
}

export interface BuildOptions {
  comment?: string;
  /** Declared entry count in the end record (default: the real count). */
  declaredCount?: number;
}

const text = new TextEncoder();

export function buildZip(entries: BuildEntry[], options: BuildOptions = {}): Uint8Array {
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  const offsets: number[] = [];
  let offset = 0;
  const localInfo: Array<{ compressed: Uint8Array; crc: number; size: number; method: number }> = [];

  for (const entry of entries) {
    const plain = typeof entry.data === "string" ? text.encode(entry.data) : (entry.data ?? new Uint8Array(0));
    const method = entry.method ?? (plain.length > 0 ? 8 : 0);
    const compressed = entry.rawData ?? (method === 8 ? deflateSync(plain) : plain);
    const crc = entry.crc ?? crc32(plain);
    const size = entry.declaredSize ?? plain.length;
    const csize = entry.declaredCompressedSize ?? compressed.length;
    const name = text.encode(entry.name);
    const flags = (entry.flags ?? 0) | (/[^\x00-\x7f]/.test(entry.name) ? 0x800 : 0);
    localInfo.push({ compressed, crc, size, method });
    offsets.push(offset);
    if (entry.shareLocalWith === undefined) {
      const local = new Uint8Array(30 + name.length);
      const lv = new DataView(local.buffer);
      lv.setUint32(0, 0x04034b50, true);
      lv.setUint16(4, 20, true);
      lv.setUint16(6, flags, true);
      lv.setUint16(8, method, true);
      lv.setUint16(10, 0, true);
      lv.setUint16(12, 0x5821, true); // 2024-01-01
      lv.setUint32(14, crc, true);
      lv.setUint32(18, csize, true);
      lv.setUint32(22, size, true);
      lv.setUint16(26, name.length, true);
      local.set(name, 30);
      chunks.push(local, compressed);
      offset += local.length + compressed.length;
    }
    const c = new Uint8Array(46 + name.length);
    const cv = new DataView(c.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, ((entry.host ?? 3) << 8) | 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, flags, true);
    cv.setUint16(10, method, true);
    cv.setUint16(12, 0, true);
    cv.setUint16(14, 0x5821, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, csize, true);
    cv.setUint32(24, size, true);
    cv.setUint16(28, name.length, true);
    const mode = entry.unixMode ?? (entry.name.endsWith("/") ? 0o40755 : 0o100644);
    cv.setUint32(38, (mode << 16) >>> 0, true);
    const localOffset = entry.shareLocalWith === undefined ? offsets[offsets.length - 1]! : offsets[entry.shareLocalWith]!;
    cv.setUint32(42, localOffset, true);
    c.set(name, 46);
    central.push(c);
  }
  const centralOffset = offset;
  const centralSize = central.reduce((n, c) => n + c.length, 0);
  const comment = text.encode(options.comment ?? "");
  const end = new Uint8Array(22 + comment.length);
  const ev = new DataView(end.buffer);
  const count = options.declaredCount ?? entries.length;
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, count, true);
  ev.setUint16(10, count, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, centralOffset, true);
  ev.setUint16(20, comment.length, true);
  end.set(comment, 22);
  return concat([...chunks, ...central, end]);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
