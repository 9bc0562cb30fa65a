// An agent turn that runs the project's tests with npm in the browser runtime (scripted fake model,
// fake registry on 127.0.0.1): npm install, npm test (node --test, requiring the installed package)
// fails, the agent edits, npm test passes. The model sees each command's real output and exit code.
// The registry named in .npmrc asks once (the egress gate) before npm reaches it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInTerminal, terminalText, waitForTerminal } from "../support/browser";
import { startFakeRegistry, type FakeRegistry } from "../support/fake-registry";
import { agentRequests, chat, messagesOf, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();
let registry: FakeRegistry;

beforeAll(async () => {
  registry = await startFakeRegistry();
});
afterAll(async () => {
  await registry.close();
});

const TEST_FILE = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const { hello } = require('@fixture/scoped');",
  "const { answer } = require('../src/answer.js');",
  "test('answer is 42', () => assert.strictEqual(answer, 42));",
  "test('greets', () => assert.strictEqual(hello('x'), 'hello x from @fixture/scoped'));",
].join("\\n");

describe("agent runs npm test in the browser runtime", () => {
  it("installs, sees the test fail, edits, and sees it pass", async () => {
    const server = await browser.startServer(
      scripted(
        [
          { chunks: [{ type: "tool-call", name: "bash", input: { command: "npm install", description: "Install dependencies" } }] },
          { chunks: [{ type: "tool-call", name: "bash", input: { command: "npm test", description: "Run the tests" } }] },
          { chunks: [{ type: "tool-call", name: "read", input: { filePath: "src/answer.js" } }] },
          { chunks: [{ type: "tool-call", name: "edit", input: { filePath: "src/answer.js", oldString: "exports.answer = 41", newString: "exports.answer = 42" } }] },
          { chunks: [{ type: "tool-call", name: "bash", input: { command: "npm test", description: "Run the tests again" } }] },
          { chunks: [{ type: "text", text: "Fixed: the answer is 42 and npm test passes." }] },
        ],
        "Fix the failing test",
      ),
    );
    const { page } = await browser.openWithProvider(server, { edits: "allow" });
    await waitForTerminal(page);
    const manifest = JSON.stringify({ name: "calc", version: "1.0.0", scripts: { test: "node --test" }, dependencies: { "@fixture/scoped": "^1.0.0" } });
    await runInTerminal(page, `echo 'registry=${registry.url}' > .npmrc && mkdir -p src test && echo 'exports.answer = 41;' > src/answer.js`);
    await runInTerminal(page, `printf "${TEST_FILE}\\n" > test/answer.test.js`);
    await runInTerminal(page, `echo '${manifest}' > package.json`);
    await runInTerminal(page, "echo setup-done");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/^setup-done$/m);

    await sendMessage(page, "Make npm test pass.");
    // The registry named in .npmrc is a site like any other: npm install asks before reaching it,
    // naming the site and the command, and nothing reaches it before the answer.
    const origin = new URL(registry.url).origin;
    const allowSite = page.getByRole("button", { name: `Allow ${origin} for this session` });
    await allowSite.waitFor({ timeout: 60_000 });
    expect(await page.locator(".permission-card").innerText()).toContain("npm install");
    expect(registry.requests).toHaveLength(0);
    await allowSite.click();
    await expect.poll(() => transcript(page), { timeout: 60_000 }).toContain("Fixed: the answer is 42 and npm test passes.");

    const requests = agentRequests(server.requests);
    expect(requests).toHaveLength(6);
    const toolResult = (index: number) => String(messagesOf(requests[index]!).at(-1)?.content);
    // npm install ran against the fake registry and the model saw its summary.
    expect(toolResult(1)).toContain("added 1 package");
    expect(registry.requests.some((r) => r.path === "/@fixture/scoped")).toBe(true);
    // The first npm test failed with its real output and exit code; after the edit it passed.
    expect(toolResult(2)).toMatch(/answer is 42/);
    expect(toolResult(2)).toMatch(/fail 1$/m);
    expect(toolResult(2)).toContain("Exit code: 1");
    expect(toolResult(5)).toMatch(/pass 2$/m);
    expect(toolResult(5)).toMatch(/fail 0$/m);
    expect(toolResult(5)).toContain("Exit code: 0");
    expect(await chat(page).innerText()).toContain("npm test");
  });
});
