// child_process in the browser runtime, in a real browser: a program's node child runs in a
// sandboxed worker of its own, a shell command runs as its child, and the child's file writes reach
// the parent and the workspace.
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";

const browser = useBrowser();

describe("child_process in the browser runtime", () => {
  it("spawns a node child and a shell command, and sees the child's file writes", async () => {
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, `echo "console.log('child sees', typeof document, typeof window); require('fs').writeFileSync('made.txt', 'by child'); process.exitCode = 5;" > child.js`);
    const parent = [
      'const cp = require("child_process"); const fs = require("fs");',
      'const c = cp.spawn("node", ["child.js"]); let out = "";',
      'c.stdout.on("data", (d) => out += d);',
      'c.on("close", (code) => { console.log("[" + out.trim() + "] code " + code + " file " + fs.readFileSync("made.txt", "utf8"));',
      '  cp.exec("cat made.txt | wc -c", (e, o) => console.log("wc " + o.trim() + " " + e)); });',
    ].join(" ");
    await runInTerminal(page, `echo '${parent}' > parent.js`);
    await runInTerminal(page, `node parent.js; echo "parent=$?"; cat made.txt; echo`);
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/^parent=0$/m);
    const text = await terminalText(page);
    expect(text).toMatch(/^\[child sees undefined undefined\] code 5 file by child$/m);
    expect(text).toMatch(/^wc 8 null$/m);
    expect(text).toMatch(/^by child$/m);
  });
});
