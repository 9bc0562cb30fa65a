// node:test's two reports: spec (Node 22's default) and TAP (--test-reporter=tap; Node 20's default
// when its output is not a terminal). The runner (test-runner.ts) tells a reporter when a test or
// suite starts and ends; the reporter writes Node's lines for it.
import { inspect } from "node-inspect-extracted";

export interface Finished {
  name: string;
  kind: "test" | "suite";
  depth: number;
  outcome: "pass" | "fail" | "skip" | "todo";
  /** The skip or todo reason (undefined: none given). */
  reason?: string;
  ms: number;
  /** The failure (a suite whose tests failed has none: `failedSubtests` says how many). */
  error?: unknown;
  failedSubtests?: number;
  location?: string;
  /** t.diagnostic() messages, which Node reports after the test's own line. */
  diagnostics?: string[];
}

export interface Counts {
  tests: number;
  suites: number;
  pass: number;
  fail: number;
  cancelled: number;
  skipped: number;
  todo: number;
}

export interface Reporter {
  started(name: string, kind: "test" | "suite", depth: number, skipped: boolean): void;
  finished(entry: Finished): void;
  /** The summary after all files; `failed` are the failures, in order. */
  summary(counts: Counts, durationMs: number, failed: Finished[]): void;
}

export const REPORTERS = ["spec", "tap"] as const;
export type ReporterName = (typeof REPORTERS)[number];

/** Node prints milliseconds with up to six decimals. */
const decimals = (value: number) => value.toFixed(6).replace(/\.?0+$/, "") || "0";

interface ReporterOptions {
  write(text: string): void;
  cwd(): string;
  /** An error's stack cut to the program's own frames. */
  programStack(stack: string): string;
}

export function createReporter(name: ReporterName, options: ReporterOptions): Reporter {
  return name === "tap" ? tapReporter(options) : specReporter(options);
}

function specReporter({ write, cwd, programStack }: ReporterOptions): Reporter {
  const indent = (depth: number) => "  ".repeat(depth);
  const ms = (value: number) => `(${decimals(value)}ms)`;
  const describeError = (error: unknown, depth: number) => {
    let text: string;
    if (error instanceof Error && typeof error.stack === "string") {
      const original = error.stack;
      error.stack = programStack(original);
      text = inspect(error);
      error.stack = original;
    } else text = inspect(error);
    return `${text
      .split("\n")
      .map((line) => `${indent(depth + 1)}${line}`)
      .join("\n")}\n`;
  };
  return {
    started(name, kind, depth, skipped) {
      if (kind === "suite" && !skipped) write(`${indent(depth)}▶ ${name}\n`);
    },
    finished(entry) {
      // A todo test shows whether it passed (it never fails the run).
      const symbol = entry.outcome === "skip" ? "﹣" : entry.outcome === "fail" || entry.error !== undefined ? "✖" : "✔";
      const directive = entry.outcome === "skip" || entry.outcome === "todo" ? ` # ${entry.reason ?? entry.outcome.toUpperCase()}` : "";
      // The error block ends with a blank line in Node's spec report (not in its failing-tests recap).
      const error = entry.error !== undefined ? `${describeError(entry.error, entry.depth)}\n` : "";
      const notes = (entry.diagnostics ?? []).map((message) => `${indent(entry.depth)}ℹ ${message}\n`).join("");
      write(`${indent(entry.depth)}${symbol} ${entry.name} ${ms(entry.ms)}${directive}\n${error}${notes}`);
    },
    summary(counts, durationMs, failed) {
      write(
        [
          `ℹ tests ${counts.tests}`,
          `ℹ suites ${counts.suites}`,
          `ℹ pass ${counts.pass}`,
          `ℹ fail ${counts.fail}`,
          `ℹ cancelled ${counts.cancelled}`,
          `ℹ skipped ${counts.skipped}`,
          `ℹ todo ${counts.todo}`,
          `ℹ duration_ms ${decimals(durationMs)}`,
        ].join("\n") + "\n",
      );
      const withErrors = failed.filter((entry) => entry.error !== undefined);
      if (withErrors.length === 0) return;
      write("\n✖ failing tests:\n");
      // Entries are separated by a blank line; the last ends the output.
      for (const entry of withErrors) {
        const where = entry.location ? `test at ${entry.location.replace(`${cwd()}/`, "")}\n` : "";
        const directive = entry.outcome === "todo" ? ` # ${entry.reason ?? "TODO"}` : "";
      write(`\n${where}✖ ${entry.name} ${ms(entry.ms)}${directive}\n${describeError(entry.error, 0)}`);
      }
    },
  };
}

/** Node's TAP (version 13): a "# Subtest" line when a test starts, "ok N - name" and a YAML block when it ends, a plan per level. */
function tapReporter({ write, programStack }: ReporterOptions): Reporter {
  const indent = (depth: number) => "    ".repeat(depth);
  // Finished entries per level under the test running at each depth (index 0: the top level, across files).
  const counters: number[] = [0];
  let begun = false;
  const begin = () => {
    if (!begun) write("TAP version 13\n");
    begun = true;
  };

  /** A value as Node's TAP reporter writes it in YAML (strings quoted, several lines as a block). */
  const yaml = (pad: string, key: string, value: unknown): string => {
    if (value === undefined) return "";
    const prefix = `${pad}  ${key}:`;
    if (value === null) return `${prefix} ~\n`;
    if (typeof value === "string" && value.includes("\n")) return `${prefix} |-\n${value
      .split(/\r?\n/)
      .map((line) => `${pad}    ${line}\n`)
      .join("")}`;
    if (typeof value !== "object") return `${prefix} ${inspect(value)}\n`;
    return `${prefix}\n${Object.entries(value)
      .map(([inner, item]) => yaml(`${pad}  `, inner, item))
      .join("")}`;
  };

  const failureDetails = (pad: string, entry: Finished): string => {
    let out = `${pad}  location: ${inspect(entry.location ?? "")}\n`;
    if (entry.error === undefined) {
      const count = entry.failedSubtests ?? 0;
      return `${out}${pad}  failureType: 'subtestsFailed'\n${pad}  error: '${count} subtest${count === 1 ? "" : "s"} failed'\n${pad}  code: 'ERR_TEST_FAILURE'\n`;
    }
    out += `${pad}  failureType: ${entry.kind === "suite" ? "'hookFailed'" : "'testCodeFailure'"}\n`;
    const error = entry.error as { message?: unknown; code?: unknown; name?: unknown; stack?: unknown; expected?: unknown; actual?: unknown; operator?: unknown } | null;
    if (!(entry.error instanceof Error)) return `${out}${yaml(pad, "error", inspect(entry.error))}${pad}  code: 'ERR_TEST_FAILURE'\n`;
    out += yaml(pad, "error", String(error!.message ?? "<unknown error>"));
    out += yaml(pad, "code", typeof error!.code === "string" ? error!.code : "ERR_TEST_FAILURE");
    if (error!.name && error!.name !== "Error") out += yaml(pad, "name", error!.name);
    if (error && "expected" in error && "actual" in error) {
      out += yaml(pad, "expected", error.expected);
      out += yaml(pad, "actual", error.actual);
      out += yaml(pad, "operator", error.operator);
    }
    if (typeof error!.stack === "string") {
      const frames = programStack(error!.stack)
        .split("\n")
        .filter((line) => /^\s+at /.test(line))
        .map((line) => line.replace(/^\s+at /, ""));
      if (frames.length > 0) out += `${pad}  stack: |-\n${frames.map((frame) => `${pad}    ${frame}\n`).join("")}`;
    }
    return out;
  };

  return {
    started(name, _kind, depth) {
      begin();
      write(`${indent(depth)}# Subtest: ${name}\n`);
      counters[depth + 1] = 0;
    },
    finished(entry) {
      begin();
      const pad = indent(entry.depth);
      const children = counters[entry.depth + 1] ?? 0;
      if (children > 0) write(`${indent(entry.depth + 1)}1..${children}\n`);
      counters[entry.depth + 1] = 0;
      const number = (counters[entry.depth] = (counters[entry.depth] ?? 0) + 1);
      const ok = entry.outcome === "fail" || (entry.outcome === "todo" && entry.error !== undefined) ? "not ok" : "ok";
      const directive = entry.outcome === "skip" || entry.outcome === "todo" ? ` # ${entry.outcome.toUpperCase()}${entry.reason !== undefined ? ` ${entry.reason}` : ""}` : "";
      let block = `${pad}  duration_ms: ${decimals(entry.ms)}\n`;
      if (entry.kind === "suite") block += `${pad}  type: 'suite'\n`;
      if (ok === "not ok") block += failureDetails(pad, entry);
      const notes = (entry.diagnostics ?? []).map((message) => `${pad}# ${message}\n`).join("");
      write(`${pad}${ok} ${number} - ${entry.name}${directive}\n${pad}  ---\n${block}${pad}  ...\n${notes}`);
    },
    summary(counts, durationMs) {
      begin();
      write(`1..${counters[0] ?? 0}\n`);
      write(
        [
          `# tests ${counts.tests}`,
          `# suites ${counts.suites}`,
          `# pass ${counts.pass}`,
          `# fail ${counts.fail}`,
          `# cancelled ${counts.cancelled}`,
          `# skipped ${counts.skipped}`,
          `# todo ${counts.todo}`,
          `# duration_ms ${decimals(durationMs)}`,
        ].join("\n") + "\n",
      );
    },
  };
}
