// 100,000 lines printed to the terminal (issue 29 point 5): the built app on the plain URL, the path
// a user takes: the command typed into the xterm terminal, timed from Enter until its last line is on
// the screen. The machine's own programs run in the same run, alternating with ours, in a pty
// (`script -qc CMD /dev/null`, its output drained by this process): a program then writes to a
// terminal as it does in ours (Node's stdout to a tty is synchronous, one write per line), and the
// pty's line discipline is the part of a terminal that both sides pay. What neither side's figure
// holds: the native terminal emulator's drawing (here nothing draws; ours draws with xterm's DOM
// renderer), so the ratio is, if anything, unfair to the browser runtime. The same program with its
// stdout a pipe (no tty) is reported beside it.
import { spawn } from "node:child_process";
import type { Page } from "playwright-core";
import { describe, it } from "vitest";
import { runInTerminal, waitForTerminal } from "../support/browser";
import { useBuiltApp } from "./built-app";
import { median, report } from "./report";

const RUNS = 3;
const LINES = 100_000;

interface Case {
  name: string;
  /** Typed into our terminal, and run natively (through `sh -c` in the pty). */
  command: string;
  /** The last line the command prints. */
  last: string;
  /** Runs once before the timed runs (the runtime's worker or Pyodide started, as a user's second command). */
  warmUp: string;
  target?: string;
}

const CASES: Case[] = [
  {
    name: "node",
    command: `node -e "for (let i = 0; i < ${LINES}; i++) console.log('line ' + i)"`,
    last: `line ${LINES - 1}`,
    warmUp: `node -e "console.log('warm')"`,
    target: "<= 2",
  },
  { name: "seq", command: `seq ${LINES}`, last: String(LINES), warmUp: "seq 2" },
  { name: "python3", command: `python3 -c "for i in range(${LINES}): print(i)"`, last: String(LINES - 1), warmUp: `python3 -c "print('warm')"` },
];

/** Clears the screen and waits until `text` is no longer on it. */
async function clearScreen(page: Page): Promise<void> {
  await runInTerminal(page, "clear");
  await page.waitForFunction(() => ((document.querySelector(".terminal-host .xterm-rows") as HTMLElement | null)?.innerText ?? "").trim().split("\n").length <= 1, undefined, {
    timeout: 10_000,
  });
}

/**
 * Types `command`, presses Enter and resolves with the milliseconds from that keydown until a row of
 * the screen reads exactly `last` (seen by a MutationObserver on xterm's rows, so nothing polls the
 * page while the program runs), and until the prompt is back after it.
 */
async function timedInTerminal(page: Page, command: string, last: string): Promise<{ shown: number; prompt: number }> {
  await clearScreen(page);
  await page.locator(".terminal-host").click();
  await page.keyboard.insertText(command);
  await page.evaluate((marker) => {
    const state = window as unknown as { __bench?: { start?: number; shown?: number; prompt?: number } };
    const bench: { start?: number; shown?: number; prompt?: number } = {};
    state.__bench = bench;
    window.addEventListener("keydown", (event) => event.key === "Enter" && (bench.start = performance.now()), { capture: true, once: true });
    const rows = document.querySelector(".terminal-host .xterm-rows")!;
    const observer = new MutationObserver(() => {
      const lines = (rows as HTMLElement).innerText.replace(/\u00a0/g, " ").split("\n").map((line) => line.trimEnd());
      const at = lines.indexOf(marker);
      if (at < 0) return;
      bench.shown ??= performance.now();
      if (lines.slice(at + 1).some((line) => /\$$/.test(line))) {
        bench.prompt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(rows, { childList: true, subtree: true, characterData: true });
  }, last);
  await page.keyboard.press("Enter");
  const handle = await page.waitForFunction(
    () => {
      const bench = (window as unknown as { __bench: { start?: number; shown?: number; prompt?: number } }).__bench;
      return bench.prompt !== undefined && bench.start !== undefined ? { shown: bench.shown! - bench.start, prompt: bench.prompt - bench.start } : false;
    },
    undefined,
    { timeout: 300_000, polling: 250 },
  );
  return (await handle.jsonValue()) as { shown: number; prompt: number };
}

/** Runs `command` natively in a pty (`script`) or with its stdout a pipe, draining its output; resolves with the milliseconds until it ended and checks its last line. */
function timedNative(command: string, last: string, through: "pty" | "pipe" = "pty"): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(through === "pty" ? "script" : "sh", through === "pty" ? ["-qec", command, "/dev/null"] : ["-c", command], { stdio: ["ignore", "pipe", "inherit"] });
    let tail = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (tail = (tail + chunk).slice(-200)));
    child.on("error", reject);
    child.on("close", (code) => {
      const elapsed = performance.now() - started;
      const lines = tail.replace(/\r/g, "").trimEnd().split("\n");
      if (code !== 0 || lines[lines.length - 1] !== last) reject(new Error(`native \`${command}\` exited ${code}, last line ${JSON.stringify(lines[lines.length - 1])}`));
      else resolve(elapsed);
    });
  });
}

describe("terminal output (plain URL)", () => {
  const app = useBuiltApp();

  it("100,000 lines printed to the terminal against this machine's programs in a pty", async () => {
    const { context, page } = await app.open();
    try {
      await waitForTerminal(page);
      // The app's offline cache installs a few seconds after start-up and downloads the whole app:
      // the figures are the output path's, so they are taken once that is done.
      await page.evaluate(() => Promise.race([navigator.serviceWorker?.ready, new Promise((resolve) => setTimeout(resolve, 15_000))]));
      for (const item of CASES) {
        await clearScreen(page);
        await runInTerminal(page, item.warmUp);
        await page.waitForFunction(() => /^(warm|2)\s*$/m.test((document.querySelector(".terminal-host .xterm-rows") as HTMLElement | null)?.innerText.replace(/\u00a0/g, " ") ?? ""), undefined, {
          timeout: 60_000,
        });
        const ours: Array<{ shown: number; prompt: number }> = [];
        const native: number[] = [];
        const piped: number[] = [];
        // Alternating, so both sides meet the same load of a shared machine.
        for (let run = 0; run < RUNS; run++) {
          ours.push(await timedInTerminal(page, item.command, item.last));
          native.push(await timedNative(item.command, item.last));
          piped.push(await timedNative(item.command, item.last, "pipe"));
        }
        const shown = median(ours.map((r) => r.shown));
        const nativeMs = median(native);
        report({ name: `${LINES.toLocaleString("en")} lines to the terminal, ${item.name}: browser runtime (Enter → last line shown)`, value: Math.round(shown), unit: "ms" });
        report({ name: `${LINES.toLocaleString("en")} lines to the terminal, ${item.name}: this machine's program in a pty`, value: Math.round(nativeMs), unit: "ms" });
        report({
          name: `${LINES.toLocaleString("en")} lines to the terminal, ${item.name}: browser runtime ÷ native in a pty (medians of ${RUNS})`,
          value: Math.round((shown / nativeMs) * 100) / 100,
          unit: "×",
          ...(item.target ? { target: item.target } : {}),
          note: `browser ${Math.round(shown)} ms (Enter → last line shown; runs ${ours.map((r) => Math.round(r.shown)).join(", ")}; prompt back ${ours.map((r) => Math.round(r.prompt)).join(", ")}), native ${Math.round(nativeMs)} ms (${native.map(Math.round).join(", ")}); native to a pipe instead of a pty ${Math.round(median(piped))} ms`,
        });
      }
    } finally {
      await context.close();
    }
  });
});
