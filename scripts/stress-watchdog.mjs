// `npm run stress:watchdog [RUNS] [BUSY]`: the sandbox frame's watchdog on a loaded machine
// (issue 28 point 5). BUSY (default 3) host processes spin in busy loops while the browser
// runtime's terminal runs `node -e "console.log(1)" > out.txt` RUNS times (default 200) in the
// browser tests' build (dist-e2e/, built first when missing) in Chromium; every run must exit 0.
// Before the watchdog allowed for starved beats, 4 of 8 such runs ended "node: out of memory"
// (exit 134). Then a runaway allocation is run: it must still end with exit 134.
// Not part of CI's every run (it takes minutes and a whole machine); run it by hand.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createStaticServer } from "./serve.mjs";
import { chromium } from "playwright-core";

const runs = Number(process.argv[2] ?? 200);
const busy = Number(process.argv[3] ?? 3);
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];

if (!existsSync("dist-e2e/index.html") && spawnSync("npm", ["run", "--silent", "build:e2e"], { stdio: "inherit" }).status !== 0) process.exit(1);
const server = await startServer("dist-e2e");
const loops = Array.from({ length: busy }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
const started = Date.now();
let exitCode = 0;
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(new URL("?runtime=browser", server.url).toString());
  await page.waitForSelector("[data-terminal-ready='true']", { state: "attached", timeout: 120_000 });
  await page.locator(".terminal-host").click();
  // Read and typed over a CDP session of its own: when the runaway allocation ends the sandbox
  // frame's process, Playwright takes the whole page for crashed and would drive it no more.
  const cdp = await page.context().newCDPSession(page);
  const screen = async () => {
    const { result } = await cdp.send("Runtime.evaluate", { expression: `document.querySelector(".terminal-host .xterm-rows")?.innerText ?? ""`, returnByValue: true });
    return String(result.value).replace(/\u00a0/g, " ");
  };
  const until = async (pattern, timeoutMs) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(await screen());
      if (match) return match;
      if (Date.now() > end) throw new Error(`timed out waiting for ${pattern}; the screen:\n${await screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  const type = async (line) => {
    await cdp.send("Input.insertText", { text: line });
    await cdp.send("Input.dispatchKeyEvent", { type: "keyDown", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, text: "\r" });
    await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13 });
  };
  // One line: the loop counts the runs that did not exit 0 (and says which and how).
  await type(
    `f=0; o=0; for i in $(seq ${runs}); do node -e "console.log(1)" > out.txt; c=$?; if [ $c -ne 0 ]; then f=$((f+1)); [ $c -eq 134 ] && o=$((o+1)); echo "run $i: exit $c"; fi; done; echo "STRESS failed=$f oom=$o"`,
  );
  const [, failed, oom] = await until(/STRESS failed=(\d+) oom=(\d+)/, runs * 60_000);
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`${runs} runs of node -e "console.log(1)" > out.txt beside ${busy} busy loops: ${failed} failed, ${oom} with exit 134 (out of memory); ${seconds} s`);
  if (Number(failed) > 0) exitCode = 1;
  // A real runaway allocation is still ended as out of memory (its frame never beats again).
  await type(`clear; node -e "const kept = []; for (;;) kept.push(new Array(1e7).fill(1))"; echo "RUNAWAY exit=$?"`);
  const [, runaway] = await until(/RUNAWAY exit=(\d+)/, 180_000);
  console.log(`runaway allocation: exit ${runaway}`);
  if (runaway !== "134") exitCode = 1;
} finally {
  for (const loop of loops) loop.kill();
  await browser.close();
  await server.stop();
}
process.exit(exitCode);

/** scripts/serve.mjs on a free port. */
async function startServer(dir) {
  const server = createStaticServer(dir);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, stop: () => new Promise((resolve) => server.close(resolve)) };
}
