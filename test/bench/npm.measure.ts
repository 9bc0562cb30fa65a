// npm install in the browser runtime (run here in Node over the same code): a 50-package tree from a
// fake registry on 127.0.0.1, resolved, downloaded, integrity-checked, unpacked and written through the
// workspace file service (target <= 5 s); then `npm ci` from the lockfile into a fresh workspace and
// a no-op `npm install`. Also the size of the lazily loaded npm chunk when a build is there.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage } from "../../src/storage";
import { generatedFixtures, startFakeRegistry } from "../support/fake-registry";
import { report } from "./report";

const PACKAGES = 50;

async function workspace(name: string, registryUrl: string) {
  const storage = await openStorage({ name: `bench-npm-${name}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "bench");
  await files.writeFile(".npmrc", `registry=${registryUrl}\n`);
  await files.writeFile("package.json", JSON.stringify({ name: "bench", version: "1.0.0", dependencies: { "pkg-0": "^1.0.0" } }));
  return { files, runtime: createBrowserRuntime(files) };
}

it("measures npm install of a 50-package tree from a local registry", async () => {
  const registry = await startFakeRegistry(generatedFixtures(PACKAGES));
  try {
    const cold = await workspace("cold", registry.url);
    let start = performance.now();
    const installed = await cold.runtime.exec("npm install");
    const coldMs = Math.round(performance.now() - start);
    if (installed.exitCode !== 0) throw new Error(installed.output);
    const fileCount = [...cold.files.entries()].filter(([path]) => path.startsWith("node_modules/")).length;
    report({ name: "npm install: 50 packages, cold", value: coldMs, unit: "ms", target: "<= 5000", note: `${fileCount} files written and stored, ${registry.requests.length} requests` });

    start = performance.now();
    const again = await cold.runtime.exec("npm install");
    report({ name: "npm install: 50 packages, already installed", value: Math.round(performance.now() - start), unit: "ms", note: again.output.trim().split("\n").at(-1) });

    const ci = await workspace("ci", registry.url);
    await ci.files.writeFile("package-lock.json", cold.files.readSync("package-lock.json"));
    registry.requests.length = 0;
    start = performance.now();
    const fromLock = await ci.runtime.exec("npm ci");
    if (fromLock.exitCode !== 0) throw new Error(fromLock.output);
    report({ name: "npm ci: 50 packages from package-lock.json", value: Math.round(performance.now() - start), unit: "ms", note: `${registry.requests.length} requests (tarballs only)` });
    for (const opened of [cold, ci]) {
      opened.runtime.dispose();
      opened.files.dispose();
    }
  } finally {
    await registry.close();
  }

  // The npm code is a chunk of its own, loaded when npm or npx is first typed.
  if (existsSync("dist/assets")) {
    const chunk = readdirSync("dist/assets")
      .filter((file) => file.endsWith(".js"))
      .find((file) => readFileSync(`dist/assets/${file}`, "utf8").includes("npm (browser runtime)"));
    if (chunk) {
      const bytes = readFileSync(`dist/assets/${chunk}`);
      report({ name: "npm: lazy chunk loaded on first use", value: Math.round((gzipSync(bytes).length / 1024) * 10) / 10, unit: "KB gzip", note: `${chunk}, ${Math.round(bytes.length / 1024)} KB raw; not in the initial bundle` });
    }
  }
}, 120_000);
