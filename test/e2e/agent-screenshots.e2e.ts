// Regenerates the README's agent screenshots from the real app (1440x900, dark) with a scripted
// model: docs/screenshots/chat.png (a working session), permission.png (a permission card) and
// changes.png (the Changes view's Monaco diff). Not part of the test run; to regenerate:
//   npm run build && WEBCODE_SCREENSHOTS=1 npx vitest run --project e2e test/e2e/agent-screenshots.e2e.ts
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { runInTerminal, treeItem, waitForActiveTab, waitForTerminal, waitForWorkbench } from "../support/browser";
import { chat, configureProvider, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const GREET_BEFORE = "export const greet = (name: string) => `Hello, ${name}!`;";
const GREET_AFTER = [
  "/** Greets someone by name; an empty name greets the world. */",
  "export function greet(name: string): string {",
  "  const who = name.trim() || \"world\";",
  "  return `Hello, ${who}!`;",
  "}",
].join("\n");

const FINAL_ANSWER = `Done. \`greet\` now falls back to **world** for an empty or blank name:

\`\`\`ts
${GREET_AFTER}
\`\`\`

- \`src/lib/greet.ts\`: trims the name and documents the fallback
- the quick check printed \`Hello, world!\` for an empty name

Run \`npm test\` once you add a test runner to keep it that way.`;

const browser = useAgentBrowser();

async function seedProject(page: Page): Promise<void> {
  await waitForTerminal(page);
  await runInTerminal(page, `mkdir -p src/lib && printf '%s\\n' '${GREET_BEFORE}' > src/lib/greet.ts`);
  await runInTerminal(page, "printf 'import { greet } from \"./lib/greet\";\\n\\nconsole.log(greet(\"webcode\"));\\n' > src/main.ts");
  await runInTerminal(page, "printf '{\\n  \"name\": \"demo\",\\n  \"private\": true\\n}\\n' > package.json");
  await runInTerminal(page, "clear");
  await expect.poll(() => treeItem(page, "src").count(), { timeout: 15_000 }).toBe(1);
}

describe.runIf(process.env.WEBCODE_SCREENSHOTS)("agent screenshots for the README", () => {
  it("captures a working session, a permission card and the Changes view", async () => {
    const server = await browser.startServer(
      scripted(
        [
          {
            chunks: [
              { type: "reasoning", text: "The user wants greet() to handle empty names. Read the file first." },
              { type: "text", text: "I'll read the helper first." },
              { type: "tool-call", name: "read", input: { filePath: "src/lib/greet.ts" } },
            ],
            usage: { input: 3120, output: 64 },
          },
          {
            chunks: [
              {
                type: "tool-call",
                name: "todowrite",
                input: {
                  todos: [
                    { content: "Fall back to \"world\" for blank names", status: "in_progress", priority: "high" },
                    { content: "Check the output in the shell", status: "pending", priority: "medium" },
                  ],
                },
              },
            ],
            usage: { input: 3400, output: 80 },
          },
          {
            chunks: [
              { type: "text", text: "Now the change itself." },
              { type: "tool-call", name: "edit", input: { filePath: "src/lib/greet.ts", oldString: GREET_BEFORE, newString: GREET_AFTER } },
            ],
            usage: { input: 3600, output: 150 },
          },
          {
            chunks: [
              { type: "tool-call", name: "bash", input: { command: "cat src/lib/greet.ts && grep -rn greet src", description: "Show the new helper and its callers" } },
            ],
            usage: { input: 3900, output: 40 },
          },
          { chunks: [{ type: "text", text: FINAL_ANSWER }], usage: { input: 4300, output: 180 } },
        ],
        "Handle empty names in greet()",
      ),
    );
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    // A wider side panel for the chat.
    await page.evaluate(() => localStorage.setItem("webcode.layout", JSON.stringify({ tree: 220, right: 600, terminal: 180 })));
    await page.reload();
    await waitForWorkbench(page);
    await seedProject(page);
    await treeItem(page, "src").click();
    await expect.poll(() => treeItem(page, "lib").count()).toBe(1);
    await treeItem(page, "lib").click();
    await treeItem(page, "greet.ts").click();
    await waitForActiveTab(page, "src/lib/greet.ts");
    await configureProvider(page, { baseUrl: server.url, edits: "ask" });

    await sendMessage(page, "Make greet() fall back to \"world\" when the name is empty, and show me the result.");
    const card = chat(page).getByRole("group", { name: "The agent wants to change files" });
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    await page.waitForTimeout(400);
    await page.screenshot({ path: "docs/screenshots/permission.png" });

    await card.getByRole("button", { name: "Allow once" }).click();
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Run npm test once you add");
    await expect.poll(() => chat(page).locator(".status-line").count(), { timeout: 10_000 }).toBe(0);
    await page.waitForTimeout(600);
    await page.screenshot({ path: "docs/screenshots/chat.png" });

    await chat(page).getByRole("button", { name: "Changes" }).click();
    const diff = chat(page).getByRole("region", { name: "Diff of src/lib/greet.ts" });
    await expect.poll(() => diff.getAttribute("data-diff-ready"), { timeout: 20_000 }).toBe("true");
    await page.waitForTimeout(800);
    await page.screenshot({ path: "docs/screenshots/changes.png" });
  });
});
