// Two tabs on one workspace: each tab's WorkspaceFiles over its own connection to the same
// database (fake-indexeddb), told about the other's stored changes over BroadcastChannel like in
// the browser. Interleaved writes from both end the same in both tabs and in storage; nothing is lost.
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles, type FileChange } from "../../src/runtime";
import { openStorage, type Storage } from "../../src/storage";

let counter = 0;
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

async function twoTabs() {
  const name = `tabs-${counter++}-${Date.now()}`;
  const storages: Storage[] = [await openStorage({ name }), await openStorage({ name })];
  const [a, b] = await Promise.all(storages.map((s) => WorkspaceFiles.open(s, "ws")));
  const seen: FileChange[][] = [[], []];
  a!.onDidChange((changes) => seen[0]!.push(...changes));
  b!.onDidChange((changes) => seen[1]!.push(...changes));
  cleanup.push(async () => {
    await a!.close().catch(() => undefined);
    await b!.close().catch(() => undefined);
    for (const s of storages) s.close();
  });
  return { a: a!, b: b!, storages, seen };
}

/** Waits until `check` holds (the other tab's change arrives asynchronously), at most `ms` (room for a loaded machine). */
async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function snapshot(files: WorkspaceFiles): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, data] of [...files.entries()].sort(([x], [y]) => (x < y ? -1 : 1))) out[path] = typeof data === "string" ? data : `<${data.length} bytes>`;
  return out;
}

async function stored(storage: Storage): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const records = (await storage.files.list("ws")).sort((x, y) => (x.path < y.path ? -1 : 1));
  for (const record of records) if (record.kind === "file") out[record.path] = String(record.data);
  return out;
}

describe("WorkspaceFiles across tabs", () => {
  it("a file created, changed, renamed and deleted in one tab shows in the other, reported as from another tab", async () => {
    const { a, b, seen } = await twoTabs();
    await a.writeFile("src/new.ts", "one");
    await a.flush();
    await eventually(() => b.statSync("src/new.ts") !== undefined);
    expect(b.readSync("src/new.ts")).toBe("one");
    expect(b.statSync("src")?.kind).toBe("dir");

    await a.writeFile("src/new.ts", "two");
    await a.flush();
    await eventually(() => b.readSync("src/new.ts") === "two");

    await a.rename("src/new.ts", "src/renamed.ts");
    await a.flush();
    await eventually(() => b.statSync("src/new.ts") === undefined && b.statSync("src/renamed.ts") !== undefined);

    await a.remove("src");
    await a.flush();
    await eventually(() => b.statSync("src") === undefined);

    expect(seen[1]!.every((c) => c.source === "other-tab")).toBe(true);
    expect(seen[1]!.map((c) => `${c.type} ${c.path}`)).toEqual(
      expect.arrayContaining(["created src", "created src/new.ts", "changed src/new.ts", "deleted src/new.ts", "created src/renamed.ts", "deleted src"]),
    );
    // The receiving tab does not write what it adopted back (nothing pending there).
    expect(b.pendingWrites).toBe(0);
  });

  it("interleaved writes from both tabs lose nothing and both tabs agree with storage", async () => {
    const { a, b, storages } = await twoTabs();
    for (let i = 0; i < 30; i++) {
      const tab = i % 2 === 0 ? a : b;
      await tab.writeFile(`own-${i}.txt`, `from ${i % 2 === 0 ? "a" : "b"} ${i}`);
      // Both tabs also write one shared file, in turn, without waiting for each other.
      await tab.writeFile("shared.txt", `shared ${i}`);
      if (i % 5 === 0) await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await Promise.all([a.flush(), b.flush()]);
    await eventually(async () => {
      const [sa, sb, st] = [snapshot(a), snapshot(b), await stored(storages[0]!)];
      return JSON.stringify(sa) === JSON.stringify(sb) && JSON.stringify(sa) === JSON.stringify(st);
    }, 3000);
    const final = snapshot(a);
    for (let i = 0; i < 30; i++) expect(final[`own-${i}.txt`]).toBe(`from ${i % 2 === 0 ? "a" : "b"} ${i}`);
    // The shared line was replaced by both tabs, often before hearing of the other's write: either
    // one version (the later write had seen the earlier) or both between conflict markers.
    const shared = final["shared.txt"]!;
    expect(shared.replace(/^(<<<<<<< this tab|=======|>>>>>>> another tab)\n/gm, "")).toMatch(/^(shared \d+\n?)+$/);
  });

  it("a file written in both tabs before either heard of the other keeps both versions, between conflict markers, and says so", async () => {
    const { a, b } = await twoTabs();
    const notices: string[] = [];
    b.onDidConflict((conflict) => notices.push(`${conflict.outcome} ${conflict.path}`));
    await a.writeFile("x.txt", "from a\n");
    // b writes the same file before a's change arrives: neither may silently replace the other.
    b.writeSync("x.txt", "from b\n");
    await b.flush();
    const both = "<<<<<<< this tab\nfrom b\n=======\nfrom a\n>>>>>>> another tab\n";
    expect(b.readSync("x.txt")).toBe(both);
    await eventually(() => a.readSync("x.txt") === both);
    expect(notices).toEqual(["conflict x.txt"]);
  });

  it("an append in one tab and a save in the other, each before hearing of the other, both survive (compare-and-set)", async () => {
    const { a, b, storages } = await twoTabs();
    await a.writeFile("log.txt", "start\n");
    await eventually(() => b.statSync("log.txt") !== undefined);
    for (let i = 0; i < 20; i++) {
      // Both change the file from the same stored version, without waiting for the other's news.
      a.writeSync("log.txt", `${a.readSync("log.txt") as string}A${i}\n`);
      b.writeSync("log.txt", `${b.readSync("log.txt") as string}B${i}\n`);
      await Promise.all([a.flush(), b.flush()]);
    }
    await eventually(async () => a.readSync("log.txt") === b.readSync("log.txt") && (await stored(storages[0]!))["log.txt"] === a.readSync("log.txt"));
    const lines = (a.readSync("log.txt") as string).split("\n").filter(Boolean);
    expect(lines).toHaveLength(41);
    for (let i = 0; i < 20; i++) expect(lines).toEqual(expect.arrayContaining([`A${i}`, `B${i}`]));
  });

  it("a change made here while a merged write was in flight is merged onto what was stored", async () => {
    const { a, b, storages } = await twoTabs();
    await a.writeFile("log.txt", "start\n");
    await eventually(() => b.statSync("log.txt") !== undefined);
    a.writeSync("log.txt", "start\nA1\n");
    await a.flush();
    // b has not heard of A1: its write is merged in storage while b appends again meanwhile.
    b.writeSync("log.txt", "start\nB1\n");
    const first = b.flush();
    b.writeSync("log.txt", "start\nB1\nB2\n");
    await first;
    await b.flush();
    expect(b.readSync("log.txt")).toBe("start\nA1\nB1\nB2\n");
    expect((await stored(storages[0]!))["log.txt"]).toBe("start\nA1\nB1\nB2\n");
    await eventually(() => a.readSync("log.txt") === "start\nA1\nB1\nB2\n");
  });

  it("a deletion of a file the other tab just changed is not done, and is reported", async () => {
    const { a, b } = await twoTabs();
    const notices: string[] = [];
    b.onDidConflict((conflict) => notices.push(`${conflict.outcome} ${conflict.path}`));
    await a.writeFile("x.txt", "one\n");
    await eventually(() => b.statSync("x.txt") !== undefined);
    await a.writeFile("x.txt", "two\n");
    b.removeSync("x.txt");
    await b.flush();
    expect(b.readSync("x.txt")).toBe("two\n");
    expect(notices).toEqual(["kept x.txt"]);
  });
});
