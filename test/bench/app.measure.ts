// App start-up figures (run by `npm run bench`, which builds first): the initial JavaScript the
// browser must download before the frame paints, and how long until the editor is interactive on
// localhost in headless Chromium with a cold cache.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, it } from "vitest";
import { useBuiltApp } from "./built-app";
import { median, report } from "./report";

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/** Modules that must arrive only after the frame has painted. */
const MUST_BE_LAZY = [
  /monaco/i,
  /editor\.api/i,
  /xterm/i,
  /runtime\/browser/i,
  /just-bash/i,
  /webcontainer/i,
  // The agent's code service: only its few-line lazy wrapper (code-intel/lazy.ts) is in the first chunk.
  /typescriptServices/i,
  // node in the browser runtime: its runtime, the sandbox host and sucrase load with the first program.
  /runtime\/(node|sandbox)\//i,
  /sucrase/i,
  // npm in the browser runtime: the registry client, resolver, tarball reader and semver load with the first npm or npx.
  /runtime\/npm\//i,
  /node_modules\/semver\//i,
  /code-intel\/(index|worker|monaco-service|code-service|workspace-code-intelligence|protocol)/i,
];
const EDITOR_READY_MARK = "webcode:editor-ready";
const RUNS = 5;

function initialChunks(manifest: Record<string, ManifestChunk>): Array<[string, ManifestChunk]> {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error("dist/.vite/manifest.json has no entry chunk");
  const seen = new Map<string, ManifestChunk>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) return;
    seen.set(key, chunk);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry[0]);
  return [...seen];
}

describe("app start-up", () => {
  const app = useBuiltApp();

  it("initial JavaScript (entry + static imports, gzip)", () => {
    const manifest = JSON.parse(readFileSync("dist/.vite/manifest.json", "utf8")) as Record<string, ManifestChunk>;
    const chunks = initialChunks(manifest);
    let bytes = 0;
    for (const [, chunk] of chunks) bytes += gzipSync(readFileSync(`dist/${chunk.file}`), { level: 9 }).length;
    const eager = chunks.filter(([key, chunk]) => MUST_BE_LAZY.some((pattern) => pattern.test(`${key} ${chunk.src ?? ""} ${chunk.name ?? ""}`)));
    report({
      name: "initial JS (gzip)",
      value: Math.round((bytes / 1024) * 10) / 10,
      unit: "KB",
      target: "<= 300",
      note: `${chunks.length} chunks: ${chunks.map(([, c]) => c.file.replace("assets/", "")).join(", ")}; ${
        eager.length === 0 ? "Monaco, xterm, just-bash, WebContainer and the code service are lazy" : `NOT lazy: ${eager.map(([k]) => k).join(", ")}`
      }`,
    });
  });

  it("editor interactive after navigation (cold cache, localhost)", async () => {
    const times: number[] = [];
    const paints: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // A new context has an empty HTTP cache and empty IndexedDB: a first visit every time.
      const context = await app.browser().newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(app.url());
      const ready = await page.waitForFunction(
        (mark) => performance.getEntriesByName(mark)[0]?.startTime,
        EDITOR_READY_MARK,
        { timeout: 60_000, polling: 20 },
      );
      times.push((await ready.jsonValue()) as number);
      paints.push(await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN));
      await context.close();
    }
    report({
      name: "editor interactive",
      value: Math.round(median(times)),
      unit: "ms",
      target: "<= 1500",
      note: `median of ${RUNS} cold loads (${times.map(Math.round).join(", ")} ms); first contentful paint median ${Math.round(median(paints))} ms`,
    });
  });
});
