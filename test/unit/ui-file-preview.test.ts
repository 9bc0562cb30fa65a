// Which files get a preview in the editor area, and how other binary files are described.
import { describe, expect, it } from "vitest";
import { describeFileType, previewKind } from "../../src/ui/editor/file-preview";

describe("file previews", () => {
  it("previews Markdown and images by extension, case-insensitively", () => {
    expect(previewKind("README.md")).toBe("markdown");
    expect(previewKind("docs/Guide.MARKDOWN")).toBe("markdown");
    for (const name of ["a.png", "b.JPG", "c.jpeg", "d.gif", "e.webp", "f.svg"]) expect(previewKind(name)).toBe("image");
    expect(previewKind("main.ts")).toBeUndefined();
    expect(previewKind(".md")).toBeUndefined();
    expect(previewKind("archive.zip")).toBeUndefined();
  });

  it("names the type of a binary file, or says it is unknown", () => {
    expect(describeFileType("a.zip")).toBe("application/zip");
    expect(describeFileType("pic.svg")).toBe("image/svg+xml");
    expect(describeFileType("blob.xyz")).toBe(".xyz file (unknown type)");
    expect(describeFileType("noext")).toBe("unknown type");
  });
});
