import { describe, expect, it } from "vitest";
import { Zip, ZipDeflate, ZipPassThrough, deflateSync, strToU8, zipSync } from "fflate";
import { isAbortError } from "../../src/base";
import { ImportError, readZip, type ImportEntry, type ImportErrorCode } from "../../src/transfer";
import { buildZip, type BuildEntry } from "../support/zip-builder";

function refused(bytes: Uint8Array, reason: ImportErrorCode, options?: Parameters<typeof readZip>[1]): ImportError {
  let caught: unknown;
  try {
    readZip(bytes, options);
  } catch (error) {
    caught = error;
  }
  expect(caught, "expected the zip to be refused").toBeInstanceOf(ImportError);
  expect((caught as ImportError).reason).toBe(reason);
  expect((caught as ImportError).message.length).toBeGreaterThan(20);
  return caught as ImportError;
}

function byPath(entries: ImportEntry[]): Map<string, ImportEntry> {
  return new Map(entries.map((e) => [e.path, e]));
}

const random = (n: number, seed = 1) => {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
};

describe("readZip: well-formed archives", () => {
  it("strips a GitHub-style top folder, keeps text as strings and binary as bytes", () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const zip = zipSync({
      "proj-main/": new Uint8Array(0),
      "proj-main/README.md": strToU8("# hi\n"),
      "proj-main/src/index.ts": strToU8("export const ü = 1;\n"),
      "proj-main/img/logo.png": png,
      "proj-main/empty/": new Uint8Array(0),
      "proj-main/bom.txt": new Uint8Array([0xef, 0xbb, 0xbf, 0x61]),
    });
    const result = readZip(zip);
    expect(result.strippedFolder).toBe("proj-main");
    const entries = byPath(result.entries);
    expect([...entries.keys()].sort()).toEqual(["README.md", "bom.txt", "empty", "img/logo.png", "src/index.ts"]);
    expect(entries.get("README.md")).toMatchObject({ kind: "file", data: "# hi\n" });
    expect(entries.get("src/index.ts")).toMatchObject({ data: "export const ü = 1;\n" });
    expect(entries.get("empty")).toEqual({ kind: "dir", path: "empty" });
    const logo = entries.get("img/logo.png");
    expect(logo?.kind === "file" && logo.data instanceof Uint8Array && Array.from(logo.data)).toEqual(Array.from(png));
    // The byte-order mark survives so the file round-trips byte for byte.
    expect(entries.get("bom.txt")).toMatchObject({ data: "\ufeffa" });
    expect(result.bytes).toBe(5 + strToU8("export const ü = 1;\n").length + 8 + 4);
  });

  it("does not strip when there are several top-level entries or a top-level file", () => {
    const two = readZip(zipSync({ "a/x.txt": strToU8("1"), "b/y.txt": strToU8("2") }));
    expect(two.strippedFolder).toBeUndefined();
    expect(two.entries.map((e) => e.path).sort()).toEqual(["a/x.txt", "b/y.txt"]);
    const file = readZip(zipSync({ "x.txt": strToU8("1") }));
    expect(file.entries.map((e) => e.path)).toEqual(["x.txt"]);
    const kept = readZip(zipSync({ "a/x.txt": strToU8("1") }), { stripTopFolder: false });
    expect(kept.entries.map((e) => e.path)).toEqual(["a/x.txt"]);
  });

  it("skips node_modules and .git unless asked to keep them", () => {
    const zip = zipSync({
      "p/src/a.js": strToU8("a"),
      "p/node_modules/x/index.js": strToU8("x"),
      "p/packages/y/node_modules/z.js": strToU8("z"),
      "p/.git/HEAD": strToU8("ref"),
      "p/.gitignore": strToU8("node_modules"),
    });
    const result = readZip(zip);
    expect(result.entries.map((e) => e.path).sort()).toEqual([".gitignore", "src/a.js"]);
    expect(result.skipped).toEqual({ nodeModules: 2, git: 1, macMetadata: 0 });
    const kept = readZip(zip, { keepNodeModules: true, keepGit: true });
    expect(kept.entries).toHaveLength(5);
  });

  it("leaves out a Finder zip's __MACOSX folder and .DS_Store files, then strips the single top folder", () => {
    const zip = zipSync({
      "proj/a.txt": strToU8("a"),
      "proj/.DS_Store": strToU8("junk"),
      "proj/src/b.ts": strToU8("b"),
      "__MACOSX/proj/._a.txt": strToU8("junk"),
      "__MACOSX/._proj": strToU8("junk"),
    });
    const result = readZip(zip);
    expect(result.strippedFolder).toBe("proj");
    expect(result.entries.map((e) => e.path).sort()).toEqual(["a.txt", "src/b.ts"]);
    expect(result.skipped).toEqual({ nodeModules: 0, git: 0, macMetadata: 3 });
    const kept = readZip(zip, { keepMacMetadata: true });
    expect(kept.strippedFolder).toBeUndefined();
    expect(kept.entries.map((e) => e.path)).toContain("__MACOSX/proj/._a.txt");
    // Names inside __MACOSX are still checked: a hostile one refuses the archive.
    refused(buildZip([{ name: "proj/a.txt", data: "a" }, { name: "__MACOSX/../../x", data: "x" }]), "zip-slip");
  });

  it("reads streamed zips with data descriptors and unicode names", () => {
    const chunks: Uint8Array[] = [];
    const zip = new Zip((err, chunk) => {
      if (err) throw err;
      chunks.push(chunk);
    });
    const a = new ZipDeflate("r/日本語/ファイル.txt", { level: 6 });
    zip.add(a);
    a.push(strToU8("こんにちは"), true);
    const b = new ZipPassThrough("r/bin.dat");
    zip.add(b);
    b.push(random(3000), true);
    zip.end();
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    const entries = byPath(readZip(bytes).entries);
    expect(entries.get("日本語/ファイル.txt")).toMatchObject({ data: "こんにちは" });
    const bin = entries.get("bin.dat");
    expect(bin?.kind === "file" && bin.data instanceof Uint8Array && bin.data.length).toBe(3000);
  });

  it("decodes legacy CP437 names", () => {
    const name = new Uint8Array([0x81, 0x2e, 0x74]); // "ü.t" in CP437, invalid UTF-8
    const zip = buildZip([{ name: "placeholder", data: "x" }]);
    // Patch the name bytes in place (same length) in both headers.
    const s = new TextEncoder().encode("placeholder");
    const patched = zip.slice();
    for (let i = 0; i + s.length <= patched.length; i++) {
      if (s.every((b, j) => patched[i + j] === b)) {
        patched.set(new Uint8Array([...name, ...new TextEncoder().encode("xtxxxxxx")]), i);
      }
    }
    const [entry] = readZip(patched).entries;
    expect(entry?.path).toBe("ü.txtxxxxxx");
  });

  it("reports progress with files and bytes, ending at the totals", () => {
    const zip = zipSync({ "a.txt": strToU8("aaaa"), "b.txt": strToU8("bb"), "c.bin": random(100) });
    const seen: Array<{ files: number; bytes: number; totalFiles: number; totalBytes: number }> = [];
    readZip(zip, {}, (p) => seen.push(p));
    expect(seen[0]).toEqual({ files: 0, totalFiles: 3, bytes: 0, totalBytes: 106 });
    expect(seen.at(-1)).toEqual({ files: 3, totalFiles: 3, bytes: 106, totalBytes: 106 });
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.bytes).toBeGreaterThanOrEqual(seen[i - 1]!.bytes);
  });

  it("can be cancelled before and during the unzip", () => {
    const zip = zipSync({ "a.txt": strToU8("a"), "b.txt": strToU8("b"), "c.txt": strToU8("c") });
    const before = new AbortController();
    before.abort();
    expect(() => readZip(zip, {}, undefined, before.signal)).toThrow(expect.objectContaining({ name: "AbortError" }));
    const during = new AbortController();
    let files = 0;
    let caught: unknown;
    try {
      readZip(zip, {}, (p) => {
        files = p.files;
        if (p.files === 1) during.abort();
      }, during.signal);
    } catch (error) {
      caught = error;
    }
    expect(isAbortError(caught)).toBe(true);
    expect(files).toBe(1);
  });
});

describe("readZip: hostile names", () => {
  const cases: Array<[string, ImportErrorCode]> = [
    ["../evil.sh", "zip-slip"],
    ["p/../../evil.sh", "zip-slip"],
    ["a/..\\..\\evil", "zip-slip"],
    ["/etc/passwd", "absolute-path"],
    ["C:\\Windows\\evil.dll", "absolute-path"],
    ["c:/evil", "absolute-path"],
    ["\\\\server\\share\\x", "absolute-path"],
    ["dir\\file.txt", "invalid-name"],
    ["bad\u0000name.txt", "invalid-name"],
    ["a/b:c.txt", "invalid-name"],
    ["a/<script>.txt", "invalid-name"],
    ["", "invalid-name"],
  ];
  for (const [name, reason] of cases) {
    it(`refuses ${JSON.stringify(name)} (${reason})`, () => {
      refused(buildZip([{ name: "ok.txt", data: "fine" }, { name, data: "x" }]), reason);
    });
  }

  it("refuses an entry whose name is outside the workspace even inside node_modules", () => {
    refused(buildZip([{ name: "node_modules/../../x", data: "x" }]), "zip-slip");
  });

  it("refuses symlink entries but ignores them inside skipped folders", () => {
    const link: BuildEntry = { name: "p/link", data: "/etc/passwd", method: 0, unixMode: 0o120777 };
    refused(buildZip([{ name: "p/a.txt", data: "a" }, link]), "symlink");
    const binLink: BuildEntry = { ...link, name: "p/node_modules/.bin/tsc" };
    expect(readZip(buildZip([{ name: "p/a.txt", data: "a" }, binLink])).entries.map((e) => e.path)).toEqual(["a.txt"]);
  });

  it("ignores the high attribute bits of MS-DOS zips", () => {
    const entry: BuildEntry = { name: "a.txt", data: "a", host: 0, unixMode: 0o120777 };
    expect(readZip(buildZip([entry])).entries).toHaveLength(1);
  });

  it("refuses duplicate names, also after normalisation, and file/folder clashes", () => {
    refused(buildZip([{ name: "a.txt", data: "1" }, { name: "a.txt", data: "2" }]), "duplicate");
    refused(buildZip([{ name: "x/a.txt", data: "1" }, { name: "x/./a.txt", data: "2" }]), "duplicate");
    refused(buildZip([{ name: "x//a.txt", data: "1" }, { name: "x/a.txt", data: "2" }]), "duplicate");
    refused(buildZip([{ name: "a", data: "1" }, { name: "a/b.txt", data: "2" }]), "duplicate");
    refused(buildZip([{ name: "a/", data: "" }, { name: "a", data: "2" }]), "duplicate");
    // A folder listed twice is harmless.
    expect(readZip(buildZip([{ name: "d/", data: "" }, { name: "d/", data: "" }, { name: "e.txt", data: "e" }])).entries).toHaveLength(2);
  });

  it("refuses encrypted entries and unknown compression methods", () => {
    refused(buildZip([{ name: "a.txt", data: "1", flags: 1 }]), "encrypted");
    refused(buildZip([{ name: "a.txt", data: "1", method: 12, rawData: new Uint8Array([1, 2, 3]) }]), "unsupported-method");
  });
});

describe("readZip: bombs and limits", () => {
  it("refuses more than 50,000 entries from the end record, before reading names", () => {
    const err = refused(buildZip([{ name: "a.txt", data: "a" }], { declaredCount: 50_001 }), "too-many-entries");
    expect(err.message).toContain("50,001");
    refused(buildZip([1, 2, 3, 4].map((i) => ({ name: `f${i}.txt`, data: "x" }))), "too-many-entries", { limits: { maxEntries: 3 } });
  });

  it("refuses declared sizes over 500 MB before inflating", () => {
    const err = refused(buildZip([{ name: "big.bin", data: "x", method: 0, declaredSize: 600 * 1024 * 1024, declaredCompressedSize: 1 }]), "corrupt");
    expect(err.message).toMatch(/do not add up/);
    const deflated = deflateSync(new Uint8Array(1000));
    refused(
      buildZip([
        { name: "a.bin", rawData: deflated, method: 8, declaredSize: 300 * 1024 * 1024, declaredCompressedSize: 4 * 1024 * 1024 },
        { name: "b.bin", rawData: deflated, method: 8, declaredSize: 300 * 1024 * 1024, declaredCompressedSize: 4 * 1024 * 1024 },
      ]),
      "too-large",
    );
  });

  it("refuses a real high-ratio bomb (20 MB of zeros) by its ratio", () => {
    const zeros = new Uint8Array(20 * 1024 * 1024);
    const err = refused(buildZip([{ name: "zeros.bin", data: zeros }]), "zip-bomb");
    expect(err.message).toContain("100:1");
    // Many small entries that are each under the floor are caught by the archive-wide ratio.
    const small = new Uint8Array(1024 * 1024 - 1);
    const entries = Array.from({ length: 3 }, (_, i) => ({ name: `z${i}.bin`, data: small }));
    refused(buildZip(entries), "zip-bomb");
  });

  it("stops an entry that unpacks past its declared size (lying headers)", () => {
    const zeros = new Uint8Array(5 * 1024 * 1024);
    const err = refused(buildZip([{ name: "liar.bin", data: zeros, declaredSize: 1000 }]), "corrupt");
    expect(err.message).toMatch(/more than its declared size/);
  });

  it("keeps a running byte count under the configured limit", () => {
    refused(zipSync({ "a.bin": random(600), "b.bin": random(600) }), "too-large", { limits: { maxBytes: 1000 } });
  });

  it("refuses overlapping entries (the 'better zip bomb')", () => {
    // a.txt's data claims to run on into b.txt's header, as in Fifield's overlapping construction.
    const data = "hello ".repeat(20);
    const compressed = deflateSync(strToU8(data)).length;
    refused(buildZip([{ name: "a.txt", data, declaredCompressedSize: compressed + 40 }, { name: "b.txt", data }]), "zip-bomb");
    // Two entries pointing at one local header are refused too (their names cannot both match it).
    refused(buildZip([{ name: "a.txt", data: "hello" }, { name: "b.txt", data: "hello", shareLocalWith: 0 }]), "corrupt");
  });
});

describe("readZip: broken files", () => {
  const good = () => zipSync({ "p/a.txt": strToU8("hello world ".repeat(50)), "p/b.bin": random(5000) });

  it("refuses files that are not zips, with a hint of what they are", () => {
    expect(refused(new TextEncoder().encode("just some text, definitely not a zip archive"), "not-a-zip").message).toMatch(/not a zip/);
    expect(refused(new Uint8Array(0), "not-a-zip").message).toMatch(/empty/);
    expect(refused(new Uint8Array([0x1f, 0x8b, 8, 0, ...new Array(40).fill(0)]), "not-a-zip").message).toMatch(/gzip/);
  });

  it("refuses truncated archives", () => {
    const zip = good();
    refused(zip.subarray(0, zip.length - 10), "truncated");
    refused(zip.subarray(0, 10), "truncated");
    refused(zip.subarray(0, Math.floor(zip.length / 2)), "truncated");
  });

  it("refuses an empty zip but not one whose files were all skipped", () => {
    refused(buildZip([]), "empty");
    expect(readZip(buildZip([{ name: "node_modules/x.js", data: "x" }])).skipped.nodeModules).toBe(1);
  });

  it("refuses a CRC mismatch", () => {
    refused(buildZip([{ name: "a.txt", data: "hello", crc: 12345 }]), "corrupt");
  });

  it("refuses damaged data and headers", () => {
    const zip = good();
    const garbage = zip.slice();
    garbage.fill(0xff, 40, 120); // inside the first entry's deflate stream
    expect(["corrupt", "truncated"]).toContain(refused(garbage, "corrupt" as ImportErrorCode).reason);
  });

  it("refuses a bad central directory signature and an entry count that does not fit", () => {
    const zip = good();
    const view = new DataView(zip.buffer);
    const eocd = zip.length - 22;
    const centralOffset = view.getUint32(eocd + 16, true);
    const bad = zip.slice();
    bad[centralOffset] = 0;
    refused(bad, "corrupt");
    refused(buildZip([{ name: "a.txt", data: "a" }], { declaredCount: 40 }), "corrupt");
  });

  it("refuses an entry whose local header names a different file", () => {
    const zip = buildZip([{ name: "safe.txt", data: "x" }]);
    zip.set(new TextEncoder().encode("evil.sh!"), 30); // the local copy of the name only
    expect(refused(zip, "corrupt").message).toMatch(/disagree/);
  });

  it("refuses a bad local header signature", () => {
    const bad = good().slice();
    bad[0] = 0;
    refused(bad, "corrupt");
  });
});

describe("readZip: refusal messages", () => {
  const message = (name: string) => refused(buildZip([{ name: "ok.txt", data: "fine" }, { name, data: "x" }]), "invalid-name").message;

  it("shows text-direction and invisible characters in names as ⟨U+…⟩, every time the name appears", () => {
    const text = message("p/evil\u202Etxt.exe");
    expect(text).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/);
    expect(text).toBe('The entry "p/evil⟨U+202E⟩txt.exe" has a name that contains an invisible or text-direction character, which can disguise a name, so the import was refused. Rename it and try again.');
    expect(message("a\u200b/b.txt")).toContain('inside the folder "a⟨U+200B⟩", whose name contains an invisible');
  });

  it("reads as whole sentences: no '.,' or '., so' inside, one final stop per sentence", () => {
    const texts = [message("a/b:c.txt"), message("a/<script>.txt"), message("dir\\file.txt"), message("xy:z/a.txt"), message("p/ trailing /a"), message("p/evil\u202Etxt.exe")];
    for (const text of texts) {
      expect(text).not.toMatch(/\.[,.]|\)\.,|\. ,/);
      expect(text).toMatch(/, so the import was refused\. Rename it and try again\.$/);
    }
    expect(texts[0]).toBe('The entry "a/b:c.txt" has a name that contains ":", which webcode does not allow in names (< > : " | ? * \\), so the import was refused. Rename it and try again.');
    expect(texts[3]).toContain('is inside the folder "xy:z", whose name contains ":"');
    expect(texts[4]).toContain('inside the folder " trailing ", whose name starts or ends with spaces');
  });
});
