// Wheels (PEP 427) and the installed distributions of a site-packages folder: file names and their
// tags, core metadata (the e-mail header format of METADATA), unpacking with fflate, and the
// .dist-info records (RECORD, INSTALLER) that pip uninstall, list and show read back.
import { unzipSync } from "fflate";
import { normalizeName } from "./requirement";

export class WheelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WheelError";
  }
}

export interface WheelName {
  name: string;
  version: string;
  /** Every tag triple the file name expands to ("py3-none-any"). */
  tags: string[];
}

/** name-version(-build)?-python-abi-platform.whl */
export function parseWheelName(filename: string): WheelName | undefined {
  if (!filename.endsWith(".whl")) return undefined;
  const parts = filename.slice(0, -4).split("-");
  if (parts.length !== 5 && parts.length !== 6) return undefined;
  const [name, version] = parts as [string, string];
  const [python, abi, platform] = parts.slice(-3) as [string, string, string];
  const tags: string[] = [];
  for (const p of python.split(".")) for (const a of abi.split(".")) for (const pl of platform.split(".")) tags.push(`${p}-${a}-${pl}`);
  return { name, version, tags };
}

/** Tags of pure-Python wheels that run on Pyodide's CPython 3 (best first). */
const PURE_TAGS = ["py3-none-any", "py2.py3-none-any"];

/** Whether a wheel is pure Python (no compiled code for a platform). */
export function isPureWheel(wheel: WheelName): boolean {
  return wheel.tags.some((tag) => PURE_TAGS.includes(tag) || /^py3\d*-none-any$/.test(tag));
}

/** Core metadata fields (METADATA / PKG-INFO): each header's values, in order; the body is the description. */
export function parseMetadata(text: string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  let last: string | undefined;
  for (const line of lines) {
    if (line === "") break;
    if (/^[ \t]/.test(line) && last) {
      const values = fields.get(last)!;
      values[values.length - 1] += `\n${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    const values = fields.get(last) ?? [];
    values.push(line.slice(colon + 1).trim());
    fields.set(last, values);
  }
  return fields;
}

export interface WheelContents {
  /** The .dist-info folder's name ("pkg-1.0.dist-info"). */
  distInfo: string;
  metadata: Map<string, string[]>;
  /** Files to place, relative to site-packages. */
  files: Array<{ path: string; data: Uint8Array }>;
}

/** Unpacks a wheel in memory: what goes into site-packages (`.data/purelib|platlib` moved up), checked before anything is written. */
export function unpackWheel(bytes: Uint8Array, filename: string): WheelContents {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch (error) {
    throw new WheelError(`${filename} is not a readable wheel (zip): ${error instanceof Error ? error.message : String(error)}.`);
  }
  const names = Object.keys(entries).filter((name) => !name.endsWith("/"));
  const distInfos = new Set(names.map((name) => name.split("/")[0]!).filter((top) => top.endsWith(".dist-info")));
  if (distInfos.size !== 1) throw new WheelError(`${filename} has ${distInfos.size === 0 ? "no" : "more than one"} .dist-info folder; it is not a valid wheel.`);
  const distInfo = [...distInfos][0]!;
  const metadataBytes = entries[`${distInfo}/METADATA`];
  if (!metadataBytes) throw new WheelError(`${filename} has no ${distInfo}/METADATA; it is not a valid wheel.`);
  const metadata = parseMetadata(new TextDecoder().decode(metadataBytes));
  const files: WheelContents["files"] = [];
  const dataDir = `${distInfo.slice(0, -".dist-info".length)}.data/`;
  for (const name of names) {
    let path = name;
    if (name.startsWith(dataDir)) {
      const [kind, ...rest] = name.slice(dataDir.length).split("/");
      // Scripts, headers and data files have no place in the browser runtime; libraries do.
      if (kind !== "purelib" && kind !== "platlib") continue;
      path = rest.join("/");
    }
    if (path.startsWith("/") || path.split("/").some((segment) => segment === ".." || segment === "")) {
      throw new WheelError(`${filename} holds a file outside its folder ("${name}"); nothing was installed.`);
    }
    files.push({ path, data: entries[name]! });
  }
  return { distInfo, metadata, files };
}

/** The RECORD of an installed wheel: every file placed, INSTALLER and RECORD included (hashes left out: they are in the wheel's own RECORD). */
export function recordText(paths: string[]): string {
  return paths.map((path) => `${/[",\n]/.test(path) ? `"${path.replace(/"/g, '""')}"` : path},,\n`).join("");
}

/** Paths listed in a RECORD (first CSV column). */
export function recordPaths(text: string): string[] {
  const paths: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    if (line.startsWith('"')) {
      const match = /^"((?:[^"]|"")*)"/.exec(line);
      if (match) paths.push(match[1]!.replace(/""/g, '"'));
    } else paths.push(line.split(",")[0]!);
  }
  return paths;
}

export interface Installed {
  name: string;
  version: string;
  distInfo: string;
  metadata: Map<string, string[]>;
}

/** Reads the installed distributions from .dist-info folders, by normalized name. */
export function installedDists(list: (dir: string) => string[], read: (path: string) => string | undefined, site: string): Map<string, Installed> {
  const found = new Map<string, Installed>();
  for (const entry of list(site)) {
    if (!entry.endsWith(".dist-info")) continue;
    const text = read(`${site}/${entry}/METADATA`);
    if (text === undefined) continue;
    const metadata = parseMetadata(text);
    const name = metadata.get("name")?.[0];
    const version = metadata.get("version")?.[0];
    if (!name || !version) continue;
    found.set(normalizeName(name), { name, version, distInfo: entry, metadata });
  }
  return found;
}
