// The edit corpus (issue 21): imperfect edits on real-looking files. Every case is applied with
// applyEdit and judged: correct (the file equals the intended exact edit, every other byte
// identical), refused (the message names the expected lines), missed (refused although the edit was
// clear) or wrong (applied, but not as intended). No case may be wrong or missed.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { applyEdit } from "../../src/agent/tools/edit-match";
import { CASES_PART_1, CASES_PART_1_MORE, type CorpusCase } from "./edit-corpus-cases";
import { CASES_PART_2, CASES_PART_2_MORE } from "./edit-corpus-cases-2";

const CASES = [...CASES_PART_1, ...CASES_PART_1_MORE, ...CASES_PART_2, ...CASES_PART_2_MORE];
const FIXTURES = new URL("../fixtures/edit-corpus/", import.meta.url);

function fileText(c: CorpusCase): string {
  const text = readFileSync(new URL(c.file, FIXTURES), "utf8");
  return c.crlf ? text.replace(/\n/g, "\r\n") : text;
}

function expected(c: CorpusCase): string {
  const [oldText, newText] = c.intended!;
  const lf = readFileSync(new URL(c.file, FIXTURES), "utf8");
  const at = lf.indexOf(oldText);
  if (at === -1 || lf.indexOf(oldText, at + 1) !== -1) throw new Error(`the intended oldString of "${c.title}" must occur exactly once`);
  const result = lf.slice(0, at) + newText + lf.slice(at + oldText.length);
  return c.crlf ? result.replace(/\n/g, "\r\n") : result;
}

type Verdict = "correct" | "refused" | "missed" | "wrong";

function judge(c: CorpusCase): { verdict: Verdict; detail: string } {
  let result: string;
  try {
    result = applyEdit(fileText(c), c.oldString, c.newString, c.replaceAll ?? false);
  } catch (error) {
    const message = (error as Error).message;
    if (c.intended) return { verdict: "missed", detail: message };
    const absent = c.refuse!.filter((line) => !new RegExp(`\\b${line}\\b`).test(message));
    return absent.length === 0 ? { verdict: "refused", detail: message } : { verdict: "wrong", detail: `refused without naming line ${absent.join(", ")}: ${message}` };
  }
  if (!c.intended) return { verdict: "wrong", detail: `applied an edit that should be refused:\n${result}` };
  return result === expected(c) ? { verdict: "correct", detail: "" } : { verdict: "wrong", detail: `got:\n${JSON.stringify(result)}\nwanted:\n${JSON.stringify(expected(c))}` };
}

describe("edit corpus", () => {
  it.each(CASES.map((c) => [c.title, c] as const))("%s", (_, c) => {
    const { verdict, detail } = judge(c);
    expect(verdict, detail).toBe(c.intended ? "correct" : "refused");
  });

  it("covers every principle with enough cases, and none is wrong", () => {
    const verdicts = CASES.map((c) => judge(c).verdict);
    const count = (v: Verdict) => verdicts.filter((x) => x === v).length;
    expect(CASES.length).toBeGreaterThanOrEqual(70);
    expect(CASES.filter((c) => c.intended).length).toBeGreaterThanOrEqual(30);
    expect(CASES.filter((c) => c.refuse).length).toBeGreaterThanOrEqual(30);
    expect({ wrong: count("wrong"), missed: count("missed") }).toEqual({ wrong: 0, missed: 0 });
  });
});
