// applyEdit (docs/agent.md, "Editing files"): each matcher, each refusal, and the two safety principles on realistic code.
import { describe, expect, it } from "vitest";
import { applyEdit } from "../../src/agent/tools/edit-match";
import { oneLineDifferenceMatcher } from "../../src/agent/tools/edit-content-match";
import {
  escapeNormalizedMatcher,
  exactMatcher,
  indentationFlexibleMatcher,
  lineTrimmedMatcher,
  matchInput,
  trimmedBoundaryMatcher,
  whitespaceNormalizedMatcher,
  type Matcher,
} from "../../src/agent/tools/edit-matchers";

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected a refusal, but the edit was applied");
}

/** The single candidate of one matcher, applied. */
function viaMatcher(matcher: Matcher, content: string, oldString: string, newString: string): string | undefined {
  const result = matcher.find(matchInput(content), oldString);
  if (result.candidates.length !== 1) return undefined;
  const c = result.candidates[0]!;
  return content.slice(0, c.start) + c.replacement(newString) + content.slice(c.end);
}

const PYTHON = [
  "class Greeter:",
  "    def greet(self, name):",
  '        message = f"Hello, {name}"',
  "        return message",
  "",
  "    def bye(self):",
  '        return "bye"',
  "",
].join("\n");

describe("exact matcher", () => {
  it("replaces a unique substring, also mid-line", () => {
    expect(applyEdit("const a = 1;\nconst b = 2;\n", "b = 2", "b = 3")).toBe("const a = 1;\nconst b = 3;\n");
  });

  it("reports several matches with their lines and asks for context or replaceAll", () => {
    const message = errorOf(() => applyEdit("x();\ny();\nx();\n", "x();", "z();"));
    expect(message).toMatch(/matches 2 places/);
    expect(message).toMatch(/lines 1, 3/);
    expect(message).toMatch(/replaceAll/);
  });

  it("replaceAll changes every occurrence", () => {
    expect(applyEdit("x();\ny();\nx();\n", "x();", "z();", true)).toBe("z();\ny();\nz();\n");
  });

  it("treats $&, $$ and $` in newString as plain text", () => {
    expect(applyEdit("price = 1\n", "1", "$& $$ $` $'")).toBe("price = $& $$ $` $'\n");
    expect(applyEdit("a a\n", "a", "$&$&", true)).toBe("$&$& $&$&\n");
  });
});

describe("refusals", () => {
  it("refuses identical strings", () => {
    expect(errorOf(() => applyEdit("a\n", "a", "a"))).toMatch(/identical/);
    expect(errorOf(() => applyEdit("a\r\nb\r\n", "a\r\nb", "a\nb"))).toMatch(/line endings/);
  });

  it("refuses an empty oldString (creating files is the tool's job)", () => {
    expect(errorOf(() => applyEdit("a\n", "", "b"))).toMatch(/empty/);
  });

  it("says the text was not found and shows the closest region with line numbers", () => {
    const content = ["import os", "", "def main():", "    path = os.getcwd()", "    print(path)", "", "main()", ""].join("\n");
    const message = errorOf(() => applyEdit(content, "def main():\n    cwd = os.getcwd()\n    print(cwd)", "x"));
    expect(message).toMatch(/not found/);
    expect(message).toContain("3: def main():");
    expect(message).toContain("4:     path = os.getcwd()");
    expect(message).toContain("5:     print(path)");
    expect(message).not.toContain("1: import os");
  });

  it("hints when oldString carries the read tool's line-number prefixes", () => {
    expect(errorOf(() => applyEdit("a = 1\nb = 2\n", "1: a = 1\n2: b = 2", "x"))).toMatch(/line-number prefixes/);
  });

  it("refuses an edit that changes nothing once corrected", () => {
    expect(errorOf(() => applyEdit("a = 1\n", "a = 1 ", "a = 1"))).toMatch(/unchanged/);
  });
});

describe("line endings and byte-order mark", () => {
  it("keeps a CRLF file CRLF when the model sends LF", () => {
    const result = applyEdit("a\r\nb\r\nc\r\n", "b\n", "x\ny\n");
    expect(result).toBe("a\r\nx\r\ny\r\nc\r\n");
    expect(/[^\r]\n/.test(result)).toBe(false);
  });

  it("accepts CRLF text from the model in an LF file and writes LF", () => {
    expect(applyEdit("a\nb\nc\n", "a\r\nb", "a\r\nB")).toBe("a\nB\nc\n");
  });

  it("touches only the replaced region of a mixed-ending file", () => {
    expect(applyEdit("a\r\nb\nc\r\nd\r\n", "c\n", "C\n")).toBe("a\r\nb\nC\r\nd\r\n");
  });

  it("keeps the byte-order mark", () => {
    const result = applyEdit("\uFEFFname,age\nann,3\n", "ann,3", "ann,4");
    expect(result).toBe("\uFEFFname,age\nann,4\n");
  });

  it("matches a fuzzy CRLF block and writes the corrected block with CRLF", () => {
    const content = "class A:\r\n    def f(self):\r\n        return 1\r\n";
    const result = applyEdit(content, "def f(self):\n    return 1", "def f(self):\n    return 2");
    expect(result).toBe("class A:\r\n    def f(self):\r\n        return 2\r\n");
  });
});

describe("line-trimmed matcher: newString corrected by the same indentation mapping", () => {
  it("keeps a Python method's indentation when the model wrote it at column 0", () => {
    const oldString = ["def greet(self, name):", '    message = f"Hello, {name}"', "    return message"].join("\n");
    const newString = ['def greet(self, name, mark="!"):', '    message = f"Hello, {name}{mark}"', "    if mark:", "        pass", "    return message"].join("\n");
    const result = applyEdit(PYTHON, oldString, newString);
    expect(result).toBe(
      [
        "class Greeter:",
        '    def greet(self, name, mark="!"):',
        '        message = f"Hello, {name}{mark}"',
        "        if mark:",
        "            pass",
        "        return message",
        "",
        "    def bye(self):",
        '        return "bye"',
        "",
      ].join("\n"),
    );
  });

  it("keeps tabs in Makefile recipes when the model wrote spaces", () => {
    const makefile = "CC=gcc\n\nbuild:\n\t$(CC) -o app main.c\n\t./app --check\n\nclean:\n\trm -f app\n";
    const result = applyEdit(makefile, "build:\n    $(CC) -o app main.c\n    ./app --check", "build:\n    $(CC) -O2 -o app main.c\n    ./app --check\n    echo done");
    expect(result).toBe("CC=gcc\n\nbuild:\n\t$(CC) -O2 -o app main.c\n\t./app --check\n\techo done\n\nclean:\n\trm -f app\n");
    expect(result).not.toMatch(/\n {4}/);
  });

  it("maps 2-space indentation onto a 4-space file", () => {
    const content = "function f() {\n    if (x) {\n        go();\n    }\n}\n";
    const result = applyEdit(content, "if (x) {\n  go();\n}", "if (x) {\n  go();\n  stop();\n}");
    expect(result).toBe("function f() {\n    if (x) {\n        go();\n        stop();\n    }\n}\n");
  });

  it("ignores trailing whitespace differences; a line newString keeps stays as the file has it", () => {
    expect(applyEdit("a = 1   \nb = 2\n", "a = 1\nb = 2", "a = 1\nb = 3")).toBe("a = 1   \nb = 3\n");
    // Exact up to the trailing spaces: those lie outside the span and stay.
    expect(applyEdit("a = 1\nb = 2   \n", "a = 1\nb = 2", "a = 1\nb = 3")).toBe("a = 1\nb = 3   \n");
  });

  it("keeps the file's alignment on the lines newString does not change", () => {
    const go = "type S struct {\n\taddr    string\n\tsrv     *http.Server\n}\n";
    const result = applyEdit(go, "type S struct {\n\taddr string\n\tsrv *http.Server\n}", "type S struct {\n\taddr string\n\tsrv *http.Server\n\tlog *slog.Logger\n}");
    expect(result).toBe("type S struct {\n\taddr    string\n\tsrv     *http.Server\n\tlog *slog.Logger\n}\n");
  });

  it("never takes an exact match that starts inside a deeper line's indentation for whole lines", () => {
    const yaml = "jobs:\n  test:\n    steps:\n      - run: npm test\n\n  lint:\n";
    expect(errorOf(() => applyEdit(yaml, "    - run: npm test\n\n  lint:", "    - run: npm test\n    - run: x\n\n  lint:"))).toMatch(/lines 4-6/);
  });

  it("refuses when oldString's indentation cannot be mapped consistently onto the file's", () => {
    // oldString flattens a nested structure: no single shift explains both lines.
    const content = "if a:\n    if b:\n        run()\n";
    const message = errorOf(() => applyEdit(content, "if a:\nif b:\nrun()", "if a:\nif c:\nrun()"));
    expect(message).toMatch(/indentation/);
    expect(message).toMatch(/lines 1-3/);
  });

  it("refuses when newString would have to move left of column 0", () => {
    // oldString is indented one level deeper than the file; newString dedents below that.
    const content = "def f():\n    return 1\n";
    expect(errorOf(() => applyEdit(content, "    def f():\n        return 1", "def f():\n    return 2"))).toMatch(/left of column 0/);
  });

  it("drops blank-line padding from newString like it was dropped from oldString", () => {
    const content = "a()\n    b()\nc()\n";
    expect(applyEdit(content, "\n\nb()\n\n", "\n\nB()\n\n")).toBe("a()\n    B()\nc()\n");
  });

  it("with several equal blocks refuses, and replaceAll re-indents each", () => {
    const content = "def f():\n    x = 1\n\ndef g():\n    x = 1\n";
    expect(errorOf(() => applyEdit(content, "x = 1 ", "x = 2"))).toMatch(/matches 2 places in the file \(lines 2, 5\)/);
    expect(applyEdit(content, "x = 1 ", "x = 2", true)).toBe("def f():\n    x = 2\n\ndef g():\n    x = 2\n");
  });
});

describe("one-line-difference matcher: the only content difference forgiven", () => {
  const content = [
    "class Store {",
    "  save(user) {",
    "    if (!user) {",
    '      throw new Error("no user");',
    "    }",
    "    db.write(user);",
    "    return true;",
    "  }",
    "}",
    "",
  ].join("\n");
  const oldString = ["save(user) {", "  if (!user) {", '    throw new Error("missing user");', "  }", "  db.write(user);", "  return true;", "}"].join("\n");

  it("accepts one misremembered middle line that newString rewrites, re-indented", () => {
    const newString = ["save(user) {", "  if (!user) {", '    throw new Error("user required");', "  }", "  db.write(user);", "  log(user);", "  return true;", "}"].join("\n");
    expect(applyEdit(content, oldString, newString)).toBe(
      [
        "class Store {",
        "  save(user) {",
        "    if (!user) {",
        '      throw new Error("user required");',
        "    }",
        "    db.write(user);",
        "    log(user);",
        "    return true;",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("refuses when newString keeps the misremembered line (it would silently rewrite the file's line)", () => {
    const newString = oldString.replace("  return true;", "  log(user);\n  return true;");
    const message = errorOf(() => applyEdit(content, oldString, newString));
    expect(message).toMatch(/line 4 of the file reads "throw new Error\(\\"no user\\"\);"/);
    expect(message).toMatch(/newString keeps that line/);
  });

  it("refuses when the first and last lines fit several blocks", () => {
    const twins = [
      "function a(user) {",
      "  if (user) {",
      "    save(user);",
      '    log("saved");',
      "  }",
      "}",
      "function b(user) {",
      "  if (user) {",
      "    save(user);",
      '    log("saved!");',
      "  }",
      "}",
      "",
    ].join("\n");
    const message = errorOf(() => applyEdit(twins, '  if (user) {\n    save(usr);\n    log("saved");\n  }', "  if (user) {\n    store(user);\n  }"));
    expect(message).toMatch(/fit 2 blocks \(lines 2-5, lines 8-11\)/);
  });

  it("as a pure matcher: needs 5+ lines, unique anchors, and one middle line differing", () => {
    expect(oneLineDifferenceMatcher.find(matchInput("a\nb\n"), "a\nb").candidates).toHaveLength(0);
    const small = oneLineDifferenceMatcher.find(matchInput("start\nvalue = 10\nend\n"), "start\nvalue = 11\nend");
    expect(small.candidates).toHaveLength(0);
    expect(small.refusal).toMatch(/line 2 reads "value = 10"/);
    const five = "start\na = 1\nvalue = 10\nb = 2\nend\n";
    expect(viaMatcher(oneLineDifferenceMatcher, five, "start\na = 1\nvalue = 11\nb = 2\nend", "start\na = 1\nvalue = 12\nb = 2\nend")).toBe(
      "start\na = 1\nvalue = 12\nb = 2\nend\n",
    );
  });
});

describe("whitespace-normalised matcher", () => {
  it("forgives runs of whitespace inside a line", () => {
    expect(applyEdit("if (x)  {\n  go();\n}\n", "if (x) {", "if (y) {")).toBe("if (y) {\n  go();\n}\n");
  });

  it("matches a one-line fragment inside a line", () => {
    expect(applyEdit("total = price  *  qty + tax\n", "price * qty", "price * count")).toBe("total = price * count + tax\n");
  });

  it("never accepts a multi-line oldString that ends mid-line (partial-line rule)", () => {
    const content = "first  line\nsecond line, and more\n";
    expect(whitespaceNormalizedMatcher.find(matchInput(content), "first line\nsecond line").candidates).toHaveLength(0);
    expect(errorOf(() => applyEdit(content, "first line\nsecond line", "x\ny"))).toMatch(/not found/);
  });

  it("refuses a one-line oldString that the file splits over two lines", () => {
    expect(whitespaceNormalizedMatcher.find(matchInput("call(a,\n     b) + 1\n"), "call(a, b)").candidates).toHaveLength(0);
  });
});

describe("indentation-flexible matcher (pure)", () => {
  it("matches a block after removing common indentation and re-indents newString", () => {
    const content = "class A:\n    def f(self):\n        return 1\n";
    expect(viaMatcher(indentationFlexibleMatcher, content, "def f(self):\n    return 1", "def f(self):\n    return 2")).toBe(
      "class A:\n    def f(self):\n        return 2\n",
    );
    expect(indentationFlexibleMatcher.find(matchInput(content), "def f(self):\nreturn 1").candidates).toHaveLength(0);
  });
});

describe("escape-normalised matcher: no literal \\n written", () => {
  it("unescapes oldString and newString alike", () => {
    const content = "const a = 1;\nconst b = 2;\n";
    const result = applyEdit(content, "const a = 1;\\nconst b = 2;", "const a = 10;\\nconst b = 20;");
    expect(result).toBe("const a = 10;\nconst b = 20;\n");
    expect(result).not.toContain("\\n");
  });

  it("keeps escapes that belong in the source", () => {
    const content = 'print("a\\nb")\nx = 1\n';
    const result = applyEdit(content, 'print(\\"a\\\\nb\\")\\nx = 1', 'print(\\"a\\\\nc\\")\\nx = 2');
    expect(result).toBe('print("a\\nc")\nx = 2\n');
  });

  it("as a pure matcher: does nothing without escapes", () => {
    expect(escapeNormalizedMatcher.find(matchInput("a\nb\n"), "a b").candidates).toHaveLength(0);
  });
});

describe("trimmed-boundary matcher (pure)", () => {
  it("matches the trimmed text and trims newString the same way", () => {
    expect(viaMatcher(trimmedBoundaryMatcher, "x = compute(a) + 1\n", "compute(a)  ", "compute(b)  ")).toBe("x = compute(b) + 1\n");
    expect(trimmedBoundaryMatcher.find(matchInput("abc\n"), "abc").candidates).toHaveLength(0);
  });
});

describe("content differences beyond one line are refused", () => {
  const content = ["def run():", "    x = 1", "    go()", "    y = 2", "    stop()", "    teardown()", "", "def other():", "    pass", ""].join("\n");
  const oldString = [
    "def run():",
    "    x = 1",
    "    completely_rewritten_call_with_long_name(argument_one)",
    "    y = 2",
    "    another_entirely_different_statement_here()",
    "    teardown()",
  ].join("\n");

  it("refuses two differing middle lines as stale, naming the lines", () => {
    const message = errorOf(() => applyEdit(content, oldString, "def run():\n    x = 1\n    teardown()"));
    expect(message).toMatch(/lines 1-6, but 2 lines differ/);
    expect(message).toMatch(/line 3 reads "go\(\)"/);
    expect(message).toMatch(/line 5 reads "stop\(\)"/);
    expect(message).toMatch(/file has changed since you read it, or this is another block/);
  });

  it("rejects a match much larger than oldString", () => {
    const huge = "    " + "x".repeat(4000);
    const big = ["def run():", "    setup()", huge, "    step_two()", "    teardown()", ""].join("\n");
    const small = ["def run():", "    setup()", "    short()", "    step_two()", "    teardown()"].join("\n");
    expect(oneLineDifferenceMatcher.find(matchInput(big), small).candidates).toHaveLength(1);
    expect(errorOf(() => applyEdit(big, small, "def run():\n    pass"))).toMatch(/not found/);
  });

  it("refuses competing blocks", () => {
    const twins = "start\na\nb\nc\nend\nstart\na\nB\nc\nend\n";
    expect(oneLineDifferenceMatcher.find(matchInput(twins), "start\na\nx\nc\nend").refusal).toMatch(/fit 2 blocks \(lines 1-5, lines 6-10\)/);
  });

  it("refuses replaceAll with a loose match", () => {
    const one = ["def run():", "    x = 1", "    go()", "    y = 2", "    teardown()", ""].join("\n");
    const old = ["def run():", "    x = 1", "    went()", "    y = 2", "    teardown()"].join("\n");
    expect(errorOf(() => applyEdit(one, old, "def run():\n    pass", true))).toMatch(/replaceAll/);
  });
});

describe("typographic quotes", () => {
  it("forgives curly quotes in oldString and writes ASCII ones", () => {
    const result = applyEdit('print("hello")\n', "print(\u201Chello\u201D)", "print(\u201Cbye\u201D)");
    expect(result).toBe('print("bye")\n');
  });

  it("forgives ASCII quotes where the file is typographic and keeps it typographic", () => {
    const content = "She said \u201Chello\u201D and left.\n";
    expect(applyEdit(content, 'said "hello"', 'said "goodbye"')).toBe("She said \u201Cgoodbye\u201D and left.\n");
  });
});

describe("exact matcher as a pure function", () => {
  it("finds every non-overlapping occurrence", () => {
    expect(exactMatcher.find(matchInput("aaa"), "aa").candidates.map((c) => c.start)).toEqual([0]);
    expect(lineTrimmedMatcher.find(matchInput("  a\nb\n a \n"), "a").candidates).toHaveLength(2);
  });
});

describe("partial-line matches only when oldString ends mid-line (issue 3, item 1)", () => {
  it("refuses a whole line written with a newline that only starts a longer line", () => {
    const content = "value = 10\nvalue2 = 20\n";
    expect(errorOf(() => applyEdit(content, "value = 1\n", "value = 5\n"))).toMatch(/not found/);
    // The same line written whole still edits the line it names.
    expect(applyEdit("value = 1\nvalue = 10\n", "value  = 1\n", "value = 5\n")).toBe("value = 5\nvalue = 10\n");
  });

  it("refuses an indented whole line that is only the start of a longer line", () => {
    expect(errorOf(() => applyEdit("  foobar();\n", "  foo\n", "  baz\n"))).toMatch(/not found/);
  });

  it("refuses an indented oldString that matches in the middle of a line", () => {
    expect(errorOf(() => applyEdit("x = compute(a) + 1\n", "    compute(a)", "    compute(b)"))).toMatch(/not found/);
  });

  it("refuses a fuzzy fragment whose edge splits a word", () => {
    expect(whitespaceNormalizedMatcher.find(matchInput("total = price  *  qtyMax\n"), "price * qty").candidates).toHaveLength(0);
    expect(whitespaceNormalizedMatcher.find(matchInput("subtotal = price  *  qty\n"), "total = price * qty").candidates).toHaveLength(0);
    expect(errorOf(() => applyEdit("value = 10\n", "value = 1\\n", "value = 5\\n"))).toMatch(/not found/);
  });

  it("still accepts a fragment that ends mid-line on word boundaries", () => {
    expect(applyEdit("total = price  *  qty + tax\n", "price * qty", "price * count")).toBe("total = price * count + tax\n");
    expect(applyEdit("x = compute(a) + 1\n", "compute(a) ", "compute(b) ")).toBe("x = compute(b) + 1\n");
  });
});

describe("a uniformly indented block in a file with no indent step (issue 3, item 7)", () => {
  it("adds the block's literal prefix to newString", () => {
    expect(applyEdit("  a\n  b\nc\n", "a\nb", "A\nB")).toBe("  A\n  B\nc\n");
    expect(applyEdit("\t\tx\n\t\ty\nz\n", "x\ny", "X\n  Y")).toBe("\t\tX\n\t\t  Y\nz\n");
  });

  it("removes a prefix the model added to every line", () => {
    expect(applyEdit("a\nb\nc\n", "   a\n   b", "   A\n   B")).toBe("A\nB\nc\n");
  });

  it("still refuses when no single prefix or level shift explains every line", () => {
    expect(errorOf(() => applyEdit("  a\n b\nc\n", "a\nb", "A\nB"))).toMatch(/cannot be carried over/);
  });
});

describe("a match owns only its own lines (issue 21, item 2)", () => {
  // Every case goes through a whitespace-forgiving matcher: the file indents foo() and ends its line
  // with spaces, oldString does neither.
  const plain = "x()\n    foo()  \ny()\n";
  const padded = "x()\n\n    foo()\n\ny()\n";
  const cases: Array<[string, string, string, string, string]> = [
    ["padding in both, file has none", plain, "\n\nfoo()\n\n", "\n\nbar()\n\n", "x()\n    bar()\ny()\n"],
    ["padding in both, file has it", padded, "\n\nfoo()\n\n", "\n\nbar()\n\n", "x()\n\n    bar()\n\ny()\n"],
    ["padding only in oldString, file has none", plain, "\n\nfoo()\n\n", "bar()", "x()\n    bar()\ny()\n"],
    ["padding only in oldString, file has it", padded, "\n\nfoo()\n\n", "bar()", "x()\n\n    bar()\n\ny()\n"],
    ["delete a line written with its trailing break", plain, "foo()\n", "", "x()\ny()\n"],
    ["delete a line written with its leading break", plain, "\nfoo()", "", "x()\ny()\n"],
    ["delete a line written with a break on each side", plain, "\nfoo()\n", "", "x()\ny()\n"],
    ["newString drops the trailing break oldString had", plain, "foo()\n", "bar()", "x()\n    bar()\ny()\n"],
    ["the model removes the blank line it copied", "x()\n    foo() \n\ny()\n", "foo()\n\n", "bar()\n", "x()\n    bar()\ny()\n"],
    ["the file's last line break stays", "x()\n    foo() \n", "foo()\n", "bar()", "x()\n    bar()\n"],
  ];
  it.each(cases)("%s", (_, content, oldString, newString, expected) => {
    expect(applyEdit(content, oldString, newString)).toBe(expected);
  });

  it("keeps every byte outside the replaced lines, also in a CRLF file with trailing spaces", () => {
    const content = "a  \r\n\r\n    foo() \r\n\r\nb\t\r\n";
    expect(applyEdit(content, "\nfoo()\n", "")).toBe("a  \r\n\r\nb\t\r\n");
    expect(applyEdit(content, "foo()\n", "bar()\nbaz()\n")).toBe("a  \r\n\r\n    bar()\r\n    baz()\r\n\r\nb\t\r\n");
  });

  it("an exact match right after a line's indentation: newString takes the indentation, a deleted line goes whole", () => {
    const content = "x()\n    foo()\ny()\n";
    expect(applyEdit(content, "foo()\n", "")).toBe("x()\ny()\n");
    expect(applyEdit(content, "foo()\n", "bar()\n")).toBe("x()\n    bar()\ny()\n");
    expect(applyEdit(content, "foo()", "bar()\nbaz()")).toBe("x()\n    bar()\n    baz()\ny()\n");
    // Mid-line text stays literal.
    expect(applyEdit("a = foo() + 1\n", "foo()", "bar()\n")).toBe("a = bar()\n + 1\n");
  });
});
