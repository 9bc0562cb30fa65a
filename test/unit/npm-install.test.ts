// npm in the browser runtime against a fake registry on 127.0.0.1: the hoisted layout (a shared
// dependency once at the top, a version conflict nested), package-lock.json v3 written and followed,
// bins, the registry from .npmrc, and failures (404, integrity, corrupt tarball, offline, CORS) that
// leave node_modules exactly as it was.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime, type BrowserRuntimeOptions } from "../../src/runtime/browser";
import { openStorage } from "../../src/storage";
import { Project, install, type RegistryFetch } from "../../src/runtime/npm";
import { startFakeRegistry, type FakeRegistry } from "../support/fake-registry";

let registry: FakeRegistry;
let counter = 0;
const disposers: Array<() => void> = [];

beforeAll(async () => {
  registry = await startFakeRegistry();
});
afterAll(async () => {
  await registry.close();
});
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
  registry.missing.clear();
  registry.tampered.clear();
  registry.corrupt.clear();
  registry.requests.length = 0;
  registry.tarballDelayMs = 0;
});

async function open(packageJson: Record<string, unknown> | undefined, options: BrowserRuntimeOptions = {}) {
  const storage = await openStorage({ name: `npm-install-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  await files.writeFile(".npmrc", `registry=${registry.url}\n`);
  if (packageJson) await files.writeFile("package.json", JSON.stringify(packageJson, null, 2));
  const runtime = createBrowserRuntime(files, options);
  disposers.push(() => {
    runtime.dispose();
    files.dispose();
  });
  return { files, runtime };
}

/** Every file under node_modules with its content, to compare before and after a failed install. */
function nodeModules(files: WorkspaceFiles): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, data] of files.entries()) if (path.startsWith("node_modules/")) out[path] = typeof data === "string" ? data : `<${data.length} bytes>`;
  return out;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- package.json and lockfile JSON, read loosely by the assertions
type Json = Record<string, any>;

function json(files: WorkspaceFiles, path: string): Json {
  return JSON.parse(files.readSync(path) as string) as Json;
}

describe("npm install", () => {
  it("hoists a shared dependency, nests the conflicting version, and writes package-lock.json v3", async () => {
    const { files, runtime } = await open({ name: "demo", version: "1.0.0", dependencies: { "app-a": "^1.0.0", "app-b": "^1.0.0" } });
    const result = await runtime.exec("npm install");
    expect(result.output).toContain("added 5 packages");
    expect(result.exitCode).toBe(0);
    expect(json(files, "node_modules/shared/package.json").version).toBe("1.1.0");
    expect(json(files, "node_modules/app-b/node_modules/shared/package.json").version).toBe("2.0.0");
    // app-c (under app-b's dependencies) needs shared ^1: it reuses the hoisted one and is hoisted itself.
    expect(files.statSync("node_modules/app-c/package.json")).toBeDefined();
    expect(files.statSync("node_modules/app-b/node_modules/app-c")).toBeUndefined();
    const lock = json(files, "package-lock.json");
    expect(lock.lockfileVersion).toBe(3);
    expect(Object.keys(lock.packages)).toEqual(["", "node_modules/app-a", "node_modules/app-b", "node_modules/app-b/node_modules/shared", "node_modules/app-c", "node_modules/shared"]);
    expect(lock.packages[""].dependencies).toEqual({ "app-a": "^1.0.0", "app-b": "^1.0.0" });
    expect(lock.packages["node_modules/shared"]).toMatchObject({ version: "1.1.0", resolved: `${registry.url}shared/-/shared-1.1.0.tgz` });
    expect(lock.packages["node_modules/shared"].integrity).toMatch(/^sha512-/);
    // Packuments were asked for in the abbreviated form.
    const packumentRequests = registry.requests.filter((r) => !r.path.endsWith(".tgz"));
    expect(packumentRequests.length).toBeGreaterThan(0);
    for (const request of packumentRequests) expect(request.accept).toContain("application/vnd.npm.install-v1+json");
    // One packument request per package, though three packages need shared.
    expect(packumentRequests.map((r) => r.path).sort()).toEqual(["/app-a", "/app-b", "/app-c", "/shared"]);
  });

  it("follows package-lock.json when it matches package.json, without asking for packuments", async () => {
    const { files, runtime } = await open({ name: "demo", dependencies: { shared: "^1.0.0" } });
    // A lockfile that pins the older 1.0.0 (the registry's newest match is 1.1.0).
    const lock = {
      name: "demo",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "demo", dependencies: { shared: "^1.0.0" } },
        "node_modules/shared": { version: "1.0.0", resolved: `${registry.url}shared/-/shared-1.0.0.tgz` },
      },
    };
    await files.writeFile("package-lock.json", JSON.stringify(lock));
    const result = await runtime.exec("npm install");
    expect(result.exitCode).toBe(0);
    expect(json(files, "node_modules/shared/package.json").version).toBe("1.0.0");
    expect(registry.requests.map((r) => r.path)).toEqual(["/shared/-/shared-1.0.0.tgz"]);
    // The lockfile is rewritten as v3 and now carries the integrity it computed.
    expect(json(files, "package-lock.json").packages["node_modules/shared"].integrity).toMatch(/^sha512-/);
  });

  it("npm install NAME adds to dependencies (-D to devDependencies) with ^version; npm uninstall removes", async () => {
    const { files, runtime } = await open({ name: "demo", version: "1.0.0" });
    expect((await runtime.exec("npm install cjs-only @fixture/scoped")).exitCode).toBe(0);
    expect((await runtime.exec("npm i -D esm-only shared@~1.0.0")).exitCode).toBe(0);
    expect((await runtime.exec("npm i -E exports-map")).exitCode).toBe(0);
    const manifest = json(files, "package.json");
    expect(manifest.dependencies).toEqual({ "@fixture/scoped": "^1.2.0", "cjs-only": "^1.0.0", "exports-map": "1.0.0" });
    expect(manifest.devDependencies).toEqual({ "esm-only": "^1.0.0", shared: "~1.0.0" });
    expect(files.readSync("node_modules/@fixture/scoped/lib/main.js")).toContain("@fixture/scoped");
    expect(json(files, "node_modules/shared/package.json").version).toBe("1.0.0");
    expect(json(files, "package-lock.json").packages["node_modules/esm-only"].dev).toBe(true);

    const removed = await runtime.exec("npm uninstall cjs-only");
    expect(removed.exitCode).toBe(0);
    expect(removed.output).toContain("removed 1 package");
    expect(files.statSync("node_modules/cjs-only")).toBeUndefined();
    expect(json(files, "package.json").dependencies).toEqual({ "@fixture/scoped": "^1.2.0", "exports-map": "1.0.0" });
    expect(json(files, "package-lock.json").packages["node_modules/cjs-only"]).toBeUndefined();
  });

  it("two installs at once (agent and terminal) both land: the second waits and starts from the first's result", async () => {
    const { files, runtime } = await open({ name: "demo", version: "1.0.0" });
    registry.tarballDelayMs = 100;
    const [first, second] = await Promise.all([runtime.exec("npm install cjs-only"), runtime.exec("npm install -D esm-only")]);
    expect([first.exitCode, second.exitCode]).toEqual([0, 0]);
    const manifest = json(files, "package.json");
    expect(manifest.dependencies).toEqual({ "cjs-only": "^1.0.0" });
    expect(manifest.devDependencies).toEqual({ "esm-only": "^1.0.0" });
    expect(second.output).toContain("waiting for another npm install in this workspace");
    expect(Object.keys(json(files, "package-lock.json").packages).sort()).toEqual(["", "node_modules/cjs-only", "node_modules/esm-only"]);
    expect(files.statSync("node_modules/cjs-only/index.js")).toBeDefined();
    expect(files.statSync("node_modules/esm-only/index.js")).toBeDefined();
  });

  it("keeps what the user saved in package.json while the packages downloaded", async () => {
    const { files, runtime } = await open({ name: "demo", version: "1.0.0", scripts: { test: "node --test" } });
    registry.tarballDelayMs = 300;
    const installing = runtime.exec("npm install cjs-only");
    await expect.poll(() => registry.requests.some((r) => r.path.endsWith(".tgz"))).toBe(true);
    const edited = { ...json(files, "package.json"), scripts: { test: "node --test", start: "node index.js" }, description: "saved by the user" };
    await files.writeFile("package.json", JSON.stringify(edited, null, 2), { source: "user" });
    expect((await installing).exitCode).toBe(0);
    const manifest = json(files, "package.json");
    expect(manifest.scripts).toEqual({ test: "node --test", start: "node index.js" });
    expect(manifest.description).toBe("saved by the user");
    expect(manifest.dependencies).toEqual({ "cjs-only": "^1.0.0" });
  });

  it("says that npm workspaces are not supported and installs the root's dependencies", async () => {
    const { files, runtime } = await open({ name: "mono", workspaces: ["packages/*"], dependencies: { "cjs-only": "1.0.0" } });
    const result = await runtime.exec("npm install");
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain("npm warn npm workspaces are not supported in the browser runtime: only the root package's dependencies are installed.");
    expect(files.statSync("node_modules/cjs-only/index.js")).toBeDefined();
  });

  it("a tool installed in node_modules/.bin but typed alone points to npx", async () => {
    const { files, runtime } = await open({ name: "demo" });
    await files.writeFile("node_modules/.bin/tsc", "#!/bin/sh\necho tsc\n");
    await files.mkdir("src");
    const typed = await runtime.exec("tsc --noEmit", { cwd: "src" });
    expect(typed.exitCode).toBe(127);
    expect(typed.output).toBe("tsc is installed in this project (/workspace/node_modules/.bin/tsc) but not on PATH: run it with npx tsc or from an npm script.\n");
    await files.remove("node_modules");
    expect((await runtime.exec("tsc")).output).toContain("tsc is not available in the browser runtime. It needs the WebContainer runtime");
  });

  it("links bins in node_modules/.bin that npm run finds on PATH", async () => {
    const { files, runtime } = await open({ name: "demo", scripts: { hi: "echo running && which hello-bin" }, dependencies: { "hello-bin": "1.0.0" } });
    expect((await runtime.exec("npm install")).exitCode).toBe(0);
    expect(files.readSync("node_modules/.bin/hello-bin")).toContain('node "$(dirname "$0")/../hello-bin/bin/hello.js" "$@"');
    expect(json(files, "package-lock.json").packages["node_modules/hello-bin"].bin).toEqual({ "hello-bin": "bin/hello.js" });
    const run = await runtime.exec("npm run hi");
    expect(run.exitCode).toBe(0);
    expect(run.output).toContain("running");
    expect(run.output).toContain("/workspace/node_modules/.bin/hello-bin");
  });

  it("a hostile package or lockfile cannot make npm write outside node_modules or put shell code in a bin", async () => {
    registry.add({ name: "evil-bin", version: "1.0.0", manifest: { bin: { ok: "cli.js", bad: "$(touch pwned).js", "../escape": "cli.js", up: "../../../x.js" } }, files: { "cli.js": "1" } });
    const { files, runtime } = await open({ name: "demo", dependencies: { "evil-bin": "1.0.0", "cjs-only": "1.0.0" } });
    expect((await runtime.exec("npm install")).exitCode).toBe(0);
    expect(files.listSync("node_modules/.bin").map((e) => e.path)).toEqual(["node_modules/.bin/ok"]);
    // A lockfile whose keys point outside node_modules: those entries are ignored, not written.
    const lock = json(files, "package-lock.json");
    lock.packages["node_modules/../src"] = { ...lock.packages["node_modules/cjs-only"] };
    lock.packages["node_modules/a/node_modules/../../../b"] = { ...lock.packages["node_modules/cjs-only"] };
    await files.writeFile("package-lock.json", JSON.stringify(lock));
    await files.remove("node_modules");
    expect((await runtime.exec("npm ci")).exitCode).toBe(0);
    expect(files.statSync("src")).toBeUndefined();
    expect(files.statSync("b")).toBeUndefined();
    expect(files.statSync("node_modules/cjs-only/index.js")).toBeDefined();
  });

  it("names packages with native code as needing WebContainer and does not run install scripts", async () => {
    const { files, runtime } = await open({ name: "demo", dependencies: { "native-addon": "1.0.0", "with-postinstall": "1.0.0", "with-optional": "1.0.0" } });
    const result = await runtime.exec("npm install");
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain("needs WebContainer: native-addon@1.0.0 builds a native addon (binding.gyp)");
    expect(result.output).toContain("install scripts were not run (the browser runtime does not run them): with-postinstall@1.0.0");
    expect(result.output).toContain("skipped mac-only@1.0.0: a platform-specific optional build");
    expect(files.statSync("node_modules/native-addon/binding.gyp")).toBeDefined();
    expect(files.statSync("node_modules/mac-only")).toBeUndefined();
  });

  it("installs WebAssembly builds in place of native ones, from the registry and from a lockfile made on another platform (whose entries it keeps)", async () => {
    const native = { os: ["linux"], cpu: ["x64"] };
    registry.add({ name: "lightningcss", version: "1.33.0", manifest: { main: "index.js", optionalDependencies: { "lightningcss-linux-x64-gnu": "1.33.0", "lightningcss-darwin-arm64": "1.33.0" } }, files: { "index.js": "" } });
    registry.add({ name: "lightningcss-linux-x64-gnu", version: "1.33.0", manifest: { ...native, main: "lightningcss.linux-x64-gnu.node" }, files: { "lightningcss.linux-x64-gnu.node": "ELF" } });
    registry.add({ name: "lightningcss-darwin-arm64", version: "1.33.0", manifest: { os: ["darwin"], cpu: ["arm64"] }, files: { "lightningcss.darwin-arm64.node": "Mach-O" } });
    registry.add({ name: "lightningcss-wasm", version: "1.33.0", manifest: { dependencies: { "napi-wasm": "^1.0.1" } }, files: { "wasm-node.cjs": "" } });
    registry.add({ name: "napi-wasm", version: "1.1.3", files: { "index.js": "" } });
    registry.add({ name: "fastlib", version: "2.0.0", manifest: { optionalDependencies: { "fastlib-linux-x64-gnu": "2.0.0", "fastlib-wasm32-wasi": "2.0.0" } }, files: { "index.js": "" } });
    registry.add({ name: "fastlib-linux-x64-gnu", version: "2.0.0", manifest: native, files: { "fastlib.linux-x64-gnu.node": "ELF" } });
    registry.add({ name: "fastlib-wasm32-wasi", version: "2.0.0", manifest: { cpu: ["wasm32"], main: "fastlib.wasi.cjs" }, files: { "fastlib.wasi.cjs": "" } });
    const { files, runtime } = await open({ name: "demo", dependencies: { fastlib: "^2.0.0", lightningcss: "^1.33.0" } });
    const result = await runtime.exec("npm install");
    expect(result.exitCode).toBe(0);
    const installed = ["fastlib", "fastlib-wasm32-wasi", "lightningcss", "lightningcss-wasm", "napi-wasm"];
    const top = () => [...files.entries()].map(([path]) => /^node_modules\/([^/.][^/]*)\/package\.json$/.exec(path)?.[1]).filter(Boolean).sort();
    expect(top()).toEqual(installed);
    expect(result.output).toContain("skipped lightningcss-linux-x64-gnu@1.33.0: a platform-specific optional build");
    expect(result.output).toContain("skipped fastlib-linux-x64-gnu@2.0.0: a platform-specific optional build");

    // A lockfile as npm writes it on a desktop: every platform's build with its os/cpu, no lightningcss-wasm.
    const lock = json(files, "package-lock.json");
    const tarballOf = (name: string, version: string) => (lock.packages["node_modules/lightningcss"].resolved as string).replace("lightningcss/-/lightningcss-1.33.0", `${name}/-/${name}-${version}`);
    delete lock.packages["node_modules/lightningcss-wasm"];
    delete lock.packages["node_modules/napi-wasm"];
    for (const [name, version, os, cpu] of [["lightningcss-linux-x64-gnu", "1.33.0", "linux", "x64"], ["lightningcss-darwin-arm64", "1.33.0", "darwin", "arm64"], ["fastlib-linux-x64-gnu", "2.0.0", "linux", "x64"]] as const) {
      lock.packages[`node_modules/${name}`] = { version, resolved: tarballOf(name, version), optional: true, os: [os], cpu: [cpu] };
    }
    await files.writeFile("package-lock.json", JSON.stringify(lock, null, 2));
    await files.remove("node_modules");
    registry.requests.length = 0;
    const ci = await runtime.exec("npm ci");
    expect(ci.exitCode).toBe(0);
    expect(top()).toEqual(installed);
    expect(registry.requests.some((request) => /linux-x64-gnu|darwin-arm64/.test(request.path))).toBe(false);
    const written = json(files, "package-lock.json");
    expect(written.packages["node_modules/lightningcss-darwin-arm64"]).toEqual(lock.packages["node_modules/lightningcss-darwin-arm64"]);
    expect(written.packages["node_modules/lightningcss-wasm"]).toMatchObject({ version: "1.33.0", optional: true });
  });

  it("npm ci installs exactly the lockfile and refuses one out of sync", async () => {
    const { files, runtime } = await open({ name: "demo", dependencies: { "app-a": "^1.0.0" } });
    expect((await runtime.exec("npm install")).exitCode).toBe(0);
    await files.writeFile("node_modules/stray/package.json", JSON.stringify({ name: "stray", version: "0.0.1" }));
    const ci = await runtime.exec("npm ci");
    expect(ci.exitCode).toBe(0);
    expect(files.statSync("node_modules/stray")).toBeUndefined();
    expect(files.statSync("node_modules/app-a/index.js")).toBeDefined();

    await files.writeFile("package.json", JSON.stringify({ name: "demo", dependencies: { "app-a": "^1.0.0", "cjs-only": "^1.0.0" } }));
    const outOfSync = await runtime.exec("npm ci");
    expect(outOfSync.exitCode).toBe(1);
    expect(outOfSync.output).toContain("npm ci can only install when package.json and package-lock.json are in sync");
    expect(files.statSync("node_modules/cjs-only")).toBeUndefined();
  });

  it("npm ls lists the top level (--all the tree) and flags what is missing", async () => {
    const { files, runtime } = await open({ name: "demo", version: "1.0.0", dependencies: { "app-a": "^1.0.0", "app-b": "^1.0.0" } });
    await runtime.exec("npm install");
    const top = await runtime.exec("npm ls");
    expect(top.output).toBe("demo@1.0.0 /workspace\n├── app-a@1.0.0\n└── app-b@1.0.0\n");
    const all = await runtime.exec("npm ls --all");
    expect(all.output).toBe(
      "demo@1.0.0 /workspace\n├─┬ app-a@1.0.0\n│ └── shared@1.1.0\n└─┬ app-b@1.0.0\n  ├─┬ app-c@1.0.0\n  │ └── shared@1.1.0 deduped\n  └── shared@2.0.0\n",
    );
    await files.remove("node_modules/app-a");
    const missing = await runtime.exec("npm ls");
    expect(missing.exitCode).toBe(1);
    expect(missing.output).toContain("UNMET DEPENDENCY app-a@^1.0.0");
  });
});

describe("a failed install leaves node_modules as it was", () => {
  async function installed() {
    const opened = await open({ name: "demo", dependencies: { "app-a": "^1.0.0" } });
    expect((await opened.runtime.exec("npm install")).exitCode).toBe(0);
    return { ...opened, before: nodeModules(opened.files), manifest: opened.files.readSync("package.json"), lock: opened.files.readSync("package-lock.json") };
  }

  it("404: a package the registry does not have", async () => {
    const { files, runtime, before, manifest } = await installed();
    const result = await runtime.exec("npm install no-such-package");
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain("npm error code E404");
    expect(result.output).toContain("no-such-package is not in the registry");
    expect(nodeModules(files)).toEqual(before);
    expect(files.readSync("package.json")).toBe(manifest);
  });

  it("integrity mismatch: a tarball that is not what the registry promised", async () => {
    const { files, runtime, before, lock } = await installed();
    registry.tampered.add("app-b@1.0.0");
    const result = await runtime.exec("npm install app-b");
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain("npm error code EINTEGRITY");
    expect(result.output).toContain("Integrity check failed for app-b@1.0.0");
    expect(nodeModules(files)).toEqual(before);
    expect(files.readSync("package-lock.json")).toBe(lock);
  });

  it("a corrupt tarball", async () => {
    const { files, runtime, before } = await installed();
    registry.corrupt.add("cjs-only@1.0.0");
    const result = await runtime.exec("npm install cjs-only");
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain("npm error code EBADTAR");
    expect(result.output).toContain("The tarball of cjs-only@1.0.0 is corrupt: not a gzip file");
    expect(nodeModules(files)).toEqual(before);
  });

  it("offline and CORS refusals (fetch rejects without a response)", async () => {
    const offlineFetch = async () => {
      throw new TypeError("Failed to fetch");
    };
    const { files, runtime, before } = await installed();
    await files.remove("package-lock.json");
    const offline = createBrowserRuntime(files, { fetch: offlineFetch });
    disposers.push(() => offline.dispose());
    const result = await offline.exec("npm install cjs-only");
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain("npm error code ENETWORK");
    expect(result.output).toContain(`Could not reach ${registry.url.slice(0, -1)}`);
    expect(result.output).toContain("CORS");
    expect(nodeModules(files)).toEqual(before);
    void runtime;
  });

  it("Ctrl-C (abort) while tarballs download", async () => {
    const { files, runtime, before, lock } = await installed();
    registry.tarballDelayMs = 2_000;
    registry.requests.length = 0;
    const controller = new AbortController();
    const running = runtime.exec("npm install app-b cjs-only", { signal: controller.signal });
    await expect.poll(() => registry.requests.some((r) => r.path.endsWith(".tgz")), { timeout: 5_000 }).toBe(true);
    controller.abort();
    const result = await running;
    expect(result.aborted).toBe(true);
    // Nothing arrives afterwards either.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(nodeModules(files)).toEqual(before);
    expect(files.readSync("package-lock.json")).toBe(lock);
  });

  it("an install stopped while downloading writes nothing, also when the downloads finish after the stop", async () => {
    const { files, before, lock } = await installed();
    registry.tarballDelayMs = 300;
    registry.requests.length = 0;
    const controller = new AbortController();
    // A fetch that does not give up on abort (the page's does; this checks the installer's own guard).
    const stubborn: RegistryFetch = (url, init) => fetch(url, { ...init, signal: undefined });
    const output = { out: () => undefined, err: () => undefined };
    const running = install(new Project(files, "", "terminal"), { mode: "install", add: ["app-b"] }, { fetch: stubborn, signal: controller.signal, output });
    await expect.poll(() => registry.requests.some((r) => r.path.endsWith(".tgz")), { timeout: 5_000 }).toBe(true);
    controller.abort();
    await expect(running).rejects.toThrow();
    expect(nodeModules(files)).toEqual(before);
    expect(files.readSync("package-lock.json")).toBe(lock);
  });

  it("a tarball that fails halfway through a many-package install writes nothing", async () => {
    const { files, runtime } = await open({ name: "demo", dependencies: { "app-a": "^1.0.0", "app-b": "^1.0.0", "cjs-only": "1.0.0" } });
    registry.missing.add("cjs-only@1.0.0");
    const result = await runtime.exec("npm install");
    expect(result.exitCode).toBe(1);
    expect(nodeModules(files)).toEqual({});
    expect(files.statSync("package-lock.json")).toBeUndefined();
  });
});

describe("bundleDependencies", () => {
  it("keeps the packages a tarball bundles, as shipped, and does not resolve them from the registry", async () => {
    // The bundled "shared" is a patched copy that exists only inside the tarball (the registry has no 9.9.9).
    registry.add({
      name: "with-bundle",
      version: "1.0.0",
      manifest: { main: "index.js", dependencies: { shared: "^9.9.9", "cjs-only": "^1.0.0" }, bundleDependencies: ["shared"] },
      files: {
        "index.js": "module.exports = 'bundle uses shared ' + require('shared').version;\n",
        "node_modules/shared/package.json": JSON.stringify({ name: "shared", version: "9.9.9", main: "index.js" }),
        "node_modules/shared/index.js": "module.exports = { version: 'bundled 9.9.9' };\n",
      },
    });
    const { files, runtime } = await open({ name: "demo", version: "1.0.0", dependencies: { "with-bundle": "1.0.0" } });
    const installed = await runtime.exec("npm install");
    expect(installed.exitCode, installed.output).toBe(0);
    expect(files.readSync("node_modules/with-bundle/node_modules/shared/index.js")).toBe("module.exports = { version: 'bundled 9.9.9' };\n");
    // Not resolved: no packument of shared was asked for, nothing of it at the top.
    expect(registry.requests.some((request) => request.path === "/shared")).toBe(false);
    expect(files.statSync("node_modules/shared")).toBeUndefined();
    // Its other dependencies are installed as usual; the next install keeps the bundle.
    expect(files.statSync("node_modules/cjs-only/package.json")?.kind).toBe("file");
    const again = await runtime.exec("npm install");
    expect(again.exitCode, again.output).toBe(0);
    expect(files.readSync("node_modules/with-bundle/node_modules/shared/package.json")).toContain("9.9.9");
    const ls = await runtime.exec("npm ls --all");
    expect(ls.output).toContain("shared@9.9.9");
    expect(ls.exitCode, ls.output).toBe(0);
  });
});
