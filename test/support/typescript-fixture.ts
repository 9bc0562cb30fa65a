// This repository's own TypeScript compiler as a package for the fake registry (test/support/fake-registry.ts):
// the files tsc needs (not the language service, tsserver or translations), ~10 MB.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { FixtureVersion } from "./fake-registry";

/** The compiler's files tsc needs (not the language service, tsserver or translations). */
export function typescriptFixture(): FixtureVersion {
  const dir = path.dirname(createRequire(import.meta.url).resolve("typescript/package.json"));
  const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Record<string, unknown>;
  const wanted = ["bin/tsc", "lib/tsc.js", "lib/_tsc.js", ...readdirSync(path.join(dir, "lib")).filter((f) => /^lib\..*\.d\.ts$/.test(f)).map((f) => `lib/${f}`)];
  const files = Object.fromEntries(wanted.map((file) => [file, readFileSync(path.join(dir, file), "utf8")]));
  return { name: "typescript", version: String(manifest.version), manifest: { main: "./lib/tsc.js", bin: { tsc: "./bin/tsc" }, engines: manifest.engines }, files };
}
