// A database this version of webcode cannot open (here: a newer schema version, as after a
// downgrade or an upgrade another tab made) still gives the user a way out: the app opens the data
// as it is in a recovery screen that says what happened, lists the workspaces with their sizes and
// exports one as a zip, instead of a dead error page.
import { describe, expect, it } from "vitest";
import { baseUrl, runInTerminal, treeItem, waitForTerminal, waitForWorkbench } from "../support/browser";
import { useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

describe("storage that cannot be opened normally", () => {
  it("opens in a recovery screen with the workspaces, their sizes, export and retry", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "echo keep-me > precious.txt");
    await expect.poll(() => treeItem(page, "precious.txt").count(), { timeout: 10_000 }).toBe(1);
    // Leave the app for a static file of the same origin (its database connection closes), then
    // bump the schema version beyond the app's.
    await page.goto(new URL("favicon.svg", baseUrl()).toString());
    const bumped = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const probe = indexedDB.open("webcode");
          probe.onsuccess = () => {
            const version = probe.result.version;
            probe.result.close();
            const request = indexedDB.open("webcode", version + 5);
            request.onsuccess = () => {
              const v = request.result.version;
              request.result.close();
              resolve(v);
            };
            request.onerror = () => reject(request.error);
          };
          probe.onerror = () => reject(probe.error);
        }),
    );
    expect(bumped).toBeGreaterThan(1);

    await page.goto(baseUrl());
    const recovery = page.getByRole("main", { name: "Storage recovery" });
    await expect.poll(() => recovery.count(), { timeout: 20_000 }).toBe(1);
    expect(await recovery.getByRole("alert").innerText()).toMatch(/version|storage/i);
    const table = recovery.getByRole("table", { name: "Storage used per workspace" });
    await expect.poll(() => table.innerText(), { timeout: 10_000 }).toContain("My workspace");
    const [download] = await Promise.all([page.waitForEvent("download"), recovery.getByRole("button", { name: 'Export "My workspace" as zip' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    expect(await recovery.getByRole("button", { name: "Retry" }).count()).toBe(1);
  });
});
