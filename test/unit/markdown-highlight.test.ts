// The code-block highlighter: right token kinds for common languages, always escaped, never slow.
import { describe, expect, it } from "vitest";
import { highlightCode } from "../../src/ui/markdown";
import { MAX_HIGHLIGHT_CHARS } from "../../src/ui/markdown/highlight";

/** [kind, text] pairs of the highlighted spans. */
function spans(html: string): [string, string][] {
  return Array.from(html.matchAll(/<span class="tok-([a-z]+)">([^<]*)<\/span>/g), (m) => [m[1]!, m[2]!]);
}

/** The text back from the HTML: tags stripped, entities decoded. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

describe("highlightCode", () => {
  it("colours TypeScript keywords, strings, numbers, comments, types and calls", () => {
    const code = 'const answer: Answer = compute("x", 42); // done\n/* block */';
    const result = spans(highlightCode(code, "ts"));
    expect(result).toContainEqual(["keyword", "const"]);
    expect(result).toContainEqual(["type", "Answer"]);
    expect(result).toContainEqual(["function", "compute"]);
    expect(result).toContainEqual(["string", "&quot;x&quot;"]);
    expect(result).toContainEqual(["number", "42"]);
    expect(result).toContainEqual(["comment", "// done"]);
    expect(result).toContainEqual(["comment", "/* block */"]);
    expect(result.map(([, t]) => t)).not.toContain("answer");
  });

  it("keeps template literals across lines and does not end strings at escaped quotes", () => {
    const result = spans(highlightCode("const s = `a\nb`; const t = 'it\\'s';", "js"));
    expect(result).toContainEqual(["string", "`a\nb`"]);
    expect(result).toContainEqual(["string", "&#39;it\\&#39;s&#39;"]);
  });

  it("handles Python comments, triple quotes and decorators", () => {
    const result = spans(highlightCode('@cache\ndef f(x):\n    """doc\n    more"""\n    return None  # nothing', "python"));
    expect(result).toContainEqual(["meta", "@cache"]);
    expect(result).toContainEqual(["keyword", "def"]);
    expect(result).toContainEqual(["string", '&quot;&quot;&quot;doc\n    more&quot;&quot;&quot;']);
    expect(result).toContainEqual(["literal", "None"]);
    expect(result).toContainEqual(["comment", "# nothing"]);
  });

  it("handles shell variables and comments", () => {
    const result = spans(highlightCode('echo "$HOME" ${PATH} # where\nnpm run build', "bash"));
    expect(result).toContainEqual(["variable", "${PATH}"]);
    expect(result).toContainEqual(["comment", "# where"]);
    expect(result).toContainEqual(["keyword", "npm"]);
  });

  it("tells JSON keys from values", () => {
    const result = spans(highlightCode('{"name": "webcode", "n": -1.5, "ok": true}', "json"));
    expect(result).toContainEqual(["property", "&quot;name&quot;"]);
    expect(result).toContainEqual(["string", "&quot;webcode&quot;"]);
    expect(result).toContainEqual(["number", "-1.5"]);
    expect(result).toContainEqual(["literal", "true"]);
  });

  it("marks diff lines", () => {
    const result = spans(highlightCode("@@ -1 +1 @@\n-old\n+new\n same", "diff"));
    expect(result).toEqual([
      ["meta", "@@ -1 +1 @@"],
      ["deleted", "-old"],
      ["inserted", "+new"],
    ]);
  });

  it("colours HTML tags and attributes and escapes everything", () => {
    const html = highlightCode('<a href="x" onclick="alert(1)">hi</a><!-- c -->', "html");
    expect(html).not.toMatch(/<a |<!--/);
    const result = spans(html);
    expect(result).toContainEqual(["tag", "&lt;a"]);
    expect(result).toContainEqual(["attr", "onclick"]);
    expect(result).toContainEqual(["comment", "&lt;!-- c --&gt;"]);
  });

  it.each(["ts", "python", "bash", "json", "html", "diff", "go", "rust", "css", "sql", "yaml", "unknown", undefined])(
    "gives back exactly the input text for %s",
    (language) => {
      const code = 'x <y> & "z" \'w\' `v` /* c */ # h\n$A @b 0x1F 1e3 -- d\n<!-- e --> {"k": 1}';
      expect(text(highlightCode(code, language))).toBe(code);
    },
  );

  it("shows huge blocks plain", () => {
    const code = "const a = 1;\n".repeat(Math.ceil(MAX_HIGHLIGHT_CHARS / 13) + 1);
    expect(highlightCode(code, "ts")).not.toContain("<span");
  });

  it("highlights 100 KB of TypeScript in full (its speed is measured by npm run bench)", () => {
    const line = 'export function f(a: number): string { return `v${a}` + "x"; } // c\n';
    const html = highlightCode(line.repeat(1500), "ts");
    // Every line highlighted, none dropped: 1500 comments, 1500 template strings.
    expect(html.match(/class="[^"]*comment[^"]*"/g)?.length).toBe(1500);
    expect(html.replace(/<[^>]+>/g, "").split("\n").length).toBe(1501);
  });
});
