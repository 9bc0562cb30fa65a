// apply_patch matching rules (issue 34, "no wrong patch, ever"): a hunk applies only where it matches
// one place; @@ lines bound the search to their block; End of File means the last lines; hunks are
// located independently in the original file; forgiven differences correct the written lines too.
import { afterEach, describe, expect, it } from "vitest";
import { applyChunks, parsePatch } from "../../src/agent/tools/apply-patch-format";
import { applyPatchTool } from "../../src/agent/tools/apply-patch";
import { runTool } from "../../src/agent/tools/wrapper";
import { createToolHarness, type ToolHarness } from "../support/tool-context";

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

/** Applies one Update section (its hunk lines as given) to `original`. */
function update(path: string, original: string, ...hunks: string[]): string {
  const op = parsePatch(patch(`*** Update File: ${path}`, ...hunks))[0]!;
  if (op.kind !== "update") throw new Error("expected an update");
  return applyChunks(path, original, op.chunks);
}

const lines = (...text: string[]) => text.join("\n") + "\n";

const RUST = lines(
  "pub struct Inbox {",
  "    items: Vec<Message>,",
  "}",
  "",
  "pub struct Outbox {",
  "    items: Vec<Message>,",
  "}",
  "",
  "impl Inbox {",
  "    pub fn len(&self) -> usize {",
  "        self.items.len()",
  "    }",
  "",
  "    pub fn is_empty(&self) -> bool {",
  "        self.items.is_empty()",
  "    }",
  "}",
  "",
  "impl Outbox {",
  "    pub fn len(&self) -> usize {",
  "        self.items.len()",
  "    }",
  "",
  "    pub fn is_empty(&self) -> bool {",
  "        self.items.is_empty()",
  "    }",
  "}",
);

const PYTHON = lines(
  "class Circle:",
  "    def __init__(self, r):",
  "        self.r = r",
  "",
  "    def area(self):",
  "        return 3.14 * self.r ** 2",
  "",
  "",
  "class Square:",
  "    def __init__(self, side):",
  "        self.side = side",
  "",
  "    def area(self):",
  "        return self.side ** 2",
  "",
  "    def scale(self, k):",
  "        self.side *= k",
  "        return self",
);

const TS_DOCS = lines(
  "export class UserStore {",
  "  /**",
  "   * Returns the record for `id`, or undefined.",
  "   */",
  "  get(id: string): User | undefined {",
  "    return this.map.get(id);",
  "  }",
  "}",
  "",
  "export class TeamStore {",
  "  /**",
  "   * Returns the record for `id`, or undefined.",
  "   */",
  "  get(id: string): Team | undefined {",
  "    return this.map.get(id);",
  "  }",
  "}",
);

const CSS = lines(
  ".button {",
  "  color: #333;",
  "  padding: 4px 8px;",
  "}",
  "",
  "@media (max-width: 600px) {",
  "  .button {",
  "    color: #333;",
  "    padding: 4px 8px;",
  "  }",
  "}",
  "",
  "@media print {",
  "  .button {",
  "    color: #333;",
  "    padding: 4px 8px;",
  "  }",
  "}",
);

const YAML = lines(
  "services:",
  "  web:",
  "    image: node:20",
  "    restart: always",
  "    environment:",
  "      LOG_LEVEL: info",
  "  worker:",
  "    image: node:20",
  "    restart: always",
  "    environment:",
  "      LOG_LEVEL: info",
);

const TOML = lines(
  "[package]",
  'name = "inbox"',
  'version = "0.3.1"',
  "",
  "[profile.dev]",
  "opt-level = 0",
  "debug = true",
  "",
  "[profile.release]",
  "opt-level = 3",
  "debug = true",
);

const MARKDOWN = lines(
  "# Inbox",
  "",
  "## Install",
  "",
  "Run \u201Cnpm install\u201D \u2014 that\u2019s all.",
  "",
  "## Usage",
  "",
  "Run \u201Cnpm start\u201D \u2014 that\u2019s all.",
  "",
  "### Options",
  "",
  "- `--port`: the port\u2026",
);

describe("one place or refuse", () => {
  it("refuses a hunk that matches two sibling Rust methods, naming both lines", () => {
    expect(() => update("src/mailbox.rs", RUST, "@@", "     pub fn len(&self) -> usize {", "-        self.items.len()", "+        self.items.iter().count()")).toThrow(
      /match 2 places \(lines 10, 20\).*Add an @@ line/s,
    );
  });

  it("applies it once an @@ line names the impl block", () => {
    const result = update("src/mailbox.rs", RUST, "@@ impl Outbox {", "     pub fn len(&self) -> usize {", "-        self.items.len()", "+        self.items.iter().count()");
    expect(result).toBe(RUST.replace("impl Outbox {\n    pub fn len(&self) -> usize {\n        self.items.len()", "impl Outbox {\n    pub fn len(&self) -> usize {\n        self.items.iter().count()"));
  });

  it("refuses a repeated TypeScript docblock", () => {
    expect(() => update("src/stores.ts", TS_DOCS, "@@", "   /**", "-   * Returns the record for `id`, or undefined.", "+   * Returns the cached record for `id`.", "    */")).toThrow(/match 2 places \(lines 2, 11\)/);
  });

  it("refuses a repeated CSS rule, and applies it inside the @media block an @@ line names", () => {
    const hunk = ["   .button {", "-    color: #333;", "+    color: #000;"];
    expect(() => update("app.css", CSS, ...hunk)).toThrow(/match 2 places \(lines 7, 14\)/);
    expect(update("app.css", CSS, "@@ @media print {", ...hunk)).toBe(CSS.replace("@media print {\n  .button {\n    color: #333;", "@media print {\n  .button {\n    color: #000;"));
  });

  it("counts places at the first step that finds any: an exact match wins over an indented twin", () => {
    const source = lines("retries = 3", "def run():", "    retries = 3");
    expect(update("cfg.py", source, "-retries = 3", "+retries = 5")).toBe(lines("retries = 5", "def run():", "    retries = 3"));
  });

  it("refuses two places that match only with whitespace ignored", () => {
    const source = lines("def a():", "    x = load()", "def b():", "        x = load()");
    expect(() => update("m.py", source, "-  x = load()", "+  x = load(fast=True)")).toThrow(/match 2 places \(lines 2, 4\)/);
  });

  it("matches typographic punctuation to ASCII and back, keeping the file's context lines", () => {
    const notes = lines("Title: \u201CInbox\u201D \u2014 a mail client", "It\u2019s fast\u2026", "Status: beta");
    // The patch spells the file's typographic context in ASCII: the file keeps its own characters.
    expect(update("notes.txt", notes, ' Title: "Inbox" - a mail client', " It's fast...", "-Status: beta", "+Status: stable")).toBe(
      lines("Title: \u201CInbox\u201D \u2014 a mail client", "It\u2019s fast\u2026", "Status: stable"),
    );
    // The other way: typographic quotes and a non-breaking space in the patch, ASCII in the file; added lines as given.
    const ascii = lines('label = "Don\'t save"', "width = 10");
    expect(update("ui.toml", ascii, " label = \u201CDon\u2019t\u00A0save\u201D", "-width = 10", "+width = 12 # \u201Cwide\u201D")).toBe(lines('label = "Don\'t save"', "width = 12 # \u201Cwide\u201D"));
  });
});

describe("@@ lines bound the search to their block", () => {
  it("nested @@ lines narrow step by step (class, then method)", () => {
    const result = update("shapes.py", PYTHON, "@@ class Square:", "@@     def area(self):", "-        return self.side ** 2", "+        return self.side * self.side");
    expect(result).toBe(PYTHON.replace("return self.side ** 2", "return self.side * self.side"));
  });

  it("refuses an @@ line that matches several lines unless an outer one narrows it", () => {
    expect(() => update("shapes.py", PYTHON, "@@     def area(self):", "-        return self.side ** 2", "+        return 0")).toThrow(
      /"@@ def area\(self\):" of hunk 1 of shapes\.py matches 2 lines \(lines 5, 13\)\. Put an @@ line naming the enclosing block/,
    );
  });

  it("looks for a nested @@ line only inside the outer one's block", () => {
    expect(() => update("shapes.py", PYTHON, "@@ class Circle:", "@@     def scale(self, k):", "-        return self", "+        return None")).toThrow(
      /Could not find the line "@@ def scale\(self, k\):" of hunk 1 of shapes\.py inside the block of "@@ class Circle:" \(lines 1-8\) \(it is at line 16, outside that block/,
    );
  });

  it("refuses lines that exist only outside the named block, saying where they are", () => {
    // `return self` is in Square.scale, not in Square.area.
    expect(() => update("shapes.py", PYTHON, "@@ class Square:", "@@     def area(self):", "-        return self", "+        return None")).toThrow(
      /not inside the block of "@@ def area\(self\):" \(lines 13-15\); they are at line 18/,
    );
    // Circle has no scale(); the old cursor semantics found Square's.
    expect(() => update("shapes.py", PYTHON, "@@ class Circle:", "         self.side *= k", "-        return self", "+        return None")).toThrow(/not inside the block of "@@ class Circle:" \(lines 1-8\)/);
  });

  it("counts a closing brace at the opener's indentation as the block's last line", () => {
    const source = lines("function first() {", "  return 1;", "}", "function second() {", "  return 2;", "}");
    expect(update("a.ts", source, "@@ function first() {", "   return 1;", " }", "+// first ends here")).toBe(
      lines("function first() {", "  return 1;", "}", "// first ends here", "function second() {", "  return 2;", "}"),
    );
    expect(() => update("a.ts", source, "@@ function first() {", "-  return 2;", "+  return 3;")).toThrow(/not inside the block of "@@ function first\(\) \{" \(lines 1-3\)/);
  });

  it("keeps a multi-line signature and `} else {` inside the block", () => {
    const source = lines(
      "export function pick(",
      "  items: string[],",
      "  index: number,",
      "): string {",
      "  if (index < items.length) {",
      "    return items[index]!;",
      "  } else {",
      "    return items[0]!;",
      "  }",
      "}",
      "export function last(items: string[]): string {",
      "  return items[0]!;",
      "}",
    );
    const result = update("pick.ts", source, "@@ export function pick(", "@@   } else {", "-    return items[0]!;", '+    throw new RangeError("index");');
    expect(result).toBe(source.replace('  } else {\n    return items[0]!;', '  } else {\n    throw new RangeError("index");'));
  });

  it("bounds a YAML stanza by indentation", () => {
    const hunk = ["-    image: node:20", "+    image: node:22"];
    expect(() => update("compose.yaml", YAML, ...hunk)).toThrow(/match 2 places \(lines 3, 8\)/);
    expect(update("compose.yaml", YAML, "@@   worker:", ...hunk)).toBe(YAML.replace("  worker:\n    image: node:20", "  worker:\n    image: node:22"));
  });

  it("bounds a TOML table by the next table header", () => {
    expect(update("Cargo.toml", TOML, "@@ [profile.dev]", "-debug = true", "+debug = false")).toBe(TOML.replace("opt-level = 0\ndebug = true", "opt-level = 0\ndebug = false"));
    expect(() => update("Cargo.toml", TOML, "@@ [profile.dev]", "-opt-level = 3", "+opt-level = 2")).toThrow(/not inside the block of "@@ \[profile\.dev\]" \(lines 5-8\); they are at line 10/);
  });

  it("takes neither an array value for a TOML table header nor a variable named `end` for a closer", () => {
    const toml = lines("[tool.lint]", "rules = [", '  ["a", "b"]', "]", 'select = "all"', "", "[tool.format]", 'select = "all"');
    expect(update("pyproject.toml", toml, "@@ [tool.lint]", '-select = "all"', '+select = "strict"')).toBe(toml.replace('select = "all"\n\n', 'select = "strict"\n\n'));
    const python = lines("def span():", "    start = 0", "end = 10", "def other():", "    end = 10");
    expect(() => update("span.py", python, "@@ def span():", "-end = 10", "+end = 20")).toThrow(/not inside the block of "@@ def span\(\):" \(lines 1-2\)/);
  });

  it("bounds a Markdown section by the next heading of the same or a higher level, matching typographic punctuation", () => {
    const hunk = ['-Run "npm start" - that\'s all.', '+Run "npm start", then open the printed URL.'];
    const result = update("README.md", MARKDOWN, "@@ ## Usage", ...hunk);
    expect(result).toBe(MARKDOWN.replace("Run \u201Cnpm start\u201D \u2014 that\u2019s all.", 'Run "npm start", then open the printed URL.'));
    // The subsection belongs to Usage; Install stops at Usage.
    expect(update("README.md", MARKDOWN, "@@ ## Usage", " - `--port`: the port...", "+- `--host`: the host")).toBe(MARKDOWN + "- `--host`: the host\n");
    expect(() => update("README.md", MARKDOWN, "@@ ## Install", ...hunk)).toThrow(/not inside the block of "@@ ## Install" \(lines 3-6\); they are at line 9/);
  });

  it("does not take a comment in a fenced code block for a Markdown heading", () => {
    const source = lines("## Setup", "", "```sh", "# install the tools", "npm ci", "```", "", "Then run `npm ci` again.", "", "## Next", "", "Then run `npm ci` again.");
    expect(update("docs/setup.md", source, "@@ ## Setup", "-Then run `npm ci` again.", "+Then run `npm test`.")).toBe(source.replace("Then run `npm ci` again.", "Then run `npm test`."));
  });

  it("an @@ line that opens nothing bounds the search to the rest of the block it is in", () => {
    const source = lines("def setup():", "    db = connect()", "    db.migrate()", "    return db", "", "def teardown():", "    db.migrate()");
    expect(update("app.py", source, "@@     db = connect()", "-    db.migrate()", "+    db.migrate(check=True)")).toBe(source.replace("    db.migrate()\n    return", "    db.migrate(check=True)\n    return"));
    expect(() => update("app.py", source, "@@     return db", "-    db.migrate()", "+    pass")).toThrow(/not inside the block of "@@ return db" \(lines 4-5\)/);
  });
});

describe("End of File", () => {
  it("requires the file's last lines, never a match elsewhere", () => {
    const source = lines("}", "", "export default app;", "}");
    expect(() => update("app.ts", source, "-export default app;", "+export default server;", "*** End of File")).toThrow(/marked "\*\*\* End of File", but its lines are at line 3, not the file's last lines/);
    expect(update("app.ts", source, " export default app;", "-}", "*** End of File")).toBe(lines("}", "", "export default app;"));
  });

  it("takes a trailing blank context line for the final newline", () => {
    expect(update("app.ts", lines("export default app;"), "-export default app;", "+export default server;", " ", "*** End of File")).toBe(lines("export default server;"));
  });

  it("inside an @@ block that does not reach the end, refuses", () => {
    const source = lines("def a():", "    return 1", "", "def b():", "    return 1");
    expect(() => update("m.py", source, "@@ def a():", "-    return 1", "+    return 2", "*** End of File")).toThrow(/does not reach the end of the file/);
  });
});

describe("hunks stand on their own", () => {
  it("applies hunks given out of file order", () => {
    const result = update("shapes.py", PYTHON, "@@ class Square:", "@@     def scale(self, k):", "-        return self", "+        return None", "@@ class Circle:", "@@     def area(self):", "-        return 3.14 * self.r ** 2", "+        return math.pi * self.r ** 2");
    expect(result).toBe(PYTHON.replace("return self\n", "return None\n").replace("3.14 * self.r", "math.pi * self.r"));
  });

  it("refuses hunks that change the same lines", () => {
    const source = lines("a = 1", "b = 2", "c = 3", "d = 4");
    expect(() => update("v.py", source, " a = 1", "-b = 2", "+b = 20", "@@", "-b = 2", "-c = 3", "+bc = 5")).toThrow(/Hunks 1 and 2 of v\.py change overlapping lines \(line 2 and lines 2-3\)\. Merge them into one hunk/);
  });

  it("refuses a hunk inside another's changed lines even past an insertion at the same line", () => {
    const source = lines("a", "b", "c", "d", "e");
    expect(() => update("t.txt", source, " a", "-b", "-c", "-d", "+bcd", "@@", " a", "+top", "@@", "-c", "+C")).toThrow(/Hunks 1 and 3 of t\.txt change overlapping lines \(lines 2-4 and line 3\)/);
    expect(() => update("t.txt", source, "-b", "-c", "-d", "+bcd", "@@", " c", "+X", " d")).toThrow(/Hunks 1 and 2 of t\.txt change overlapping lines \(lines 2-4 and before line 4\)/);
    // An insertion just before another hunk's lines is no overlap: it goes first.
    expect(update("t.txt", source, "-b", "+B", "@@", " a", "+top")).toBe(lines("a", "top", "B", "c", "d", "e"));
  });

  it("accepts hunks that only share context lines", () => {
    const source = lines("a = 1", "b = 2", "c = 3", "d = 4");
    expect(update("v.py", source, " a = 1", "-b = 2", "+b = 20", " c = 3", "@@", " b = 2", "-c = 3", "+c = 30", " d = 4")).toBe(lines("a = 1", "b = 20", "c = 30", "d = 4"));
  });
});

describe("the written lines follow the file", () => {
  it("re-indents added lines by the shift the hunk needed", () => {
    const source = lines("class Cache:", "    def get(self, key):", "        value = self.data.get(key)", "        return value");
    const result = update("cache.py", source, "@@ class Cache:", " value = self.data.get(key)", "-return value", "+if value is None:", "+    raise KeyError(key)", "+return value");
    expect(result).toBe(lines("class Cache:", "    def get(self, key):", "        value = self.data.get(key)", "        if value is None:", "            raise KeyError(key)", "        return value"));
  });

  it("keeps CRLF, each line's own ending and a missing final newline", () => {
    const crlf = "[server]\r\nport = 8080\r\nhost = localhost";
    expect(update("server.ini", crlf, " [server]", "-port = 8080", "+port = 9090", "+tls = on")).toBe("[server]\r\nport = 9090\r\ntls = on\r\nhost = localhost");
    const mixed = "one\r\ntwo\nthree\r\n";
    expect(update("mixed.txt", mixed, "-three", "+THREE")).toBe("one\r\ntwo\nTHREE\r\n");
  });
});

describe("apply_patch tool: all or nothing", () => {
  let harness: ToolHarness | undefined;
  afterEach(async () => {
    await harness?.dispose();
    harness = undefined;
  });

  it("writes no file when a hunk in another file is ambiguous", async () => {
    harness = await createToolHarness({ files: { "shapes.py": PYTHON, "app.css": CSS } });
    for (const path of ["shapes.py", "app.css"]) harness.context.fileTimes.markRead(path, (await harness.files.stat(path))!.mtime);
    const text = patch("*** Update File: shapes.py", "@@ class Square:", "-        return self", "+        return None", "*** Update File: app.css", "-color: #333;", "+color: #000;");
    await expect(runTool(applyPatchTool, { patchText: text }, harness.context)).rejects.toThrow(/lines of hunk 1 of app\.css match 3 places \(lines 2, 8, 15\)/);
    expect(await harness.files.readText("shapes.py")).toBe(PYTHON);
    expect(harness.asks).toHaveLength(0);
  });
});

describe("parsePatch", () => {
  it("puts consecutive @@ lines into one hunk, outermost first, keeping indentation after the separator", () => {
    const op = parsePatch(patch("*** Update File: a.py", "@@ class A:", "@@     def f(self):", "-        pass", "+        return 1", "@@", "-x", "+y"))[0]!;
    expect(op.kind === "update" && op.chunks.map((c) => c.anchors)).toEqual([["class A:", "    def f(self):"], []]);
  });
});

describe("unified diff range headers", () => {
  it("an @@ -a,b +c,d @@ header is a bare @@ (its numbers are not trusted), and its trailing text is the anchor", () => {
    const file = lines("fn a() {", "    1", "}", "", "fn b() {", "    1", "}");
    expect(update("x.rs", file, "@@ -1,3 +1,3 @@", " fn a() {", "-    1", "+    2")).toBe(lines("fn a() {", "    2", "}", "", "fn b() {", "    1", "}"));
    // Wrong numbers change nothing: the anchor text decides.
    expect(update("x.rs", file, "@@ -1,3 +1,3 @@ fn b() {", "-    1", "+    2")).toBe(lines("fn a() {", "    1", "}", "", "fn b() {", "    2", "}"));
    // Without an anchor, two equal places are still refused.
    expect(() => update("x.rs", file, "@@ -5,3 +5,3 @@", "-    1", "+    2")).toThrow(/lines 2 and 6|2, 6/);
  });
});
