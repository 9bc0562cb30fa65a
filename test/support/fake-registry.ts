// A fake npm registry on 127.0.0.1 for tests: packuments (abbreviated when asked) and .tgz tarballs
// built here from small fixture packages, with the CORS headers the public registry sends. Tests
// can make a package 404, serve a tarball that does not match its integrity, or a corrupt one.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { gzipSync } from "fflate";
import { createTar } from "nanotar";

export interface FixtureVersion {
  name: string;
  version: string;
  /** package.json fields besides name and version. */
  manifest?: Record<string, unknown>;
  /** Files besides package.json (path inside the package → text, or bytes for binary files such as .wasm). */
  files?: Record<string, string | Uint8Array>;
}

interface Built {
  fixture: FixtureVersion;
  tarball: Uint8Array;
  integrity: string;
  shasum: string;
  manifest: Record<string, unknown>;
}

export interface FakeRegistry {
  url: string;
  /** Every request: method, path and accept header. */
  requests: Array<{ method: string; path: string; accept?: string }>;
  /** Names (or name@version tarballs) answered with 404. */
  missing: Set<string>;
  /** name@version whose tarball is served with other bytes than its integrity promises. */
  tampered: Set<string>;
  /** Answer without CORS headers, as a registry that does not allow requests from web pages. */
  noCors: boolean;
  /** Milliseconds every tarball waits before it is sent (0 by default). */
  tarballDelayMs: number;
  /** name@version stored corrupt: bytes that are no gzip/tar at all (the packument's integrity matches them). */
  corrupt: Set<string>;
  add(fixture: FixtureVersion): void;
  tarballOf(id: string): Uint8Array;
  close(): Promise<void>;
}

export function buildTarball(fixture: FixtureVersion): Uint8Array {
  const manifest = { name: fixture.name, version: fixture.version, ...fixture.manifest };
  const entries: Array<{ name: string; data: string | Uint8Array }> = [{ name: "package/package.json", data: JSON.stringify(manifest, null, 2) }];
  for (const [path, data] of Object.entries(fixture.files ?? {})) entries.push({ name: `package/${path}`, data });
  return gzipSync(createTar(entries, { attrs: { mtime: 499162500000 } }));
}

export async function startFakeRegistry(fixtures: FixtureVersion[] = standardFixtures()): Promise<FakeRegistry> {
  const built = new Map<string, Built>();
  const sockets = new Set<Socket>();
  let base = "";
  const registry: FakeRegistry = {
    url: "",
    requests: [],
    missing: new Set(),
    tampered: new Set(),
    corrupt: new Set(),
    tarballDelayMs: 0,
    noCors: false,
    add(fixture) {
      const tarball = buildTarball(fixture);
      built.set(`${fixture.name}@${fixture.version}`, {
        fixture,
        tarball,
        integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
        shasum: createHash("sha1").update(tarball).digest("hex"),
        manifest: { name: fixture.name, version: fixture.version, ...fixture.manifest },
      });
    },
    tarballOf(id) {
      const entry = built.get(id);
      if (!entry) throw new Error(`no fixture ${id}`);
      return entry.tarball;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  for (const fixture of fixtures) registry.add(fixture);

  const packument = (name: string, corgi: boolean) => {
    const versions = [...built.values()].filter((entry) => entry.fixture.name === name);
    if (versions.length === 0) return undefined;
    const latest = versions.map((entry) => entry.fixture.version).filter((v) => !v.includes("-")).at(-1) ?? versions.at(-1)!.fixture.version;
    const tagged = versions.find((entry) => entry.manifest.__latest === true)?.fixture.version;
    const out: Record<string, unknown> = {};
    for (const entry of versions) {
      const { __latest: _omit, ...manifest } = entry.manifest;
      const id = `${name}@${entry.fixture.version}`;
      const integrity = registry.corrupt.has(id) ? `sha512-${createHash("sha512").update(CORRUPT).digest("base64")}` : entry.integrity;
      const dist = { tarball: `${base}/${name}/-/${name.split("/").pop()}-${entry.fixture.version}.tgz`, integrity, shasum: entry.shasum };
      const fields = corgi
        ? pick(manifest, ["name", "version", "dependencies", "optionalDependencies", "peerDependencies", "peerDependenciesMeta", "bundleDependencies", "bundledDependencies", "bin", "engines", "os", "cpu", "deprecated"])
        : manifest;
      const scripts = manifest.scripts as Record<string, string> | undefined;
      if (corgi && scripts && (scripts.install || scripts.preinstall || scripts.postinstall)) fields.hasInstallScript = true;
      out[entry.fixture.version] = { ...fields, dist };
    }
    return { name, "dist-tags": { latest: tagged ?? latest }, versions: out, ...(corgi ? {} : { readme: "…" }) };
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = decodeURIComponent((request.url ?? "/").split("?")[0]!);
    registry.requests.push({ method: request.method ?? "GET", path, accept: request.headers.accept });
    if (!registry.noCors) {
      response.setHeader("Access-Control-Allow-Origin", "*");
      response.setHeader("Access-Control-Allow-Headers", "*");
    }
    if (request.method === "OPTIONS") {
      response.writeHead(204).end();
      return;
    }
    const tarball = /^\/(.+)\/-\/[^/]+-(\d[^/]*)\.tgz$/.exec(path);
    if (tarball) {
      const id = `${tarball[1]}@${tarball[2]}`;
      const entry = built.get(id);
      if (!entry || registry.missing.has(id) || registry.missing.has(tarball[1]!)) return void response.writeHead(404).end("{}");
      let bytes = entry.tarball;
      if (registry.tampered.has(id)) bytes = buildTarball({ ...entry.fixture, files: { ...entry.fixture.files, "evil.js": "steal()" } });
      if (registry.corrupt.has(id)) bytes = CORRUPT;
      const send = () => response.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.from(bytes));
      if (registry.tarballDelayMs > 0) setTimeout(send, registry.tarballDelayMs);
      else send();
      return;
    }
    const name = path.slice(1);
    const body = registry.missing.has(name) ? undefined : packument(name, (request.headers.accept ?? "").includes("application/vnd.npm.install-v1+json"));
    if (!body) return void response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "Not found" }));
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  registry.url = `${base}/`;
  return registry;
}

const CORRUPT = new TextEncoder().encode("this is not a tarball at all, it is plain text");

function pick(record: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

/**
 * The fixture set the npm tests share: a tree with a shared dependency and a version conflict
 * (app-a and app-b both need `shared`, in different majors), a scoped package, a bin, an exports map,
 * an ESM-only and a CJS-only package, native code, an install script and a platform-only optional one.
 */
export function standardFixtures(): FixtureVersion[] {
  const cjs = (text: string) => ({ "index.js": text });
  return [
    { name: "shared", version: "1.0.0", files: cjs("module.exports = { version: '1.0.0' };\n") },
    { name: "shared", version: "1.1.0", files: cjs("module.exports = { version: '1.1.0' };\n") },
    { name: "shared", version: "2.0.0", files: cjs("module.exports = { version: '2.0.0' };\n") },
    { name: "shared", version: "3.0.0-beta.1", files: cjs("module.exports = { version: '3.0.0-beta.1' };\n") },
    { name: "app-a", version: "1.0.0", manifest: { main: "index.js", dependencies: { shared: "^1.0.0" } }, files: cjs("module.exports = 'a uses shared ' + require('shared').version;\n") },
    { name: "app-b", version: "1.0.0", manifest: { main: "index.js", dependencies: { shared: "^2.0.0", "app-c": "^1.0.0" } }, files: cjs("module.exports = 'b uses shared ' + require('shared').version;\n") },
    { name: "app-c", version: "1.0.0", manifest: { dependencies: { shared: "^1.0.0" } }, files: cjs("module.exports = 'c';\n") },
    { name: "@fixture/scoped", version: "1.2.0", manifest: { main: "lib/main.js" }, files: { "lib/main.js": "exports.hello = (name) => `hello ${name} from @fixture/scoped`;\n" } },
    {
      name: "hello-bin",
      version: "1.0.0",
      manifest: { bin: { "hello-bin": "bin/hello.js" } },
      files: { "bin/hello.js": "#!/usr/bin/env node\nconsole.log('hello from hello-bin ' + process.argv.slice(2).join(' '));\n" },
    },
    {
      name: "exports-map",
      version: "1.0.0",
      manifest: { exports: { ".": { import: "./esm.mjs", require: "./cjs.cjs" }, "./feature": "./feature.js", "./package.json": "./package.json" } },
      files: { "esm.mjs": "export const kind = 'esm';\n", "cjs.cjs": "exports.kind = 'cjs';\n", "feature.js": "module.exports = 'feature';\n" },
    },
    { name: "esm-only", version: "1.0.0", manifest: { type: "module", exports: "./index.js" }, files: { "index.js": "export default function greet() { return 'esm-only'; }\n" } },
    { name: "cjs-only", version: "1.0.0", manifest: { main: "index.js" }, files: cjs("module.exports = function greet() { return 'cjs-only'; };\n") },
    {
      name: "native-addon",
      version: "1.0.0",
      manifest: { gypfile: true, scripts: { install: "node-gyp rebuild" } },
      files: { "binding.gyp": "{ 'targets': [] }\n", "index.js": "module.exports = require('./build/Release/addon.node');\n" },
    },
    { name: "with-postinstall", version: "1.0.0", manifest: { scripts: { postinstall: "node setup.js" } }, files: cjs("module.exports = 1;\n") },
    { name: "mac-only", version: "1.0.0", manifest: { os: ["darwin"] }, files: cjs("module.exports = 'mac';\n") },
    { name: "with-optional", version: "1.0.0", manifest: { optionalDependencies: { "mac-only": "^1.0.0" } }, files: cjs("module.exports = 'opt';\n") },
  ];
}

/** A generated tree of `count` packages (for the install bench): pkg-0 depends on a few later ones, and so on. */
export function generatedFixtures(count: number): FixtureVersion[] {
  const fixtures: FixtureVersion[] = [];
  for (let i = 0; i < count; i++) {
    const dependencies: Record<string, string> = {};
    for (const j of [2 * i + 1, 2 * i + 2]) if (j < count) dependencies[`pkg-${j}`] = "^1.0.0";
    const files: Record<string, string> = { "index.js": `module.exports = ${i};\n`, "README.md": `# pkg-${i}\n${"text ".repeat(200)}\n` };
    for (let f = 0; f < 8; f++) files[`lib/file-${f}.js`] = `exports.value = ${i * 100 + f};\n${"// padding\n".repeat(50)}`;
    fixtures.push({ name: `pkg-${i}`, version: "1.0.0", manifest: { main: "index.js", dependencies }, files });
  }
  return fixtures;
}
