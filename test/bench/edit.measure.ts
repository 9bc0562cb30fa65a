// The edit matcher (applyEdit, docs/agent.md, "Editing files") on a 10,000-line TypeScript file: an exact match
// (target <= 20 ms), a fuzzy match that forgives indentation and whitespace runs (target <= 100 ms),
// and the slowest successful path, a one-line content difference found only after every formatting
// matcher has failed. Also the refusal that shows the closest regions. Then apply_patch's matcher on
// the same file: a 20-hunk patch (target <= 50 ms), with and without @@ lines, and with every hunk's
// indentation lost so each is found only at the whitespace step. Median of RUNS after a warm-up.
import { it } from "vitest";
import { applyEdit } from "../../src/agent/tools";
import { applyChunks, parsePatch, type PatchChunk } from "../../src/agent/tools/apply-patch-format";
import { median, report } from "./report";

const LINES = 10_000;
const RUNS = 15;
const NOTE = `${LINES}-line TypeScript file, median of ${RUNS} runs after warm-up`;

/** Near-identical sibling classes (10 lines each) with unique names, like generated or repetitive code. */
function bigFile(): string {
  const out: string[] = [];
  for (let i = 0; out.length < LINES; i++) {
    out.push(
      `export class Service${i} {`,
      `  private readonly cache = new Map<string, number>();`,
      ``,
      `  async load${i}(key: string): Promise<number> {`,
      `    const hit = this.cache.get(key);`,
      `    if (hit !== undefined) return hit;`,
      `    const value = await fetchValue("service-${i}", key);`,
      `    this.cache.set(key, value);`,
      `    return value;`,
      `  }`,
    );
  }
  return out.slice(0, LINES).join("\n") + "\n";
}

function time(run: () => void): number {
  for (let i = 0; i < 3; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return Math.round(median(samples) * 100) / 100;
}

it("measures applyEdit on a 10,000-line file", () => {
  const content = bigFile();
  const n = 950;
  const exactOld = [`  async load${n}(key: string): Promise<number> {`, `    const hit = this.cache.get(key);`, `    if (hit !== undefined) return hit;`].join("\n");
  const exactNew = exactOld.replace("if (hit !== undefined)", "if (hit != null)");
  // Indentation lost and a whitespace run: only the formatting matchers after the exact one find it.
  const fuzzyOld = [`async load${n}(key: string): Promise<number> {`, `  const hit = this.cache.get(key);`, `  if (hit !== undefined)  return hit;`].join("\n");
  const fuzzyNew = [`async load${n}(key: string): Promise<number> {`, `  const hit = this.cache.get(key);`, `  if (hit != null) return hit;`].join("\n");
  // One misremembered middle line of a 6-line block.
  const oneLineOld = [
    `  async load${n}(key: string): Promise<number> {`,
    `    const hit = this.cache.get(key);`,
    `    if (hit !== undefined) return hit;`,
    `    const value = await fetchValue("svc-${n}", key);`,
    `    this.cache.set(key, value);`,
    `    return value;`,
  ].join("\n");
  const oneLineNew = oneLineOld.replace(`"svc-${n}"`, `"service-${n}-v2"`);

  const check = (result: string, wanted: string) => {
    if (!result.includes(wanted)) throw new Error(`the benchmark edit did not apply as expected (${wanted})`);
  };
  check(applyEdit(content, exactOld, exactNew), "if (hit != null) return hit;");
  check(applyEdit(content, fuzzyOld, fuzzyNew), `  async load${n}(key: string): Promise<number> {\n    const hit = this.cache.get(key);\n    if (hit != null) return hit;`);
  check(applyEdit(content, oneLineOld, oneLineNew), `"service-${n}-v2"`);

  report({ name: "edit match, exact (10k lines)", value: time(() => applyEdit(content, exactOld, exactNew)), unit: "ms", target: "<= 20", note: NOTE });
  report({
    name: "edit match, fuzzy (10k lines)",
    value: time(() => applyEdit(content, fuzzyOld, fuzzyNew)),
    unit: "ms",
    target: "<= 100",
    note: `indentation lost and a whitespace run; ${NOTE}`,
  });
  report({
    name: "edit match, one-line difference (10k lines)",
    value: time(() => applyEdit(content, oneLineOld, oneLineNew)),
    unit: "ms",
    target: "<= 100",
    note: `every formatting matcher fails first; ${NOTE}`,
  });
  report({
    name: "edit refusal, not found (10k lines)",
    value: time(() => {
      try {
        applyEdit(content, "async loadMissing(key: string) {\n  return lookup(key);\n}", "x");
      } catch {
        // The refusal with the closest regions is what is measured.
      }
    }),
    unit: "ms",
    note: `closest-region search; ${NOTE}`,
  });
});

/** 20 hunks, one in every 50th class (given in reverse order: each hunk stands on its own). */
function twentyHunks(options: { anchored: boolean; indent: string }): PatchChunk[] {
  const body: string[] = [];
  for (let i = 975; i > 0; i -= 50) {
    const pad = (level: number) => options.indent.repeat(level);
    if (options.anchored) body.push(`@@ export class Service${i} {`);
    else body.push("@@");
    body.push(
      ` ${pad(2)}if (hit !== undefined) return hit;`,
      `-${pad(2)}const value = await fetchValue("service-${i}", key);`,
      `+${pad(2)}const value = await fetchValue("service-${i}", key, { retry: true });`,
      ` ${pad(2)}this.cache.set(key, value);`,
    );
  }
  const op = parsePatch(["*** Begin Patch", "*** Update File: services.ts", ...body, "*** End Patch"].join("\n"))[0]!;
  if (op.kind !== "update" || op.chunks.length !== 20) throw new Error("the benchmark patch should hold 20 hunks");
  return op.chunks;
}

it("measures apply_patch on a 10,000-line file", () => {
  const content = bigFile();
  const cases = [
    { name: "apply_patch, 20 hunks with @@ lines (10k lines)", chunks: twentyHunks({ anchored: true, indent: "  " }), note: NOTE },
    { name: "apply_patch, 20 hunks without @@ lines (10k lines)", chunks: twentyHunks({ anchored: false, indent: "  " }), note: NOTE },
    {
      name: "apply_patch, 20 hunks, indentation lost (10k lines)",
      chunks: twentyHunks({ anchored: false, indent: "" }),
      note: `each found at the whitespace step, added lines re-indented; ${NOTE}`,
    },
  ];
  for (const { name, chunks, note } of cases) {
    const result = applyChunks("services.ts", content, chunks);
    if (result.split("{ retry: true }").length !== 21 || !result.includes(`    const value = await fetchValue("service-25", key, { retry: true });`)) {
      throw new Error(`the benchmark patch did not apply as expected (${name})`);
    }
    report({ name, value: time(() => applyChunks("services.ts", content, chunks)), unit: "ms", target: "<= 50", note });
  }
});
