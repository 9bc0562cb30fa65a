// Bidi controls and invisible characters can make a file name or a command read as something else
// ("Trojan Source"): names refuse them, and the UI shows them as ⟨U+…⟩.
import { describe, expect, it } from "vitest";
import { PathError, hasInvisibleChars, revealInvisibleChars, validateName, validatePath } from "../../src/base";

const INVISIBLE = [0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff];

describe("invisible and bidi characters", () => {
  it("validateName refuses every one of them, anywhere in the name, and names it visibly", () => {
    for (const code of INVISIBLE) {
      const c = String.fromCharCode(code);
      for (const name of [`invoice${c}.txt`, `${c}a`, `a${c}`]) {
        const problem = validateName(name);
        expect(problem, `U+${code.toString(16)} in ${JSON.stringify(name)}`).toMatch(/invisible or text-direction character/);
        expect(problem).toContain(`⟨U+${code.toString(16).toUpperCase()}⟩`);
        expect(problem).not.toContain(c);
      }
    }
  });

  it("validatePath refuses a folder segment that hides a right-to-left override", () => {
    expect(() => validatePath("src/gpj.\u202Eexe.ts")).toThrow(PathError);
    expect(() => validatePath("src\u2066/a.ts")).toThrow(/invisible/);
  });

  it("neighbouring characters stay allowed (accents, non-Latin scripts, emoji, U+2010 and U+2065)", () => {
    for (const name of ["café.md", "файл.ts", "日本語.txt", "שלום.txt", "🙂.md", "a\u2010b", "a\u2065b", "a\u200ab"]) {
      expect(validateName(name), name).toBeUndefined();
    }
  });

  it("revealInvisibleChars shows each one as ⟨U+XXXX⟩ and leaves other text alone", () => {
    expect(revealInvisibleChars("rm -rf /tmp/x \u202E# safe")).toBe("rm -rf /tmp/x ⟨U+202E⟩# safe");
    expect(revealInvisibleChars("a\u200Bb\uFEFFc\u2069")).toBe("a⟨U+200B⟩b⟨U+FEFF⟩c⟨U+2069⟩");
    expect(revealInvisibleChars("plain café 日本")).toBe("plain café 日本");
    expect(hasInvisibleChars("x\u2067y")).toBe(true);
    expect(hasInvisibleChars("xy")).toBe(false);
  });
});
