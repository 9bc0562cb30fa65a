// How long highlighting a large code block in the chat takes (the chat highlights code blocks on the
// main thread; a quadratic scan would freeze the page). Best of five in Node, like the unit tests'
// environment; the chat's streaming long tasks are measured in ui-longtasks.measure.ts.
import { describe, it } from "vitest";
import { highlightCode } from "../../src/ui/markdown";
import { report } from "./report";

describe("chat markdown", () => {
  it("highlighting 100 KB of TypeScript", () => {
    const code = 'export function f(a: number): string { return `v${a}` + "x"; } // c\n'.repeat(1500);
    const times: number[] = [];
    for (let run = 0; run < 5; run++) {
      const start = performance.now();
      highlightCode(code, "ts");
      times.push(performance.now() - start);
    }
    report({
      name: "highlight 100 KB of TypeScript",
      value: Math.round(Math.min(...times) * 10) / 10,
      unit: "ms",
      target: "<= 150",
      note: `best of 5 (${times.map((t) => Math.round(t)).join(", ")} ms)`,
    });
  });
});
