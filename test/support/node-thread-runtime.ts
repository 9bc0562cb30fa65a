// A SandboxEndpoint that runs the real node runtime on a Node worker thread, for tests of what needs
// a thread of its own: a program that blocks (execSync, spawnSync wait on their shared mailbox while
// the host, on this thread, runs the child). The runtime is bundled once per test process with
// rolldown (Vite 8's own bundler, installed with it; as Vite bundles the browser's worker); this file plays the sandbox frame's part: one
// mailbox per worker, filled with the "stdin" and "sync-answer" parts the host sends.
import { Worker } from "node:worker_threads";
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";
import { gzippedBase64Plugin } from "../../scripts/gzipped-base64-plugin";
import type { SandboxEndpoint, SandboxEndpointFactory, SandboxEvent } from "../../src/runtime/sandbox";
import { createMailbox, put } from "../../src/runtime/sandbox/stdin-mailbox";

let bundle: Promise<string> | undefined;
const BROTLI_PKG_NODE = "brotli-wasm/pkg.node/";
const brotliDir = path.dirname(createRequire(import.meta.url).resolve("brotli-wasm"));

function bundled(): Promise<string> {
  bundle ??= (async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "webcode-node-thread-")), "runtime.cjs");
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const shim = fileURLToPath(new URL("../../src/runtime/node/process-shim.ts", import.meta.url));
    await build({
      input: fileURLToPath(new URL("./node-thread-entry.ts", import.meta.url)),
      platform: "node",
      cwd: root,
      logLevel: "silent",
      plugins: [
        { name: "process-shim", resolveId: (id: string) => (id === "process/" || id === "process" ? shim : undefined) },
        // What vite.config.ts gives the worker build for node:zlib's Brotli (builtins/brotli-codec.ts):
        // brotli-wasm's Node glue as text (`?raw`) and its wasm gzipped (`?gzip-base64`).
        {
          name: "brotli-wasm-files",
          resolveId: (id: string) => (id.startsWith(BROTLI_PKG_NODE) ? path.join(brotliDir, id.slice("brotli-wasm/".length)) : undefined),
          load: (id: string) => (id.endsWith("?raw") ? `export default ${JSON.stringify(readFileSync(id.slice(0, -"?raw".length), "utf8"))};` : undefined),
        },
        gzippedBase64Plugin(),
      ],
      output: { file, format: "cjs", codeSplitting: false, keepNames: true },
    });
    return file;
  })();
  return bundle;
}

/** The factory, once the runtime is bundled (about a second). */
export async function nodeThreadEndpoints(): Promise<SandboxEndpointFactory> {
  const file = await bundled();
  return () => nodeThreadEndpoint(file);
}

function nodeThreadEndpoint(file: string): SandboxEndpoint {
  const mailbox = createMailbox()!;
  const worker = new Worker(file, { workerData: { file, mailbox } });
  const eventListeners: Array<(event: SandboxEvent) => void> = [];
  const crashListeners: Array<(message: string) => void> = [];
  let terminated = false;
  worker.on("message", (event: SandboxEvent) => eventListeners.forEach((listener) => listener(event)));
  worker.on("error", (error) => {
    if (!terminated) crashListeners.forEach((listener) => listener(error.message));
  });
  return {
    send(message) {
      if (terminated) return;
      if (message.type === "sync-answer" || (message.type === "stdin" && message.sync)) put(mailbox, message.data);
      else worker.postMessage(message);
    },
    onEvent: (listener) => void eventListeners.push(listener),
    onCrash: (listener) => void crashListeners.push(listener),
    terminate() {
      terminated = true;
      void worker.terminate();
    },
  };
}
