// Language descriptions for the small syntax highlighter (highlight.ts): keywords, comment and
// string syntax per language family. Data only, so adding a language is adding a table row.

export interface LanguageSpec {
  /** Line comment openers, e.g. "//" or "#". */
  lineComments: string[];
  /** Block comment delimiters, e.g. ["/*", "*\/"]. */
  blockComments: [string, string][];
  /** String delimiters; backtick strings may span lines. */
  quotes: string[];
  /** Triple-quoted strings (Python). */
  tripleQuotes?: boolean;
  keywords: Set<string>;
  /** Literals and built-ins shown in their own colour (true, null, self, ...). */
  literals: Set<string>;
  /** Shell-style `$VAR` / `${VAR}` variables. */
  dollarVariables?: boolean;
  /** Identifiers may contain `-` (CSS properties, shell options). */
  dashInIdentifiers?: boolean;
  /** Names starting with a capital are types (most C-family languages). */
  capitalTypes?: boolean;
  /** `@decorator` / `@media` words. */
  atWords?: boolean;
}

const words = (text: string): Set<string> => new Set(text.split(/\s+/).filter(Boolean));

const C_LITERALS = words("true false null undefined NaN Infinity this super self nil None True False");

const JS_KEYWORDS = words(`
  as async await break case catch class const continue debugger declare default delete do else enum export
  extends finally for from function get if implements import in infer instanceof interface is keyof let
  namespace new of private protected public readonly return satisfies set static switch throw try type
  typeof var void while with yield abstract override any unknown never string number boolean bigint symbol object`);

const PYTHON_KEYWORDS = words(`
  and as assert async await break class continue def del elif else except finally for from global if import
  in is lambda match case nonlocal not or pass raise return try while with yield print`);

const SHELL_KEYWORDS = words(`
  if then else elif fi for in do done while until case esac function return local export readonly declare
  set unset shift exit source alias echo cd ls cat grep sed awk find xargs npm npx node git pnpm yarn sudo mkdir rm cp mv`);

const GO_KEYWORDS = words(`
  break case chan const continue default defer else fallthrough for func go goto if import interface map
  package range return select struct switch type var string int int64 int32 uint byte rune bool error float64 any`);

const RUST_KEYWORDS = words(`
  as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut
  pub ref return static struct trait type unsafe use where while Self i32 i64 u8 u32 u64 usize isize f32 f64 bool str String Vec Option Result Some Ok Err`);

const C_KEYWORDS = words(`
  auto break case char const continue default do double else enum extern float for goto if inline int long
  register return short signed sizeof static struct switch typedef union unsigned void volatile while class
  namespace template typename public private protected virtual override new delete using include define
  ifdef ifndef endif pragma std bool nullptr constexpr auto final`);

const JAVA_KEYWORDS = words(`
  abstract assert boolean break byte case catch char class const continue default do double else enum extends
  final finally float for goto if implements import instanceof int interface long native new package private
  protected public return short static strictfp super switch synchronized throw throws transient try void
  volatile while var record val fun when object data sealed suspend override open internal companion lateinit`);

const SQL_KEYWORDS = words(`
  select from where and or not insert into values update set delete create table drop alter add primary key
  foreign references join left right inner outer on group by order having limit offset as distinct union all
  index view begin commit rollback null is in like between case when then else end default exists
  SELECT FROM WHERE AND OR NOT INSERT INTO VALUES UPDATE SET DELETE CREATE TABLE DROP ALTER ADD PRIMARY KEY
  FOREIGN REFERENCES JOIN LEFT RIGHT INNER OUTER ON GROUP BY ORDER HAVING LIMIT OFFSET AS DISTINCT UNION ALL
  INDEX VIEW BEGIN COMMIT ROLLBACK NULL IS IN LIKE BETWEEN CASE WHEN THEN ELSE END DEFAULT EXISTS`);

const CSS_KEYWORDS = words("important inherit initial unset auto none block inline flex grid absolute relative fixed sticky");

const YAML_LITERALS = words("true false null yes no on off ~");

const c = (keywords: Set<string>, extra: Partial<LanguageSpec> = {}): LanguageSpec => ({
  lineComments: ["//"],
  blockComments: [["/*", "*/"]],
  quotes: ['"', "'"],
  keywords,
  literals: C_LITERALS,
  capitalTypes: true,
  ...extra,
});

export const LANGUAGES: Record<string, LanguageSpec> = {
  javascript: c(JS_KEYWORDS, { quotes: ['"', "'", "`"], atWords: true }),
  python: {
    lineComments: ["#"],
    blockComments: [],
    quotes: ['"', "'"],
    tripleQuotes: true,
    keywords: PYTHON_KEYWORDS,
    literals: C_LITERALS,
    capitalTypes: true,
    atWords: true,
  },
  shell: {
    lineComments: ["#"],
    blockComments: [],
    quotes: ['"', "'"],
    keywords: SHELL_KEYWORDS,
    literals: words("true false"),
    dollarVariables: true,
    dashInIdentifiers: true,
  },
  go: c(GO_KEYWORDS, { quotes: ['"', "'", "`"] }),
  rust: c(RUST_KEYWORDS, { quotes: ['"'] }),
  c: c(C_KEYWORDS),
  java: c(JAVA_KEYWORDS, { atWords: true }),
  sql: { lineComments: ["--"], blockComments: [["/*", "*/"]], quotes: ["'", '"'], keywords: SQL_KEYWORDS, literals: C_LITERALS },
  css: {
    lineComments: [],
    blockComments: [["/*", "*/"]],
    quotes: ['"', "'"],
    keywords: CSS_KEYWORDS,
    literals: words(""),
    dashInIdentifiers: true,
    atWords: true,
  },
  yaml: { lineComments: ["#"], blockComments: [], quotes: ['"', "'"], keywords: words(""), literals: YAML_LITERALS },
  toml: { lineComments: ["#"], blockComments: [], quotes: ['"', "'"], keywords: words(""), literals: YAML_LITERALS },
};

/** Fence info strings people actually write, mapped to a language above (or a special mode). */
const ALIASES: Record<string, string> = {
  js: "javascript", javascript: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript",
  ts: "javascript", typescript: "javascript", tsx: "javascript", mts: "javascript", json5: "javascript",
  py: "python", python: "python", python3: "python",
  sh: "shell", bash: "shell", zsh: "shell", shell: "shell", console: "shell", shellscript: "shell",
  go: "go", golang: "go", rs: "rust", rust: "rust",
  c: "c", h: "c", cpp: "c", "c++": "c", cc: "c", hpp: "c", cs: "c", csharp: "c", swift: "c", php: "c",
  java: "java", kotlin: "java", kt: "java", scala: "java",
  sql: "sql", css: "css", scss: "css", less: "css",
  yaml: "yaml", yml: "yaml", toml: "toml", ini: "toml",
  json: "json", jsonc: "json",
  html: "markup", xml: "markup", svg: "markup", vue: "markup", svelte: "markup",
  diff: "diff", patch: "diff",
};

/** The language (or special mode: "json", "markup", "diff") for a fence info string; undefined = plain. */
export function resolveLanguage(info: string | undefined): string | undefined {
  if (!info) return undefined;
  const name = info.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  return ALIASES[name];
}
