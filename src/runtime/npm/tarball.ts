// Unpacks a package tarball (.tgz) in memory: gunzip with fflate, then a small ustar reader.
// The reader is written here rather than taken from a library because the small ones (nanotar)
// ignore the ustar `prefix` field, which npm's packer uses for paths over 100 characters, and do not
// check header checksums, so a corrupt tarball would unpack as garbage instead of failing. This one
// reads ustar with prefix, pax (`x`) and GNU long-name (`L`) headers, verifies every header's
// checksum, and keeps regular files only (links and devices are skipped, as a browser cannot hold them).
import { gunzipSync } from "fflate";
import { NpmError } from "./registry";

export interface TarFile {
  /** Path inside the package, first folder ("package/") stripped. */
  path: string;
  data: Uint8Array;
  /** Executable bit of the entry's mode. */
  executable: boolean;
}

const BLOCK = 512;
const decoder = new TextDecoder();

export function unpackTarball(gz: Uint8Array, what: string): TarFile[] {
  let tar: Uint8Array;
  try {
    tar = gunzipSync(gz);
  } catch (error) {
    throw corrupt(what, `not a gzip file (${error instanceof Error ? error.message : String(error)})`);
  }
  return readTar(tar, what);
}

export function readTar(tar: Uint8Array, what: string): TarFile[] {
  const files: TarFile[] = [];
  let offset = 0;
  let longName: string | undefined;
  let ended = false;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) {
      ended = true;
      break;
    }
    if (!checksumOk(header)) throw corrupt(what, `a header at byte ${offset} has a wrong checksum`);
    const size = readSize(header.subarray(124, 136));
    const type = String.fromCharCode(header[156]!);
    const bodyStart = offset + BLOCK;
    const bodyEnd = bodyStart + size;
    if (bodyEnd > tar.length) throw corrupt(what, "it ends in the middle of a file");
    const body = tar.subarray(bodyStart, bodyEnd);
    offset = bodyStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === "x") {
      longName = paxPath(body) ?? longName;
      continue;
    }
    if (type === "L") {
      longName = readString(body);
      continue;
    }
    if (type === "g") continue;
    const name = stripFirst(longName ?? fullName(header));
    longName = undefined;
    if ((type !== "0" && type !== "\0" && type !== "7") || name === undefined) continue;
    const mode = Number.parseInt(readString(header.subarray(100, 108)).trim() || "0", 8);
    files.push({ path: safePath(name, what), data: body.slice(), executable: (mode & 0o111) !== 0 });
  }
  if (!ended && offset < tar.length) throw corrupt(what, "it is truncated");
  if (files.length === 0) throw corrupt(what, "it holds no files");
  return files;
}

function corrupt(what: string, why: string): NpmError {
  return new NpmError(`The tarball of ${what} is corrupt: ${why}. Nothing was installed.`, "EBADTAR");
}

function checksumOk(header: Uint8Array): boolean {
  const stored = Number.parseInt(readString(header.subarray(148, 156)).trim() || "-1", 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return stored === sum;
}

function readSize(field: Uint8Array): number {
  // Base-256 (GNU) for sizes past 8 GB: the high bit of the first byte is set.
  if (field[0]! & 0x80) {
    let value = 0;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!;
    return value;
  }
  const text = readString(field).trim();
  return text === "" ? 0 : Number.parseInt(text, 8);
}

function readString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return decoder.decode(end < 0 ? bytes : bytes.subarray(0, end));
}

function fullName(header: Uint8Array): string {
  const name = readString(header.subarray(0, 100));
  const magic = readString(header.subarray(257, 263));
  const prefix = magic.startsWith("ustar") ? readString(header.subarray(345, 500)) : "";
  return prefix ? `${prefix}/${name}` : name;
}

function paxPath(body: Uint8Array): string | undefined {
  const text = decoder.decode(body);
  let path: string | undefined;
  let at = 0;
  while (at < text.length) {
    const space = text.indexOf(" ", at);
    const length = Number.parseInt(text.slice(at, space), 10);
    if (space < 0 || !Number.isFinite(length) || length <= 0) break;
    const record = text.slice(space + 1, at + length - 1);
    const eq = record.indexOf("=");
    if (record.slice(0, eq) === "path") path = record.slice(eq + 1);
    at += length;
  }
  return path;
}

/** npm strips the archive's first folder, whatever it is called ("package/" mostly). */
function stripFirst(name: string): string | undefined {
  const clean = name.replace(/\\/g, "/").replace(/^\.\//, "");
  const slash = clean.indexOf("/");
  if (slash < 0) return undefined;
  const rest = clean.slice(slash + 1);
  return rest === "" || rest.endsWith("/") ? undefined : rest;
}

/** Tarballs are untrusted: a path may not leave the package's folder. */
function safePath(name: string, what: string): string {
  const parts: string[] = [];
  for (const part of name.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." || part.includes("\0")) throw corrupt(what, `an entry's path "${name}" leaves the package folder`);
    parts.push(part);
  }
  if (name.startsWith("/") || parts.length === 0) throw corrupt(what, `an entry's path "${name}" is not relative`);
  return parts.join("/");
}
