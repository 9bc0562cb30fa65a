// Benchmarks report figures here; scripts/bench.mjs prints them as one table. Targets are shown
// beside the figures, never asserted: a benchmark measures, it does not pass or fail.
import { appendFileSync, mkdirSync } from "node:fs";

export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** The target, e.g. "<= 300". */
  target?: string;
  note?: string;
}

export function report(figure: Figure): void {
  mkdirSync(".bench", { recursive: true });
  appendFileSync(".bench/results.jsonl", JSON.stringify(figure) + "\n");
  console.log(`BENCH ${figure.name}: ${figure.value} ${figure.unit}${figure.target ? ` (target ${figure.target})` : ""}`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
