// Issue 9, point 3 (the download): the size limit stops an `#import=` download while it streams,
// not after, and the import dialog's flow shows its progress and cancels it. A fake server on
// 127.0.0.1 streams without end; Node's fetch downloads from it.
import { afterEach, describe, expect, it } from "vitest";
import { endlessServer, importContext } from "../support/endless-download";
import { MAX_IMPORT_BYTES, fetchZip } from "../../src/transfer";
import { ImportFlow, describeProgress, linkSource } from "../../src/ui/transfer";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("the download", () => {
  it("shows its progress and is cancelled: the connection is closed, nothing imported", async () => {
    const server = await endlessServer(cleanups);
    const flow = new ImportFlow();
    const ctx = importContext();
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
    const server = await endlessServer(cleanups);
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
