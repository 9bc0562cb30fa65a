// Reads a zip's end record and central directory without inflating anything, so names, declared
// sizes, attributes (symlinks) and the entry count can be checked before a single byte is unpacked.
import { ImportError, tooManyEntries, type ImportLimits } from "./zip-limits";

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;

/** One central directory entry, as declared (nothing verified against the data yet). */
export interface ZipDirectoryEntry {
  /** The raw name as decoded from the archive (not yet validated). */
  name: string;
  /** The name's bytes, compared with the local header's copy. */
  rawName: Uint8Array;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  /** Unix mode from the high 16 bits of the external attributes (0 when absent). */
  unixMode: number;
  /** The MS-DOS attribute byte (0x10 = directory). */
  dosAttributes: number;
  /** Modification time (ms since epoch) from the DOS date and time, or undefined when invalid. */
  mtime?: number;
}

export interface ZipDirectory {
  entries: ZipDirectoryEntry[];
  /** Where the central directory starts: file data must end before it. */
  centralOffset: number;
}

const corrupt = (detail: string) =>
  new ImportError("corrupt", `This zip file is damaged (${detail}). Download or create it again and retry.`);
const truncated = (detail: string) =>
  new ImportError("truncated", `This zip file is incomplete (${detail}); it was probably cut off while downloading. Download it again and retry.`);

function notAZip(bytes: Uint8Array): ImportError {
  const b0 = bytes[0];
  const b1 = bytes[1];
  let hint = "";
  if (bytes.length === 0) hint = " (the file is empty)";
  else if (b0 === 0x1f && b1 === 0x8b) hint = " (it is a gzip / .tar.gz archive)";
  else if (bytes.length > 262 && String.fromCharCode(...bytes.subarray(257, 262)) === "ustar") hint = " (it is a .tar archive)";
  else if (b0 === 0x52 && b1 === 0x61 && bytes[2] === 0x72) hint = " (it is a RAR archive)";
  else if (b0 === 0x37 && b1 === 0x7a) hint = " (it is a 7-Zip archive)";
  return new ImportError("not-a-zip", `This file is not a zip archive${hint}. Choose a .zip file, or import the folder instead.`);
}

/** Exposed so tests and the worker can tell a zip from other files cheaply. */
export function startsLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
}

// CP437, the legacy zip name encoding, for the bytes 0x80-0xFF (names without the UTF-8 flag
// that are not valid UTF-8 either).
const CP437_HIGH =
  "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0";
const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeName(raw: Uint8Array): string {
  try {
    return utf8.decode(raw);
  } catch {
    let out = "";
    for (const b of raw) out += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80];
    return out;
  }
}

function dosTime(date: number, time: number): number | undefined {
  const year = 1980 + (date >>> 9);
  const month = (date >>> 5) & 0xf;
  const day = date & 0x1f;
  if (month < 1 || month > 12 || day < 1) return undefined;
  const value = new Date(year, month - 1, day, time >>> 11, (time >>> 5) & 0x3f, (time & 0x1f) * 2).getTime();
  return Number.isFinite(value) ? value : undefined;
}

function findEndRecord(bytes: Uint8Array, view: DataView): number {
  const stop = Math.max(0, bytes.length - EOCD_SIZE - MAX_COMMENT);
  for (let i = bytes.length - EOCD_SIZE; i >= stop; i--) {
    if (view.getUint32(i, true) === EOCD_SIGNATURE) {
      // The comment length must reach exactly to the end of the file (or the zip was cut/appended).
      const commentLength = view.getUint16(i + 20, true);
      if (i + EOCD_SIZE + commentLength === bytes.length) return i;
    }
  }
  return -1;
}

function readBig(view: DataView, offset: number): number {
  const value = view.getBigUint64(offset, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw corrupt("a size does not fit in memory");
  return Number(value);
}

/** Parses the end record and the central directory. Throws ImportError for anything malformed. */
export function readZipDirectory(bytes: Uint8Array, limits: ImportLimits): ZipDirectory {
  if (bytes.length < EOCD_SIZE) throw startsLikeZip(bytes) ? truncated("shorter than the smallest zip") : notAZip(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndRecord(bytes, view);
  if (eocd < 0) throw startsLikeZip(bytes) ? truncated("the end of the archive is missing") : notAZip(bytes);

  const disk = view.getUint16(eocd + 4, true);
  const centralDisk = view.getUint16(eocd + 6, true);
  let countOnDisk = view.getUint16(eocd + 8, true);
  let count = view.getUint16(eocd + 10, true);
  let centralSize = view.getUint32(eocd + 12, true);
  let centralOffset = view.getUint32(eocd + 16, true);

  const needsZip64 = count === 0xffff || countOnDisk === 0xffff || centralSize === 0xffffffff || centralOffset === 0xffffffff;
  if (needsZip64 || (eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR_SIGNATURE)) {
    if (eocd < 20 || view.getUint32(eocd - 20, true) !== ZIP64_LOCATOR_SIGNATURE) throw corrupt("the zip64 locator is missing");
    const recordOffset = readBig(view, eocd - 20 + 8);
    if (recordOffset + 56 > eocd) throw corrupt("the zip64 end record is out of range");
    if (view.getUint32(recordOffset, true) !== ZIP64_EOCD_SIGNATURE) throw corrupt("bad zip64 end record signature");
    countOnDisk = readBig(view, recordOffset + 24);
    count = readBig(view, recordOffset + 32);
    centralSize = readBig(view, recordOffset + 40);
    centralOffset = readBig(view, recordOffset + 48);
  }
  if (disk !== 0 || centralDisk !== 0 || countOnDisk !== count) {
    throw new ImportError("unsupported-method", "This zip is split over several files (a multi-part archive). Join the parts into one zip and try again.");
  }
  if (count > limits.maxEntries) throw tooManyEntries(count, limits);
  if (centralOffset + centralSize > eocd) {
    throw centralOffset + centralSize > bytes.length ? truncated("the file list lies past the end") : corrupt("the file list overlaps its end record");
  }
  // 46 bytes is the smallest central header: a declared count that cannot fit is a lie.
  if (count * 46 > centralSize) throw corrupt("the file list is shorter than its declared entry count");

  const entries: ZipDirectoryEntry[] = [];
  let p = centralOffset;
  const end = centralOffset + centralSize;
  for (let i = 0; i < count; i++) {
    if (p + 46 > end) throw corrupt("a file list entry is cut short");
    if (view.getUint32(p, true) !== CENTRAL_SIGNATURE) throw corrupt("bad file list signature");
    const madeBy = view.getUint16(p + 4, true);
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const time = view.getUint16(p + 12, true);
    const date = view.getUint16(p + 14, true);
    const crc = view.getUint32(p + 16, true);
    let compressedSize = view.getUint32(p + 20, true);
    let uncompressedSize = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    const externalAttributes = view.getUint32(p + 38, true);
    let localHeaderOffset = view.getUint32(p + 42, true);
    const nameStart = p + 46;
    const next = nameStart + nameLength + extraLength + commentLength;
    if (next > end) throw corrupt("a file list entry is cut short");
    const rawName = bytes.subarray(nameStart, nameStart + nameLength);
    // Zip64 sizes live in extra field 0x0001, in this order, only for the fields set to 0xffffffff.
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      let e = nameStart + nameLength;
      const extraEnd = e + extraLength;
      let found = false;
      while (e + 4 <= extraEnd) {
        const id = view.getUint16(e, true);
        const size = view.getUint16(e + 2, true);
        if (e + 4 + size > extraEnd) break;
        if (id === 0x0001) {
          let q = e + 4;
          const take = () => {
            if (q + 8 > e + 4 + size) throw corrupt("a zip64 size field is cut short");
            const value = readBig(view, q);
            q += 8;
            return value;
          };
          if (uncompressedSize === 0xffffffff) uncompressedSize = take();
          if (compressedSize === 0xffffffff) compressedSize = take();
          if (localHeaderOffset === 0xffffffff) localHeaderOffset = take();
          found = true;
          break;
        }
        e += 4 + size;
      }
      if (!found) throw corrupt("zip64 sizes are missing");
    }
    const host = madeBy >>> 8;
    entries.push({
      name: decodeName(rawName),
      rawName,
      method,
      flags,
      crc,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
      // DOS-made zips (host 0) leave the high bits meaningless; everyone else stores a Unix mode.
      unixMode: host === 0 ? 0 : externalAttributes >>> 16,
      dosAttributes: externalAttributes & 0xff,
      mtime: dosTime(date, time),
    });
    p = next;
  }
  return { entries, centralOffset };
}

/**
 * Where an entry's compressed data starts, after checking its local header. The sizes in the
 * central directory are authoritative (local ones are zero when a data descriptor follows).
 */
export function locateEntryData(bytes: Uint8Array, entry: ZipDirectoryEntry, centralOffset: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const p = entry.localHeaderOffset;
  if (p + 30 > centralOffset) throw corrupt(`the data of "${entry.name}" lies outside the archive`);
  if (view.getUint32(p, true) !== LOCAL_SIGNATURE) throw corrupt(`bad header signature for "${entry.name}"`);
  const nameLength = view.getUint16(p + 26, true);
  const start = p + 30 + nameLength + view.getUint16(p + 28, true);
  // Two different names for one entry is how archives show one file to a checker and write another.
  const localName = bytes.subarray(p + 30, p + 30 + nameLength);
  if (nameLength !== entry.rawName.length || localName.some((b, i) => b !== entry.rawName[i])) {
    throw corrupt(`the two headers of "${entry.name}" disagree about its name`);
  }
  if (start + entry.compressedSize > centralOffset) {
    throw start + entry.compressedSize > bytes.length
      ? truncated(`the data of "${entry.name}" is cut off`)
      : corrupt(`the data of "${entry.name}" runs into the file list`);
  }
  return start;
}

export { corrupt as corruptZipError, truncated as truncatedZipError };
