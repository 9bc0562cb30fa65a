// TypeScript's own compiler in the browser runtime (run by `npm run bench`, which builds first):
// `npm install -D typescript` from a fake registry on 127.0.0.1 (this repository's typescript,
// test/support/typescript-fixture.ts), then `npx tsc --noEmit` on a 3-file project, timed from
// Enter to its exit status on screen: the first run of the page and a second one (every program
// gets a fresh worker, so the second differs only by what the browser caches).
import { describe, it } from "vitest";
import { runInTerminal, terminalText, waitForTerminal } from "../support/browser";
import { startFakeRegistry } from "../support/fake-registry";
import { typescriptFixture } from "../support/typescript-fixture";
import { useBuiltApp } from "./built-app";
import { report } from "./report";

const FILES: Record<string, string> = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "nodenext", rootDir: "src", outDir: "dist" }, include: ["src"] }),
  "src/a.ts": 'import { b } from "./b.js";\nexport const a: number = b + 1;\n',
  "src/b.ts": 'export const b: number = "two";\n',
  "src/c.ts": "export function c(x: string): number {\n  return x.length;\n}\n",
};

describe("tsc in the browser runtime", () => {
  const app = useBuiltApp();

  it("npx tsc --noEmit on a 3-file project, first and second run", async () => {
    const registry = await startFakeRegistry([typescriptFixture()]);
    const context = await app.browser().newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${app.url()}?runtime=browser`);
      await waitForTerminal(page);
      const screen = () => page.locator(".terminal-host .xterm-rows").innerText();
      /** Runs a command followed by `echo done-N=$?` and waits (polling rarely: the page's polling would take CPU from tsc) for that line. */
      let counter = 0;
      const run = async (command: string): Promise<{ ms: number; status: number }> => {
        const marker = `done-${counter++}`;
        await runInTerminal(page, "clear");
        await page.locator(".terminal-host").click();
        await page.keyboard.type(`${command}; echo ${marker}=$?`);
        const started = Date.now();
        await page.keyboard.press("Enter");
        await page.waitForFunction(
          (m) => new RegExp(`^${m}=\\d+`, "m").test((document.querySelector(".terminal-host .xterm-rows") as HTMLElement | null)?.innerText ?? ""),
          marker,
          { timeout: 120_000, polling: 100 },
        );
        const ms = Date.now() - started;
        return { ms, status: Number(new RegExp(`^${marker}=(\\d+)`, "m").exec(await screen())![1]) };
      };
      await run(`echo 'registry=${registry.url}' > .npmrc && echo '{"name":"typed","version":"1.0.0"}' > package.json && mkdir -p src`);
      for (const [file, text] of Object.entries(FILES)) await run(`printf '${text.replace(/\n/g, "\\n")}' > ${file}`);
      const installed = await run("npm install -D typescript");
      if (installed.status !== 0) throw new Error(`npm install failed: ${await terminalText(page)}`);
      const first = await run("npx tsc --noEmit");
      const output = (await terminalText(page)) ?? "";
      if (first.status !== 2 || !output.includes("src/b.ts(1,14): error TS2322")) throw new Error(`tsc did not report the type error: ${output}`);
      const second = await run("npx tsc --noEmit");
      report({ name: "tsc --noEmit, 3-file project: first run of the page", value: first.ms, unit: "ms", target: "<= 10000", note: `from Enter to the exit status on screen; npm install -D typescript took ${installed.ms} ms` });
      report({ name: "tsc --noEmit, 3-file project: second run", value: second.ms, unit: "ms", target: "<= 10000" });
    } finally {
      await context.close();
      await registry.close();
    }
  }, 300_000);
});
