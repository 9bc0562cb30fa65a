// `npm run stress:watchdog [RUNS] [BUSY] [DIR]`: the sandbox frame's watchdog on a loaded machine
// (issue 28 point 5). BUSY (default 3) host processes spin in busy loops while the browser
// runtime's terminal runs `node -e "console.log(1)" > out.txt` RUNS times (default 200) in the
// browser tests' build (DIR, default dist-e2e/, built first when missing) in Chromium; every run
// must exit 0.
// Before the watchdog allowed for starved beats, 4 of 8 such runs ended "node: out of memory"
// (exit 134). Busy loops alone rarely starve the frame long enough on a quiet machine, so the
// frame's process is also paused for STRESS_PAUSE_MS (default 4000) at a time, as starvation does.
// Then a runaway allocation is run: it must still end with exit 134.
// Not part of CI's every run (it takes minutes and a whole machine); run it by hand.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createStaticServer } from "./serve.mjs";
import { chromium } from "playwright-core";

const runs = Number(process.argv[2] ?? 200);
const busy = Number(process.argv[3] ?? 3);
const dir = process.argv[4] ?? "dist-e2e";
const pauseMs = Number(process.env.STRESS_PAUSE_MS ?? 4000);
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];

if (!existsSync(`${dir}/index.html`) && (dir !== "dist-e2e" || spawnSync("npm", ["run", "--silent", "build:e2e"], { stdio: "inherit" }).status !== 0)) {
  console.error(`No build in ${dir}/ (npm run build:e2e makes dist-e2e/).`);
  process.exit(1);
}
const server = await startServer(dir);
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
  // Starvation as a loaded machine inflicts it, made certain: the sandbox frame's renderer process
  // (the one that appears with the first program) is paused (SIGSTOP) for PAUSE_MS at a time, again
  // and again, while the runs go on; a paused process is alive, as a starved one is, and its beats
  // stop meanwhile. The page's own process keeps running, so its timers are on time.
  // Only this script's Chromium's renderers, as its browser lists them (the machine is shared).
  // The frame's is the one that spends the most CPU time while programs run in the sandbox; it is
  // looked for again before each pause (a frame taken for dead is replaced by a new one).
  const browserSession = await browser.newBrowserCDPSession();
  const cpuTimes = async () => {
    const { processInfo } = await browserSession.send("SystemInfo.getProcessInfo");
    return new Map(processInfo.filter((info) => info.type === "renderer").map((info) => [info.id, info.cpuTime]));
  };
  const signal = (pid, name) => {
    try {
      process.kill(pid, name);
    } catch {
      // Gone meanwhile (a frame the page dropped).
    }
  };
  // The page's own renderer (which runs the shell) is the busiest while a shell loop runs there: never paused.
  const idle = await cpuTimes();
  await type(`for i in $(seq 20000); do :; done; echo "shell spun"`);
  await until(/^shell spun$/m, 120_000);
  const [pagePid] = [...(await cpuTimes())].map(([pid, cpu]) => [pid, cpu - (idle.get(pid) ?? 0)]).sort((a, b) => b[1] - a[1])[0];
  let starving = pauseMs > 0;
  let pauses = 0;
  const starve = (async () => {
    let last = await cpuTimes();
    while (starving) {
      await new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 1000));
      if (!starving) break;
      const now = await cpuTimes();
      const [busiest] = [...now].filter(([pid]) => pid !== pagePid).map(([pid, cpu]) => [pid, cpu - (last.get(pid) ?? 0)]).sort((a, b) => b[1] - a[1]);
      if (!busiest || busiest[1] < 0.05) continue;
      signal(busiest[0], "SIGSTOP");
      pauses++;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      signal(busiest[0], "SIGCONT");
      last = await cpuTimes();
    }
  })();
  // One line: the loop counts the runs that did not exit 0 (and says which and how).
  await type(
    `f=0; o=0; for i in $(seq ${runs}); do node -e "console.log(1)" > out.txt; c=$?; if [ $c -ne 0 ]; then f=$((f+1)); [ $c -eq 134 ] && o=$((o+1)); echo "run $i: exit $c"; fi; done; echo "STRESS failed=$f oom=$o"`,
  );
  const [, failed, oom] = await until(/STRESS failed=(\d+) oom=(\d+)/, runs * 60_000);
  starving = false;
  await starve;
  console.log(`${pauses} pauses of the busiest renderer (the sandbox frame's) of ${pauseMs} ms`);
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`${runs} runs of node -e "console.log(1)" > out.txt beside ${busy} busy loops, the frame paused ${pauseMs} ms at a time: ${failed} failed, ${oom} with exit 134 (out of memory); ${seconds} s`);
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
