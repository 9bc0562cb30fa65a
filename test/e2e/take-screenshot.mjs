// Regenerates docs/screenshots/ide.png (1440x900): the built app with the README open and a few
// commands run in the terminal. Usage: npm run build && node test/e2e/take-screenshot.mjs
import { spawn } from "node:child_process";
import { chromium } from "playwright-core";

const port = 4400 + Math.floor(Math.random() * 500);
const server = spawn(process.execPath, ["scripts/serve.mjs", "--port", String(port)], { stdio: ["ignore", "pipe", "inherit"] });
await new Promise((resolve) => server.stdout.once("data", resolve));
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`http://127.0.0.1:${port}/?bootTimeout=1000`);
  await page.waitForSelector("[data-terminal-ready='true']", { state: "attached", timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector(".terminal-host .xterm-rows")?.textContent?.includes("$"));
  const run = async (command) => {
    await page.locator(".terminal-host").click();
    await page.keyboard.type(command);
    await page.keyboard.press("Enter");
    await page.waitForTimeout(300);
  };
  await run("mkdir -p src/lib && printf 'export const greet = (name: string) => `Hello, ${name}!`;\\n' > src/lib/greet.ts");
  await run("printf 'import { greet } from \"./lib/greet\";\\n\\nconsole.log(greet(\"webcode\"));\\n' > src/main.ts");
  await run('printf \'{\\n  "name": "demo",\\n  "private": true\\n}\\n\' > package.json');
  await run("clear");
  await run("ls -R");
  await run("grep -rn greet src");
  await page.getByRole("treeitem", { name: "src", exact: true }).click();
  await page.getByRole("treeitem", { name: "README.md", exact: true }).click();
  await page.waitForSelector("[data-editor-ready='true']", { state: "attached" });
  await page.waitForTimeout(800);
  await page.screenshot({ path: "docs/screenshots/ide.png" });
  console.log("wrote docs/screenshots/ide.png");
} finally {
  await browser.close();
  server.kill();
}
