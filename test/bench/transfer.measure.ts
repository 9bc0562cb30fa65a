// Transfer figures: importing a 50 MB zip of 5,000 files into a new workspace (target <= 5 s), and
// encoding/decoding a share link near its 1.5 MB cap.
import { describe, it } from "vitest";
import { zipSync, type Zippable } from "fflate";
import { RECORD_VERSION, emptyUsage, openStorage, type FileRecord, type MessageRecord, type PartRecord } from "../../src/storage";
import { SHARE_LINK_CAP, decodeShareLink, encodeShareLink, importAsNewWorkspace, readZip, type ShareSource } from "../../src/transfer";
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

  it("encodes and decodes a share link near the 1.5 MB cap", () => {
    const next = rng(7);
    const model = { providerId: "openai", modelId: "gpt-4o" };
    const messages: MessageRecord[] = [];
    const parts: PartRecord[] = [];
    for (let i = 0; i < 100; i++) {
      const user = `msg_${String(2 * i).padStart(4, "0")}`;
      const reply = `msg_${String(2 * i + 1).padStart(4, "0")}`;
      messages.push({ v: RECORD_VERSION, id: user, sessionId: "s", role: "user", createdAt: i, agent: "build" });
      messages.push({ v: RECORD_VERSION, id: reply, sessionId: "s", role: "assistant", createdAt: i, parentId: user, agent: "build", model, tokens: emptyUsage(), cost: 0 });
      parts.push({ v: RECORD_VERSION, id: `prt_${i}a`, sessionId: "s", messageId: user, type: "text", text: text(300, next) });
      parts.push({ v: RECORD_VERSION, id: `prt_${i}b`, sessionId: "s", messageId: reply, type: "tool", callId: `c${i}`, tool: "read", state: { status: "completed", input: { filePath: `src/f${i}.ts` }, output: text(6000, next), title: "read", metadata: {}, start: 0, end: 1 } });
      parts.push({ v: RECORD_VERSION, id: `prt_${i}c`, sessionId: "s", messageId: reply, type: "text", text: text(1500, next) });
    }
    const files: FileRecord[] = [];
    for (let i = 0; i < 400; i++) files.push({ v: RECORD_VERSION, workspaceId: "w", path: `src/dir${i % 20}/file${i}.ts`, kind: "file", data: text(10_000 + Math.floor(next() * 10_000), next), mtime: 0 });
    const source: ShareSource = {
      session: { v: RECORD_VERSION, id: "s", workspaceId: "w", title: "bench", createdAt: 0, updatedAt: 0, agent: "build", model, permission: [], tokens: emptyUsage(), cost: 0, todos: [] },
      messages,
      parts,
      files,
    };
    const encodeTimes: number[] = [];
    const decodeTimes: number[] = [];
    let length = 0;
    let omitted = 0;
    for (let run = 0; run < 3; run++) {
      let start = performance.now();
      const link = encodeShareLink(source);
      encodeTimes.push(performance.now() - start);
      if (!link.fragment) throw new Error("the bench session should fit a link");
      length = link.length;
      omitted = link.omitted.length;
      start = performance.now();
      decodeShareLink(link.fragment);
      decodeTimes.push(performance.now() - start);
    }
    const note = `link ${(length / 1e6).toFixed(2)} MB of cap ${(SHARE_LINK_CAP / 1e6).toFixed(1)} MB; ${files.length} files offered, ${omitted} left out`;
    report({ name: "share link encode (near cap)", value: Math.round(median(encodeTimes)), unit: "ms", note });
    report({ name: "share link decode + restore (near cap)", value: Math.round(median(decodeTimes)), unit: "ms", note });
  });
});
