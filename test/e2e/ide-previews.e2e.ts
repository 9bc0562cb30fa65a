// Previews in the editor area, in a real browser: Markdown rendered with the chat's sanitiser beside
// its source (live as it is edited), SVG and PNG shown as images through <img> (an SVG's script never
// runs, its markup never enters the page), and other binary files described by size and type.
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, treeItem, waitForActiveTab, waitForTerminal, waitForWorkbench, useBrowser } from "../support/browser";

const browser = useBrowser();
const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("editor previews", () => {
  it("previews Markdown safely, images as images, and describes other binary files", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "printf '# Preview title\\n\\nSome **bold** text\\n\\n<img src=x onerror=window.__pwned=1>\\n\\n<script>window.__pwned=2</script>\\n' > doc.md");
    await runInTerminal(page, "printf '<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"12\" height=\"7\"><script>window.__pwned=3</script><rect width=\"12\" height=\"7\" fill=\"red\"/></svg>' > pic.svg");
    await runInTerminal(page, `echo ${PNG_1X1} | base64 -d > dot.png && printf 'PK\\003\\004\\000\\000\\000' > data.zip && echo made-previews`);
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain("made-previews");
    await expect.poll(() => treeItem(page, "data.zip").count(), { timeout: 15_000 }).toBe(1);

    // Markdown beside its source.
    await treeItem(page, "doc.md").click();
    await waitForActiveTab(page, "doc.md");
    await page.getByRole("button", { name: "Preview" }).click();
    const md = page.getByRole("document", { name: "Preview of doc.md" });
    await expect.poll(() => md.getByRole("heading", { name: "Preview title" }).count()).toBe(1);
    expect(await md.locator("strong").innerText()).toBe("bold");
    expect(await md.locator("script, [onerror]").count()).toBe(0);
    // Live: an unsaved edit shows in the preview.
    await page.locator(".monaco-host .view-lines").click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.type("## Added line\n");
    await expect.poll(() => md.getByRole("heading", { name: "Added line" }).count()).toBe(1);

    // SVG: an image, never markup in the page.
    await treeItem(page, "pic.svg").click();
    await waitForActiveTab(page, "pic.svg");
    await page.getByRole("button", { name: "Preview" }).click();
    const svg = page.getByRole("img", { name: "Preview of pic.svg" });
    await expect.poll(() => svg.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(12);
    expect(await svg.getAttribute("src")).toMatch(/^blob:/);
    expect(await page.locator(".file-preview-pane svg").count()).toBe(0);

    // PNG: an image with its type, size and dimensions.
    await treeItem(page, "dot.png").click();
    await waitForActiveTab(page, "dot.png");
    await expect.poll(() => page.getByRole("img", { name: "Preview of dot.png" }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    expect(await page.locator(".file-preview-caption").innerText()).toMatch(/image\/png · 70 B · 1 × 1 px/);

    // Another binary file: size and type.
    await treeItem(page, "data.zip").click();
    await waitForActiveTab(page, "data.zip");
    await expect.poll(() => page.locator(".editor-message").innerText()).toMatch(/binary file: 7 B, application\/zip/);

    expect(await page.evaluate(() => (window as Window & { __pwned?: number }).__pwned)).toBeUndefined();
    expect(app.errors).toEqual([]);
  });
});
