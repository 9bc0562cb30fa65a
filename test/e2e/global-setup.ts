// Browser-test setup: builds the tests' app when dist-e2e/ is missing, serves it with the isolation headers
// (scripts/serve.mjs) on a free port, and hands the URL to the tests (inject("baseUrl")).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function waitForUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`scripts/serve.mjs did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /https?:\/\/\S+/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[0].replace(/\/?$/, "/"));
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`scripts/serve.mjs exited with ${code}:\n${output}`));
    });
  });
}

/**
 * Builds the app when missing (a failed build throws: nothing to test): `dist` is the real app,
 * `dist-e2e` the browser tests' build with a fake WebContainer API (see vite.config.ts).
 */
export function ensureBuilt(dir: "dist" | "dist-e2e" = "dist"): void {
  if (existsSync(`${dir}/index.html`)) return;
  const build = spawnSync("npm", ["run", "--silent", dir === "dist" ? "build" : "build:e2e"], { stdio: "inherit" });
  if (build.status !== 0) throw new Error("The app build failed; browser tests cannot run.");
}

/** Serves a build (default dist/) on a free port; returns the URL and a stop function. Also used by the benchmarks. */
export async function startServer(dir: "dist" | "dist-e2e" = "dist"): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const server = spawn(process.execPath, ["scripts/serve.mjs", "--port", String(port), "--host", "127.0.0.1", "--dir", dir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await waitForUrl(server, 15_000);
  return {
    url,
    stop: async () => {
      if (server.exitCode !== null) return;
      server.kill();
      await new Promise((resolve) => server.once("exit", resolve));
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureBuilt("dist-e2e");
  const server = await startServer("dist-e2e");
  project.provide("baseUrl", server.url);
  process.env.WEBCODE_BASE_URL = server.url;
  return server.stop;
}
