import { describe, expect, it } from "vitest";
import { strToU8, zipSync } from "fflate";
import { ImportError, handleUnzipRequest, readZip, unzipInWorker, type ImportProgress, type UnzipRequest, type WorkerLike } from "../../src/transfer";
import { buildZip } from "../support/zip-builder";

/** Runs the worker's handler on a macrotask per message, like a real worker would. */
class FakeWorker implements WorkerLike {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: { message?: string }) => void) | null = null;
  terminated = false;
  transferred: Transferable[] = [];
  postMessage(message: unknown, transfer: Transferable[]): void {
    this.transferred = transfer;
    handleUnzipRequest(message as UnzipRequest, (response) => {
      setTimeout(() => {
        if (!this.terminated) this.onmessage?.({ data: structuredClone(response) });
      }, 0);
    }, () => 0);
  }
  terminate(): void {
    this.terminated = true;
  }
}

const sample = () => zipSync({ "p/a.txt": strToU8("hello"), "p/b.bin": new Uint8Array([0, 1, 2]), "p/c.txt": strToU8("c") });

describe("unzipInWorker", () => {
  it("returns what readZip returns, forwards progress and terminates the worker", async () => {
    const worker = new FakeWorker();
    const progress: ImportProgress[] = [];
    const bytes = sample();
    const expected = readZip(bytes.slice());
    const result = await unzipInWorker(bytes, {}, (p) => progress.push(p), undefined, () => worker);
    expect(result).toEqual(expected);
    expect(progress.at(-1)).toEqual({ files: 3, totalFiles: 3, bytes: 9, totalBytes: 9 });
    expect(worker.terminated).toBe(true);
    expect(worker.transferred).toHaveLength(1);
  });

  it("rebuilds typed import errors from the worker", async () => {
    const error = await unzipInWorker(buildZip([{ name: "../x", data: "x" }]), {}, undefined, undefined, () => new FakeWorker()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).reason).toBe("zip-slip");
  });

  it("cancels by terminating the worker", async () => {
    const worker = new FakeWorker();
    const controller = new AbortController();
    const promise = unzipInWorker(sample(), {}, () => controller.abort(), controller.signal, () => worker);
    await expect(promise).rejects.toMatchObject({ name: "AbortError" });
    expect(worker.terminated).toBe(true);
  });

  it("falls back to running in-thread when there is no Worker", async () => {
    const result = await unzipInWorker(sample(), { stripTopFolder: false }, undefined, undefined, () => undefined);
    expect(result.entries.map((e) => e.path).sort()).toEqual(["p/a.txt", "p/b.bin", "p/c.txt"]);
    await expect(unzipInWorker(new Uint8Array([1, 2, 3]), {}, undefined, undefined, () => undefined)).rejects.toMatchObject({ reason: "not-a-zip" });
  });

  it("throttles progress messages inside the worker", () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 20; i++) files[`f${i}.txt`] = strToU8(String(i));
    const posted: string[] = [];
    handleUnzipRequest({ type: "unzip", bytes: zipSync(files), options: {} }, (m) => posted.push(m.type), () => 1000);
    // One at the start (time moved past 0), one at the end, and the result.
    expect(posted).toEqual(["progress", "progress", "done"]);
  });
});
