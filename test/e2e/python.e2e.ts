// python3 in a real browser: Pyodide from webcode's own origin in the sandboxed worker; output,
// files flowing back to the workspace, a traceback, runs in the kept interpreter starting fresh, and
// Ctrl-C ending an endless loop.
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, treeItem, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";

const browser = useBrowser();

describe("python3 in the browser runtime", () => {
  it("runs a script that writes a file, prints a traceback, starts each run fresh, and stops an endless loop on Ctrl-C", async () => {
    const { page } = await browser.open();
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await waitForWorkbench(page);
    await waitForTerminal(page);
    // Nothing of Python loads before the first python3 command (no files, no sandbox frame).
    await page.waitForTimeout(1000);
    expect(requests.filter((url) => /pyodide|python_stdlib|sandbox\.html/.test(url))).toEqual([]);
    expect(await page.locator("iframe[title='Program sandbox']").count()).toBe(0);
    await runInTerminal(page, `printf 'import sys\\nopen("made.txt", "w").write("from python")\\nprint("sum", sum(range(10)), sys.version_info[0])\\n' > app.py && python3 app.py`);
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/^sum 45 3$/m);
    expect(await terminalText(page)).toContain("Loading Python (Pyodide");
    await expect.poll(() => treeItem(page, "made.txt").count(), { timeout: 10_000 }).toBe(1);
    // Every file came from this origin (no CDN).
    const origin = new URL(page.url()).origin;
    expect(requests.filter((url) => /pyodide|python_stdlib/.test(url)).every((url) => url.startsWith(origin))).toBe(true);

    await runInTerminal(page, `clear; python3 -c "1/0"; echo "exit=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/ZeroDivisionError: division by zero\n\s*exit=1$/m);

    // The worker keeps its interpreter, but each run starts as a fresh process: an edited module is
    // read again, and nothing the last run set is there.
    await runInTerminal(page, `clear; echo 'V = 1' > mod.py && python3 -c "import mod, sys, builtins; builtins.LEFT = 1; sys.path.append('/x'); print('v', mod.V)"`);
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^v 1$/m);
    await runInTerminal(page, `clear; echo 'V = 2' > mod.py && python3 -c "import mod, sys, builtins; print('v', mod.V, hasattr(builtins, 'LEFT'), '/x' in sys.path)"`);
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^v 2 False False$/m);

    await runInTerminal(page, `clear; python3 -c "print('spinning', flush=True); exec('while True: pass')"`);
    // Interrupted once the loop is running (it says so first), not after a fixed wait.
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/^spinning$/m);
    await page.keyboard.press("Control+c");
    await runInTerminal(page, "echo after=$?");
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^after=130$/m);
    // After Ctrl-C a fresh worker (its Pyodide started in the background) runs the next program.
    await runInTerminal(page, `clear; python3 -c "print('again', 6 * 7)"`);
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/^again 42$/m);
  });
});
