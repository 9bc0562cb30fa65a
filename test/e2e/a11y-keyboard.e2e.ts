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
});
