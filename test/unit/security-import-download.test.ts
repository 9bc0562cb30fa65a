// Issue 9, point 3 (the download): the size limit stops an `#import=` download while it streams,
// not after, and the import dialog's flow shows its progress and cancels it. A fake server on
// 127.0.0.1 streams without end; Node's fetch downloads from it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_IMPORT_BYTES, fetchZip } from "../../src/transfer";
import { ImportFlow, describeProgress, linkSource, type ImportContext } from "../../src/ui/transfer";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Streams zeros in 64 KB chunks, every 5 ms, until the client goes away; counts what it sent. */
async function endlessServer(): Promise<{ url: string; requests: () => number; sent: () => number; closed: Promise<void> }> {
  let requests = 0;
  let sent = 0;
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const server: Server = createServer((req, res) => {
    requests++;
    res.writeHead(200, { "content-type": "application/zip", "access-control-allow-origin": "*" });
    const chunk = Buffer.alloc(64 * 1024);
    const timer = setInterval(() => {
      if (res.destroyed) return;
      sent += chunk.length;
      res.write(chunk);
    }, 5);
    res.on("close", () => {
      clearInterval(timer);
      markClosed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/big.zip`, requests: () => requests, sent: () => sent, closed };
}

function context(): ImportContext & { told: string[] } {
  const told: string[] = [];
  return {
    told,
    storage: {} as never,
    workspace: { v: 1, id: "ws", name: "Mine", createdAt: 1, updatedAt: 1 } as never,
    files: {} as never,
    workspaces: { refresh: async () => {}, switchTo: async () => {} },
    notifications: { info: (message: string) => told.push(message), error: () => {} },
  };
}

describe("the download", () => {
  it("shows its progress and is cancelled: the connection is closed, nothing imported", async () => {
    const server = await endlessServer();
    const flow = new ImportFlow();
    const ctx = context();
    flow.open(linkSource(server.url), ctx);
    expect(flow.state).toMatchObject({ step: "confirm", host: new URL(server.url).host });
    expect(server.requests()).toBe(0);
    flow.confirmDownload();
    for (let i = 0; i < 400 && !(flow.state.step === "running" && flow.state.progress.bytes > 0); i++) await new Promise((r) => setTimeout(r, 5));
    const state = flow.state;
    if (state.step !== "running") throw new Error(`expected a running download, got ${state.step}`);
    expect(state.phase).toBe("download");
    expect(state.cancellable).toBe(true);
    expect(describeProgress(state.phase, state.progress)).toMatch(/^Downloading · [\d.]+ (KB|MB) \(stops at 500(\.0)? MB\)$/);
    flow.cancel();
    await server.closed;
    await flow.whenOpened();
    expect(flow.state.step).toBe("closed");
    expect(ctx.told).toEqual(["Import cancelled. Nothing was imported."]);
    expect(server.requests()).toBe(1);
  });
});

describe("the size limit", () => {
  it("is 500 MB by default", () => {
    expect(MAX_IMPORT_BYTES).toBe(500 * 1024 * 1024);
  });

  it("stops the download as soon as it passes the limit, while streaming", async () => {
    const server = await endlessServer();
    const maxBytes = 1024 * 1024;
    let lastProgress = 0;
    await expect(fetchZip(server.url, { maxBytes, onProgress: (received) => (lastProgress = received) })).rejects.toThrow(/larger than 1(\.0)? MB/);
    await server.closed;
    expect(lastProgress).toBeLessThanOrEqual(maxBytes);
    // The server stopped sending when the client went away: it never got far past the limit.
    const sentAtClose = server.sent();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.sent()).toBe(sentAtClose);
    expect(sentAtClose).toBeLessThan(maxBytes * 4);
  });
});
