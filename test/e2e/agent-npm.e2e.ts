// An agent turn that runs the project's tests with npm in the browser runtime (scripted fake model,
// fake registry on 127.0.0.1): npm install, npm test fails, the agent edits, npm test passes. The
// model sees each command's real output and exit code.
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

const TEST_SCRIPT =
  'test -f node_modules/@fixture/scoped/lib/main.js && grep -q "answer = 42" src/answer.js && echo "ok 1 - answer is 42" || { echo "not ok 1 - answer is not 42" >&2; exit 1; }';

describe("agent runs npm test in the browser runtime", () => {
  it("installs, sees the test fail, edits, and sees it pass", async () => {
    const server = await browser.startServer(
      scripted(
        [
          { chunks: [{ type: "tool-call", name: "bash", input: { command: "npm install", description: "Install dependencies" } }] },
          { chunks: [{ type: "tool-call", name: "bash", input: { command: "npm test", description: "Run the tests" } }] },
          { chunks: [{ type: "tool-call", name: "read", input: { filePath: "src/answer.js" } }] },
          { chunks: [{ type: "tool-call", name: "edit", input: { filePath: "src/answer.js", oldString: "answer = 41", newString: "answer = 42" } }] },
          { chunks: [{ type: "tool-call", name: "bash", input: { command: "npm test", description: "Run the tests again" } }] },
          { chunks: [{ type: "text", text: "Fixed: the answer is 42 and npm test passes." }] },
        ],
        "Fix the failing test",
      ),
    );
    const { page } = await browser.openWithProvider(server, { edits: "allow" });
    await waitForTerminal(page);
    const manifest = JSON.stringify({ name: "calc", version: "1.0.0", scripts: { test: TEST_SCRIPT }, dependencies: { "@fixture/scoped": "^1.0.0" } });
    await runInTerminal(page, `echo 'registry=${registry.url}' > .npmrc && mkdir -p src && echo 'export const answer = 41;' > src/answer.js`);
    await runInTerminal(page, `echo '${manifest}' > package.json`);
    await runInTerminal(page, "echo setup-done");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/^setup-done$/m);

    await sendMessage(page, "Make npm test pass.");
    await expect.poll(() => transcript(page), { timeout: 60_000 }).toContain("Fixed: the answer is 42 and npm test passes.");

    const requests = agentRequests(server.requests);
    expect(requests).toHaveLength(6);
    const toolResult = (index: number) => String(messagesOf(requests[index]!).at(-1)?.content);
    // npm install ran against the fake registry and the model saw its summary.
    expect(toolResult(1)).toContain("added 1 package");
    expect(registry.requests.some((r) => r.path === "/@fixture/scoped")).toBe(true);
    // The first npm test failed with its real output and exit code; after the edit it passed.
    // (The script's text, in npm's banner, names both lines: match whole output lines.)
    expect(toolResult(2)).toMatch(/^not ok 1 - answer is not 42$/m);
    expect(toolResult(2)).toContain("Exit code: 1");
    expect(toolResult(5)).toMatch(/^ok 1 - answer is 42$/m);
    expect(toolResult(5)).not.toMatch(/^not ok/m);
    expect(toolResult(5)).toContain("Exit code: 0");
    expect(await chat(page).innerText()).toContain("npm test");
  });
});
