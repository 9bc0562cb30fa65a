// Programs' terminal I/O in a real browser (browser runtime): output shows while the program runs,
// the keyboard reaches node's stdin (readline) and python's input() as a cooked tty (echo,
// Backspace), and Ctrl-D ends input; a program that allocates without end ends with Node's
// out-of-memory exit while the page lives on.
import type { CDPSession } from "playwright-core";
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
    await runInTerminal(page, `node -e "let n = 0; process.stdin.on('data', (d) => n += String(d).length); process.stdin.on('end', () => console.log('chars=' + n)); console.log('reading')"`);
    // Typed once the program listens (it says so), not after a fixed wait.
    await expect.poll(() => terminalText(page), { timeout: 20_000 }).toMatch(/^reading$/m);
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

  it("ends a program that allocates without end with an out-of-memory message; the page lives on", async () => {
    const page = await openBrowserRuntime();
    // Chromium ends the sandbox frame's process (its own, as a cross-origin frame). Playwright then
    // reports the whole page as crashed and refuses to drive it, so from here on the page is read
    // and typed into over a CDP session of its own, which shows that it is in fact alive.
    const cdp = await page.context().newCDPSession(page);
    const screen = async () => {
      const { result } = (await cdp.send("Runtime.evaluate", {
        expression: `document.querySelector(".terminal-host .xterm-rows")?.innerText ?? ""`,
        returnByValue: true,
      })) as { result: { value: string } };
      return result.value.replace(/\u00a0/g, " ");
    };
    await runInTerminal(page, `node -e "const kept = []; for (;;) kept.push(new Array(1e7).fill(1))"; echo "oom=$?"`);
    await expect.poll(screen, { timeout: 90_000, interval: 1000 }).toMatch(/^node: out of memory \(the program ran out of memory and was stopped\)\noom=134\n/m);
    // The next program gets a new frame.
    await typeOverCdp(cdp, `node -e "console.log(6 * 7)"; echo "after=$?"`);
    await expect.poll(screen, { timeout: 30_000, interval: 250 }).toMatch(/^42\nafter=0$/m);
  }, 150_000);
});

/** Types `command` and Enter into the focused terminal through `cdp`. */
async function typeOverCdp(cdp: CDPSession, command: string): Promise<void> {
  await cdp.send("Input.insertText", { text: command });
  await cdp.send("Input.dispatchKeyEvent", { type: "keyDown", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, text: "\r" });
  await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13 });
}
