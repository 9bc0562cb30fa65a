// The strict frontmatter parser of agent files: what it accepts and what it refuses with a line number.
import { describe, expect, it } from "vitest";
import { FrontmatterError, parseFrontmatter, splitFrontmatter } from "../../src/agent/agents";

describe("splitFrontmatter", () => {
  it("splits frontmatter from the body", () => {
    expect(splitFrontmatter("---\na: 1\n---\nBody\ntext\n")).toEqual({ frontmatter: "a: 1\n", firstLine: 2, body: "Body\ntext\n" });
  });
  it("handles CRLF, a BOM, an empty body and no frontmatter", () => {
    expect(splitFrontmatter("\uFEFF---\r\na: 1\r\n---\r\nB").body).toBe("B");
    expect(splitFrontmatter("---\na: 1\n---").body).toBe("");
    expect(splitFrontmatter("just a prompt")).toEqual({ body: "just a prompt", firstLine: 1 });
  });
  it("refuses unclosed frontmatter", () => {
    expect(() => splitFrontmatter("---\na: 1\nbody")).toThrow(FrontmatterError);
  });
});

describe("parseFrontmatter", () => {
  it("parses scalars", () => {
    expect(
      parseFrontmatter(
        [
          "description: Reviews code for bugs",
          "temperature: 0.2",
          "steps: 12",
          "negative: -3",
          "hidden: true",
          "off: false",
          "nothing: null",
          "tilde: ~",
          `quoted: "a: b # not a comment \\"x\\"\\n"`,
          "single: 'it''s'",
          "color: '#ff8800'",
          "url: https://example.com/x # trailing comment",
        ].join("\n"),
      ),
    ).toEqual({
      description: "Reviews code for bugs",
      temperature: 0.2,
      steps: 12,
      negative: -3,
      hidden: true,
      off: false,
      nothing: null,
      tilde: null,
      quoted: 'a: b # not a comment "x"\n',
      single: "it's",
      color: "#ff8800",
      url: "https://example.com/x",
    });
  });

  it("parses nested maps by indentation, with quoted and wildcard keys, in order", () => {
    const parsed = parseFrontmatter(["permission:", "  edit: deny", "  bash:", '    "git diff *": allow', "    git log *: allow", "    '*': ask", "mode: subagent"].join("\n"));
    expect(parsed).toEqual({ permission: { edit: "deny", bash: { "git diff *": "allow", "git log *": "allow", "*": "ask" } }, mode: "subagent" });
    expect(Object.keys((parsed.permission as { bash: object }).bash)).toEqual(["git diff *", "git log *", "*"]);
  });

  it("parses | and > blocks as YAML does (clip keeps one final newline, - strips it)", () => {
    expect(parseFrontmatter("description: |\n  line one\n    indented # kept\n\n  line three\nmode: all")).toEqual({
      description: "line one\n  indented # kept\n\nline three\n",
      mode: "all",
    });
    expect(parseFrontmatter("description: >-\n  folded\n  together\nx: 1").description).toBe("folded together");
  });

  it("reads lists, flow maps and anchors, as OpenCode's agent files use them", () => {
    expect(parseFrontmatter("tools: [read, grep]\npermission: { edit: deny, bash: { '*': ask } }\npaths:\n  - src\n  - test\nbase: &b 1\ncopy: *b")).toEqual({
      tools: ["read", "grep"],
      permission: { edit: "deny", bash: { "*": "ask" } },
      paths: ["src", "test"],
      base: 1,
      copy: 1,
    });
  });

  it("ignores comments and blank lines", () => {
    expect(parseFrontmatter("# comment\n\na: 1 # note\n   \n")).toEqual({ a: 1 });
  });

  it("treats a key with no value and no children as null", () => {
    expect(parseFrontmatter("model:\nmode: all")).toEqual({ model: null, mode: "all" });
  });

  const refusals: [string, string, RegExp][] = [
    ["duplicate keys", "a: 1\na: 2", /appears twice/],
    ["tabs", "a:\n\tb: 1", /tabs/],
    ["bad indentation", "a: 1\n  b: 2", /mapping/i],
    ["unclosed quotes", 'a: "open', /quote/i],
    ["text after quotes", 'a: "x" y', /unexpected/i],
    ["prototype keys", "__proto__: 1", /not allowed/],
    ["nested prototype keys", "a:\n  constructor: 1", /not allowed/],
    ["unknown escapes", 'a: "\\q"', /escape/i],
    ["a list at the top", "- a\n- b", /must be a map/],
    ["alias bombs", "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]", /alias/i],
  ];
  it.each(refusals)("refuses %s with the line number", (_what, text, message) => {
    let error: unknown;
    try {
      parseFrontmatter(text, 5);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FrontmatterError);
    expect((error as Error).message).toMatch(message);
    expect((error as FrontmatterError).line).toBeGreaterThanOrEqual(5);
  });

  it("never evaluates anything", () => {
    expect(parseFrontmatter("a: ${process.exit(1)}\nb: `rm -rf /`".replace("`rm -rf /`", "'`rm`'"))).toEqual({ a: "${process.exit(1)}", b: "`rm`" });
  });
});

describe("parseFrontmatter, leniently", () => {
  it("reads a one-line plain value with ': ' in it as text, as people write descriptions", () => {
    expect(parseFrontmatter("name: release\ndescription: Cut a release: bump, tag, changelog.\nmode: all")).toEqual({
      name: "release",
      description: "Cut a release: bump, tag, changelog.",
      mode: "all",
    });
  });
  it("keeps other errors", () => {
    expect(() => parseFrontmatter('a: "open\nb: x: y')).toThrow(FrontmatterError);
  });
});
