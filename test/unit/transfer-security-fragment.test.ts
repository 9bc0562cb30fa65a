// The address fragment is parsed into key=value pairs: `#share=` and `#import=` are recognised only
// as whole keys, and when both appear exactly one of them (the first) is acted on.
import { describe, expect, it } from "vitest";
import { findImportUrl, findShareFragment, findTransferFragment } from "../../src/transfer";

describe("transfer fragments", () => {
  it("acts on exactly one of #import= and #share=: the first of them in the fragment", () => {
    const both = "https://webcode.dev/#import=https%3A%2F%2Fevil.dev%2Fa.zip&share=v1.abc";
    expect(findTransferFragment(both)).toEqual({ kind: "import", url: "https://evil.dev/a.zip" });
    expect(findImportUrl(both)).toBe("https://evil.dev/a.zip");
    expect(findShareFragment(both)).toBeUndefined();

    const reversed = "https://webcode.dev/#share=v1.abc&import=https%3A%2F%2Fevil.dev%2Fa.zip";
    expect(findTransferFragment(reversed)).toEqual({ kind: "share", data: "v1.abc" });
    expect(findShareFragment(reversed)).toBe("v1.abc");
    expect(findImportUrl(reversed)).toBeUndefined();
  });

  it("does not find share= inside another key or inside a value", () => {
    expect(findShareFragment("https://webcode.dev/#import=https://x.dev/get?share=v1.abc")).toBeUndefined();
    expect(findImportUrl("https://webcode.dev/#import=https://x.dev/get?share=v1.abc")).toBe("https://x.dev/get?share=v1.abc");
    expect(findShareFragment("https://webcode.dev/#noshare=v1.abc")).toBeUndefined();
    expect(findShareFragment("https://webcode.dev/#x=1&myshare=v1.abc")).toBeUndefined();
    expect(findImportUrl("https://webcode.dev/#reimport=https://x.dev/a.zip")).toBeUndefined();
    expect(findShareFragment("https://webcode.dev/?share=v1.abc")).toBeUndefined();
  });

  it("still finds them after other keys, in a bare fragment, and in pasted text with spaces around", () => {
    expect(findShareFragment("https://webcode.dev/?runtime=browser#tab=chat&share=v1.abc")).toBe("v1.abc");
    expect(findShareFragment("#share=v1.abc")).toBe("v1.abc");
    expect(findShareFragment("share=v1.abc")).toBe("v1.abc");
    expect(findShareFragment("  https://webcode.dev/#share=v1.abc \n")).toBe("v1.abc");
    expect(findImportUrl("https://webcode.dev/#a=1&import=https://x.dev/a.zip")).toBe("https://x.dev/a.zip");
    expect(findTransferFragment("https://webcode.dev/#tab=chat")).toBeUndefined();
    expect(findTransferFragment("https://webcode.dev/")).toBeUndefined();
    expect(findTransferFragment("https://webcode.dev/#share=")).toBeUndefined();
  });
});
