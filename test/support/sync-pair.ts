// Two people on one synced workspace, through the UI, for browser tests and benches: A sets the
// sync server, a token and a display name in Settings → Sync, switches sync on and copies an
// invite link; B opens the link in another browser context (its own IndexedDB) and says Join.
import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { RunningSyncServer } from "./sync-server";

/** Opens Settings (its dialog), runs `body` on it, and closes it again. */
async function inSettings(page: Page, body: (dialog: ReturnType<Page["getByRole"]>) => Promise<void>): Promise<void> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect.poll(() => dialog.count()).toBe(1);
  await body(dialog);
  await page.keyboard.press("Escape");
  await expect.poll(() => dialog.count()).toBe(0);
}

/**
 * A (workbench ready) starts syncing its workspace on `server` as `name` and makes an invite link;
 * resolves with the link and the workspace id (the room).
 */
export async function startSharing(a: Page, server: RunningSyncServer, name: string, access: "read" | "write" = "write"): Promise<{ link: string; room: string }> {
  let link = "";
  let room = "";
  await inSettings(a, async (dialog) => {
    const command = await dialog.locator("code", { hasText: "npm run sync-server -- token" }).innerText();
    room = /--room (\S+)/.exec(command)![1]!;
    await dialog.getByLabel("Sync server URL").fill(server.url);
    await dialog.getByRole("button", { name: "Set sync server URL" }).click();
    await dialog.getByLabel("Sync token").fill(server.token(room, "write"));
    await dialog.getByRole("button", { name: "Set sync token" }).click();
    await dialog.getByLabel("Your name for others").fill(name);
    await dialog.getByRole("button", { name: "Set name" }).click();
    await dialog.getByRole("switch", { name: "Sync this workspace" }).check();
    await expect.poll(() => dialog.getByRole("status", { name: "Sync status" }).innerText(), { timeout: 15_000 }).toContain("Connected");
    await dialog.getByRole("button", { name: access === "read" ? "Copy read-only invite link" : "Copy read-write invite link" }).click();
    const input = dialog.getByRole("textbox", { name: "Invite link" });
    await expect.poll(() => input.count(), { timeout: 10_000 }).toBe(1);
    link = await input.inputValue();
  });
  return { link, room };
}

/** B (a fresh context on `link`) accepts the join dialog; resolves once its workspace syncs. */
export async function joinFromLink(b: Page, room: string, serverUrl: string, access: "read-only" | "read-write" = "read-write"): Promise<void> {
  const question = b.getByRole("alertdialog", { name: "Join a shared workspace?" }).or(b.getByRole("dialog", { name: "Join a shared workspace?" }));
  await expect.poll(() => question.count(), { timeout: 30_000 }).toBe(1);
  await expect.poll(() => question.innerText()).toContain(`Join workspace ${room} on server ${serverUrl} as ${access}?`);
  await question.getByRole("button", { name: "Join", exact: true }).click();
  await expect.poll(() => b.getByRole("status", { name: /^Sync: Connected/ }).count(), { timeout: 30_000 }).toBe(1);
}
