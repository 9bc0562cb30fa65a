// A small line diff (Myers) and unified-diff formatter for the diffs edit, write and apply_patch show
// on permission cards and in tool metadata.

export type DiffOp = { kind: "equal" | "delete" | "insert"; line: string };

/** Past this many differences the diff gives up on finesse and reports a whole-block replacement. */
const MAX_EDIT_DISTANCE = 4000;
/** Unchanged lines shown around each change. */
export const DIFF_CONTEXT_LINES = 3;

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Line operations turning `a` into `b`. */
export function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const head: DiffOp[] = a.slice(0, prefix).map((line) => ({ kind: "equal", line }));
  const tail: DiffOp[] = a.slice(a.length - suffix).map((line) => ({ kind: "equal", line }));
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  return [...head, ...myers(midA, midB), ...tail];
}

function myers(a: readonly string[], b: readonly string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((line) => ({ kind: "insert", line }));
  if (m === 0) return a.map((line) => ({ kind: "delete", line }));
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
    v = next;
  }
  if (!found) return [...a.map((line): DiffOp => ({ kind: "delete", line })), ...b.map((line): DiffOp => ({ kind: "insert", line }))];
  // Walk the trace back from (n, m) to recover the path.
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && prev[offset + k - 1]! < prev[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = prev[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      y--;
      ops.push({ kind: "equal", line: a[--x]! });
    }
    if (down) ops.push({ kind: "insert", line: b[--y]! });
    else ops.push({ kind: "delete", line: a[--x]! });
  }
  while (x > 0 && y > 0) {
    y--;
    ops.push({ kind: "equal", line: a[--x]! });
  }
  return ops.reverse();
}

export interface UnifiedDiff {
  diff: string;
  additions: number;
  deletions: number;
}

/** A unified diff of two texts (empty string when equal), with +/- counts. */
export function unifiedDiff(path: string, before: string, after: string): UnifiedDiff {
  const ops = diffLines(splitLines(before.replace(/\r\n/g, "\n")), splitLines(after.replace(/\r\n/g, "\n")));
  let additions = 0;
  let deletions = 0;
  for (const op of ops) {
    if (op.kind === "insert") additions++;
    else if (op.kind === "delete") deletions++;
  }
  if (additions === 0 && deletions === 0) return { diff: "", additions, deletions };
  const out = [`--- a/${path}`, `+++ b/${path}`];
  // Group changes into hunks with DIFF_CONTEXT_LINES of context.
  let i = 0;
  let oldLine = 1;
  let newLine = 1;
  const positions = ops.map((op) => {
    const at = { old: oldLine, new: newLine };
    if (op.kind !== "insert") oldLine++;
    if (op.kind !== "delete") newLine++;
    return at;
  });
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === "equal") i++;
    if (i >= ops.length) break;
    const start = Math.max(0, i - DIFF_CONTEXT_LINES);
    // Changes closer than twice the context share one hunk.
    let lastChange = i;
    for (let j = i; j < ops.length; j++) {
      if (ops[j]!.kind !== "equal") lastChange = j;
      else if (j - lastChange > 2 * DIFF_CONTEXT_LINES) break;
    }
    const end = Math.min(ops.length, lastChange + DIFF_CONTEXT_LINES + 1);
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((op) => op.kind !== "insert").length;
    const newCount = hunk.filter((op) => op.kind !== "delete").length;
    const first = positions[start]!;
    const oldStart = oldCount === 0 ? first.old - 1 : first.old;
    const newStart = newCount === 0 ? first.new - 1 : first.new;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of hunk) out.push((op.kind === "equal" ? " " : op.kind === "delete" ? "-" : "+") + op.line);
    i = end;
  }
  return { diff: out.join("\n") + "\n", additions, deletions };
}
