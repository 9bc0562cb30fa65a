// Keyboard-only use in the built app: dialogs and drawers keep Tab inside, close on Escape and give
// the focus back to what opened them; nothing leaves the focus on <body> (Settings' Add model and
// Save, answering a permission card, opening a session, hiding the terminal); a destructive confirm
// starts on the safe choice; permission requests and finished answers are announced.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { MOD, waitForWorkbench } from "../support/browser";
import { FAKE_KEY, FAKE_MODEL, chat, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

/** A short description of the focused element: its role or tag and its accessible name. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "body";
    const name = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? "";
    return `${el.getAttribute("role") ?? el.tagName.toLowerCase()}:${name}`;
  });
}

/** Whether the focus is inside the element matched by `selector`. */
function focusInside(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((s) => document.querySelector(s)?.contains(document.activeElement) ?? false, selector);
}

/** Presses Tab (or Shift+Tab) `times` times and returns whether the focus stayed inside `selector` each time. */
async function tabsStayInside(page: Page, selector: string, times: number, key = "Tab"): Promise<boolean[]> {
  const inside: boolean[] = [];
  for (let i = 0; i < times; i++) {
    await page.keyboard.press(key);
    inside.push(await focusInside(page, selector));
  }
  return inside;
}

/**
 * The focused element's focus indicator: a 2px+ outline (or a box-shadow ring) whose colour has at
 * least 3:1 against the background behind the element. Returns a description of what fails, or "ok".
 */
function focusIndicatorProblem(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "focus on body";
    const style = getComputedStyle(el);
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c: number[]) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(c[0]!) + 0.7152 * f(c[1]!) + 0.0722 * f(c[2]!);
    };
    let ring: string | undefined;
    if (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2) ring = style.outlineColor;
    else if (style.boxShadow !== "none") ring = style.boxShadow.match(/rgba?\([^)]*\)/)?.[0];
    const name = `${el.tagName.toLowerCase()} ${el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 30) ?? ""}`;
    if (!ring) return `${name}: no focus ring`;
    let behind: Element | null = el.parentElement;
    let bg = "rgb(0, 0, 0)";
    while (behind) {
      const color = getComputedStyle(behind).backgroundColor;
      if (color && !/rgba\(.*,\s*0\)$/.test(color) && color !== "transparent") {
        bg = color;
        break;
      }
      behind = behind.parentElement;
    }
    const [a, b] = [lum(rgb(ring)), lum(rgb(bg))].sort((x, y) => y - x) as [number, number];
    const ratio = (a + 0.05) / (b + 0.05);
    return ratio >= 3 ? "ok" : `${name}: ring ${ring} on ${bg} is ${ratio.toFixed(2)}:1`;
  });
}

describe("keyboard only", () => {
  it("Settings keeps Tab inside, keeps the focus through Add model and Save, and gives it back to its button on Escape", async () => {
    const server = await browser.startServer(scripted([]));
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await page.getByRole("button", { name: "Settings", exact: true }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await expect.poll(() => focusInside(page, "[role=dialog][aria-label=Settings]")).toBe(true);
    expect(new Set(await tabsStayInside(page, "[role=dialog][aria-label=Settings]", 40))).toEqual(new Set([true]));
    // Every control on the way, the primary Save button included, shows a ring of 3:1 or more.
    const problems = new Set<string>();
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press("Tab");
      problems.add(await focusIndicatorProblem(page));
    }
    expect([...problems]).toEqual(["ok"]);
    expect(new Set(await tabsStayInside(page, "[role=dialog][aria-label=Settings]", 40, "Shift+Tab"))).toEqual(new Set([true]));

    await dialog.getByLabel("Provider", { exact: true }).selectOption("custom");
    await dialog.getByLabel("Base URL").fill(server.url);
    await dialog.getByLabel("API key").fill(FAKE_KEY);
    await dialog.getByLabel("Other model ID").fill(FAKE_MODEL);
    await dialog.getByRole("button", { name: "Add model" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => dialog.getByLabel("Model", { exact: true }).inputValue()).toBe(FAKE_MODEL);
    // The button is disabled once the field is emptied: the focus moved to the model it chose.
    expect(await dialog.getByLabel("Model", { exact: true }).evaluate((e) => e === document.activeElement)).toBe(true);

    await dialog.getByRole("button", { name: "Save" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => dialog.getByRole("button", { name: /^Edit / }).count()).toBe(1);
    await expect.poll(() => focused(page)).toMatch(/^button:Edit /);

    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await focused(page)).toBe("button:Settings");
    expect(app.errors).toEqual([]);
  });

  it("permission card, Changes view, sessions drawer, delete confirm, opening a session and hiding the terminal never strand the focus", async () => {
    const server = await browser.startServer(
      scripted(
        [
          { chunks: [{ type: "tool-call", name: "read", input: { filePath: "README.md" } }] },
          { chunks: [{ type: "tool-call", name: "edit", input: { filePath: "README.md", oldString: "# Welcome to your workspace", newString: "# Hello" } }] },
          { chunks: [{ type: "text", text: "Done: the title is now Hello." }] },
        ],
        "Retitle",
      ),
    );
    const app = await browser.openWithProvider(server, { edits: "ask" });
    const { page } = app;

    // The card is announced and takes the focus (the user pressed Enter to send, they are not typing).
    await sendMessage(page, "Retitle the README.");
    const card = chat(page).getByRole("group", { name: "The agent wants to change files" });
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.locator("[data-announcer=assertive]").innerText()).toContain("Permission needed. The agent wants to change files");
    await expect.poll(() => focused(page)).toMatch(/^group:The agent wants to change files/);
    expect(await card.evaluate((e) => e === document.activeElement)).toBe(true);
    // By keyboard: Tab to "Allow once", Enter. The focus goes to the message box, not <body>.
    for (let i = 0; i < 10 && (await focused(page)) !== "button:Allow once"; i++) await page.keyboard.press("Tab");
    expect(await focused(page)).toBe("button:Allow once");
    await page.keyboard.press("Enter");
    await expect.poll(() => card.count()).toBe(0);
    await expect.poll(() => focused(page)).toBe("textarea:Message");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Done: the title is now Hello.");
    // The finished answer is said politely, once.
    await expect.poll(() => page.locator("[data-announcer=polite]").innerText()).toBe("The agent answered: Done: the title is now Hello.");

    // Changes: Escape goes back to the chat with the focus on the Changes button.
    const changes = chat(page).getByRole("button", { name: "Changes" });
    await changes.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => chat(page).getByRole("list", { name: "Changed files" }).count()).toBe(1);
    for (let i = 0; i < 6 && !(await focusInside(page, ".chat-main")); i++) await page.keyboard.press("Tab");
    expect(await focusInside(page, ".chat-main")).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => chat(page).getByRole("list", { name: "Changed files" }).count()).toBe(0);
    expect(await focused(page)).toBe("button:Changes");

    // The sessions drawer: aria-expanded, focus in, Tab kept inside, Escape back to its button.
    const sessionsButton = chat(page).getByRole("button", { name: "Sessions", exact: true });
    expect(await sessionsButton.getAttribute("aria-expanded")).toBe("false");
    await sessionsButton.focus();
    await page.keyboard.press("Enter");
    const drawer = "nav.sessions-sidebar";
    await expect.poll(() => focusInside(page, drawer)).toBe(true);
    expect(await sessionsButton.getAttribute("aria-expanded")).toBe("true");
    expect(new Set(await tabsStayInside(page, drawer, 12))).toEqual(new Set([true]));
    await page.keyboard.press("Escape");
    await expect.poll(() => page.locator(drawer).count()).toBe(0);
    expect(await focused(page)).toBe("button:Sessions");

    // Delete confirm starts on Cancel; Escape cancels and the focus goes back into the drawer.
    await page.keyboard.press("Enter");
    await expect.poll(() => focusInside(page, drawer)).toBe(true);
    await page.locator(drawer).getByRole("button", { name: "Delete Retitle" }).focus();
    await page.keyboard.press("Enter");
    const confirm = page.getByRole("alertdialog", { name: "Delete session?" });
    await expect.poll(() => confirm.count()).toBe(1);
    expect(await focused(page)).toBe("button:Cancel");
    await page.keyboard.press("Escape");
    await expect.poll(() => confirm.count()).toBe(0);
    expect(await focused(page)).toBe("button:Delete Retitle");

    // Opening a session from the drawer: the drawer closes and the focus is not left on <body>.
    await page.locator(drawer).getByRole("button", { name: /^Retitle/ }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(drawer).count()).toBe(0);
    expect(await focused(page)).not.toBe("body");

    // Hiding the terminal that holds the focus moves it to the editor.
    await page.keyboard.press("Control+`");
    await expect.poll(() => focusInside(page, ".pane-terminal")).toBe(true);
    await page.keyboard.press(`${MOD}+j`);
    await expect.poll(() => focusInside(page, ".editor-panel")).toBe(true);
    expect(app.errors).toEqual([]);
  });

  it.each([
    { width: 720, height: 450 },
    { width: 1024, height: 640 },
  ])("reflows at $width×$height: every control can be reached, nothing is cut off without a scroll, the chat header's buttons stay in view", async (size) => {
    const { page, errors } = await browser.open("", size);
    await waitForWorkbench(page);
    const problems = await cutOffControls(page);
    expect(problems).toEqual([]);
    for (const name of ["Sessions", "Changes", "New"]) {
      const box = await chat(page).getByRole("button", { name, exact: true }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x >= 0 && box!.y >= 0 && box!.x + box!.width <= size.width + 0.5 && box!.y + box!.height <= size.height + 0.5, `${name} ${JSON.stringify(box)}`).toBe(true);
    }
    // Settings, the longest dialog, scrolls inside the viewport.
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    await expect.poll(() => page.getByRole("dialog", { name: "Settings" }).count()).toBe(1);
    expect(await cutOffControls(page)).toEqual([]);
    await page.keyboard.press("Escape");
    expect(errors).toEqual([]);
  });
});

/**
 * Controls (buttons, tabs, fields) that are shown but cannot be seen whole: clipped by an ancestor
 * that hides overflow without scrolling, or outside the viewport with no scrolling ancestor to bring
 * them in. Monaco's and xterm's internals are theirs.
 */
function cutOffControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>("button, [role=tab], input:not([type=file]), select, textarea, [role=treeitem]");
    for (const el of controls) {
      if (el.closest(".monaco-editor, .xterm, [hidden], .visually-hidden")) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || getComputedStyle(el).visibility === "hidden") continue;
      const name = `${el.tagName.toLowerCase()} "${el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 30) ?? ""}"`;
      let scrollable = false;
      for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
        const style = getComputedStyle(a);
        const scrolls = /(auto|scroll)/.test(style.overflowX + style.overflowY);
        if (scrolls) {
          scrollable = true;
          break;
        }
        if (/(hidden|clip)/.test(style.overflowX + style.overflowY)) {
          const box = a.getBoundingClientRect();
          const out = rect.left < box.left - 1 || rect.right > box.right + 1 || rect.top < box.top - 1 || rect.bottom > box.bottom + 1;
          if (out) {
            problems.push(`${name} cut off by ${a.className || a.tagName}`);
            break;
          }
        }
      }
      const outside = rect.left < -1 || rect.top < -1 || rect.right > innerWidth + 1 || rect.bottom > innerHeight + 1;
      if (outside && !scrollable) problems.push(`${name} outside the viewport`);
    }
    return problems;
  });
}
