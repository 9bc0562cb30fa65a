// A local save enters the shared Y.Text as a minimal change, so that a concurrent remote edit
// elsewhere in the same file is kept when the two merge (issue 33, step 3's text rule).
import * as Y from "yjs";
import { describe, expect, it } from "vitest";
import { applyTextToYText } from "../../src/storage/sync/y-text-diff";

function pair(initial: string) {
  const a = new Y.Doc();
  a.getText("f").insert(0, initial);
  const b = new Y.Doc();
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
  return { a, b };
}

function exchange(a: Y.Doc, b: Y.Doc) {
  const fromA = Y.encodeStateAsUpdate(a, Y.encodeStateVector(b));
  const fromB = Y.encodeStateAsUpdate(b, Y.encodeStateVector(a));
  Y.applyUpdate(b, fromA);
  Y.applyUpdate(a, fromB);
}

describe("applyTextToYText", () => {
  it("makes the text read the saved content", () => {
    const { a } = pair("const x = 1;\nconst y = 2;\n");
    applyTextToYText(a.getText("f"), "const x = 10;\nlet z;\nconst y = 2;\n");
    expect(a.getText("f").toString()).toBe("const x = 10;\nlet z;\nconst y = 2;\n");
    applyTextToYText(a.getText("f"), "");
    expect(a.getText("f").toString()).toBe("");
  });

  it("keeps a concurrent remote edit elsewhere in the file (a whole-text replace would lose it)", () => {
    const { a, b } = pair("line one\nline two\nline three\n");
    applyTextToYText(a.getText("f"), "line ONE\nline two\nline three\n");
    b.getText("f").insert("line one\nline two\nline three".length, " (from B)");
    exchange(a, b);
    const merged = "line ONE\nline two\nline three (from B)\n";
    expect(a.getText("f").toString()).toBe(merged);
    expect(b.getText("f").toString()).toBe(merged);
  });

  it("is one update, and none when nothing changed", () => {
    const { a } = pair("abc");
    const updates: Uint8Array[] = [];
    a.on("update", (update: Uint8Array) => updates.push(update));
    applyTextToYText(a.getText("f"), "abc");
    expect(updates).toHaveLength(0);
    applyTextToYText(a.getText("f"), "aXbcY");
    expect(updates).toHaveLength(1);
  });
});
