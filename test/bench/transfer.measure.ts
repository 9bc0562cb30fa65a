// Transfer figures: importing a 50 MB zip of 5,000 files into a new workspace (target <= 5 s), and
// encoding/decoding a share link near its 1.5 MB cap.
import { describe, it } from "vitest";
import { zipSync, type Zippable } from "fflate";
import { openStorage } from "../../src/storage";
import { importAsNewWorkspace, readZip } from "../../src/transfer";
import { median, report } from "./report";

function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const WORDS = "const let function return import export from await async if else for while class new this type interface string number boolean true false null undefined".split(" ");

function text(bytes: number, next: () => number): string {
  let out = "";
  while (out.length < bytes) {
    out += WORDS[Math.floor(next() * WORDS.length)] + (next() < 0.1 ? "\n" : " ");
    if (next() < 0.05) out += Math.floor(next() * 1e9).toString(36);
  }
  return out;
}

/** ~50 MB zip: 2,000 incompressible binaries of 20 KB and 3,000 text files of ~12 KB. */
export function generateBenchZip(): Uint8Array {
  const next = rng(42);
  const files: Zippable = {};
  for (let i = 0; i < 5000; i++) {
    const folder = `bench-main/pkg${i % 50}/dir${i % 7}`;
    if (i % 5 < 2) {
      const bytes = new Uint8Array(20 * 1024);
      for (let j = 0; j < bytes.length; j++) bytes[j] = (next() * 256) | 0;
      files[`${folder}/asset${i}.bin`] = [bytes, { level: 1 }];
    } else {
      files[`${folder}/file${i}.ts`] = [new TextEncoder().encode(text(12 * 1024, next)), { level: 6 }];
    }
  }
  return zipSync(files);
}

describe("transfer", () => {
  it("imports a 50 MB zip of 5,000 files into a new workspace", async () => {
    const zip = generateBenchZip();
    const times: number[] = [];
    const unzipTimes: number[] = [];
    for (let run = 0; run < 3; run++) {
      const storage = await openStorage({ name: `bench-transfer-${run}` });
      const start = performance.now();
      const result = readZip(zip);
      unzipTimes.push(performance.now() - start);
      await importAsNewWorkspace(storage, "bench", result.entries);
      times.push(performance.now() - start);
      if (result.entries.length !== 5000) throw new Error(`expected 5000 entries, got ${result.entries.length}`);
      storage.close();
    }
    const note = `${(zip.length / 1024 / 1024).toFixed(1)} MB zip, 5,000 files; unzip+validate alone ${Math.round(median(unzipTimes))} ms; fake-indexeddb in Node`;
    report({ name: "zip import 50 MB / 5,000 files", value: Math.round(median(times)), unit: "ms", target: "<= 5000", note });
  });
});
