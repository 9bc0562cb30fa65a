// Programs' terminal I/O in a real browser (browser runtime): output shows while the program runs,
// the keyboard reaches node's stdin (readline) and python's input() as a cooked tty (echo,
// Backspace), and Ctrl-D ends input. (Running out of memory: see docs/architecture.md "Isolated
// execution host"; in this Chromium the tab's process dies with the worker, so no browser test.)
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";

const browser = useBrowser();

async function openBrowserRuntime() {
  const { page } = await browser.open("?runtime=browser");
  await waitForWorkbench(page);
  await waitForTerminal(page);
  return page;
}

describe("programs' terminal I/O", () => {
  it("shows a node program's output as it is written, not when it ends", async () => {
    const page = await openBrowserRuntime();
    await runInTerminal(page, `node -e "console.log('first'); console.error('oops'); setTimeout(() => console.log('second'), 1500)"; echo "done=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 20_000 }).toMatch(/^first\noops$/m);
    // 'second' is 1.5 s later: the first line was on the screen while the program still ran.
    expect(await terminalText(page)).not.toMatch(/^second$/m);
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^second\ndone=0$/m);
  });

  it("answers a node readline prompt from the keyboard, with Backspace; Ctrl-D ends stdin", async () => {
    const page = await openBrowserRuntime();
    await runInTerminal(page, `echo "const rl = require('readline').createInterface({ input: process.stdin, output: process.stdout }); rl.question('name? ', (a) => { console.log('hello ' + a); rl.close(); });" > ask.js`);
    await runInTerminal(page, `node ask.js; echo "asked=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 20_000 }).toMatch(/^name\? *$/m);
    await page.keyboard.type("Adx");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");
    await page.keyboard.type("a");
    await page.keyboard.press("Enter");
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^name\? Aa *\nhello Aa\nasked=0$/m);
    // Every chunk typed, until Ctrl-D.
    await runInTerminal(page, `node -e "let n = 0; process.stdin.on('data', (d) => n += String(d).length); process.stdin.on('end', () => console.log('chars=' + n))"`);
    await page.waitForTimeout(1000);
    await page.keyboard.type("abc");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Control+D");
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^chars=4$/m);
  });

  it("answers python's input() from the keyboard", async () => {
    const page = await openBrowserRuntime();
    await runInTerminal(page, `python3 -c "name = input('name? '); print('hi', name.upper())"; echo "py=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 90_000 }).toMatch(/^name\? *$/m);
    await page.keyboard.type("ada");
    await page.keyboard.press("Enter");
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^name\? ada\nhi ADA\npy=0$/m);
  }, 150_000);
});
