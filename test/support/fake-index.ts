// A fake Python package index on 127.0.0.1 for tests: the Simple API's JSON form (PEP 691) with
// sha256 hashes, and wheels built here with fflate from small fixture packages (or from files a
// test hands over, e.g. a locally installed pytest). Tests can make a project 404, serve a wheel
// whose bytes do not match its hash, a corrupt wheel, or answer without CORS headers.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { zipSync } from "fflate";

export interface WheelFixture {
  name: string;
  version: string;
  /** Requires-Dist lines (PEP 508). */
  requires?: string[];
  /** Provides-Extra names. */
  extras?: string[];
  /** Files inside the wheel besides .dist-info (path → text or bytes). */
  files?: Record<string, string | Uint8Array>;
  /** Wheel tag; default py3-none-any. A platform tag makes a platform-only package. */
  tag?: string;
  /** Publish an sdist instead of a wheel. */
  sdistOnly?: boolean;
  summary?: string;
}

export interface FakeIndex {
  /** The index URL (ends with /simple/). */
  url: string;
  requests: Array<{ path: string; accept?: string }>;
  missing: Set<string>;
  /** Filenames served with bytes other than their hash promises. */
  tampered: Set<string>;
  /** Filenames served as bytes that are no zip (their hash matches them). */
  corrupt: Set<string>;
  noCors: boolean;
  add(fixture: WheelFixture): void;
  /** Serves a ready wheel (e.g. one built from a locally installed package). */
  addWheel(filename: string, bytes: Uint8Array): void;
  close(): Promise<void>;
}

const CORRUPT = new TextEncoder().encode("this is not a zip file");

export function wheelFilename(fixture: WheelFixture): string {
  const base = `${fixture.name.replace(/[-.]+/g, "_")}-${fixture.version}`;
  return fixture.sdistOnly ? `${fixture.name}-${fixture.version}.tar.gz` : `${base}-${fixture.tag ?? "py3-none-any"}.whl`;
}

export function buildWheel(fixture: WheelFixture): Uint8Array {
  const distInfo = `${fixture.name.replace(/[-.]+/g, "_")}-${fixture.version}.dist-info`;
  const metadata = [
    "Metadata-Version: 2.1",
    `Name: ${fixture.name}`,
    `Version: ${fixture.version}`,
    `Summary: ${fixture.summary ?? `${fixture.name} fixture`}`,
    ...(fixture.extras ?? []).map((extra) => `Provides-Extra: ${extra}`),
    ...(fixture.requires ?? []).map((line) => `Requires-Dist: ${line}`),
    "",
  ].join("\n");
  const entries: Record<string, Uint8Array> = {};
  const encode = (data: string | Uint8Array) => (typeof data === "string" ? new TextEncoder().encode(data) : data);
  for (const [path, data] of Object.entries(fixture.files ?? {})) entries[path] = encode(data);
  entries[`${distInfo}/METADATA`] = encode(metadata);
  entries[`${distInfo}/WHEEL`] = encode(`Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: ${fixture.tag ?? "py3-none-any"}\n`);
  entries[`${distInfo}/RECORD`] = encode(Object.keys(entries).map((path) => `${path},,\n`).join("") + `${distInfo}/RECORD,,\n`);
  return zipSync(entries);
}

export async function startFakeIndex(fixtures: WheelFixture[] = standardWheels()): Promise<FakeIndex> {
  const built = new Map<string, { name: string; fixture?: WheelFixture; bytes: Uint8Array }>();
  const sockets = new Set<Socket>();
  const normalize = (name: string) => name.toLowerCase().replace(/[-_.]+/g, "-");
  const index: FakeIndex = {
    url: "",
    requests: [],
    missing: new Set(),
    tampered: new Set(),
    corrupt: new Set(),
    noCors: false,
    add(fixture) {
      built.set(wheelFilename(fixture), { name: fixture.name, fixture, bytes: fixture.sdistOnly ? new TextEncoder().encode("sdist") : buildWheel(fixture) });
    },
    addWheel(filename, bytes) {
      built.set(filename, { name: filename.split("-")[0]!, bytes });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  for (const fixture of fixtures) index.add(fixture);
  const served = (filename: string) => (index.corrupt.has(filename) ? CORRUPT : built.get(filename)!.bytes);

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = decodeURIComponent((request.url ?? "/").split("?")[0]!);
    index.requests.push({ path, accept: request.headers.accept });
    if (!index.noCors) {
      response.setHeader("Access-Control-Allow-Origin", "*");
      response.setHeader("Access-Control-Allow-Headers", "*");
    }
    if (request.method === "OPTIONS") return void response.writeHead(204).end();
    const file = /^\/files\/([^/]+)$/.exec(path);
    if (file) {
      const entry = built.get(file[1]!);
      if (!entry) return void response.writeHead(404).end();
      const bytes = index.tampered.has(file[1]!) && entry.fixture ? buildWheel({ ...entry.fixture, files: { ...entry.fixture.files, "evil.py": "steal()" } }) : served(file[1]!);
      return void response.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.from(bytes));
    }
    const project = /^\/simple\/([^/]+)\/$/.exec(path);
    const name = project ? normalize(project[1]!) : "";
    const entries = [...built.entries()].filter(([, entry]) => normalize(entry.name) === name);
    if (!project || entries.length === 0 || index.missing.has(name)) return void response.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
    const body = {
      meta: { "api-version": "1.1" },
      name,
      files: entries.map(([filename]) => ({
        filename,
        // Relative, as PyPI's mirrors often serve them: resolved against the project page.
        url: `../../files/${filename}`,
        hashes: { sha256: createHash("sha256").update(served(filename)).digest("hex") },
      })),
    };
    response.writeHead(200, { "content-type": "application/vnd.pypi.simple.v1+json" }).end(JSON.stringify(body));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  index.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/simple/`;
  return index;
}

/**
 * A dependency tree (app → helper → tiny, app[fast] → speedups), a dependency skipped by its marker
 * (win-only on sys_platform == "win32"), one for the old Pythons only, a platform-only package and an
 * sdist-only one.
 */
export function standardWheels(): WheelFixture[] {
  return [
    {
      name: "app-pkg",
      version: "1.0.0",
      extras: ["fast"],
      requires: ["helper>=2", 'win-only; sys_platform == "win32"', 'old-only; python_version < "3.8"', 'speedups==1.*; extra == "fast"'],
      files: { "app_pkg/__init__.py": "from helper import shout\nVALUE = shout('app')\n" },
    },
    { name: "helper", version: "1.0.0", files: { "helper/__init__.py": "def shout(s):\n    return s.upper() + ' v1'\n" } },
    { name: "helper", version: "2.1.0", requires: ["Tiny_Dep (>=0.1)"], files: { "helper/__init__.py": "from tiny_dep import mark\ndef shout(s):\n    return mark(s.upper())\n" } },
    { name: "helper", version: "3.0.0rc1", files: { "helper/__init__.py": "raise ImportError('pre-release')\n" } },
    { name: "tiny-dep", version: "0.2", files: { "tiny_dep.py": "def mark(s):\n    return '<' + s + '>'\n" } },
    { name: "speedups", version: "1.4", files: { "speedups/__init__.py": "FAST = True\n" } },
    { name: "speedups", version: "2.0", files: { "speedups/__init__.py": "FAST = 2\n" } },
    { name: "win-only", version: "1.0", files: { "win_only.py": "" } },
    { name: "old-only", version: "1.0", files: { "old_only.py": "" } },
    { name: "native-pkg", version: "1.0", tag: "cp314-cp314-manylinux_2_17_x86_64", files: { "native_pkg/__init__.py": "" } },
    { name: "sdist-pkg", version: "0.5", sdistOnly: true },
  ];
}
