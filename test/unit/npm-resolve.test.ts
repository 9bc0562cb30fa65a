// The npm pieces on their own: version picks like npm's, the hoisted layout (dedupe, nesting on a
// conflict, no shadowing), lockfile v3 round trip and sync check, integrity, the tarball reader.
import { createHash } from "node:crypto";
import { gzipSync } from "fflate";
import { createTar } from "nanotar";
import { describe, expect, it } from "vitest";
import { checkIntegrity, integrityOf, parseLockfile, pickVersion, resolveTree, treeFromLockfile, unpackTarball, writeLockfile } from "../../src/runtime/npm";
import { lockMismatch } from "../../src/runtime/npm/lockfile";
import { readTar } from "../../src/runtime/npm/tarball";
import type { Manifest, Packument } from "../../src/runtime/npm/types";

function packument(name: string, versions: Record<string, Partial<Manifest>>, latest?: string, tags: Record<string, string> = {}): Packument {
  const all = Object.keys(versions);
  return {
    name,
    "dist-tags": { latest: latest ?? all.at(-1)!, ...tags },
    versions: Object.fromEntries(all.map((v) => [v, { name, version: v, dist: { tarball: `https://r.test/${name}-${v}.tgz` }, ...versions[v] }])),
  };
}

function registryOf(...list: Packument[]) {
  const byName = new Map(list.map((p) => [p.name, p]));
  const asked: string[] = [];
  return {
    asked,
    packument: async (name: string) => {
      asked.push(name);
      const found = byName.get(name);
      if (!found) throw new Error(`404 ${name}`);
      return found;
    },
  };
}

describe("pickVersion (like npm)", () => {
  const p = packument("x", { "1.0.0": {}, "1.2.0": {}, "1.3.0-rc.1": {}, "2.0.0": {}, "2.1.0": {} }, "2.0.0", { next: "1.3.0-rc.1" });
  it("takes latest when it satisfies the range, not the highest match", () => {
    expect(pickVersion(p, "")!.version).toBe("2.0.0");
    expect(pickVersion(p, "*")!.version).toBe("2.0.0");
    expect(pickVersion(p, ">=1")!.version).toBe("2.0.0");
  });
  it("otherwise the highest version in range, prereleases only when asked for", () => {
    expect(pickVersion(p, "^1.0.0")!.version).toBe("1.2.0");
    expect(pickVersion(p, "^2.1")!.version).toBe("2.1.0");
    expect(pickVersion(p, "~1.0.0")!.version).toBe("1.0.0");
    expect(pickVersion(p, "^1.3.0-rc.0")!.version).toBe("1.3.0-rc.1");
    expect(pickVersion(p, "^3")).toBeUndefined();
  });
  it("dist-tags by name, and preferred (locked) versions that satisfy", () => {
    expect(pickVersion(p, "next")!.version).toBe("1.3.0-rc.1");
    expect(pickVersion(p, "^1.0.0", ["1.0.0"])!.version).toBe("1.0.0");
    expect(pickVersion(p, "^2.0.0", ["1.0.0"])!.version).toBe("2.0.0");
  });
  it("refuses specs only Node's npm can fetch (git, file, URLs)", () => {
    expect(() => pickVersion(p, "github:a/b")).toThrow(/need WebContainer/);
    expect(() => pickVersion(p, "file:../x")).toThrow(/need WebContainer/);
  });
});

describe("resolveTree: the hoisted layout", () => {
  it("dedupes a shared dependency at the top and nests a conflicting version under its requester", async () => {
    const registry = registryOf(
      packument("a", { "1.0.0": { dependencies: { s: "^1.0.0" } } }),
      packument("b", { "1.0.0": { dependencies: { s: "^2.0.0" } } }),
      packument("s", { "1.0.0": {}, "1.5.0": {}, "2.0.0": {} }, "1.5.0"),
    );
    const { tree } = await resolveTree({ dependencies: { a: "^1", b: "^1" } }, registry);
    expect([...tree.keys()]).toEqual(["node_modules/a", "node_modules/b", "node_modules/b/node_modules/s", "node_modules/s"]);
    expect(tree.get("node_modules/s")!.version).toBe("1.5.0");
    expect(tree.get("node_modules/b/node_modules/s")!.version).toBe("2.0.0");
  });

  it("a root dependency wins the top folder; a deeper conflict nests at the shallowest folder that is free", async () => {
    const registry = registryOf(
      packument("s", { "1.0.0": {}, "2.0.0": {} }),
      packument("a", { "1.0.0": { dependencies: { b: "^1" } } }),
      packument("b", { "1.0.0": { dependencies: { s: "^1" } } }),
      packument("c", { "1.0.0": { dependencies: { b: "^2" } } }),
    );
    // Root needs s@2; b needs s@1, so s@1 nests under b.
    const { tree } = await resolveTree({ dependencies: { a: "1", s: "^2" } }, registry);
    expect([...tree.keys()]).toEqual(["node_modules/a", "node_modules/b", "node_modules/b/node_modules/s", "node_modules/s"]);
    expect(tree.get("node_modules/s")!.version).toBe("2.0.0");
  });

  it("does not place a package where it would shadow a dependency already resolved past that folder", async () => {
    // Root has x@1. Under a (which sits at the top and has p and r nested because of conflicts),
    // p resolves x@^1 to the root's; r needs x@^2, which must not land in a/node_modules (p would see it).
    const registry = registryOf(
      packument("x", { "1.0.0": {}, "2.0.0": {} }),
      packument("p", { "1.0.0": {}, "2.0.0": { dependencies: { x: "^1" } } }),
      packument("r", { "1.0.0": {}, "2.0.0": { dependencies: { x: "^2" } } }),
      packument("a", { "1.0.0": { dependencies: { p: "^2", r: "^2" } } }),
    );
    const { tree } = await resolveTree({ dependencies: { a: "1", p: "1", r: "1", x: "1" } }, registry);
    expect(tree.get("node_modules/a/node_modules/p")!.version).toBe("2.0.0");
    expect(tree.get("node_modules/a/node_modules/x")).toBeUndefined();
    expect(tree.get("node_modules/a/node_modules/r/node_modules/x")!.version).toBe("2.0.0");
  });

  it("installs required peers, skips optional ones that fail, and marks dev and optional packages", async () => {
    const registry = registryOf(
      packument("plugin", { "1.0.0": { peerDependencies: { host: "^1" }, peerDependenciesMeta: {} } }),
      packument("host", { "1.0.0": {} }),
      packument("tool", { "1.0.0": { optionalDependencies: { gone: "^1", "win-only": "^1" } } }),
      packument("win-only", { "1.0.0": { os: ["win32"] } }),
    );
    const { tree, skipped } = await resolveTree({ dependencies: { plugin: "1" }, devDependencies: { tool: "1" } }, registry);
    expect([...tree.keys()]).toEqual(["node_modules/host", "node_modules/plugin", "node_modules/tool"]);
    expect(tree.get("node_modules/host")!.dev).toBe(false);
    expect(tree.get("node_modules/tool")!.dev).toBe(true);
    expect(skipped.join("\n")).toMatch(/gone@\^1: 404 gone/);
    expect(skipped.join("\n")).toMatch(/win-only@1\.0\.0: a platform-specific optional build/);
  });

  it("installs the WebAssembly builds in place of skipped native ones: a wasm32 optional build, lightningcss-wasm and @rollup/wasm-node added at the native version", async () => {
    const registry = registryOf(
      packument("rolldown", { "1.2.0": { optionalDependencies: { "@rolldown/binding-linux-x64-gnu": "1.2.0", "@rolldown/binding-wasm32-wasi": "1.2.0" } } }),
      packument("@rolldown/binding-linux-x64-gnu", { "1.2.0": { os: ["linux"], cpu: ["x64"] } }),
      packument("@rolldown/binding-wasm32-wasi", { "1.2.0": { cpu: ["wasm32"], dependencies: { "@napi-rs/wasm-runtime": "^1" } } }),
      packument("@napi-rs/wasm-runtime", { "1.0.0": {} }),
      packument("lightningcss", { "1.33.0": { optionalDependencies: { "lightningcss-linux-x64-gnu": "1.33.0", "lightningcss-darwin-arm64": "1.33.0" } } }),
      packument("lightningcss-linux-x64-gnu", { "1.33.0": { os: ["linux"], cpu: ["x64"] } }),
      packument("lightningcss-darwin-arm64", { "1.33.0": { os: ["darwin"], cpu: ["arm64"] } }),
      packument("lightningcss-wasm", { "1.32.0": {}, "1.33.0": {} }),
      packument("rollup", { "4.60.0": { optionalDependencies: { "@rollup/rollup-linux-x64-gnu": "4.60.0" } } }),
      packument("@rollup/rollup-linux-x64-gnu", { "4.60.0": { os: ["linux"], cpu: ["x64"] } }),
      packument("@rollup/wasm-node", { "4.60.0": {}, "4.61.0": {} }),
    );
    const { tree, skipped } = await resolveTree({ dependencies: { lightningcss: "^1", rolldown: "^1", rollup: "^4" } }, registry);
    expect([...tree.keys()]).toEqual([
      "node_modules/@napi-rs/wasm-runtime",
      "node_modules/@rolldown/binding-wasm32-wasi",
      "node_modules/@rollup/wasm-node",
      "node_modules/lightningcss",
      "node_modules/lightningcss-wasm",
      "node_modules/rolldown",
      "node_modules/rollup",
    ]);
    expect(tree.get("node_modules/lightningcss-wasm")!.version).toBe("1.33.0");
    expect(tree.get("node_modules/@rollup/wasm-node")!.version).toBe("4.60.0");
    expect(tree.get("node_modules/lightningcss-wasm")!.optional).toBe(true);
    expect(skipped.join("\n")).toMatch(/@rolldown\/binding-linux-x64-gnu@1\.2\.0: a platform-specific optional build/);
    expect(skipped.join("\n")).toMatch(/lightningcss-darwin-arm64@1\.33\.0: a platform-specific optional build/);
  });

  it("refuses dependency names that are not package names (they would become folders)", async () => {
    const registry = registryOf(packument("a", { "1.0.0": { dependencies: { "../../src": "1" } } }));
    await expect(resolveTree({ dependencies: { a: "1" } }, registry)).rejects.toThrow('"../../src" (a dependency of node_modules/a) is not a valid package name.');
  });

  it("a missing required dependency fails with the registry's error", async () => {
    const registry = registryOf(packument("a", { "1.0.0": { dependencies: { nope: "^1" } } }));
    await expect(resolveTree({ dependencies: { a: "1" } }, registry)).rejects.toThrow("404 nope");
    const noMatch = registryOf(packument("a", { "1.0.0": {} }));
    await expect(resolveTree({ dependencies: { a: "^9" } }, noMatch)).rejects.toThrow('No version of a matches "^9"');
  });
});

describe("package-lock.json v3", () => {
  it("round-trips a tree and tells when package.json no longer matches", async () => {
    const registry = registryOf(
      packument("a", { "1.0.0": { dependencies: { s: "^1.0.0" }, bin: "cli.js" } }),
      packument("s", { "1.0.0": { dist: { tarball: "https://r.test/s-1.0.0.tgz", integrity: "sha512-abc" } } }),
    );
    const root = { name: "demo", version: "0.1.0", dependencies: { a: "^1.0.0" } };
    const { tree } = await resolveTree(root, registry);
    const text = writeLockfile(root, tree);
    const lock = parseLockfile(text)!;
    expect(lock).toMatchObject({ name: "demo", lockfileVersion: 3, requires: true });
    expect(lock.packages["node_modules/a"]).toEqual({ version: "1.0.0", resolved: "https://r.test/a-1.0.0.tgz", dependencies: { s: "^1.0.0" }, bin: { a: "cli.js" } });
    expect(lock.packages["node_modules/s"]!.integrity).toBe("sha512-abc");
    expect([...treeFromLockfile(lock).values()].map((p) => `${p.name}@${p.version}`)).toEqual(["a@1.0.0", "s@1.0.0"]);
    expect(lockMismatch(lock, root)).toBeUndefined();
    expect(lockMismatch(lock, { ...root, dependencies: { a: "^2.0.0" } })).toMatch(/lists a@\^2\.0\.0, the lockfile a@\^1\.0\.0/);
    expect(lockMismatch(lock, { ...root, devDependencies: { b: "1" } })).toMatch(/devDependencies/);
    expect(parseLockfile("{ not json")).toBeUndefined();
    expect(parseLockfile(JSON.stringify({ lockfileVersion: 1, dependencies: {} }))).toBeUndefined();
  });
});

describe("integrity", () => {
  const bytes = new TextEncoder().encode("tarball bytes");
  it("checks sha512 and the older sha1 shasum, and refuses a mismatch", async () => {
    const sha512 = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
    expect(await integrityOf(bytes)).toBe(sha512);
    await expect(checkIntegrity(bytes, "x@1", sha512)).resolves.toBeUndefined();
    await expect(checkIntegrity(bytes, "x@1", undefined, createHash("sha1").update(bytes).digest("hex"))).resolves.toBeUndefined();
    const other = `sha512-${createHash("sha512").update("other").digest("base64")}`;
    await expect(checkIntegrity(bytes, "x@1", other)).rejects.toThrow(/Integrity check failed for x@1/);
    // The strongest algorithm listed decides: a matching sha1 does not excuse a wrong sha512.
    const sha1 = `sha1-${createHash("sha1").update(bytes).digest("base64")}`;
    await expect(checkIntegrity(bytes, "x@1", `${sha1} ${other}`)).rejects.toThrow(/Integrity check failed/);
  });
});

describe("tarball reader", () => {
  const tar = (entries: Array<{ name: string; data?: string }>) => createTar(entries);

  it("strips the first folder and keeps files byte for byte", () => {
    const files = unpackTarball(gzipSync(tar([{ name: "package/package.json", data: "{}" }, { name: "package/lib/a.js", data: "x" }])), "p@1");
    expect(files.map((f) => [f.path, new TextDecoder().decode(f.data)])).toEqual([["package.json", "{}"], ["lib/a.js", "x"]]);
  });

  it("joins the ustar prefix field (npm's packer uses it for paths over 100 characters)", () => {
    const bytes = tar([{ name: "a.js", data: "deep" }]);
    const prefix = `package/${"d".repeat(60)}/${"e".repeat(60)}`;
    bytes.set(new TextEncoder().encode(prefix), 345);
    setChecksum(bytes);
    expect(readTar(bytes, "p@1")[0]!.path).toBe(`${"d".repeat(60)}/${"e".repeat(60)}/a.js`);
  });

  it("refuses a header with a wrong checksum, a truncated file, and a path leaving the package", () => {
    const bytes = tar([{ name: "package/a.js", data: "x".repeat(600) }]);
    const broken = bytes.slice();
    broken[10] = 65;
    expect(() => readTar(broken, "p@1")).toThrow(/corrupt: a header at byte 0 has a wrong checksum/);
    expect(() => readTar(bytes.slice(0, 700), "p@1")).toThrow(/corrupt: it ends in the middle of a file/);
    expect(() => readTar(tar([{ name: "package/../../evil.js", data: "x" }]), "p@1")).toThrow(/leaves the package folder/);
    expect(() => unpackTarball(new Uint8Array([1, 2, 3]), "p@1")).toThrow(/corrupt: not a gzip file/);
  });
});

function setChecksum(header: Uint8Array): void {
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += header[i]!;
  header.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, "0")}\0 `), 148);
}
